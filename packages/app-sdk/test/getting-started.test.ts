/**
 * docs/developers/getting-started.md run literally, as a new developer outside the repository would:
 * every command of "Before you start" and "From sign-up to a verified webhook", in the guide's
 * order, through a shell in an empty folder of the system's temporary directory. The SDK and its CLI
 * come from the platform's own tarball ({PLATFORM_URL}/sdk/storefront-app-sdk.tgz, `npm pack` of
 * packages/app-sdk), nothing else of the repository (its node_modules/.bin is off the PATH); the
 * receiver is the guide's code block saved as receiver.mjs and run with plain `node`. Only the
 * placeholders are filled in ({PLATFORM_URL}, the e-mail, the secret test-install printed, a free
 * port for 4000). Then step 6: the app gets every scope and event, is installed again, and every
 * event of the catalogue is triggered with the packed CLI: each arrives through `listen`, verified
 * by the guide's receiver, matching its declared schema, and none reaches the other app of the
 * same sandbox.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { startPlatform } from "../../../app/platform/testing/platform";
import { startReceiver } from "../../../app/platform/testing/receiver";
import { checkPlatformRequest } from "../../../app/platform/testing/payload-check";
import { appBody, PRO_PLAN } from "../../../app/platform/apps/apps.test-helpers";
import { EVENT_NAMES, SUBSCRIBABLE_EVENTS } from "../../../app/platform/shapes/app-catalog";

const root = new URL("../../../", import.meta.url).pathname;
// the platform serves public/ as it is: the tarball `npm run build` packs (vitest alone: pack it now)
if (!existsSync(join(root, "public/sdk/storefront-app-sdk.tgz")))
  execFileSync(process.execPath, [join(root, "packages/app-sdk/scripts/pack-public.mjs")], { stdio: "ignore" });

const p = await startPlatform({ worker: true });
const guide = readFileSync(join(root, "docs/developers/getting-started.md"), "utf8");
const section = guide.slice(guide.indexOf("## Before you start"), guide.indexOf("## By hand"));
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));
/** Shell commands, a backslash continuing a line. */
const commands = blocks
  .filter((b) => b.lang === "bash")
  .flatMap((b) =>
    b.text
      .replace(/\\\n\s*/g, "")
      .split("\n")
      .filter((l) => l.trim() && !l.trim().startsWith("#")),
  );

const outside = mkdtempSync(join(tmpdir(), "guide-outside-"));
const children: ChildProcess[] = [];
/** What Ctrl-C in a terminal does: the signal to the command's whole process group (npx and the node it starts). */
const signal = (child: ChildProcess, name: NodeJS.Signals) => {
  if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, name);
};
afterAll(() => {
  children.forEach((c) => signal(c, "SIGTERM"));
  rmSync(outside, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * A terminal's environment: none of the npm_* variables a surrounding `npm test` sets, and none of
 * the repository's node_modules/.bin on the PATH, so `npx storefront-apps` can only be the packed one.
 */
const terminal = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))),
  PATH: process.env
    .PATH!.split(delimiter)
    .filter((d) => !d.startsWith(root))
    .join(delimiter),
  // the SDK's two dependencies come from the registry; the machine's npm cache first
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
} as unknown as NodeJS.ProcessEnv;

/** Runs a command as a terminal in `cwd` would; `input` is typed at its prompts. */
function run(command: string, env: NodeJS.ProcessEnv, cwd: string, input?: string) {
  const child = spawn("bash", ["-c", command], { cwd, env, detached: true });
  children.push(child);
  const output = { text: "" };
  child.stdout!.on("data", (d: Buffer) => (output.text += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output.text += d.toString()));
  if (input !== undefined) child.stdin!.end(input);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, exited };
}

async function until(what: string, check: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Forwarded = { headers: http.IncomingHttpHeaders; raw: string; status: number };
/**
 * What sits between `listen` and the guide's receiver in this test only: records each request the
 * CLI forwards (headers and exact bytes, to check them against the declared schemas) and passes it
 * on to the receiver unchanged, answering with the receiver's answer.
 */
async function recordingProxy(target: () => string) {
  const seen: Forwarded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k]) => !["host", "connection", "content-length", "transfer-encoding"].includes(k),
        ),
      ) as Record<string, string>;
      try {
        const answer = await fetch(target() + (req.url ?? "/"), { method: req.method, headers, body: raw });
        const body = Buffer.from(await answer.arrayBuffer());
        seen.push({ headers: req.headers, raw: raw.toString("utf8"), status: answer.status });
        res.writeHead(answer.status, { "Content-Type": answer.headers.get("content-type") ?? "text/plain" }).end(body);
      } catch (e) {
        seen.push({ headers: req.headers, raw: raw.toString("utf8"), status: 502 });
        res.writeHead(502).end(String(e));
      }
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, seen };
}

describe("the getting-started guide, run as written in a folder outside the repository", () => {
  it("has the steps in order, and shows the receiver it runs", () => {
    const kinds = commands.map((c) =>
      /^(mkdir \S+ && cd \S+|npm init -y|npm install \S+|curl .*\/auth\/register|npx storefront-apps \S+|WEBHOOK_SECRET=\S+ node receiver\.mjs)/
        .exec(c)?.[1]
        .replace(/\/auth.*/, "")
        .replace(/=\S+/, ""),
    );
    expect(kinds).toEqual([
      "mkdir order-notes && cd order-notes",
      "npm init -y",
      "npm install {PLATFORM_URL}/sdk/storefront-app-sdk.tgz",
      "curl -s -X POST {PLATFORM_URL}",
      "npx storefront-apps login",
      "npx storefront-apps apps",
      "npx storefront-apps test-install",
      "WEBHOOK_SECRET node receiver.mjs",
      "npx storefront-apps listen",
      "npx storefront-apps trigger",
    ]);
    // the code block is the repository's example, as it is (its comment lines aside)
    const shown = blocks.find((b) => b.lang === "js")!.text;
    const file = readFileSync(join(root, "examples/webhook-receiver.mjs"), "utf8").replace(/^(\/\/.*\n)+/, "");
    expect(shown).toBe(file);
  });

  it("takes a new developer from an empty folder to a verified webhook, then every event of the catalogue", async () => {
    const email = `ada-${Date.now()}@example.test`;
    const receiverPort = await freePort();
    const proxy = await recordingProxy(() => `http://127.0.0.1:${receiverPort}`);
    const env = {
      ...terminal,
      STOREFRONT_APPS_CONFIG_DIR: mkdtempSync(join(outside, "config-")),
      RECEIVER_PORT: String(receiverPort),
    };
    const password = /"password":"([^"]+)"/.exec(commands.find((c) => c.includes("/auth/register"))!)![1];
    let secret = "whsec_test_…"; // until test-install prints it
    const fill = (c: string) =>
      c
        .replaceAll("{PLATFORM_URL}", p.url)
        .replaceAll("you@example.com", email)
        .replaceAll("localhost:4000", `localhost:${proxy.port}`)
        .replaceAll("whsec_test_…", secret);
    let cwd = outside;
    const timings: string[] = [];
    const started = Date.now();
    const step = async (i: number, expectOutput: RegExp, typed?: string) => {
      const t = Date.now();
      const { output, exited } = run(fill(commands[i]), env, cwd, typed);
      expect(await exited, `${commands[i]}\n${output.text}`).toBe(0);
      expect(output.text).toMatch(expectOutput);
      const into = /(?:^|&& )cd (\S+)$/.exec(commands[i]);
      if (into) cwd = join(cwd, into[1]);
      timings.push(`${commands[i].slice(0, 48)}: ${Date.now() - t} ms`);
      return output.text;
    };
    const background = async (i: number, ready: RegExp) => {
      const t = Date.now();
      const started = run(fill(commands[i]), env, cwd);
      await until(`${commands[i]} to be ready: ${started.output.text}`, () => ready.test(started.output.text));
      timings.push(`${commands[i].slice(0, 48)}: ${Date.now() - t} ms`);
      return started;
    };
    const cli = async (args: string) => {
      const { output, exited } = run(`npx storefront-apps ${args}`, env, cwd);
      expect(await exited, `storefront-apps ${args}\n${output.text}`).toBe(0);
      return output.text;
    };

    // Before you start: the folder, and the SDK from the platform
    await step(0, /^$/);
    await step(1, /"name": "order-notes"/);
    await step(2, /added \d+ packages/);
    const installed = JSON.parse(readFileSync(join(cwd, "node_modules/@storefront/app-sdk/package.json"), "utf8"));
    expect(installed).toMatchObject({ name: "@storefront/app-sdk", bin: { "storefront-apps": expect.any(String) } });
    expect(existsSync(join(cwd, "node_modules/tsx"))).toBe(false);
    writeFileSync(join(cwd, "receiver.mjs"), blocks.find((b) => b.lang === "js")!.text);

    // 1-5: sign-up to a verified webhook
    const signedUp = JSON.parse(await step(3, /"token"/));
    expect(signedUp).toMatchObject({ account: { email, role: "DEVELOPER" } });
    const dev = { token: signedUp.token as string };
    await step(4, new RegExp(`Logged in to ${p.url} as ${email}`), password + "\n");
    await step(5, /Created Order Notes \(DRAFT\)/);
    const firstInstall = await step(6, /webhook secret:\s+whsec_test_/);
    secret = /webhook secret:\s+(\S+)/.exec(firstInstall)![1];
    let accessToken = /access token:\s+(\S+)/.exec(firstInstall)![1];
    let receiver = await background(7, new RegExp(`Receiving webhooks on http://localhost:${receiverPort}/webhooks`));
    const listen = await background(8, /Listening for Order Notes/);

    const t = Date.now();
    await step(9, /Triggered order\.created/);
    await until("the verified webhook", () =>
      /verified order\.created dlv_\S+ \{"orderId":"ord_\w+","orderNumber":"\d+","amount":/.test(receiver.output.text),
    );
    timings.push(`trigger to verified: ${Date.now() - t} ms`);
    await until("the listen line", () =>
      new RegExp(`webhook order\\.created\\s+-> http://localhost:${proxy.port}/webhooks\\s+200 `).test(
        listen.output.text,
      ),
    );
    const total = Date.now() - started;
    console.log(`getting started, command by command:\n  ${timings.join("\n  ")}\n  total: ${total} ms`);

    // the delivery log says SUCCEEDED (attempts are recorded in batches just after the answer, so
    // the row may still be PENDING for a moment after the receiver printed "verified")
    const [registration] = (await p.request("GET", "/webhooks", { token: accessToken })).json.data;
    expect(registration.url).toBe("https://order-notes.example/webhooks");
    let deliveries: { event: string; status: string }[] = [];
    const readLog = async () =>
      (deliveries = (await p.request("GET", `/webhooks/${registration.id}/deliveries`, { token: accessToken })).json
        .data);
    await readLog();
    for (const end = Date.now() + 10_000; deliveries.some((d) => d.status === "PENDING") && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 100)).then(readLog);
    expect(deliveries.map((d) => [d.event, d.status])).toEqual([["order.created", "SUCCEEDED"]]);

    // 6: every event. Another app of the same developer on the same sandbox subscribes to all of them.
    const other = await startReceiver({ status: 200 });
    const SCOPES = ["read_orders", "write_orders", "read_products", "read_reviews"];
    const otherApp = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ scopes: SCOPES, webhookUrl: other.url + "/webhooks", webhookEvents: SUBSCRIBABLE_EVENTS }),
    });
    expect(otherApp.status, otherApp.text).toBe(201);
    expect(
      (await p.request("POST", `/developer/apps/${otherApp.json.id}/test-install`, { token: dev.token })).status,
    ).toBe(201);
    // Order Notes gets every scope and event (and a plan, for app_subscription.updated), then is installed again
    const mine = (await p.request("GET", "/developer/apps", { token: dev.token })).json.data.find(
      (a: { name: string }) => a.name === "Order Notes",
    );
    const edited = await p.request("PATCH", `/developer/apps/${mine.id}`, {
      token: dev.token,
      body: {
        scopes: SCOPES,
        webhookEvents: SUBSCRIBABLE_EVENTS,
        pricing: [PRO_PLAN],
      },
    });
    expect(edited.status, edited.text).toBe(200);
    const beforeUninstall = proxy.seen.length;
    expect((await p.request("POST", `/developer/apps/${mine.id}/test-uninstall`, { token: dev.token })).status).toBe(
      200,
    );
    // app.uninstalled comes through listen, and the running receiver verifies it with the old secret
    await until("app.uninstalled", () =>
      proxy.seen.slice(beforeUninstall).some((s) => s.headers["x-webhook-event"] === "app.uninstalled"),
    );
    await until("app.uninstalled verified", () => /verified app\.uninstalled /.test(receiver.output.text));
    const again = await cli("test-install");
    secret = /webhook secret:\s+(\S+)/.exec(again)![1];
    accessToken = /access token:\s+(\S+)/.exec(again)![1];
    signal(receiver.child, "SIGTERM");
    await receiver.exited;
    receiver = await background(7, new RegExp(`Receiving webhooks on http://localhost:${receiverPort}/webhooks`));
    const subscription = await p.request("POST", "/app-api/billing/subscriptions", {
      token: accessToken,
      body: { planId: "pro", returnUrl: "https://order-notes.example/billing/return" },
    });
    expect(subscription.status, subscription.text).toBe(201);
    const registrations = new Set(
      (await p.request("GET", "/webhooks", { token: accessToken })).json.data.map((w: { id: string }) => w.id),
    );

    // the CLI lists the catalogue; each event, triggered, arrives once, verified, as declared
    const listed = await cli("trigger");
    const catalogue = listed
      .slice(0, listed.indexOf("trigger hook"))
      .split("\n")
      .filter((l) => /^ {2}\S+$/.test(l))
      .map((l) => l.trim());
    expect(catalogue).toEqual([...EVENT_NAMES]);
    const mark = proxy.seen.length;
    for (const event of catalogue) {
      const said = await cli(`trigger ${event}`);
      expect(said).toContain(`Triggered ${event} `);
      const deliveryId = /delivery (dlv_\S+) ->/.exec(said)![1];
      await until(`${event} through listen`, () =>
        proxy.seen.some((s) => s.headers["x-service-event-id"] === deliveryId),
      );
      const got = proxy.seen.find((s) => s.headers["x-service-event-id"] === deliveryId)!;
      expect(got.headers["x-webhook-event"]).toBe(event);
      expect(registrations.has(got.headers["x-webhook-id"] as string), event).toBe(true);
      expect(checkPlatformRequest(got.headers, got.raw), event).toEqual([]);
      expect(got.status, `${event}: the receiver's answer`).toBe(200);
      expect(receiver.output.text).toContain(`verified ${event} ${deliveryId} `);
    }
    // exactly one request each, nothing else (no setup event), and nothing at the other app
    expect(proxy.seen.slice(mark).map((s) => s.headers["x-webhook-event"])).toEqual([...EVENT_NAMES]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(other.received).toHaveLength(0);

    // Ctrl-C stops listen cleanly
    signal(listen.child, "SIGINT");
    await listen.exited;
    expect(listen.output.text).toContain("Stopping");
    signal(receiver.child, "SIGTERM");
  }, 300_000);
});
