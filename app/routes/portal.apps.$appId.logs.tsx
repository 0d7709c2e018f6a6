import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import type { LogLine } from "~/platform/devtools/logs.server";
import { AppPageHeader } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Live logs${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  return json({ app: { id: app.id, name: app.name } });
}

/** The most lines the page keeps (the newest). */
const KEEP = 500;

const ok = (l: LogLine) => (l.kind === "request" ? l.status < 400 : l.success && (l.status === null || l.status < 400));

function summary(l: LogLine) {
  if (l.kind === "request") return `${l.method} ${l.path}`;
  if (l.kind === "delivery") return `${l.event} → attempt ${l.attempt}${l.error ? ` (${l.error})` : ""}`;
  return `${l.hookPoint}${l.error ? ` (${l.error})` : ""}`;
}

/**
 * The app's live logs (contract 19): the page follows GET /developer/apps/<id>/logs/stream with an
 * EventSource (the session cookie), replaying the last 15 minutes first, and filters what it shows.
 */
export default function Logs() {
  const { app } = useLoaderData<typeof loader>();
  const [lines, setLines] = useState<LogLine[]>([]);
  const [state, setState] = useState<"connecting" | "live" | "reconnecting">("connecting");
  const [kind, setKind] = useState("");
  const [status, setStatus] = useState("");
  const [installation, setInstallation] = useState("");

  useEffect(() => {
    const since = new Date(Date.now() - 15 * 60_000).toISOString();
    const source = new EventSource(`/developer/apps/${app.id}/logs/stream?since=${encodeURIComponent(since)}`);
    const seen = new Set<string>();
    source.addEventListener("ready", () => setState("live"));
    source.addEventListener("error", () => setState("reconnecting"));
    source.addEventListener("log", (e) => {
      const line = JSON.parse((e as MessageEvent<string>).data) as LogLine;
      // a reconnection replays again: each line once
      if (seen.has(line.id)) return;
      seen.add(line.id);
      setLines((all) => [line, ...all].slice(0, KEEP));
    });
    return () => source.close();
  }, [app.id]);

  const installations = useMemo(() => [...new Set(lines.map((l) => l.installationId))].sort(), [lines]);
  const shown = lines.filter(
    (l) =>
      (!kind || l.kind === kind) &&
      (!status || (status === "ok" ? ok(l) : !ok(l))) &&
      (!installation || l.installationId === installation),
  );

  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Live logs">
        Every App API request, webhook delivery attempt and hook call of {app.name}&apos;s installations, as it happens
        (the last 15 minutes first). From a terminal: <code>storefront-apps logs --follow</code>.
      </AppPageHeader>
      <div className="row gap wrap" role="search">
        <label>
          Kind{" "}
          <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="">All</option>
            <option value="request">App API requests</option>
            <option value="delivery">Webhook deliveries</option>
            <option value="hook">Hook calls</option>
          </select>
        </label>
        <label>
          Status{" "}
          <select name="status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All</option>
            <option value="ok">Succeeded</option>
            <option value="failed">Failed (4xx, 5xx, errors)</option>
          </select>
        </label>
        <label>
          Installation{" "}
          <select name="installation" value={installation} onChange={(e) => setInstallation(e.target.value)}>
            <option value="">All</option>
            {installations.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
        <span
          className={`badge ${state === "live" ? "ok" : "warn"}`}
          style={{ alignSelf: "center" }}
          data-testid="logs-state"
          role="status"
        >
          {state === "live" ? "Live" : state === "connecting" ? "Connecting…" : "Reconnecting…"}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="muted" data-testid="logs-empty">
          Nothing yet{lines.length ? " matches the filters" : ""}: call the App API with an installation&apos;s token,
          or run <code>storefront-apps trigger</code>.
        </p>
      ) : (
        <table className="table" data-testid="logs-table">
          <thead>
            <tr>
              <th>Time (UTC)</th>
              <th>Kind</th>
              <th>What</th>
              <th>Status</th>
              <th>Duration</th>
              <th>API version</th>
              <th>Installation</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((l) => (
              <tr key={l.id} className={ok(l) ? undefined : "row-danger"}>
                <td className="nowrap">{l.at.slice(11, 23)}</td>
                <td data-label="Kind">{l.kind === "request" ? "API" : l.kind === "delivery" ? "Webhook" : "Hook"}</td>
                <td className="wide">
                  <code>{summary(l)}</code>
                </td>
                <td data-label="Status">
                  <span className={`badge ${ok(l) ? "ok" : "danger"}`}>{l.status ?? (ok(l) ? "ok" : "error")}</span>
                </td>
                <td data-label="Duration" className="nowrap">
                  {l.durationMs === null ? "-" : `${l.durationMs} ms`}
                </td>
                <td data-label="API version" className="nowrap">
                  {l.kind === "hook" ? "-" : l.apiVersion}
                </td>
                <td data-label="Installation">
                  <code>{l.installationId}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
