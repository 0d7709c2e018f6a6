/**
 * Each JSON operation declared once (decision 025): every route module the Remix build serves
 * under /app-api and /webhooks (the App API document) and under /merchant and /review (the Platform
 * API document) declares its operations, is in its served OpenAPI document with its scope or
 * caller, limits and errors, and does what its declaration says (scope, role, limits, validation).
 * The walk is over the real build, so a new route module that is not declared, or not listed in
 * app/operations.server.ts, fails here.
 */
import { describe, expect, it } from "vitest";
import type { ServerBuild } from "@remix-run/node";
import { Validator } from "@seriousme/openapi-schema-validator";
import { loadBuild } from "../../web.server";
import { startPlatform } from "../testing/platform";
import { appBody } from "../apps/apps.test-helpers";
import { EVENT_NAMES, REVIEW_CRITERIA_KEYS, SCOPE_NAMES } from "../shapes/app-catalog";
import { manifestJsonSchema } from "../shapes/manifest";
import type { DeclaredRoute } from "../core/operations.server";
import { responseChecker } from "../testing/openapi-check";

const API_PREFIXES = ["/app-api", "/webhooks"];
/** Route modules under the prefixes that are not operations of the API: the JSON 404 of each prefix and the document itself. */
const NOT_OPERATIONS = [
  "/app-api/*",
  "/webhooks/*",
  "/app-api/openapi.json",
  "/app-api/versions",
  "/app-api/versions/changes",
];

const build = await loadBuild();
const p = await startPlatform();
const doc = (await p.request("GET", "/app-api/openapi.json")).json;

type Route = ServerBuild["routes"][string];
function fullPath(route: Route): string {
  const parts: string[] = [];
  for (let r: Route | undefined = route; r; r = r.parentId ? build.routes[r.parentId] : undefined)
    if (r.path) parts.unshift(r.path);
  return "/" + parts.join("/");
}
const modules = Object.values(build.routes)
  .filter((r): r is Route => Boolean(r))
  .map((route) => ({ route, path: fullPath(route) }))
  .filter(({ path }) => API_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix + "/")));
const declaredRoutes = modules
  .filter(({ path }) => !NOT_OPERATIONS.includes(path))
  .map(({ route, path }) => ({ path, declared: (route.module as { declared?: DeclaredRoute }).declared }));

async function token(scopes: string[]) {
  const dev = await p.register("DEVELOPER");
  const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({ scopes }) });
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
  expect(inst.status).toBe(201);
  return inst.json.accessToken as string;
}
/** A concrete address for an OpenAPI path: each {param} filled. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "missing");

describe("the route tree and the document", () => {
  it("finds every App API and /webhooks route module, and each declares its operations at its own path", () => {
    expect(modules.length).toBeGreaterThanOrEqual(22);
    for (const path of NOT_OPERATIONS)
      expect(
        modules.some((m) => m.path === path),
        path,
      ).toBe(true);
    for (const { path, declared } of declaredRoutes) {
      expect(declared, `${path} declares its operations (appApiRoute)`).toBeTruthy();
      // the declared OpenAPI path is the route's own path, each :name as {name}
      expect(declared!.path, path).toBe(path.replace(/:([\w-]+)/g, "{$1}"));
      expect(declared!.caller).toBe("app");
      expect(Object.keys(declared!.operations).length, path).toBeGreaterThan(0);
    }
  });

  it("documents every declared operation with its summary, scope, page limits, parameters and errors, and nothing else", () => {
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    const declared = new Set<string>();
    for (const { declared: route } of declaredRoutes) {
      for (const [method, spec] of Object.entries(route!.operations)) {
        declared.add(`${method} ${route!.path}`);
        const op = doc.paths[route!.path]?.[method.toLowerCase()];
        expect(op, `${method} ${route!.path} is in the document`).toBeTruthy();
        expect(op.summary).toBe(spec!.summary);
        expect(op.security).toEqual([{ installationToken: [] }]);
        expect(op["x-scope"], `${method} ${route!.path} scope`).toBe(spec!.scope);
        if (spec!.scope) expect(op.description).toContain(`\`${spec!.scope}\``);
        const statuses = Object.keys(op.responses).map(Number);
        expect(statuses).toEqual(
          expect.arrayContaining([spec!.answer.status, ...spec!.errors, 401, 429, ...(spec!.scope ? [403] : [])]),
        );
        const pathParams = (op.parameters ?? []).filter((x: any) => x.in === "path").map((x: any) => x.name);
        expect(pathParams).toEqual([...route!.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
        const limit = (op.parameters ?? []).find((x: any) => x.name === "limit" && x.in === "query");
        if (spec!.page) {
          expect(op["x-pagination"]).toEqual(spec!.page);
          expect(limit.schema.default).toBe(spec!.page.limit);
          expect(limit.description).toContain(`clamped to ${spec!.page.max}`);
        } else {
          expect(op["x-pagination"]).toBeUndefined();
          expect(limit).toBeUndefined();
        }
        if (spec!.body)
          expect(op.requestBody.content["application/json"].schema.$ref).toMatch(/^#\/components\/schemas\/\w+$/);
        else expect(op.requestBody).toBeUndefined();
      }
    }
    expect([...documented].sort()).toEqual([...declared].sort());
    // the contract's scopes table, read from the declarations
    const byScope = (scope: string) =>
      [...declared].filter((k) => {
        const [method, path] = k.split(" ");
        return doc.paths[path][method.toLowerCase()]["x-scope"] === scope;
      });
    expect(byScope("read_products").sort()).toEqual([
      "GET /app-api/products",
      "GET /app-api/products/slug/{slug}",
      "GET /app-api/products/{id}",
    ]);
    expect(byScope("write_orders").sort()).toEqual(["PATCH /app-api/orders/{id}/status", "POST /app-api/orders"]);
    expect(byScope("write_payments")).toEqual(["POST /app-api/orders/{id}/payment"]);
  });

  it("is a valid OpenAPI 3.1 document whose references all resolve", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(validator.version).toBe("3.1");
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value) => (key === "$ref" && refs.add(value), value));
    for (const ref of refs) {
      const [, section, name] = /^#\/components\/(\w+)\/(\w+)$/.exec(ref) ?? [];
      expect(doc.components[section]?.[name], ref).toBeTruthy();
    }
  });
});

describe("the declarations are what the routes do", () => {
  it("every scoped operation answers 403 naming its scope to an installation without it (before reading its input)", async () => {
    // write_shipping grants hook points only, no App API call
    const t = await token(["write_shipping"]);
    let checked = 0;
    for (const { declared: route } of declaredRoutes)
      for (const [method, spec] of Object.entries(route!.operations)) {
        if (!spec!.scope) continue;
        const res = await p.request(method, concrete(route!.path), {
          token: t,
          ...(method === "GET" ? {} : { raw: "{not json", headers: { "Content-Type": "application/json" } }),
        });
        expect(res.status, `${method} ${route!.path}`).toBe(403);
        expect(res.json).toMatchObject({ statusCode: 403, error: "Forbidden" });
        expect(res.json.message).toContain(spec!.scope);
        checked++;
      }
    expect(checked).toBe(14);
  });

  it("every list clamps its limit to the declared maximum and pages by the declared default", async () => {
    const t = await token(SCOPE_NAMES);
    const own = await p.request("POST", "/webhooks", {
      token: t,
      body: { url: "https://hooks.example/in", events: ["order.created"] },
    });
    expect(own.status).toBe(201);
    let checked = 0;
    for (const { declared: route } of declaredRoutes) {
      const spec = route!.operations.GET;
      if (!spec?.page) continue;
      const address = route!.path.replace("{id}", own.json.id);
      const byDefault = await p.request("GET", address, { token: t });
      expect(byDefault.status, address).toBe(200);
      expect(byDefault.json.limit, address).toBe(spec.page.limit);
      const clamped = await p.request("GET", `${address}?limit=${spec.page.max + 1}`, { token: t });
      expect(clamped.json.limit, address).toBe(spec.page.max);
      const refused = await p.request("GET", `${address}?page=0`, { token: t });
      expect(refused.status, address).toBe(400);
      expect(refused.json.message).toBe("page must be a positive integer");
      checked++;
    }
    expect(checked).toBe(7);
  });

  it("every operation with a body refuses malformed JSON and a body of the wrong shape with the contract's 400, naming the field", async () => {
    const t = await token(SCOPE_NAMES);
    let checked = 0;
    for (const { declared: route } of declaredRoutes)
      for (const [method, spec] of Object.entries(route!.operations)) {
        if (!spec!.body) continue;
        const where = `${method} ${route!.path}`;
        const malformed = await p.request(method, concrete(route!.path), {
          token: t,
          raw: "{not json",
          headers: { "Content-Type": "application/json" },
        });
        expect(malformed.status, where).toBe(400);
        expect(malformed.json).toEqual({
          statusCode: 400,
          message: "Malformed JSON in request body",
          error: "Bad Request",
        });
        const wrong = await p.request(method, concrete(route!.path), { token: t, body: [] });
        expect(wrong.status, where).toBe(400);
        expect(wrong.json.message, where).toMatch(/^body: /);
        expect(wrong.headers.get("x-ratelimit-limit"), where).toBe("60");
        checked++;
      }
    expect(checked).toBe(8);
  });

  it("keeps the messages of the order status body and the Idempotency-Key header", async () => {
    const t = await token(SCOPE_NAMES);
    const notObject = await p.request("PATCH", "/app-api/orders/missing/status", { token: t, body: "CONFIRMED" });
    expect(notObject.json.message).toBe("body: must be an object with status");
    const unknown = await p.request("PATCH", "/app-api/orders/missing/status", {
      token: t,
      body: { status: "SHIPPED" },
    });
    expect(unknown.json.message).toBe(
      "status: must be one of PENDING, CONFIRMED, PREPARING, READY, IN_DELIVERY, DELIVERED, CANCELLED",
    );
    const key = await p.request("POST", "/app-api/orders", {
      token: t,
      body: {},
      headers: { "Idempotency-Key": "k".repeat(256) },
    });
    expect(key.status).toBe(400);
    expect(key.json.message).toBe("Idempotency-Key: must be 1-255 characters");
    const events = await p.request("POST", "/webhooks", {
      token: t,
      body: { url: "https://hooks.example/in", events: ["order.exploded"] },
    });
    expect(events.status).toBe(400);
    expect(events.json.message).toBe("events.0: unknown event order.exploded");
  });
});

describe("the Platform API (/auth, /oauth/token, /developer, /merchant, /review)", () => {
  const PLATFORM_PREFIXES = ["/merchant", "/review", "/developer", "/auth", "/oauth/token"];
  /** The JSON 404 of each prefix and the document itself are not operations. */
  const NOT_PLATFORM_OPERATIONS = ["/developer/openapi.json"];
  const CALLER_BY_PREFIX: Record<string, string> = {
    merchant: "MERCHANT",
    review: "REVIEWER",
    developer: "DEVELOPER",
    auth: "ANYONE",
    oauth: "CLIENT",
  };
  const callerOf = (path: string) => CALLER_BY_PREFIX[path.split("/")[1]];
  const platformModules = Object.values(build.routes)
    .filter((r): r is Route => Boolean(r))
    .map((route) => ({ route, path: fullPath(route) }))
    .filter(
      ({ path }) =>
        PLATFORM_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix + "/")) &&
        !path.endsWith("/*") &&
        !NOT_PLATFORM_OPERATIONS.includes(path),
    )
    .map(({ route, path }) => ({ path, declared: (route.module as { declared?: DeclaredRoute }).declared }));
  const platformDocP = p.request("GET", "/developer/openapi.json").then((r) => r.json);

  it("declares every route module at its own path, for its caller, and documents each operation at /developer/openapi.json", async () => {
    const platformDoc = await platformDocP;
    const validator = new Validator();
    const result = await validator.validate(platformDoc);
    expect(result.errors ?? []).toEqual([]);
    // /merchant and /review (with privacy requests, billing and its invoices, files, review replies, staff,
    // security and activity), /developer (with app members, the sandbox clock, releases, logs, activity),
    // /auth (e-mail verification, password resets, invitations, second factors, sessions) and /oauth/token
    expect(platformModules.length).toBe(65);
    const declared = new Set<string>();
    for (const { path, declared: route } of platformModules) {
      expect(route, `${path} declares its operations (platformRoute)`).toBeTruthy();
      expect(route!.path).toBe(path.replace(/:([\w-]+)/g, "{$1}"));
      expect(route!.caller, path).toBe(callerOf(path));
      for (const [method, spec] of Object.entries(route!.operations)) {
        declared.add(`${method} ${route!.path}`);
        const op = platformDoc.paths[route!.path]?.[method.toLowerCase()];
        expect(op, `${method} ${route!.path} is in the document`).toBeTruthy();
        expect(op.summary).toBe(spec!.summary);
        expect(op["x-caller"]).toBe(route!.caller);
        expect(op.description, `${method} ${route!.path}`).toMatch(/Called by /);
        expect(op["x-pagination"]).toEqual(spec!.page);
        const tokenless = route!.caller === "ANYONE" || route!.caller === "CLIENT";
        expect(op.security).toEqual(
          route!.caller === "ANYONE"
            ? []
            : route!.caller === "CLIENT"
              ? [{ clientCredentials: [] }]
              : [{ accountToken: [] }],
        );
        expect(Object.keys(op.responses).map(Number)).toEqual(
          expect.arrayContaining([spec!.answer.status, ...spec!.errors, ...(tokenless ? [] : [401, 403])]),
        );
        expect(spec!.errors.length, `${method} ${route!.path} declares its errors`).toBeGreaterThan(0);
      }
    }
    const documented = Object.entries(platformDoc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    // the consent screen is an HTML page, described by hand (platform-api/openapi.server.ts)
    expect(documented.filter((d) => d !== "GET /oauth/authorize").sort()).toEqual([...declared].sort());
    expect(documented).toContain("GET /oauth/authorize");
    // the App API's document and this one do not mix
    expect(Object.keys(doc.paths).some((path) => PLATFORM_PREFIXES.some((prefix) => path.startsWith(prefix)))).toBe(
      false,
    );
  });

  it("documents the listen stream as an event stream and the token exchange as a form with RFC 6749's errors", async () => {
    const platformDoc = await platformDocP;
    const listen = platformDoc.paths["/developer/apps/{appId}/listen"].get;
    expect(Object.keys(listen.responses[200].content)).toEqual(["text/event-stream"]);
    const stream =
      platformDoc.components.schemas[listen.responses[200].content["text/event-stream"].schema.$ref.split("/").pop()];
    expect(stream.type).toBe("string");
    expect(stream.description).toContain("`call`");
    const token = platformDoc.paths["/oauth/token"].post;
    expect(Object.keys(token.requestBody.content)).toEqual(["application/x-www-form-urlencoded", "application/json"]);
    expect(token.responses[400].content["application/json"].schema.$ref).toBe("#/components/schemas/OAuthError");
    expect(token.responses[401].content["application/json"].schema.$ref).toBe("#/components/schemas/OAuthError");
    expect(platformDoc.components.schemas.OAuthError.required).toEqual(["error", "error_description"]);
    // the manifest is described by its own JSON Schema, the one the platform validates with
    const manifest = platformDoc.components.schemas.Manifest;
    expect(manifest.type).toBe("object");
    expect(manifest.description).toContain("docs/developers/extensions.md");
    expect(manifest.properties).toEqual(JSON.parse(JSON.stringify(manifestJsonSchema.properties)));
    expect(manifest.additionalProperties).toBe(false);
    const login = platformDoc.paths["/auth/login"].post;
    expect(login.description).toContain("Called by anyone, without a token");
  });

  it("every operation refuses another role with 403 before reading its input, and validates its declared body naming the field", async () => {
    const developer = await p.register("DEVELOPER");
    const merchant = await p.register("MERCHANT");
    const reviewer = await p.createUser("REVIEWER");
    const tokenOf: Record<string, string> = {
      DEVELOPER: developer.token,
      MERCHANT: merchant.token,
      REVIEWER: reviewer.token,
    };
    const ownApp = await p.request("POST", "/developer/apps", {
      token: developer.token,
      body: appBody({ slug: `own-${Date.now()}` }),
    });
    const concreteApp = (path: string) => concrete(path.replace("{appId}", ownApp.json.id));
    let refused = 0;
    let validated = 0;
    for (const { declared: route } of platformModules)
      for (const [method, spec] of Object.entries(route!.operations)) {
        const address = concrete(route!.path);
        const where = `${method} ${route!.path}`;
        if (route!.caller === "CLIENT") continue; // its own test below
        if (route!.caller !== "ANYONE") {
          // a developer's token is admitted to /merchant for their own sandbox (decision 036): a reviewer's is not
          const other =
            route!.caller === "DEVELOPER"
              ? merchant.token
              : route!.caller === "MERCHANT"
                ? reviewer.token
                : developer.token;
          const res = await p.request(method, address, {
            token: other,
            ...(method === "GET" ? {} : { raw: "{not json", headers: { "Content-Type": "application/json" } }),
          });
          expect(res.status, where).toBe(403);
          expect(res.json.message, where).toBe(`This endpoint requires the ${route!.caller} role`);
          const none = await p.request(method, address, {});
          expect(none.status, where).toBe(401);
          refused++;
        }
        if (!spec!.body) continue;
        const own = route!.caller === "ANYONE" ? undefined : tokenOf[route!.caller];
        if (spec!.bodyMediaType === "multipart/form-data") {
          // an upload reads multipart only (POST /merchant/files; its own tests: files/files.test.ts)
          const json = await p.request(method, address, { token: own, body: [] });
          expect(json.status, where).toBe(400);
          expect(json.json.message, where).toBe("Request body must be multipart/form-data");
          validated++;
          continue;
        }
        // an operation on an app answers 404 to a non-member before its input (contract 17): the developer's own app
        const target = spec!.appRole ? concreteApp(route!.path) : address;
        const wrong = await p.request(method, target, { token: own, body: [] });
        expect(wrong.status, where).toBe(400);
        // the manifest keeps its own words (the portal's editor shows the same)
        expect(wrong.json.message, where).toMatch(
          route!.path.endsWith("/manifest") ? /^manifest: must be a JSON object$/ : /^body: /,
        );
        const malformed = await p.request(method, target, {
          token: own,
          raw: "{not json",
          headers: { "Content-Type": "application/json" },
        });
        expect(malformed.json, where).toEqual({
          statusCode: 400,
          message: "Malformed JSON in request body",
          error: "Bad Request",
        });
        validated++;
      }
    expect(refused).toBe(65);
    expect(validated).toBe(34);
  });

  it("names the field of a bad body, query or page, and keeps the contract's words", async () => {
    const dev = await p.register("DEVELOPER");
    const bad = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: { ...appBody(), redirectUrl: "javascript:alert(1)" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^redirectUrl: /);
    const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    expect(app.status).toBe(201);
    const slug = await p.request("PATCH", `/developer/apps/${app.json.id}`, {
      token: dev.token,
      body: { slug: "other" },
    });
    expect(slug.json.message).toBe("slug is immutable");
    const stars = await p.request("GET", `/developer/apps/${app.json.id}/reviews?stars=9`, { token: dev.token });
    expect(stars.status).toBe(400);
    expect(stars.json.message).toBe("stars: must be a whole number from 1 to 5");
    const list = await p.request("GET", "/developer/apps?limit=1000", { token: dev.token });
    expect(list.json.limit).toBe(100);
    expect((await p.request("GET", "/developer/apps?page=0", { token: dev.token })).json.message).toBe(
      "page must be a positive integer",
    );
    const answer = await p.request("POST", `/developer/apps/${app.json.id}/listen/missing/answer`, {
      token: dev.token,
      body: { status: 1000, body: "" },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/^status: /);
    const register = await p.request("POST", "/auth/register", {
      body: { email: "not-an-address", password: "a long enough passphrase", name: "N", role: "DEVELOPER" },
    });
    expect(register.status).toBe(400);
    expect(register.json.message).toBe("email: must be an e-mail address");
  });

  it("/oauth/token keeps its form body and RFC 6749's error body, and refuses a caller without client credentials", async () => {
    const noClient = await p.request("POST", "/oauth/token", {
      raw: "grant_type=authorization_code&code=x&redirect_uri=https%3A%2F%2Fa.example%2Fcb",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(noClient.status).toBe(401);
    expect(noClient.json).toEqual({
      error: "invalid_client",
      error_description: "Client authentication with HTTP Basic is required",
    });
    expect(noClient.headers.get("cache-control")).toBe("no-store");
    const notObject = await p.request("POST", "/oauth/token", { body: ["grant_type"] });
    expect(notObject.status).toBe(400);
    expect(notObject.json).toEqual({ error: "invalid_request", error_description: "The request body is malformed" });
  });

  it("the developer's and the sign-in answers are what the document says they are", async () => {
    const check = responseChecker(await platformDocP);
    const email = `doc-check-${Date.now()}@example.test`;
    const registered = await p.request("POST", "/auth/register", {
      body: { email, password: "a long enough passphrase", name: "Doc Check", role: "DEVELOPER" },
    });
    check("/auth/register", "POST", registered.status, registered.json);
    const login = await p.request("POST", "/auth/login", { body: { email, password: "a long enough passphrase" } });
    check("/auth/login", "POST", login.status, login.json);
    const t = login.json.token as string;
    const created = await p.request("POST", "/developer/apps", {
      token: t,
      body: appBody({ slug: `doc-check-${Date.now()}` }),
    });
    check("/developer/apps", "POST", created.status, created.json);
    const id = created.json.id as string;
    const calls: [string, string, string, unknown?][] = [
      ["GET", "/developer/apps", "/developer/apps"],
      ["GET", `/developer/apps/${id}`, "/developer/apps/{appId}"],
      ["PATCH", `/developer/apps/${id}`, "/developer/apps/{appId}", { name: "Renamed" }],
      ["PUT", `/developer/apps/${id}/manifest?dryRun=true`, "/developer/apps/{appId}/manifest", {}],
      ["POST", `/developer/apps/${id}/client-secret`, "/developer/apps/{appId}/client-secret"],
      ["POST", `/developer/apps/${id}/test-install`, "/developer/apps/{appId}/test-install"],
      ["GET", `/developer/apps/${id}/test-status`, "/developer/apps/{appId}/test-status"],
      ["POST", `/developer/apps/${id}/trigger`, "/developer/apps/{appId}/trigger", { event: "order.created" }],
      ["GET", `/developer/apps/${id}/analytics`, "/developer/apps/{appId}/analytics"],
      ["GET", `/developer/apps/${id}/reviews`, "/developer/apps/{appId}/reviews"],
      ["POST", `/developer/apps/${id}/test-uninstall`, "/developer/apps/{appId}/test-uninstall"],
      ["POST", `/developer/apps/${id}/submit`, "/developer/apps/{appId}/submit", { releaseNotes: "First" }],
      ["GET", `/developer/apps/missing`, "/developer/apps/{appId}"],
    ];
    for (const [method, address, path, body] of calls) {
      const res = await p.request(method, address, { token: t, body });
      expect(res.status, `${method} ${address}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      check(path, method, res.status, res.json);
    }
  });
});

describe("both documents say everything the server does (issue 31)", () => {
  const platformDocP = p.request("GET", "/developer/openapi.json").then((r) => r.json);
  type Op = { requestBody?: unknown; responses: Record<string, { headers?: Record<string, unknown> }> };
  const operationsOf = (d: { paths: Record<string, Record<string, Op>> }) =>
    Object.entries(d.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
    );

  it("declares 413 on every operation with a body, Retry-After on every 429, the rate headers on every App API answer but 401, and a license", async () => {
    const platformDoc = await platformDocP;
    for (const d of [doc, platformDoc]) {
      expect(d.info.license).toEqual({ name: "MIT", identifier: "MIT" });
      for (const { where, op } of operationsOf(d)) {
        // an upload (multipart) answers 400 past its own limit, not 413 (contract 20)
        if (
          op.requestBody &&
          !where.startsWith("GET /oauth/authorize") &&
          !(op.requestBody as { content: Record<string, unknown> }).content["multipart/form-data"]
        )
          expect(op.responses, where).toHaveProperty("413");
        if (op.responses["429"]) expect(op.responses["429"].headers, where).toHaveProperty("Retry-After");
      }
    }
    for (const { where, op } of operationsOf(doc))
      for (const [status, answer] of Object.entries(op.responses))
        expect(Object.keys(answer.headers ?? {}), `${where} ${status}`).toEqual(
          // every answer names its API version (contract 12); all but 401 carry the window's figures
          status === "401"
            ? ["Api-Version"]
            : [
                "Api-Version",
                "X-RateLimit-Limit",
                "X-RateLimit-Remaining",
                "X-RateLimit-Reset",
                ...(status === "429" ? ["Retry-After"] : []),
              ],
        );
  });

  it("declares /oauth/token's required fields, its one grant type and both bodies; trigger's events; the approval's criteria; /oauth/authorize", async () => {
    const platformDoc = await platformDocP;
    const schemas = platformDoc.components.schemas;
    const tokenRequest = schemas.OAuthTokenRequest;
    expect(tokenRequest.required).toEqual(["grant_type", "code", "redirect_uri"]);
    expect(tokenRequest.properties.grant_type.enum).toEqual(["authorization_code"]);
    expect(schemas.TriggerRequest.properties.event.enum).toEqual(
      expect.arrayContaining([...EVENT_NAMES, "app.uninstalled"]),
    );
    expect(schemas.AppApproval.properties.criteria.items.enum).toEqual(REVIEW_CRITERIA_KEYS);
    const authorize = platformDoc.paths["/oauth/authorize"].get;
    expect(
      authorize.parameters.filter((q: { required: boolean }) => q.required).map((q: { name: string }) => q.name),
    ).toEqual(["response_type", "client_id", "redirect_uri", "state"]);
    expect(Object.keys(authorize.responses["200"].content)).toEqual(["text/html"]);
  });

  it("the server sends what they declare: 413 past 1 MiB, rate headers on a 4xx, a JSON token request read as the form is", async () => {
    const dev = await p.register("DEVELOPER");
    const big = JSON.stringify({ title: "x".repeat(1024 * 1024 + 10), isPublished: false, blocks: [] });
    const merchant = await p.register("MERCHANT");
    const tooBig = await p.request("PUT", "/merchant/pages/home", {
      token: merchant.token,
      raw: big,
      headers: { "Content-Type": "application/json" },
    });
    expect(tooBig.status).toBe(413);
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ scopes: ["read_products"] }),
    });
    const install = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
    const res = await fetch(`${p.url}/app-api/orders`, {
      headers: { Authorization: `Bearer ${install.json.accessToken}` },
    });
    expect(res.status).toBe(403);
    for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"])
      expect(res.headers.get(name), name).toMatch(/^\d+$/);
    // JSON is read as the form is: a bad client is 401 invalid_client either way
    const basic = "Basic " + Buffer.from(`${created.json.clientId}:wrong`).toString("base64");
    for (const [type, body] of [
      [
        "application/json",
        JSON.stringify({ grant_type: "authorization_code", code: "x", redirect_uri: "http://localhost:4000/cb" }),
      ],
      [
        "application/x-www-form-urlencoded",
        "grant_type=authorization_code&code=x&redirect_uri=http%3A%2F%2Flocalhost%3A4000%2Fcb",
      ],
    ]) {
      const token = await fetch(`${p.url}/oauth/token`, {
        method: "POST",
        headers: { Authorization: basic, "Content-Type": type },
        body,
      });
      expect([token.status, (await token.json()).error], type).toEqual([401, "invalid_client"]);
    }
  });
});
