/**
 * The site builder's live preview (decision 017): the preview token (valid, expired, another
 * business or page, tampered with, another key) and the preview page's answers on the storefront's
 * origin (401/403 without a valid token; framed by the platform's origin only; never cached; no
 * platform cookie; app blocks in the editor with a session token; no embed's script).
 */
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { signJwt } from "../core/crypto.server";
import { setClockOffset } from "../core/clock.server";
import { createProduct, productSchema } from "../catalog/products.server";
import { savePage } from "./merchant.server";
import {
  PREVIEW_AUDIENCE,
  PREVIEW_TTL_SECONDS,
  previewUrl,
  signPreviewToken,
  verifyPreviewToken,
} from "./preview.server";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";
import { tamper } from "../testing/tamper";

const p = await startPlatform();
const merchant = await p.register("MERCHANT");
const other = await p.register("MERCHANT");
const dev = await p.register("DEVELOPER");
const reviewer = await p.createUser("REVIEWER");
const slugOf = async (businessId: string) =>
  (await p.sql<{ slug: string }[]>`select slug from businesses where id = ${businessId}`)[0].slug;
const shop = { id: merchant.businessId, slug: await slugOf(merchant.businessId) };
const otherShop = { id: other.businessId, slug: await slugOf(other.businessId) };

// the merchant's page: a heading, a product grid and an app block; another shop's page too
await createProduct(p.db, shop.id, productSchema.parse({ name: "Preview Espresso", price: 250 }));
const app = await p.request("POST", "/developer/apps", {
  token: dev.token,
  body: appBody({
    scopes: ["read_business"],
    manifest: {
      blocks: [
        {
          blockType: "stars",
          name: "Star banner",
          renderUrl: "https://stars.example/block",
          settingsSchema: { type: "object", properties: { title: { type: "string" } } },
          defaultConfig: { title: "Rate us" },
        },
      ],
      embeds: [
        {
          embedType: "pixel",
          name: "Pixel",
          kind: "GLOBAL_SCRIPT",
          position: "head",
          scriptUrl: "https://pixel.example/p.js",
        },
      ],
    },
  }),
});
await p.request("POST", `/developer/apps/${app.json.id}/submit`, { token: dev.token });
await p.request("POST", `/review/apps/${app.json.id}/approve`, {
  token: reviewer.token,
  body: { criteria: REVIEW_CRITERIA_KEYS },
});
{
  const { createInstallation, issueAccessToken } = await import("../installs/installs.server");
  const [appRow] = await p.db.execute<any>(sql`select * from apps where id = ${app.json.id}`);
  await p.db.transaction(async (tx) => {
    const { installation } = await createInstallation(tx, p.env, {
      app: { ...appRow, webhookUrl: null, webhookEvents: [] } as never,
      businessId: shop.id,
      scopes: ["read_business"],
      isTestInstall: false,
      installedBy: merchant.account.id,
    });
    await issueAccessToken(tx, installation);
  });
}
await savePage(p.db, shop.id, "home", {
  title: "Home",
  isPublished: false,
  blocks: [
    { kind: "builtin", type: "heading", settings: { text: "Saved heading" } },
    { kind: "builtin", type: "product-grid", settings: { limit: 4 } },
    { kind: "app", type: "stars", appId: app.json.id, settings: { title: "Rate us" } },
  ],
});
await savePage(p.db, otherShop.id, "home", {
  title: "Home",
  isPublished: true,
  blocks: [{ kind: "builtin", type: "heading", settings: { text: "Other shop" } }],
});

const grant = { businessId: shop.id, pageSlug: "home", accountId: merchant.account.id };
const target = { businessId: shop.id, pageSlug: "home" };
const previewPath = (token?: string, slug = shop.slug, page = "home") =>
  `/s/${slug}/preview/${page}${token === undefined ? "" : `?token=${encodeURIComponent(token)}`}`;
const get = (path: string, init: RequestInit = {}) => fetch(p.storefrontUrl + path, { redirect: "manual", ...init });

afterEach(() => setClockOffset(0));

describe("the preview token", () => {
  it("opens the preview of its business's page, and names the merchant", async () => {
    const token = await signPreviewToken(p.env, grant);
    expect(await verifyPreviewToken(p.env, token, target)).toEqual({ ok: true, accountId: merchant.account.id });
  });

  it("expires after 5 minutes", async () => {
    const token = await signPreviewToken(p.env, grant);
    setClockOffset((PREVIEW_TTL_SECONDS - 5) * 1000);
    expect((await verifyPreviewToken(p.env, token, target)).ok).toBe(true);
    setClockOffset((PREVIEW_TTL_SECONDS + 5) * 1000);
    expect(await verifyPreviewToken(p.env, token, target)).toMatchObject({ ok: false, status: 401 });
  });

  it("is refused for another business or another page (403)", async () => {
    const token = await signPreviewToken(p.env, grant);
    expect(await verifyPreviewToken(p.env, token, { businessId: otherShop.id, pageSlug: "home" })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await verifyPreviewToken(p.env, token, { businessId: shop.id, pageSlug: "about" })).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it("is refused when tampered with, missing or signed with another key (401)", async () => {
    const token = await signPreviewToken(p.env, grant);
    const [head, body, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(body, "base64url").toString());
    const forged = [
      head,
      Buffer.from(JSON.stringify({ ...claims, businessId: otherShop.id })).toString("base64url"),
      signature,
    ].join(".");
    expect(await verifyPreviewToken(p.env, forged, { businessId: otherShop.id, pageSlug: "home" })).toMatchObject({
      ok: false,
      status: 401,
    });
    const flipped = tamper(token);
    expect(await verifyPreviewToken(p.env, flipped, target)).toMatchObject({ ok: false, status: 401 });
    for (const bad of [null, "", "not-a-jwt", "x".repeat(3000)])
      expect(await verifyPreviewToken(p.env, bad, target)).toMatchObject({ ok: false, status: 401 });
    // the same claims signed with SESSION_SECRET itself (as a merchant's API token is) are not a preview token
    const now = Math.floor(Date.now() / 1000);
    const withSessionSecret = await signJwt(
      { iss: p.env.publicUrl, aud: PREVIEW_AUDIENCE, businessId: shop.id, page: "home", acc: merchant.account.id },
      p.env.sessionSecret,
      300,
      now,
    );
    expect(await verifyPreviewToken(p.env, withSessionSecret, target)).toMatchObject({ ok: false, status: 401 });
    // nor is a merchant's API token
    expect(await verifyPreviewToken(p.env, merchant.token, target)).toMatchObject({ ok: false, status: 401 });
  });

  it("cannot be used as a merchant's API token", async () => {
    const token = await signPreviewToken(p.env, grant);
    const res = await p.request("GET", "/merchant/pages/home", { token });
    expect(res.status).toBe(401);
  });
});

describe("the preview page", () => {
  it("answers 401 without a valid token and 403 with another shop's, and never caches or frames those", async () => {
    const token = await signPreviewToken(p.env, grant);
    const cases: [string, number][] = [
      [previewPath(), 401],
      [previewPath(""), 401],
      [previewPath("garbage"), 401],
      [previewPath(token, otherShop.slug), 403],
      [previewPath(token, shop.slug, "about"), 403],
    ];
    for (const [path, status] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      const html = await res.text();
      expect(html, path).not.toContain("Saved heading");
      expect(html, path).not.toContain("Other shop");
    }
    setClockOffset((PREVIEW_TTL_SECONDS + 1) * 1000);
    expect((await get(previewPath(token))).status).toBe(401);
  });

  it("renders the saved page with the shop's look: built-in blocks, products, the app block in the editor", async () => {
    const res = await get(previewPath(await signPreviewToken(p.env, grant)));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Saved heading");
    expect(html).toContain("Preview Espresso");
    expect(html).toContain('class="sf-header"');
    expect(html).toContain('aria-label="Select block: Star banner"');
    // the app block's session token (contract 10: in the editor only), for this merchant and business
    const data = JSON.parse(/window\.__remixContext = (\{.*?\});\s*<\/script>/s.exec(html)![1]);
    const loader = data.state.loaderData["routes/s.$businessSlug_.preview.$pageSlug"];
    const { payload } = await jwtVerify(
      loader.sessionTokens[app.json.id],
      new TextEncoder().encode(app.json.clientSecret),
      { audience: app.json.clientId },
    );
    expect(payload).toMatchObject({ sub: merchant.account.id, businessId: shop.id });
    // the unpublished page is not on the storefront
    expect((await get(`/s/${shop.slug}`)).status).toBe(404);
  });

  it("may be framed by the platform's origin only, is never cached, sets no platform cookie and runs no embed's script", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const session = browser.jars.get(new URL(p.url).hostname)!.get("__session")!;
    const res = await get(previewPath(await signPreviewToken(p.env, grant)), {
      headers: { Cookie: `__session=${session}` },
    });
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toMatch(new RegExp(`(^|; )frame-ancestors ${new URL(p.url).origin.replace(/[.]/g, "\\.")}(;|$)`));
    expect(csp).toContain("frame-src https://stars.example;");
    // X-Frame-Options has no value that allows one other origin: a DENY beside the policy would
    // contradict it (browsers that know frame-ancestors ignore it; others would refuse the frame)
    expect(res.headers.get("x-frame-options")).toBeNull();
    // the active GLOBAL_SCRIPT embed runs on the storefront, not here (its script would share a window with other apps' session tokens)
    expect(csp).not.toContain("pixel.example");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+';/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const referrer = res.headers
      .get("referrer-policy")!
      .split(",")
      .map((v) => v.trim());
    expect(referrer.at(-1)).toBe("strict-origin");
    const cookies = res.headers.getSetCookie().map((c) => c.split("=")[0]);
    expect(cookies).not.toContain("__session");
    const html = await res.text();
    expect(html).not.toContain("pixel.example");
    expect(html).not.toContain(merchant.email);
    // the storefront itself stays unframable
    const storefront = await get(`/s/${otherShop.slug}`);
    expect(storefront.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("is on the storefront's origin only: asked for on the platform's, it moves there (308)", async () => {
    const path = previewPath(await signPreviewToken(p.env, grant));
    const res = await fetch(p.url + path, { redirect: "manual" });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe(p.storefrontUrl + path);
  });

  it("is opened by the builder with a fresh token on the storefront's origin, which the builder may frame", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const res = await fetch(p.url + "/admin/pages/home", { headers: { Cookie: browser.cookieHeader(new URL(p.url)) } });
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain(`frame-src ${p.storefrontUrl};`);
    // the builder itself frames no app: app blocks run in the preview, on the storefront's origin
    expect(csp).not.toContain("stars.example");
    const html = await res.text();
    const src = /"url":"([^"]+\/preview\/home\?token=[^"]+)"/.exec(html)![1];
    expect(src.startsWith(`${p.storefrontUrl}/s/${shop.slug}/preview/home?token=`)).toBe(true);
    expect((await get(src.slice(p.storefrontUrl.length))).status).toBe(200);
    expect(await previewUrl(p.env, shop, "home", merchant.account.id)).toMatch(/\?token=/);
  });

  it("refuses the token of a merchant who no longer belongs to the business", async () => {
    const token = await signPreviewToken(p.env, { ...grant, accountId: other.account.id });
    expect((await get(previewPath(token))).status).toBe(401);
  });
});
