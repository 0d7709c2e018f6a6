/**
 * The developer's live logs (contract 19, decision 078): the app's App API requests, webhook
 * delivery attempts and hook calls, streamed as they happen (a request within a second), `since`
 * replaying the last 15 minutes first; only the app's members (another developer's app is 404),
 * with the developer's JWT or the portal's cookie; the request log pruned after a day.
 */
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { startReceiver } from "../testing/receiver";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { pruneRequestLog, type LogLine } from "./logs.server";

const p = await startPlatform({ worker: true });
const dev = await p.register("DEVELOPER");
const other = await p.register("DEVELOPER");
const receiver = await startReceiver({ status: 200, body: JSON.stringify({ valid: true }) });

const app = await p.request("POST", "/developer/apps", {
  token: dev.token,
  body: appBody({
    scopes: ["read_orders", "read_products", "write_checkout"],
    webhookUrl: receiver.url + "/webhooks",
    webhookEvents: ["product.updated"],
    manifest: { hooks: [{ hookPoint: "order.validate", url: "/validate" }] },
  }),
});
const appId = app.json.id as string;
const inst = await p.request("POST", `/developer/apps/${appId}/test-install`, { token: dev.token });
const accessToken = inst.json.accessToken as string;
const installationId = inst.json.installationId as string;

type Stream = { lines: (LogLine & { receivedAt: number })[]; status: number; close(): void; ready: Promise<void> };
const open: Stream[] = [];
afterAll(() => open.forEach((s) => s.close()));

/** Opens the stream and collects its `log` events. */
async function stream(query = "", headers: Record<string, string> = { Authorization: `Bearer ${dev.token}` }) {
  const ctl = new AbortController();
  const res = await fetch(`${p.url}/developer/apps/${appId}/logs/stream${query}`, {
    headers,
    signal: ctl.signal,
    redirect: "manual",
  });
  const s: Stream = { lines: [], status: res.status, close: () => ctl.abort(), ready: Promise.resolve() };
  open.push(s);
  if (res.status !== 200) {
    await res.text();
    return { s, res };
  }
  let ready!: () => void;
  s.ready = new Promise((r) => (ready = r));
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === "ready") ready();
          if (event === "log" && data) s.lines.push({ ...JSON.parse(data), receivedAt: Date.now() });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  await s.ready;
  return { s, res };
}

async function until<T>(what: string, fn: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("live logs", () => {
  it("shows an App API call on the stream within a second, with its method, path, status, duration, version and installation", async () => {
    const { s, res } = await stream();
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const call = await p.request("GET", "/app-api/products?limit=2", { token: accessToken });
    expect(call.status).toBe(200);
    const answeredAt = Date.now();
    const line = await until("the request's log line", () => s.lines.find((l) => l.kind === "request"));
    expect(line.receivedAt - answeredAt).toBeLessThan(1000);
    expect(line).toMatchObject({
      kind: "request",
      method: "GET",
      path: "/app-api/products?limit=2",
      status: 200,
      installationId,
      apiVersion: call.headers.get("api-version"),
    });
    expect(line.durationMs).toBeGreaterThanOrEqual(0);
    // a refused call too (403, a scope the installation lacks), as it happened
    const refused = await p.request("GET", "/app-api/analytics/dashboard", { token: accessToken });
    expect(refused.status).toBe(403);
    const refusedLine = await until("the refused call", () =>
      s.lines.find((l) => l.kind === "request" && l.path === "/app-api/analytics/dashboard"),
    );
    expect(refusedLine).toMatchObject({ status: refused.status });
    s.close();
  });

  it("shows webhook delivery attempts and hook calls as they happen", async () => {
    const { s } = await stream();
    const triggered = await p.request("POST", `/developer/apps/${appId}/trigger`, {
      token: dev.token,
      body: { event: "product.updated" },
    });
    expect(triggered.status).toBe(202);
    const delivery = await until("the delivery attempt", () => s.lines.find((l) => l.kind === "delivery"), 20_000);
    expect(delivery).toMatchObject({
      event: "product.updated",
      attempt: 1,
      success: true,
      status: 200,
      installationId,
    });
    const hook = await p.request("POST", `/developer/apps/${appId}/trigger-hook`, {
      token: dev.token,
      body: { hookPoint: "order.validate" },
    });
    expect(hook.status, hook.text).toBe(200);
    const line = await until("the hook call", () => s.lines.find((l) => l.kind === "hook"));
    expect(line).toMatchObject({ hookPoint: "order.validate", installationId, success: true, status: 200 });
    s.close();
  });

  it("replays the last 15 minutes first with since, and nothing older", async () => {
    await p.request("GET", "/app-api/products?limit=1&replay=yes", { token: accessToken });
    // a request older than 15 minutes, written as the log would have
    await p.db
      .execute(sql`insert into app_api_requests (app_id, installation_id, business_id, method, path, status, duration_ms, api_version, at)
      values (${appId}, ${installationId}, ${dev.businessId}, 'GET', '/app-api/too-old', 200, 1, '2026-11-27', now() - interval '20 minutes')`);
    await new Promise((r) => setTimeout(r, 400)); // the flush
    const { s } = await stream(`?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`);
    await until("the replayed request", () =>
      s.lines.find((l) => l.kind === "request" && l.path.includes("replay=yes")),
    );
    expect(s.lines.some((l) => l.kind === "request" && l.path === "/app-api/too-old")).toBe(false);
    // the earlier delivery attempt is replayed too
    expect(s.lines.some((l) => l.kind === "delivery")).toBe(true);
    s.close();
    // without since: only what comes next
    const { s: live } = await stream();
    await new Promise((r) => setTimeout(r, 800));
    expect(live.lines).toEqual([]);
    live.close();
  });

  it("is the app's members' only: another developer's stream is 404, by JWT and by cookie; a bad since is 400", async () => {
    const { res } = await stream("", { Authorization: `Bearer ${other.token}` });
    expect(res.status).toBe(404);
    expect((await stream("", {})).res.status).toBe(401);
    const otherBrowser = await BrowserSession.signIn(p.url, other.email, other.password);
    expect((await otherBrowser.get(`/developer/apps/${appId}/logs/stream`)).status).toBe(404);
    expect((await otherBrowser.get(`/portal/apps/${appId}/logs`)).status).toBe(404);
    const bad = await stream("?since=yesterday");
    expect(bad.res.status).toBe(400);
  });

  it("follows the stream with the portal's session cookie", async () => {
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    const page = await browser.get(`/portal/apps/${appId}/logs`);
    expect(page.status).toBe(200);
    const cookie = (browser as unknown as { cookieHeader(u: URL): string }).cookieHeader(new URL(p.url));
    const { s, res } = await stream("", { Cookie: cookie });
    expect(res.status).toBe(200);
    await p.request("GET", "/app-api/products?limit=1&from=cookie", { token: accessToken });
    await until("the request on the cookie's stream", () => s.lines.find((l) => l.kind === "request"));
    s.close();
  });

  it("prunes logged requests older than a day", async () => {
    await p.db
      .execute(sql`insert into app_api_requests (app_id, installation_id, business_id, method, path, status, duration_ms, api_version, at)
      values (${appId}, ${installationId}, ${dev.businessId}, 'GET', '/app-api/ancient', 200, 1, '2026-11-27', now() - interval '25 hours')`);
    expect(await pruneRequestLog(p.db)).toBeGreaterThanOrEqual(1);
    const left = await p.db.execute(
      sql`select count(*)::int as n from app_api_requests where path = '/app-api/ancient'`,
    );
    expect(left[0].n).toBe(0);
  });
});
