/**
 * The App API rate limit under concurrency: 200 simultaneous calls with one token, half to this
 * process's server and half to a second server process on the same database, all in one minute
 * window. Exactly 60 succeed; the other 140 answer 429 with Retry-After and the contract's body.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { startWebProcess } from "../testing/processes";
import { appBody } from "../apps/apps.test-helpers";

const p = await startPlatform();
const dev = await p.register("DEVELOPER");

/** A second web process (`node --import tsx server.ts web`) on the same database and secrets. */
const secondServer = () => startWebProcess(p.dbUrl, p.env);

/** Waits until the current minute window has more than `seconds` left, so that one burst stays inside it. */
async function awaitRoomInWindow(seconds: number) {
  const left = () => 60_000 - (Date.now() % 60_000);
  if (left() <= seconds * 1000) await new Promise((r) => setTimeout(r, left() + 250));
  expect(left()).toBeGreaterThan(seconds * 1000);
}

describe("the App API rate limit under concurrency", () => {
  it("200 simultaneous calls over two server processes: exactly 60 succeed, 140 answer 429 with Retry-After", async () => {
    const app = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ scopes: ["read_business"] }),
    });
    const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
    expect(inst.status).toBe(201);
    const token = inst.json.accessToken as string;
    const second = await secondServer();
    try {
      // both servers answer before the burst (without spending the token's budget)
      expect((await fetch(second.url + "/healthz")).status).toBe(200);
      expect((await fetch(p.url + "/healthz")).status).toBe(200);
      await awaitRoomInWindow(15);
      const windowOf = (ms: number) => Math.floor(ms / 60_000);
      const startedIn = windowOf(Date.now());

      const call = async (base: string) => {
        const res = await fetch(base + "/app-api/business", { headers: { Authorization: `Bearer ${token}` } });
        return { base, status: res.status, headers: res.headers, json: await res.json() };
      };
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => call(i % 2 === 0 ? p.url : second.url)));
      expect(windowOf(Date.now()), "the burst stayed within one minute window").toBe(startedIn);

      const ok = results.filter((r) => r.status === 200);
      const limited = results.filter((r) => r.status === 429);
      expect(results.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.status)).toEqual([]);
      expect(ok.length).toBe(60);
      expect(limited.length).toBe(140);
      // both processes answered (which of them served the 60 is up to the scheduler)
      expect(new Set([...ok, ...limited].map((r) => r.base)).size).toBe(2);

      const reset = (startedIn + 1) * 60;
      for (const r of ok) {
        expect(r.json).toMatchObject({ id: dev.businessId });
        expect(r.headers.get("x-ratelimit-limit")).toBe("60");
        expect(r.headers.get("x-ratelimit-reset")).toBe(String(reset));
      }
      // every remaining count from 59 down to 0 was handed out exactly once
      expect(ok.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 60 }, (_, i) => i),
      );
      for (const r of limited) {
        expect(r.json).toEqual({
          statusCode: 429,
          message: expect.stringMatching(/rate limit/i),
          error: "Too Many Requests",
        });
        const retryAfter = Number(r.headers.get("retry-after"));
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
        expect(r.headers.get("x-ratelimit-reset")).toBe(String(reset));
      }
      // the database counted all 200 in one window row
      const [row] = await p.db.execute<{ count: number }>(
        sql`select count from rate_limit_windows where installation_id = ${inst.json.installationId} and window_start = ${new Date(startedIn * 60_000).toISOString()}::timestamptz`,
      );
      expect(Number(row.count)).toBe(200);
    } finally {
      second.child.kill("SIGTERM");
    }
  }, 120_000);
});
