/**
 * Secrets at rest: after accounts, apps, test installs, OAuth installs and webhook registrations
 * exist, the whole database, dumped as text, holds no password, client secret, access token,
 * authorization code or webhook secret in the clear (nor their base64 or hex spellings); webhook
 * and client secrets are AES-256-GCM ciphertext ("v1.") that opens with ENCRYPTION_KEY and with no
 * other key.
 */
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { REVIEW_CRITERIA_KEYS, SCOPE_NAMES } from "../shapes/app-catalog";
import { decrypt, sha256 } from "../core/crypto.server";
import { accounts, apps, installations, webhooks } from "../../../db/schema";

const p = await startPlatform();

type Secret = { kind: string; value: string };
const secrets: Secret[] = [];
const keep = (kind: string, value: unknown) => {
  expect(typeof value, kind).toBe("string");
  expect((value as string).length, kind).toBeGreaterThan(8);
  secrets.push({ kind, value: value as string });
  return value as string;
};

async function register(role: "DEVELOPER" | "MERCHANT") {
  const password = keep(`${role} password`, `pw-${randomBytes(12).toString("base64url")}`);
  const email = `${role.toLowerCase()}-${randomBytes(5).toString("hex")}@example.test`;
  const res = await p.request("POST", "/auth/register", {
    body: { email, password, name: role, role, ...(role === "MERCHANT" ? { businessName: "Secret shop" } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return { token: res.json.token as string, businessId: res.json.businessId as string, email, password };
}

const reviewer = await p.createUser("REVIEWER");
const dev = await register("DEVELOPER");
const merchant = await register("MERCHANT");

// apps: the secret shown at creation, and a regenerated one
const created = await p.request("POST", "/developer/apps", {
  token: dev.token,
  body: appBody({ scopes: SCOPE_NAMES, webhookUrl: "https://hooks.example/in", webhookEvents: ["order.created"] }),
});
const app = created.json;
keep("client secret (first)", app.clientSecret);
const regenerated = await p.request("POST", `/developer/apps/${app.id}/client-secret`, { token: dev.token });
const clientSecret = keep("client secret (regenerated)", regenerated.json.clientSecret);

// a test install: access token and webhook secret
const testInstall = await p.request("POST", `/developer/apps/${app.id}/test-install`, { token: dev.token });
expect(testInstall.status).toBe(201);
keep("test access token", testInstall.json.accessToken);
keep("test webhook secret", testInstall.json.webhookSecret);

// an OAuth install by a merchant, through the consent screen and the token endpoint
await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
expect(
  (
    await p.request("POST", `/review/apps/${app.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    })
  ).json.status,
).toBe("APPROVED");
const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
const consent = await browser.get(
  `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl, state: "s" })}`,
);
const approved = await browser.post("/oauth/authorize", { ...hiddenFields(consent.html), decision: "approve" });
const code = keep("authorization code", new URL(approved.location!).searchParams.get("code"));
const exchange = await fetch(p.url + "/oauth/token", {
  method: "POST",
  headers: {
    Authorization: `Basic ${Buffer.from(`${app.clientId}:${clientSecret}`).toString("base64")}`,
    "Content-Type": "application/x-www-form-urlencoded",
  },
  body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUrl }),
});
const tokens = await exchange.json();
expect(exchange.status, JSON.stringify(tokens)).toBe(200);
const accessToken = keep("OAuth access token", tokens.access_token);
const installWebhookSecret = keep("OAuth webhook secret", tokens.webhook_secret);

// registrations made with POST /webhooks get secrets of their own
const registered: string[] = [];
for (const token of [accessToken, testInstall.json.accessToken]) {
  const res = await p.request("POST", "/webhooks", {
    token,
    body: { url: "https://hooks.example/extra", events: ["order.created"] },
  });
  expect(res.status, res.text).toBe(201);
  registered.push(res.json.id);
  keep("POST /webhooks secret", res.json.secret);
}
// a JWT of a signed-in account, for good measure
keep("account JWT", dev.token);
// the browser session's id (inside the signed cookie; the sessions table keeps its hash)
{
  const cookie = decodeURIComponent(browser.cookies.get("__session")!);
  keep(
    "browser session id",
    JSON.parse(Buffer.from(cookie.slice(0, cookie.lastIndexOf(".")), "base64").toString("utf8")).sid,
  );
}

/** Every row of every table of every schema the platform writes (public and graphile_worker), as text. */
async function dumpDatabase(): Promise<{ tables: string[]; text: string }> {
  const tables = await p.db.execute<{ schema: string; name: string }>(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`);
  const parts: string[] = [];
  for (const t of tables) {
    const [row] = await p.db.execute<{ dump: string | null }>(
      sql.raw(`select string_agg(t::text, E'\\n') as dump from "${t.schema}"."${t.name}" t`),
    );
    parts.push(`-- ${t.schema}.${t.name}\n${row.dump ?? ""}`);
  }
  return { tables: tables.map((t) => `${t.schema}.${t.name}`), text: parts.join("\n") };
}

describe("secrets at rest", () => {
  it("no password, client secret, access token, code or webhook secret is stored in the clear", async () => {
    const { tables, text } = await dumpDatabase();
    // the dump really covers the platform's data
    for (const table of [
      "public.accounts",
      "public.apps",
      "public.installations",
      "public.webhooks",
      "public.oauth_codes",
      "graphile_worker._private_jobs",
    ])
      expect(tables).toContain(table);
    expect(text).toContain(dev.email);
    expect(text).toContain(app.clientId);
    expect(text).toContain(testInstall.json.installationId);
    expect(secrets.length).toBeGreaterThanOrEqual(12);

    for (const { kind, value } of secrets) {
      const body = value.replace(/^(fbcs_|fbat_test_|fbat_|whsec_test_|whsec_|pw-)/, "");
      const spellings = [
        value,
        body,
        Buffer.from(value).toString("base64"),
        Buffer.from(value).toString("base64url"),
        Buffer.from(value).toString("hex"),
      ];
      // the random part decoded from base64url, as hex (a secret stored as raw bytes)
      if (/^[A-Za-z0-9_-]+$/.test(body) && body.length >= 16)
        spellings.push(Buffer.from(body, "base64url").toString("hex"));
      for (const spelling of spellings)
        expect(text.includes(spelling), `${kind} found in the database as ${spelling.slice(0, 12)}…`).toBe(false);
    }
  });

  it("passwords are scrypt hashes; client secrets, tokens and codes are SHA-256 hashes", async () => {
    const [devRow] = await p.db.select().from(accounts).where(eq(accounts.email, dev.email));
    expect(devRow.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    const [appRow] = await p.db.select().from(apps).where(eq(apps.id, app.id));
    expect(appRow.clientSecretHash).toBe(sha256(clientSecret));
    const [oauthInstall] = await p.db.select().from(installations).where(eq(installations.id, tokens.installation_id));
    expect(oauthInstall.accessTokenHash).toBe(sha256(accessToken));
    const [testRow] = await p.db
      .select()
      .from(installations)
      .where(eq(installations.id, testInstall.json.installationId));
    expect(testRow.accessTokenHash).toBe(sha256(testInstall.json.accessToken));
    const [codeRow] = await p.db.execute<{ code_hash: string }>(
      sql`select code_hash from oauth_codes where app_id = ${app.id}`,
    );
    expect(codeRow.code_hash).toBe(sha256(code));
  });

  it("webhook and client secrets are AES-256-GCM ciphertext that opens with ENCRYPTION_KEY only", async () => {
    const otherKey = randomBytes(32);
    const sealed: { kind: string; enc: string; plain: string }[] = [];
    const [oauthInstall] = await p.db.select().from(installations).where(eq(installations.id, tokens.installation_id));
    sealed.push({
      kind: "OAuth installation webhook secret",
      enc: oauthInstall.webhookSecretEnc,
      plain: installWebhookSecret,
    });
    const [testRow] = await p.db
      .select()
      .from(installations)
      .where(eq(installations.id, testInstall.json.installationId));
    sealed.push({
      kind: "test installation webhook secret",
      enc: testRow.webhookSecretEnc,
      plain: testInstall.json.webhookSecret,
    });
    const secretOf = (id: string) =>
      secrets.filter((s) => s.kind === "POST /webhooks secret")[registered.indexOf(id)].value;
    for (const id of registered) {
      const [row] = await p.db.select().from(webhooks).where(eq(webhooks.id, id));
      sealed.push({ kind: `registration ${id}`, enc: row.secretEnc, plain: secretOf(id) });
    }
    // the install registrations share their installation's secret
    const installRegs = await p.db.select().from(webhooks).where(eq(webhooks.isInstallDefault, true));
    expect(installRegs.length).toBe(2);
    for (const row of installRegs)
      sealed.push({
        kind: `install registration ${row.id}`,
        enc: row.secretEnc,
        plain: row.installationId === tokens.installation_id ? installWebhookSecret : testInstall.json.webhookSecret,
      });
    const [appRow] = await p.db.select().from(apps).where(eq(apps.id, app.id));
    sealed.push({
      kind: "client secret (for admin page session tokens)",
      enc: appRow.clientSecretEnc!,
      plain: clientSecret,
    });

    const ivs = new Set<string>();
    for (const { kind, enc, plain } of sealed) {
      expect(enc, kind).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
      expect(enc.includes(plain), kind).toBe(false);
      expect(decrypt(enc, p.env.encryptionKey), kind).toBe(plain);
      expect(() => decrypt(enc, otherKey), kind).toThrow();
      // a changed byte of the ciphertext is detected (GCM's tag)
      const [v, iv, tag, data] = enc.split(".");
      const flipped = Buffer.from(data, "base64url");
      flipped[0] ^= 1;
      expect(() => decrypt([v, iv, tag, flipped.toString("base64url")].join("."), p.env.encryptionKey), kind).toThrow();
      ivs.add(`${iv}:${data}`);
    }
    // every encryption uses a fresh IV (the shared install-registration secrets are copies of one ciphertext)
    expect(ivs.size).toBe(new Set(sealed.map((s) => s.enc)).size);
  });
});
