/**
 * Hostile input against every JSON endpoint family, with fast-check: random JSON values, random
 * text, wrong types, huge strings (under 1 MiB), unicode (NUL, unpaired surrogates, RTL marks),
 * prototype-pollution keys and nested objects. Whatever comes in: never a 5xx, every 4xx carries the
 * contract's error body ({statusCode, message, error}; RFC 6749's {error, error_description} at
 * /oauth/token), and a refused request changes nothing. Bodies over 1 MiB answer 413 (declared or
 * chunked), JSON nested 10,000 deep answers 400.
 */
import { describe, expect, it, afterAll } from "vitest";
import { STATUS_CODES } from "node:http";
import { createHash, randomBytes } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { readAnswer, startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { REVIEW_CRITERIA_KEYS, SCOPE_NAMES } from "../shapes/app-catalog";
import { signJwt } from "../core/crypto.server";
import {
  accounts,
  apps,
  embedSettings,
  extensions,
  installations,
  oauthCodes,
  orders,
  pages,
  webhooks,
} from "../../../db/schema";
import { chatEmbed, starsBlock } from "../testing/manifests";
import { tamper } from "../testing/tamper";

// a high App API limit, so that the properties exercise the handlers rather than the 429 path
const p = await startPlatform({ env: { APP_API_RATE_LIMIT: "1000000" } });
const PASSWORD = "correct horse battery";
const POLLUTION_MARK = "hostilePolluted";
const RUNS = 50;

// ---- the objects the endpoints act on ----
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");
const draft = (await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() })).json;
const inReview = (await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() })).json;
await p.request("POST", `/developer/apps/${inReview.id}/submit`, { token: dev.token });

const apiApp = (
  await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({ scopes: SCOPE_NAMES }) })
).json;
const testInstall = (await p.request("POST", `/developer/apps/${apiApp.id}/test-install`, { token: dev.token })).json;
const appToken = testInstall.accessToken as string;
const [sandboxIds] = await p.db.execute<{ product: string; pending: string }>(sql`
  select (select id from products where business_id = ${dev.businessId} and stock is null and status = 'ACTIVE' and is_available order by created_at limit 1) as product,
         (select id from orders where business_id = ${dev.businessId} and status = 'PENDING' order by created_at limit 1) as pending`);
const ownWebhook = (
  await p.request("POST", "/webhooks", {
    token: appToken,
    body: { url: "https://hooks.example/in", events: ["order.created"] },
  })
).json;

const manifest = {
  settingsSchema: {
    type: "object",
    properties: { greeting: { type: "string", maxLength: 50 } },
    additionalProperties: false,
  },
  blocks: [starsBlock({ settingsSchema: { type: "object", properties: { title: { type: "string" } } } })],
  embeds: [
    chatEmbed({ settingsSchema: { type: "object", properties: { color: { type: "string", format: "color" } } } }),
  ],
};
const publishedCreate = await p.request("POST", "/developer/apps", {
  token: dev.token,
  body: appBody({ scopes: ["read_business"], manifest }),
});
const published = { ...publishedCreate.json, clientSecret: publishedCreate.json.clientSecret as string };
await p.request("POST", `/developer/apps/${published.id}/submit`, { token: dev.token });
await p.request("POST", `/review/apps/${published.id}/approve`, {
  token: reviewer.token,
  body: { criteria: REVIEW_CRITERIA_KEYS },
});

const merchant = await p.register("MERCHANT");
const merchantBrowser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
const verifier = randomBytes(32).toString("base64url");
const challenge = createHash("sha256").update(verifier).digest("base64url");
const consent = await merchantBrowser.get(
  `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: published.clientId, redirect_uri: published.redirectUrl, state: "s", code_challenge: challenge, code_challenge_method: "S256" })}`,
);
const approved = await merchantBrowser.post("/oauth/authorize", { ...hiddenFields(consent.html), decision: "approve" });
const pkceCode = new URL(approved.location!).searchParams.get("code")!;
const installationId = (await p.request("GET", "/merchant/installations", { token: merchant.token })).json.data[0]
  .installationId as string;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
const goodBasic = basic(published.clientId, published.clientSecret);

// ---- generators ----
const unicode = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udc00y",
    "\u202eevil",
    "\ufeff",
    "😀",
    "Ω≈ç√",
    "'; drop table apps; --",
    "${7*7}",
    "{{7*7}}",
    "../../etc/passwd",
    "%00",
    "<script>alert(1)</script>",
    "__proto__",
    "constructor",
  ),
);
const huge = fc.integer({ min: 10_000, max: 900_000 }).map((n) => "x".repeat(n));
const leaf = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), unicode);
const anyJson = fc.jsonValue({ maxDepth: 4 });
const wrongValue = fc.oneof(
  leaf,
  fc.array(leaf, { maxLength: 5 }),
  fc.dictionary(unicode, leaf, { maxKeys: 4 }),
  anyJson,
  huge,
);
const nested = fc.integer({ min: 5, max: 30 }).map((depth) => {
  let v: unknown = "bottom";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});

/** Raw JSON text with prototype-pollution keys merged into a valid body (JSON.stringify cannot write __proto__ as a key). */
const pollution = (valid: Record<string, unknown>) =>
  fc.constantFrom(
    `{"__proto__": {"${POLLUTION_MARK}": true}, ${JSON.stringify(valid).slice(1)}`,
    `{"constructor": {"prototype": {"${POLLUTION_MARK}": true}}, ${JSON.stringify(valid).slice(1)}`,
    `{"__proto__": {"${POLLUTION_MARK}": true}}`,
    `[{"__proto__": {"${POLLUTION_MARK}": true}}]`,
    JSON.stringify(
      Object.fromEntries(
        Object.keys(valid).map((k) => [
          k,
          JSON.parse(
            `{"__proto__": {"${POLLUTION_MARK}": true}, "constructor": {"prototype": {"${POLLUTION_MARK}": 1}}}`,
          ),
        ]),
      ),
    ),
  );

/** Bodies as raw text: random JSON, random text, one field of a valid body replaced by a wrong/huge/unicode/nested value, pollution. */
function hostileBodies(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  const replaced = (values: fc.Arbitrary<unknown>) =>
    fc.tuple(fc.constantFrom(...keys), values).map(([k, v]) => JSON.stringify({ ...valid, [k]: v }));
  return fc.oneof(
    anyJson.map((v) => JSON.stringify(v)),
    unicode,
    fc.string({ maxLength: 60 }),
    replaced(wrongValue),
    replaced(huge),
    replaced(unicode),
    replaced(nested),
    fc.tuple(unicode, wrongValue).map(([k, v]) => JSON.stringify({ ...valid, [k]: v })),
    pollution(valid),
  );
}

/** Percent-encodes every UTF-8 byte (unpaired surrogates become U+FFFD, as a browser would send them). */
const pct = (s: string) =>
  [...Buffer.from(s, "utf8")].map((b) => "%" + b.toString(16).toUpperCase().padStart(2, "0")).join("");
/** What an HTTP header can carry (fetch refuses NUL, CR, LF and characters above U+00FF). */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e\x80-\xff]/g, "");

// ---- checks ----
type Answer = { status: number; text: string; json: any };

async function send(
  method: string,
  path: string,
  raw: string | undefined,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(p.url + path, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: raw,
    redirect: "manual",
  });
  return readAnswer(res);
}

/** Never a 5xx; a 4xx carries the contract's body. */
function expectContractAnswer(res: Answer, where: string) {
  if (res.status >= 500) throw new Error(`${where} answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status >= 400)
    expect(res.json, `${where}: ${res.text.slice(0, 200)}`).toEqual({
      statusCode: res.status,
      message: expect.any(String),
      error: STATUS_CODES[res.status],
    });
}

function expectOAuthAnswer(res: Answer, where: string) {
  if (res.status >= 500) throw new Error(`${where} answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status >= 400)
    expect(res.json, `${where}: ${res.text.slice(0, 200)}`).toEqual({
      error: expect.stringMatching(/^[a-z_]+$/),
      error_description: expect.any(String),
    });
}

/**
 * The property of one endpoint: whatever the body, the answer keeps the contract, and a refused
 * request leaves `snapshot()` as it was.
 */
async function fuzz(
  method: string,
  path: string | (() => string),
  token: string,
  valid: Record<string, unknown>,
  snapshot: () => Promise<unknown>,
  options: { onSuccess?: () => Promise<void>; runs?: number } = {},
) {
  let refused = 0;
  // besides the random runs: every field once with NUL and once with an unpaired surrogate
  const examples: [string][] = Object.keys(valid).flatMap(
    (k) =>
      [[JSON.stringify({ ...valid, [k]: "a\u0000b" })], [JSON.stringify({ ...valid, [k]: "x\ud800" })]] as [string][],
  );
  await fc.assert(
    fc.asyncProperty(hostileBodies(valid), async (raw) => {
      const target = typeof path === "function" ? path() : path;
      const before = await snapshot();
      const res = await send(method, target, raw, { Authorization: `Bearer ${token}` });
      expectContractAnswer(res, `${method} ${target} ${raw.slice(0, 120)}`);
      if (res.status >= 400) {
        refused++;
        expect(await snapshot(), `${method} ${target} changed state on ${res.status} for ${raw.slice(0, 120)}`).toEqual(
          before,
        );
      } else await options.onSuccess?.();
    }),
    { numRuns: options.runs ?? RUNS, examples },
  );
  // the property ran into refusals (random bodies are almost never valid)
  expect(refused).toBeGreaterThan(0);
}

const tableCount = async (table: typeof accounts | typeof apps | typeof orders | typeof webhooks | typeof pages) =>
  (await p.db.select({ n: count() }).from(table))[0].n;

afterAll(() => {
  // the server runs in this process: no request may have polluted Object.prototype
  expect(({} as Record<string, unknown>)[POLLUTION_MARK]).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, POLLUTION_MARK)).toBe(false);
});

describe("accounts", () => {
  it("POST /auth/register", async () => {
    const valid = {
      email: `fuzz-${randomBytes(4).toString("hex")}@example.test`,
      password: "long enough password",
      name: "Fuzz",
      role: "MERCHANT",
      businessName: "Fuzz shop",
    };
    await fuzz("POST", "/auth/register", "", valid, async () => [
      await tableCount(accounts),
      (await p.db.execute(sql`select count(*)::int as n from businesses`))[0],
    ]);
  }, 60_000);

  it("POST /auth/login", async () => {
    const valid = { email: dev.email, password: "not the password" };
    await fuzz("POST", "/auth/login", "", valid, async () => tableCount(accounts), { runs: 40 });
  }, 60_000);
});

describe("developer endpoints", () => {
  it("POST /developer/apps", async () => {
    await fuzz("POST", "/developer/apps", dev.token, appBody({ slug: "fuzzed-app" }), () => tableCount(apps));
  }, 60_000);

  it("PATCH /developer/apps/<id>", async () => {
    const row = async () => (await p.db.select().from(apps).where(eq(apps.id, draft.id)))[0];
    await fuzz(
      "PATCH",
      `/developer/apps/${draft.id}`,
      dev.token,
      {
        name: "Renamed",
        description: "New words",
        iconUrl: "https://icons.example/a.png",
        screenshots: ["https://shots.example/1.png"],
      },
      row,
    );
  }, 60_000);

  it("PUT /developer/apps/<id>/manifest, with and without dryRun", async () => {
    const state = async () => [
      (
        await p.db
          .select({ manifest: apps.manifest, updatedAt: apps.updatedAt })
          .from(apps)
          .where(eq(apps.id, draft.id))
      )[0],
      await p.db.select().from(extensions).where(eq(extensions.appId, draft.id)),
    ];
    const valid = {
      blocks: [{ blockType: "stars", name: "Stars", renderUrl: "https://app.example/stars" }],
      embeds: [],
      hooks: [{ hookPoint: "order.validate", url: "/validate" }],
      adminPages: [],
    };
    await fuzz("PUT", `/developer/apps/${draft.id}/manifest?dryRun=true`, dev.token, valid, state);
    await fuzz("PUT", `/developer/apps/${draft.id}/manifest`, dev.token, valid, state);
  }, 90_000);
});

describe("review endpoints", () => {
  it("POST /review/apps/<id>/reject", async () => {
    const row = async () => (await p.db.select().from(apps).where(eq(apps.id, inReview.id)))[0];
    // a valid rejection sends the app back to DRAFT: submit it again so that the next run meets it in review
    await fuzz("POST", `/review/apps/${inReview.id}/reject`, reviewer.token, { notes: "Please fix the icon." }, row, {
      onSuccess: async () =>
        void (await p.request("POST", `/developer/apps/${inReview.id}/submit`, { token: dev.token })),
    });
  }, 60_000);
});

describe("merchant endpoints", () => {
  const installationState = async () => [
    (await p.db.select().from(installations).where(eq(installations.id, installationId)))[0],
    await p.db.select().from(embedSettings).where(eq(embedSettings.installationId, installationId)),
  ];

  it("PUT /merchant/installations/<id>/settings", async () => {
    await fuzz(
      "PUT",
      `/merchant/installations/${installationId}/settings`,
      merchant.token,
      { greeting: "Hello" },
      installationState,
    );
  }, 60_000);

  it("PUT /merchant/installations/<id>/embeds/<type>", async () => {
    await fuzz(
      "PUT",
      `/merchant/installations/${installationId}/embeds/chat`,
      merchant.token,
      { enabled: true, settings: { color: "#ff0000" } },
      installationState,
    );
  }, 60_000);

  it("POST /merchant/installations/<id>/consent", async () => {
    await fc.assert(
      fc.asyncProperty(hostileBodies({ approve: true }), async (raw) => {
        const res = await send("POST", `/merchant/installations/${installationId}/consent`, raw, {
          Authorization: `Bearer ${merchant.token}`,
        });
        expectContractAnswer(res, `consent ${raw.slice(0, 100)}`);
      }),
      { numRuns: 30 },
    );
  }, 60_000);

  it("PUT /merchant/pages/<slug>", async () => {
    const pagesOf = async () =>
      p.db.select().from(pages).where(eq(pages.businessId, merchant.businessId)).orderBy(pages.slug);
    const valid = {
      title: "Summer menu",
      isPublished: true,
      blocks: [
        { kind: "builtin", type: "heading", settings: { text: "Hi" } },
        { kind: "builtin", type: "image", settings: { url: "https://img.example/a.png", alt: "" } },
        { kind: "app", type: "stars", appId: published.id, settings: { title: "Stars" } },
      ],
    };
    await fuzz("PUT", "/merchant/pages/summer", merchant.token, valid, pagesOf);
    // hostile slugs in the path as well
    await fc.assert(
      fc.asyncProperty(unicode, async (slug) => {
        const before = await pagesOf();
        const res = await send("PUT", `/merchant/pages/${pct(slug)}`, JSON.stringify(valid), {
          Authorization: `Bearer ${merchant.token}`,
        });
        expectContractAnswer(res, `PUT /merchant/pages/${slug}`);
        if (res.status >= 400) expect(await pagesOf()).toEqual(before);
      }),
      { numRuns: 40 },
    );
  }, 90_000);
});

describe("POST /oauth/token", () => {
  const tokenState = async () => [
    (
      await p.db
        .select({ hash: installations.accessTokenHash })
        .from(installations)
        .where(eq(installations.id, installationId))
    )[0],
    await p.db.select({ usedAt: oauthCodes.usedAt }).from(oauthCodes).where(eq(oauthCodes.appId, published.id)),
  ];

  it("random Basic headers and random form or JSON bodies", async () => {
    const header = fc.oneof(
      fc.constant(goodBasic),
      fc.tuple(unicode, unicode).map(([id, secret]) => basic(id, secret)),
      unicode.map((s) => `Basic ${Buffer.from(s).toString("base64")}`),
      unicode.map((s) => `Basic ${headerSafe(s)}`),
      fc.tuple(fc.constant(published.clientId), unicode).map(([id, s]) => basic(id, s)),
      fc
        .tuple(unicode, fc.constant(published.clientSecret))
        .map(([id, s]) => basic(encodeURIComponent(id.replace(/[\uD800-\uDFFF]/g, "?")), s)),
      fc.constant(basic(`${published.clientId}%00`, published.clientSecret)),
      fc.constant(basic(`${published.clientId}\u0000`, published.clientSecret)),
      fc.constant(undefined),
    );
    const validFields = {
      grant_type: "authorization_code",
      code: pkceCode,
      redirect_uri: published.redirectUrl,
      code_verifier: "wrong",
    };
    const form = fc.oneof(
      fc
        .dictionary(
          fc.oneof(
            fc.constantFrom("grant_type", "code", "redirect_uri", "code_verifier", "__proto__", "constructor"),
            unicode,
          ),
          unicode,
          { maxKeys: 6 },
        )
        .map((d) => new URLSearchParams(d).toString()),
      fc
        .tuple(fc.constantFrom(...Object.keys(validFields)), unicode)
        .map(([k, v]) => new URLSearchParams({ ...validFields, [k]: v }).toString()),
      unicode,
    );
    const body = fc.oneof(
      form.map((raw) => ({ raw, type: "application/x-www-form-urlencoded" })),
      hostileBodies(validFields).map((raw) => ({ raw, type: "application/json" })),
    );
    await fc.assert(
      fc.asyncProperty(header, body, async (authorization, { raw, type }) => {
        const before = await tokenState();
        const res = await send("POST", "/oauth/token", raw, {
          "Content-Type": type,
          ...(authorization ? { Authorization: authorization } : {}),
        });
        expectOAuthAnswer(res, `token ${authorization} ${raw.slice(0, 100)}`);
        expect(res.status).not.toBe(200);
        expect(await tokenState()).toEqual(before);
      }),
      { numRuns: 80 },
    );
  }, 60_000);

  it("a valid client and code with a code_verifier of any JSON type is invalid_grant, and the code stays unused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(wrongValue, fc.constant(undefined)), async (codeVerifier) => {
        const res = await send(
          "POST",
          "/oauth/token",
          JSON.stringify({
            grant_type: "authorization_code",
            code: pkceCode,
            redirect_uri: published.redirectUrl,
            code_verifier: codeVerifier,
          }),
          { Authorization: goodBasic },
        );
        expectOAuthAnswer(res, `code_verifier ${JSON.stringify(codeVerifier)?.slice(0, 80)}`);
        expect(res.status).toBe(400);
        expect(res.json.error).toBe("invalid_grant");
      }),
      { numRuns: 40 },
    );
    const [code] = await p.db
      .select({ usedAt: oauthCodes.usedAt })
      .from(oauthCodes)
      .where(eq(oauthCodes.appId, published.id));
    expect(code.usedAt).toBeNull();
    // positive control: the right verifier exchanges the code
    const ok = await send(
      "POST",
      "/oauth/token",
      new URLSearchParams({
        grant_type: "authorization_code",
        code: pkceCode,
        redirect_uri: published.redirectUrl,
        code_verifier: verifier,
      }).toString(),
      { Authorization: goodBasic, "Content-Type": "application/x-www-form-urlencoded" },
    );
    expect(ok.status, ok.text).toBe(200);
  }, 60_000);
});

describe("App API", () => {
  it("POST /app-api/orders", async () => {
    const valid = {
      customer: { name: "Ann", phone: "+15550100", email: "ann@example.test" },
      items: [{ productId: sandboxIds.product, quantity: 1 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
      notes: "none",
    };
    await fuzz("POST", "/app-api/orders", appToken, valid, () => tableCount(orders));
  }, 60_000);

  it("PATCH /app-api/orders/<id>/status", async () => {
    const row = async () => (await p.db.select().from(orders).where(eq(orders.id, sandboxIds.pending)))[0];
    await fuzz("PATCH", `/app-api/orders/${sandboxIds.pending}/status`, appToken, { status: "CONFIRMED" }, row);
  }, 60_000);

  it("POST /app-api/orders/<id>/payment", async () => {
    const row = async () => (await p.db.select().from(orders).where(eq(orders.id, sandboxIds.pending)))[0];
    await fuzz(
      "POST",
      `/app-api/orders/${sandboxIds.pending}/payment`,
      appToken,
      { status: "COMPLETED", invoiceId: "inv_123" },
      row,
    );
  }, 60_000);
});

describe("/webhooks", () => {
  it("POST /webhooks", async () => {
    await fuzz(
      "POST",
      "/webhooks",
      appToken,
      { url: "https://hooks.example/new", events: ["order.created", "product.updated"], description: "fuzz" },
      () => tableCount(webhooks),
    );
  }, 60_000);

  it("PATCH /webhooks/<id>", async () => {
    const row = async () => (await p.db.select().from(webhooks).where(eq(webhooks.id, ownWebhook.id)))[0];
    await fuzz(
      "PATCH",
      `/webhooks/${ownWebhook.id}`,
      appToken,
      { url: "https://hooks.example/changed", events: ["order.created"], description: "changed", isActive: true },
      row,
    );
  }, 60_000);
});

describe("hostile paths", () => {
  it("ids with NUL, unpaired surrogates or odd characters answer 4xx in JSON, never 5xx", async () => {
    const calls: [string, (id: string) => string, string][] = [
      ["GET", (id) => `/app-api/products/${id}`, appToken],
      ["GET", (id) => `/app-api/products/slug/${id}`, appToken],
      ["GET", (id) => `/app-api/orders/${id}`, appToken],
      ["GET", (id) => `/app-api/pages/${id}`, appToken],
      ["GET", (id) => `/webhooks/${id}`, appToken],
      ["GET", (id) => `/developer/apps/${id}`, dev.token],
      ["GET", (id) => `/merchant/pages/${id}`, merchant.token],
      ["DELETE", (id) => `/merchant/installations/${id}`, merchant.token],
    ];
    const segment = fc.oneof(
      unicode.filter((s) => s.length > 0).map(pct),
      fc.constantFrom("%00", "a%00b", "%ED%A0%80", "%FF", "%C0%AF", "..%2F..%2Fetc", "%252e"),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...calls), segment, async ([method, path, token], id) => {
        const res = await send(method, path(id), undefined, { Authorization: `Bearer ${token}` });
        expectContractAnswer(res, `${method} ${path(id)}`);
      }),
      { numRuns: 80 },
    );
  }, 60_000);
});

describe("forged credentials", () => {
  it("a bearer JWT that is unsigned, re-signed, tampered, expired or for no account answers 401", async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const [header, payload, signature] = dev.token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const nowS = Math.floor(Date.now() / 1000);
    const forged = [
      `${b64({ alg: "none", typ: "JWT" })}.${payload}.`,
      `${b64({ alg: "none", typ: "JWT" })}.${payload}.${signature}`,
      `${b64({ alg: "HS512", typ: "JWT" })}.${payload}.${signature}`,
      `${header}.${b64({ ...claims, role: "REVIEWER" })}.${signature}`,
      `${header}.${b64({ ...claims, sub: merchant.account.id })}.${signature}`,
      tamper(`${header}.${payload}.${signature}`),
      await signJwt(
        { sub: dev.account.id, role: "DEVELOPER", businessId: dev.businessId },
        "not the platform's secret",
        3600,
        nowS,
      ),
      await signJwt(
        { sub: dev.account.id, role: "DEVELOPER", businessId: dev.businessId },
        p.env.sessionSecret,
        60,
        nowS - 3600,
      ),
      await signJwt(
        { sub: "acct_nobody", role: "DEVELOPER", businessId: dev.businessId },
        p.env.sessionSecret,
        3600,
        nowS,
      ),
      `${header}.${payload}`,
      "",
    ];
    for (const token of forged) {
      for (const path of ["/developer/apps", "/merchant/installations", "/review/apps"]) {
        const res = await send("GET", path, undefined, { Authorization: `Bearer ${token}` });
        expect(res.status, `${path} ${token.slice(0, 40)}`).toBe(401);
        expectContractAnswer(res, path);
      }
    }
    // positive control: the real token works
    expect((await send("GET", "/developer/apps", undefined, { Authorization: `Bearer ${dev.token}` })).status).toBe(
      200,
    );
  });

  it("an installation token that is unknown, altered or of another form answers 401", async () => {
    for (const token of [
      `fbat_${randomBytes(32).toString("base64url")}`,
      appToken.slice(0, -1) + (appToken.endsWith("A") ? "B" : "A"),
      appToken.toUpperCase(),
      ` ${appToken}x`,
      dev.token,
      published.clientSecret,
      "fbat_",
      "fbat_test_",
    ]) {
      for (const path of ["/app-api/business", "/webhooks"]) {
        const res = await send("GET", path, undefined, { Authorization: `Bearer ${token}` });
        expect(res.status, `${path} ${token.slice(0, 20)}`).toBe(401);
        expectContractAnswer(res, path);
      }
    }
    expect((await send("GET", "/app-api/business", undefined, { Authorization: `Bearer ${appToken}` })).status).toBe(
      200,
    );
  });
});

describe("bodies nobody reads", () => {
  it("a large body sent to an endpoint that takes none does not hang the connection", async () => {
    const big = JSON.stringify({ x: "x".repeat(600_000) });
    for (let i = 0; i < 6; i++) {
      for (const path of [
        `/developer/apps/${draft.id}/test-status`,
        `/developer/apps/nope/submit`,
        `/merchant/installations/${installationId}/consent`,
      ]) {
        const res = await fetch(p.url + path, {
          method: "POST",
          body: big,
          signal: AbortSignal.timeout(5_000),
          headers: {
            Authorization: `Bearer ${path.startsWith("/merchant") ? merchant.token : dev.token}`,
            "Content-Type": "application/json",
          },
        });
        expect([200, 404, 405]).toContain(res.status);
        await res.text();
      }
    }
  }, 60_000);
});

describe("size and depth limits", () => {
  const endpoints: [string, string, string | null][] = [
    ["POST", "/auth/register", null],
    ["POST", "/developer/apps", dev.token],
    ["PUT", `/merchant/pages/big`, merchant.token],
    ["POST", "/app-api/orders", appToken],
    ["POST", "/webhooks", appToken],
  ];
  const big = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) });

  it("a body over 1 MiB answers 413, declared or chunked, and stores nothing", async () => {
    const before = await Promise.all([
      tableCount(accounts),
      tableCount(apps),
      tableCount(pages),
      tableCount(orders),
      tableCount(webhooks),
    ]);
    for (const [method, path, token] of endpoints) {
      const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      const declared = await send(method, path, big, auth);
      expect(declared.status, `${path} declared`).toBe(413);
      expectContractAnswer(declared, path);
      const chunks = [Buffer.from(big.slice(0, 512 * 1024)), Buffer.from(big.slice(512 * 1024))];
      const stream = new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      const chunked = await fetch(p.url + path, {
        method,
        body: stream,
        headers: { "Content-Type": "application/json", ...auth },
        duplex: "half",
      } as RequestInit);
      expect(chunked.status, `${path} chunked`).toBe(413);
      expect(await chunked.json()).toMatchObject({ statusCode: 413, error: "Payload Too Large" });
    }
    // the token endpoint answers in RFC 6749 form
    const declared = await send("POST", "/oauth/token", big, { Authorization: goodBasic });
    expect(declared.status).toBe(413);
    expectOAuthAnswer(declared, "/oauth/token declared");
    const chunks = [Buffer.from(big)];
    const chunked = await fetch(p.url + "/oauth/token", {
      method: "POST",
      body: new ReadableStream({ pull: (c) => (chunks.length ? c.enqueue(chunks.shift()) : c.close()) }),
      headers: { "Content-Type": "application/json", Authorization: goodBasic },
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    expect(
      await Promise.all([
        tableCount(accounts),
        tableCount(apps),
        tableCount(pages),
        tableCount(orders),
        tableCount(webhooks),
      ]),
    ).toEqual(before);
  }, 60_000);

  it("JSON nested 10,000 deep answers 400", async () => {
    const deepObject = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
    const deepArray = "[".repeat(10_000) + "]".repeat(10_000);
    for (const [method, path, token] of [
      ...endpoints,
      ["PATCH", `/developer/apps/${draft.id}`, dev.token],
      ["PUT", `/developer/apps/${draft.id}/manifest`, dev.token],
      ["POST", "/auth/login", null],
      ["PATCH", `/webhooks/${ownWebhook.id}`, appToken],
    ] as [string, string, string | null][]) {
      for (const raw of [deepObject, deepArray]) {
        const res = await send(method, path, raw, token ? { Authorization: `Bearer ${token}` } : {});
        expect(res.status, `${method} ${path}`).toBe(400);
        expectContractAnswer(res, path);
      }
    }
    for (const raw of [deepObject, deepArray]) {
      const res = await send("POST", "/oauth/token", raw, { Authorization: goodBasic });
      expect(res.status).toBe(400);
      expectOAuthAnswer(res, "/oauth/token deep");
    }
  }, 60_000);
});
