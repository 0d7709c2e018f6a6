import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { listenLocally } from "../../../app/platform/testing/listen";
import { SignJWT } from "jose";
import {
  authorizeUrl,
  checkState,
  exchangeCode,
  OAuthError,
  verifySessionToken,
  mayUse,
  SessionTokenError,
  createAppApiClient,
  paginate,
  retryingFetch,
} from "../src/index";
import { createBridge } from "../src/bridge.js";
import { generate } from "../scripts/openapi";

describe("OAuth helpers", () => {
  it("builds an authorize URL with state and a PKCE S256 challenge", () => {
    const a = authorizeUrl({
      platformUrl: "https://p.example",
      clientId: "fbci_x",
      redirectUri: "https://app.example/cb",
      scopes: ["read_orders", "read_products"],
    });
    const url = new URL(a.url);
    expect(url.origin + url.pathname).toBe("https://p.example/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "fbci_x",
      redirect_uri: "https://app.example/cb",
      scope: "read_orders read_products",
      state: a.state,
      code_challenge: createHash("sha256").update(a.codeVerifier).digest("base64url"),
      code_challenge_method: "S256",
    });
    expect(a.state.length).toBeGreaterThan(15);
    expect(authorizeUrl({ platformUrl: "https://p.example", clientId: "c", redirectUri: "r" }).state).not.toBe(a.state);
    expect(checkState(a.state, a.state)).toBe(true);
    expect(checkState(a.state, a.state + "x")).toBe(false);
    expect(checkState(a.state, null)).toBe(false);
  });

  it("exchanges a code with HTTP Basic client authentication", async () => {
    const seen: { auth?: string; body?: string }[] = [];
    const server = createServer((req, res) => {
      let b = "";
      req
        .on("data", (c) => (b += c))
        .on("end", () => {
          seen.push({ auth: req.headers.authorization, body: b });
          const good = req.headers.authorization === "Basic " + Buffer.from("fbci_x:fbcs_s").toString("base64");
          res.writeHead(good ? 200 : 401, { "content-type": "application/json" });
          res.end(
            JSON.stringify(
              good
                ? {
                    access_token: "fbat_1",
                    token_type: "Bearer",
                    scope: "read_orders",
                    installation_id: "i",
                    business_id: "b",
                    webhook_secret: "whsec_1",
                  }
                : { error: "invalid_client" },
            ),
          );
        });
    });
    const platformUrl = await listenLocally(server);
    const token = await exchangeCode({
      platformUrl,
      clientId: "fbci_x",
      clientSecret: "fbcs_s",
      code: "c1",
      redirectUri: "https://app/cb",
      codeVerifier: "v1",
    });
    expect(token.access_token).toBe("fbat_1");
    expect(Object.fromEntries(new URLSearchParams(seen[0].body))).toEqual({
      grant_type: "authorization_code",
      code: "c1",
      redirect_uri: "https://app/cb",
      code_verifier: "v1",
    });
    const refused = await exchangeCode({
      platformUrl,
      clientId: "fbci_x",
      clientSecret: "wrong",
      code: "c1",
      redirectUri: "r",
    }).catch((e) => e);
    expect(refused).toBeInstanceOf(OAuthError);
    expect(refused.error).toBe("invalid_client");
    server.close();
  });

  it("session tokens name the person: owner, permissions and name (contract 17), and mayUse reads them", async () => {
    const key = new TextEncoder().encode("fbcs_secret");
    const token = await new SignJWT({ businessId: "biz_1", owner: false, permissions: ["pages"], name: "Pat" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("acct_pat")
      .setAudience("fbci_x")
      .setIssuedAt()
      .setExpirationTime("60s")
      .sign(key);
    const claims = await verifySessionToken(token, { clientId: "fbci_x", clientSecret: "fbcs_secret" });
    expect(claims).toMatchObject({ sub: "acct_pat", owner: false, permissions: ["pages"], name: "Pat" });
    expect(mayUse(claims, "pages")).toBe(true);
    expect(mayUse(claims, "orders")).toBe(false);
    expect(mayUse({ owner: true, permissions: [] }, "orders")).toBe(true);
  });

  it("verifies session tokens: HS256, aud = clientId, signed with the client secret", async () => {
    const key = new TextEncoder().encode("fbcs_secret");
    const sign = (aud: string, exp = "60s", k = key, alg = "HS256") =>
      new SignJWT({ businessId: "biz_1" })
        .setProtectedHeader({ alg })
        .setSubject("acc_1")
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(k);
    const claims = await verifySessionToken(await sign("fbci_x"), { clientId: "fbci_x", clientSecret: "fbcs_secret" });
    expect(claims).toMatchObject({ sub: "acc_1", businessId: "biz_1", aud: "fbci_x" });
    const code = (p: Promise<unknown>) =>
      p.then(
        () => "accepted",
        (e) => (e instanceof SessionTokenError ? e.code : "other"),
      );
    expect(
      await code(verifySessionToken(await sign("fbci_other"), { clientId: "fbci_x", clientSecret: "fbcs_secret" })),
    ).toBe("bad_token");
    expect(
      await code(
        verifySessionToken(await sign("fbci_x", "60s", new TextEncoder().encode("another")), {
          clientId: "fbci_x",
          clientSecret: "fbcs_secret",
        }),
      ),
    ).toBe("bad_token");
    expect(
      await code(
        verifySessionToken(await sign("fbci_x", (Math.floor(Date.now() / 1000) - 60) as unknown as string), {
          clientId: "fbci_x",
          clientSecret: "fbcs_secret",
        }),
      ),
    ).toBe("expired");
    expect(
      await code(
        verifySessionToken(await sign("fbci_x", "60s", key, "HS512"), {
          clientId: "fbci_x",
          clientSecret: "fbcs_secret",
        }),
      ),
    ).toBe("bad_token");
  });
});

describe("App API client", () => {
  it("the committed types and document match what the platform serves", async () => {
    const files = await generate();
    expect(Object.keys(files)).toContain("src/generated/2026-11-21.ts");
    expect(Object.keys(files)).toContain("src/generated/2026-11-27.ts");
    for (const [name, text] of Object.entries(files))
      expect(readFileSync(new URL(`../${name}`, import.meta.url), "utf8"), `${name}: run npm run sdk:openapi`).toBe(
        text,
      );
  });

  let server: Server;
  let baseUrl: string;
  const calls: string[] = [];
  let limited = 0;
  beforeAll(async () => {
    const products = Array.from({ length: 7 }, (_, i) => ({ id: `p${i}`, name: `Product ${i}` }));
    server = createServer((req, res) => {
      const url = new URL(req.url!, "http://x");
      calls.push(`${req.headers.authorization} ${url.pathname}${url.search}`);
      if (limited > 0) {
        limited--;
        res.writeHead(429, { "Retry-After": "1", "content-type": "application/json" });
        return res.end('{"error":"rate_limited"}');
      }
      if (url.pathname === "/app-api/products") {
        const page = Number(url.searchParams.get("page") ?? 1);
        const limit = Number(url.searchParams.get("limit") ?? 50);
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            data: products.slice((page - 1) * limit, page * limit),
            total: products.length,
            page,
            limit,
          }),
        );
      }
      if (url.pathname === "/app-api/slow") {
        res.writeHead(429, { "Retry-After": "3600" });
        return res.end("{}");
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":"not_found","message":"no such thing"}');
    });
    baseUrl = await listenLocally(server);
  });
  afterAll(() => server.close());

  it("iterates over every page of a list", async () => {
    const api = createAppApiClient({ baseUrl, accessToken: "fbat_test_1" });
    const names: string[] = [];
    for await (const p of paginate(api, "/app-api/products", { limit: 3 })) names.push(p.name);
    expect(names).toEqual(["Product 0", "Product 1", "Product 2", "Product 3", "Product 4", "Product 5", "Product 6"]);
    expect(calls.filter((c) => c.includes("/app-api/products"))).toEqual([
      "Bearer fbat_test_1 /app-api/products?limit=3&page=1",
      "Bearer fbat_test_1 /app-api/products?limit=3&page=2",
      "Bearer fbat_test_1 /app-api/products?limit=3&page=3",
    ]);
    const { error, response } = await api.GET("/app-api/products/{id}", { params: { path: { id: "nope" } } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: "not_found" });
  });

  it("waits on 429 as Retry-After says, a bounded number of times", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    limited = 2;
    const f = retryingFetch({ sleep, maxRetries: 3 });
    expect((await f(baseUrl + "/app-api/products")).status).toBe(200);
    expect(waits).toEqual([1000, 1000]);
    limited = 5;
    waits.length = 0;
    expect((await retryingFetch({ sleep, maxRetries: 2 })(baseUrl + "/app-api/products")).status).toBe(429);
    expect(waits).toEqual([1000, 1000]);
    limited = 0;
    waits.length = 0;
    // a wait longer than maxWaitSeconds gives the 429 back at once
    expect((await retryingFetch({ sleep, maxWaitSeconds: 60 })(baseUrl + "/app-api/slow")).status).toBe(429);
    expect(waits).toEqual([]);
  });
});

describe("browser bridge", () => {
  it("is importable by its documented package path, as an app with a bundler imports it", async () => {
    const viaPackage = await import("@storefront/app-sdk/bridge");
    expect(viaPackage.createBridge).toBe(createBridge);
  });

  function fakeWindow(parentOrigin: string) {
    const listeners: ((e: unknown) => void)[] = [];
    const posted: { message: unknown; target: string }[] = [];
    const parent = { postMessage: (message: unknown, target: string) => posted.push({ message, target }) };
    const win = {
      parent,
      location: { ancestorOrigins: [parentOrigin] },
      document: { referrer: "", documentElement: { scrollHeight: 321 } },
      addEventListener: (_: string, l: (e: unknown) => void) => listeners.push(l),
      removeEventListener: () => {},
    };
    return { win, posted, parent, dispatch: (e: unknown) => listeners.forEach((l) => l(e)) };
  }

  it("talks only to an allowed parent, with its origin as targetOrigin", () => {
    const f = fakeWindow("https://shop.example");
    const bridge = createBridge({
      hostOrigins: ["https://platform.example", "https://shop.example/"],
      window: f.win as unknown as Window,
    });
    const inits: unknown[] = [];
    const updates: unknown[] = [];
    bridge.onInit((m) => inits.push(m)).onUpdate((m) => updates.push(m));
    bridge.ready().resize();
    bridge.resize(50.4);
    expect(f.posted).toEqual([
      { message: { type: "SERVICE_BLOCK_READY" }, target: "https://shop.example" },
      { message: { type: "SERVICE_BLOCK_RESIZE", height: 321 }, target: "https://shop.example" },
      { message: { type: "SERVICE_BLOCK_RESIZE", height: 50 }, target: "https://shop.example" },
    ]);
    const init = { type: "SERVICE_BLOCK_INIT", blockId: "b", settings: { title: "Hi" }, mode: "storefront" };
    f.dispatch({ source: f.parent, origin: "https://evil.example", data: init });
    f.dispatch({ source: {}, origin: "https://shop.example", data: init });
    f.dispatch({ source: f.parent, origin: "https://platform.example", data: init });
    expect(inits).toEqual([]);
    f.dispatch({ source: f.parent, origin: "https://shop.example", data: init });
    f.dispatch({
      source: f.parent,
      origin: "https://shop.example",
      data: { type: "SERVICE_BLOCK_UPDATE", blockId: "b", settings: { title: "Yo" } },
    });
    expect(inits).toEqual([init]);
    expect(updates).toHaveLength(1);
    // a late onInit gets the init that already came
    const late: unknown[] = [];
    bridge.onInit((m) => late.push(m));
    expect(late).toEqual([init]);
  });

  it("stays silent under a parent that is not a host", () => {
    const f = fakeWindow("https://evil.example");
    const bridge = createBridge({ hostOrigins: ["https://platform.example"], window: f.win as unknown as Window });
    expect(bridge.host).toBeNull();
    bridge.ready().resize(10);
    expect(f.posted).toEqual([]);
  });
});

describe("the package", () => {
  it("builds to plain ESM with type declarations that Node imports without TypeScript", async () => {
    const { execFileSync } = await import("node:child_process");
    const dir = new URL("..", import.meta.url).pathname;
    execFileSync(
      process.execPath,
      [new URL("../../../node_modules/typescript/bin/tsc", import.meta.url).pathname, "-p", "tsconfig.build.json"],
      { cwd: dir },
    );
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(dir + "dist/index.js")}); const b = await import(${JSON.stringify(dir + "src/bridge.js")}); console.log(typeof m.verifyWebhook, typeof m.createAppApiClient, typeof b.createBridge)`,
      ],
      { cwd: "/" },
    ).toString();
    expect(out.trim()).toBe("function function function");
    const { existsSync } = await import("node:fs");
    for (const f of ["index.d.ts", "webhooks.d.ts", "client.d.ts", "oauth.d.ts", "adapters.d.ts"])
      expect(existsSync(dir + "dist/" + f), f).toBe(true);
  }, 60_000);
});
