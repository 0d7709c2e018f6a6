/** `storefront-apps listen --forward-to URL`: relays the test installation's webhooks and hook calls to a local server. */
import { appIdOf, CliError, out, readConfig, sse, str, type Flags } from "../shared.ts";

/**
 * Headers of a relayed call that are not forwarded: they describe the platform's connection, not the
 * call, and fetch sets its own. Every other header the platform sent (Api-Version, the signature and
 * its timestamp, the ids, X-Hook-Point, User-Agent, and any added later) reaches the local server.
 */
const CONNECTION_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-authorization",
  "proxy-connection",
]);

/** The headers the local server receives for a relayed call: every header of the platform's call, as a direct POST carries them. */
function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  const forwarded: Record<string, string> = { "Content-Type": "application/json" };
  for (const [name, value] of Object.entries(headers)) {
    if (CONNECTION_HEADERS.has(name.toLowerCase()) || typeof value !== "string") continue;
    if (name.toLowerCase() === "content-type") delete forwarded["Content-Type"];
    forwarded[name] = value;
  }
  return forwarded;
}

type SandboxInstallation = { installationId: string; isTestInstall: boolean } | null;

/** The first line of `listen`: what is relayed, given the app's installation on the sandbox (undefined: a platform that does not say). */
function listeningLine(name: string, installation: SandboxInstallation | undefined, forwardTo: string) {
  const what =
    installation === undefined || installation?.isTestInstall
      ? "its test installation"
      : installation
        ? `its installation on your sandbox (a production installation since the app's approval)`
        : "its test installation (none on your sandbox yet: run `storefront-apps test-install`)";
  return `Listening for ${name}: webhooks and hook calls of ${what} go to ${forwardTo}. Ctrl-C to stop.`;
}

export async function listen(flags: Flags) {
  const config = readConfig();
  const id = appIdOf(flags, config);
  const forwardTo = str(flags["forward-to"]);
  if (!forwardTo || !/^https?:\/\//.test(forwardTo))
    throw new CliError("listen needs --forward-to <http(s) URL of your local server>");
  if (!config.token) throw new CliError("Not logged in: run `storefront-apps login` first");
  const stop = new AbortController();
  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(130);
    stopping = true;
    out("Stopping: deliveries go to the app's URLs again.");
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const handle = async (call: {
    callId: string;
    kind: string;
    path: string;
    headers: Record<string, string>;
    body: string;
  }) => {
    const target = call.path ? forwardTo.replace(/\/+$/, "") + "/" + call.path.replace(/^\/+/, "") : forwardTo;
    const what =
      call.kind === "hook" ? `hook ${call.headers["X-Hook-Point"]}` : `webhook ${call.headers["X-Webhook-Event"]}`;
    const started = Date.now();
    let status = 0;
    let body = "";
    try {
      const res = await fetch(target, {
        method: "POST",
        headers: forwardedHeaders(call.headers),
        body: call.body,
        redirect: "manual",
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      body = (await res.text()).slice(0, 1024 * 1024);
    } catch (e) {
      const error = e as Error & { cause?: { code?: string } };
      body =
        error.name === "TimeoutError"
          ? "no answer within 10 s"
          : [error.message, error.cause?.code].filter(Boolean).join(": ");
    }
    out(
      `${new Date().toISOString().slice(11, 19)}  ${what.padEnd(36)} -> ${target}  ${status || "unreachable"} (${Date.now() - started} ms)`,
    );
    if (!status)
      out(`  ${body}: is your local server running at ${target}? The platform counts this as a failed attempt.`);
    const res = await fetch(
      `${config.platformUrl}/developer/apps/${encodeURIComponent(id)}/listen/${encodeURIComponent(call.callId)}/answer`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${config.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ status, body }),
      },
    ).catch((e: Error) => ({ ok: false, status: 0, statusText: e.message }) as Response);
    if (!res.ok) out(`  (the platform did not take the answer: ${res.status}; the call had timed out?)`);
  };

  let first = true;
  while (!stopping) {
    try {
      const res = await fetch(`${config.platformUrl}/developer/apps/${encodeURIComponent(id)}/listen`, {
        headers: { Authorization: `Bearer ${config.token}`, Accept: "text/event-stream" },
        signal: stop.signal,
      });
      if (res.status === 401)
        throw new CliError("The platform refused the saved login (expired?): run `storefront-apps login` again");
      if (!res.ok || !res.body)
        throw new CliError(`listen answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      for await (const { event, data } of sse(res.body)) {
        if (event === "ready") {
          const info = JSON.parse(data) as { name: string; installation?: SandboxInstallation };
          out(first ? listeningLine(info.name, info.installation, forwardTo) : "Reconnected.");
          first = false;
        } else if (event === "installation") {
          // the installation on the sandbox changed under us (review approval made it a production one, an uninstall…)
          out(`${new Date().toISOString().slice(11, 19)}  ${(JSON.parse(data) as { message: string }).message}`);
        } else if (event === "call") void handle(JSON.parse(data));
      }
    } catch (e) {
      if (stopping) break;
      if (e instanceof CliError) throw e;
      out(`Connection lost (${(e as Error).message}); reconnecting…`);
    }
    if (!stopping) await new Promise((r) => setTimeout(r, 1000));
  }
}
