/**
 * Quiet logs under hostile input (issue 39 point 9): an address with a malformed percent-encoding
 * (`%FF`, a cut-off `%E0%A4%A`, a lone `%`) is answered 400 before the router, in every area (the
 * contract's JSON error body on the JSON areas, RFC 6749's on the token endpoint, a plain page
 * elsewhere), and the process writes no framework line about it: at most one line a minute of its own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startPlatform } from "../testing/platform";
import { rateLimitedLog } from "../../web.server";

const p = await startPlatform();
const merchant = await p.register("MERCHANT");
const [business] = await p.sql<{ slug: string }[]>`select slug from businesses where id = ${merchant.businessId}`;
const shop = `/s/${business.slug}`;

/** Everything the process writes to its console and stderr while a test runs. */
let written: string[] = [];
beforeEach(() => {
  written = [];
  const keep =
    (name: string) =>
    (...args: unknown[]) => {
      written.push(`${name}: ${args.map(String).join(" ")}`);
    };
  for (const name of ["error", "warn", "log", "info"] as const) vi.spyOn(console, name).mockImplementation(keep(name));
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
    written.push(`stderr: ${String(chunk)}`);
    return write(chunk, ...rest);
  }) as typeof process.stderr.write);
});
afterEach(() => vi.restoreAllMocks());

const raw = (origin: string, path: string, init: RequestInit = {}) =>
  fetch(origin + path, { redirect: "manual", ...init });

const BAD = ["%FF", "%E0%A4%A", "%", "a%zz", "%ED%A0%80", "%C0%AF"];

describe("an address with a malformed percent-encoding", () => {
  it("answers 400 with the contract's error body on every JSON area", async () => {
    for (const bad of BAD)
      for (const [path, token] of [
        [`/app-api/products/${bad}`, "fbat_nope"],
        [`/app-api/${bad}`, undefined],
        [`/webhooks/${bad}`, undefined],
        [`/developer/apps/${bad}`, undefined],
        [`/merchant/pages/${bad}`, merchant.token],
        [`/review/apps/${bad}/approve`, undefined],
        [`/auth/${bad}`, undefined],
      ] as const) {
        const res = await raw(p.url, path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
        expect(res.status, path).toBe(400);
        expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
        expect(await res.json(), path).toEqual({
          statusCode: 400,
          message: expect.stringContaining("percent-encoding"),
          error: "Bad Request",
        });
      }
    // the token endpoint answers in RFC 6749's words
    const token = await raw(p.url, "/oauth/token/%FF", { method: "POST" });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ statusCode: 400, error: "Bad Request" });
    const query = await raw(p.url, "/oauth/token%FF", { method: "POST" });
    expect(query.status).toBe(400);
  });

  it("answers 400 with a plain page on the storefront, the platform's pages and static files, on either origin", async () => {
    for (const bad of BAD)
      for (const [origin, path] of [
        [p.storefrontUrl, `${shop}/${bad}`],
        [p.storefrontUrl, `${shop}/products/${bad}`],
        [p.url, `${shop}/${bad}`],
        [p.url, `/admin/orders/${bad}`],
        [p.url, `/portal/apps/${bad}`],
        [p.url, `/marketplace/${bad}`],
        [p.url, `/${bad}`],
        [p.url, `/build/${bad}.js`],
        [p.url, `/oauth/authorize/${bad}`],
      ]) {
        for (const method of ["GET", "POST"]) {
          const res = await raw(origin, path, method === "POST" ? { method, body: "x=1" } : {});
          expect(res.status, `${method} ${origin}${path}`).toBe(400);
          expect(res.headers.get("content-type"), path).toMatch(/^text\/plain/);
          expect(await res.text(), path).toContain("percent-encoding");
        }
      }
  });

  it("writes no framework line, however many arrive: at most one line of its own a minute", async () => {
    const paths = [`${shop}/%FF`, "/app-api/products/%E0%A4%A", "/developer/apps/%FF", "/admin/%FF", "/x%"];
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++)
      for (const path of paths)
        statuses.add((await raw(path.startsWith("/s/") ? p.storefrontUrl : p.url, path)).status);
    expect(written.filter((l) => /could not be decoded|URIError|malformed URL/i.test(l))).toEqual([]);
    expect(written.length).toBeLessThanOrEqual(1);
    expect([...statuses]).toEqual([400]);
    // a well-formed address beside them is served as before
    expect((await raw(p.storefrontUrl, shop)).status).toBe(200);
    expect((await raw(p.url, "/app-api/products/%2F")).status).toBe(401);
  });

  it("leaves a well-formed encoding and a malformed query alone", async () => {
    expect((await raw(p.storefrontUrl, `${shop}/products/caf%C3%A9`)).status).toBe(404);
    expect((await raw(p.storefrontUrl, `${shop}?q=%FF`)).status).toBe(200);
    expect(written.filter((l) => /could not be decoded/i.test(l))).toEqual([]);
  });
});

describe("the rate-limited line", () => {
  it("writes the first request of a minute, then the next one a minute later with how many it left out", () => {
    vi.useFakeTimers({ now: new Date("2026-11-28T00:00:00Z") });
    try {
      const lines: string[] = [];
      const log = rateLimitedLog("400 for a malformed address", 60_000, (l) => lines.push(l));
      log.note("GET /s/demo/%FF");
      for (let i = 0; i < 500; i++) log.note("GET /x%");
      vi.advanceTimersByTime(59_000);
      log.note("GET /x%");
      expect(lines).toEqual(["[web] 400 for a malformed address (GET /s/demo/%FF)"]);
      vi.advanceTimersByTime(1_000);
      log.note("GET /y%\r\nInjected: " + "z".repeat(300));
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe(
        `[web] 400 for a malformed address (GET /y%??Injected: ${"z".repeat(120 - "GET /y%??Injected: ".length)}); 501 more since the last such line`,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
