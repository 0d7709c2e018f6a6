/**
 * The JSON route table picks the same route as Remix for every JSON address: compared against
 * @remix-run/router's own matchRoutes over the real build, for each route with sample, tricky and
 * malformed addresses. And the fast path answers exactly like Remix did (status, headers, body).
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { ServerBuild } from "@remix-run/node";
import { BUILD_PATH, decodablePath, JSON_PREFIXES, loadBuild } from "../../web.server";
import { jsonRouteTable, routeScore } from "./json-routes.server";
import { startPlatform } from "../testing/platform";

const build = await loadBuild();
const platform = await startPlatform();

function tree(routes: ServerBuild["routes"], parentId: string | undefined): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((r) => r!.parentId === parentId)
    .map(
      (r) =>
        ({
          id: r!.id,
          path: r!.path,
          index: r!.index,
          caseSensitive: r!.caseSensitive,
          children: r!.index ? undefined : tree(routes, r!.id),
        }) as AgnosticRouteObject,
    );
}
const remixTree = tree(build.routes, undefined);
const remixLeaf = (pathname: string) => matchRoutes(remixTree, pathname)?.at(-1) ?? null;

/** Addresses under every JSON route: each parameter filled with ordinary and awkward values. */
function addresses(): string[] {
  const out = new Set<string>();
  const fills = ["abc", "app_123", "ORD-1", "a%20b", "%2F", "%FF", "x.y", "-"];
  for (const r of Object.values(build.routes)) {
    const parts: string[] = [];
    for (let x: (typeof build.routes)[string] | undefined = r; x; x = x.parentId ? build.routes[x.parentId] : undefined)
      if (x.path) parts.unshift(x.path);
    const path = "/" + parts.join("/");
    if (!JSON_PREFIXES.some((p) => path === p || path.startsWith(p + "/"))) continue;
    for (const fill of fills) {
      const concrete = path.replace(/:[\w-]+/g, fill).replace(/\/\*$/, `/${fill}/more`);
      out.add(concrete);
      out.add(concrete + "/");
      out.add(concrete.toUpperCase());
      out.add(concrete + "/extra");
    }
  }
  for (const p of JSON_PREFIXES) out.add(p);
  [
    "/app-api",
    "/app-api/",
    "/webhooks//x",
    "/developer/apps/%2Fx/analytics",
    "/developer/apps/a%2Fb",
    "/oauth/token/",
  ].forEach((a) => out.add(a));
  return [...out];
}

describe("JSON route table", () => {
  it("matches the same route as Remix for every JSON address", () => {
    const table = jsonRouteTable(build, JSON_PREFIXES);
    expect(table.size).toBeGreaterThan(40);
    // an address with a malformed percent-encoding (the %FF fill) reaches neither table: web.server
    // answers it 400 first (decision 055), and Remix's matchRoutes would log a line for each one here
    const all = addresses();
    expect(all.filter((a) => !decodablePath(a)).length).toBeGreaterThan(50);
    const list = all.filter(decodablePath);
    expect(list.length).toBeGreaterThan(500);
    const mismatches: string[] = [];
    let matched = 0;
    for (const pathname of list) {
      const ours = table.match(pathname);
      const theirs = remixLeaf(pathname);
      const theirsId = theirs && !build.routes[theirs.route.id!]!.module.default ? theirs.route.id : null;
      // an address the table does not know goes on to Remix, which is right when Remix's route is not in the table either
      if (!ours && (!theirsId || !table.has(theirsId))) continue;
      matched++;
      if ((ours?.route.id ?? null) !== theirsId)
        mismatches.push(`${pathname}: ours ${ours?.route.id} remix ${theirsId}`);
      else if (ours && theirs && JSON.stringify(ours.params) !== JSON.stringify(theirs.params))
        mismatches.push(`${pathname}: params ${JSON.stringify(ours.params)} vs ${JSON.stringify(theirs.params)}`);
    }
    expect(mismatches).toEqual([]);
    expect(matched).toBeGreaterThan(list.length * 0.8);
    // asked again, each address is answered from the table's memo: the same route and parameters,
    // and a caller that changes the parameters it got does not change the next caller's
    for (const pathname of list) {
      const first = table.match(pathname);
      if (first) first.params.tampered = "yes";
      const again = table.match(pathname);
      const theirs = remixLeaf(pathname);
      if (again && theirs) expect(again.params, pathname).toEqual(theirs.params);
    }
  });

  it("keeps its memo bounded: past 1,000 addresses it starts again, and long addresses are not kept", () => {
    const table = jsonRouteTable(build, JSON_PREFIXES);
    for (let i = 0; i < 2_500; i++) expect(table.match(`/app-api/orders/ord_${i}`)?.params).toEqual({ id: `ord_${i}` });
    expect(table.memoSize()).toBeLessThanOrEqual(1_000);
    const long = `/app-api/orders/${"x".repeat(300)}`;
    expect(table.match(long)?.params).toEqual({ id: "x".repeat(300) });
    expect(table.memoSize()).toBeLessThanOrEqual(1_000);
  });

  it("ranks like Remix: static over dynamic, splat last", () => {
    expect(routeScore("/app-api/products/slug/:slug", false)).toBeGreaterThan(
      routeScore("/app-api/products/:id", false),
    );
    expect(routeScore("/app-api/products", true)).toBeGreaterThan(routeScore("/app-api/*", false));
    expect(BUILD_PATH).toMatch(/build[\\/]index\.js$/);
  });
});

describe("JSON fast path over HTTP", () => {
  it("answers a JSON route with the contract's body and headers, HEAD without a body", async () => {
    const res = await fetch(`${platform.url}/app-api/products`, { headers: { Authorization: "Bearer fbat_nope" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    // with its length, not chunked (compression wraps the answer and leaves one this small as it is)
    const body = await res.text();
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get("transfer-encoding")).toBeNull();
    expect(JSON.parse(body)).toEqual({
      statusCode: 401,
      message: "Invalid or revoked access token",
      error: "Unauthorized",
    });
    const head = await fetch(`${platform.url}/app-api/products`, {
      method: "HEAD",
      headers: { Authorization: "Bearer fbat_nope" },
    });
    expect(head.status).toBe(401);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(await head.text()).toBe("");
  });

  it("passes an unknown JSON address to the catch-all 404 and a page address to Remix", async () => {
    const missing = await fetch(`${platform.url}/app-api/nothing/here`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).statusCode).toBe(404);
    const page = await fetch(`${platform.url}/login`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("reads a POST body through the fast path", async () => {
    const res = await fetch(`${platform.url}/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: `fast-${Date.now()}@example.test`,
        password: "long-enough-password",
        name: "Fast",
        role: "DEVELOPER",
      }),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.account.email).toMatch(/^fast-/);
  });
});

describe("a malformed Host header", () => {
  /** The raw answer to a GET with the given Host header. */
  const rawGet = (path: string, host: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(platform.url).port), "127.0.0.1", () =>
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      );
      let text = "";
      socket.on("data", (d) => (text += d));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });

  it("answers 400 in the contract's body on JSON areas and a plain 400 on pages, never 500", async () => {
    for (const host of ["bad host name", "a/b", "[::1", "user@example.com", "example.com:99999999", "x?y"]) {
      const api = await rawGet("/app-api/products", host);
      expect(api, host).toMatch(/^HTTP\/1\.1 400/);
      expect(api, host).toContain('"statusCode":400');
      for (const page of ["/login", "/", "/s/demo-bistro"]) {
        const answer = await rawGet(page, host);
        expect(answer, `${page} ${host}`).toMatch(/^HTTP\/1\.1 400/);
        expect(answer, `${page} ${host}`).toContain("Malformed Host header");
      }
    }
    // ordinary Host headers still work: the platform's own host serves the page; a name, an explicit
    // default port or IPv6 that is not the platform's host is moved to it (decision 013), never a 400 or 500
    expect(await rawGet("/login", new URL(platform.url).host)).toMatch(/^HTTP\/1\.1 200/);
    for (const host of ["localhost", "shop.example.com:80", "[::1]:3000"]) {
      const answer = await rawGet("/login", host);
      expect(answer, host).toMatch(/^HTTP\/1\.1 308/);
      expect(answer, host).toContain(`Location: ${platform.url}/login`);
    }
  });
});
