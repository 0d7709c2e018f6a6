/**
 * Every path with a uniqueness or "only one" rule, hit by many identical requests at once against the
 * real server (docs/reliability.md, "Concurrency"): each user is answered the truth, nobody sees a
 * collision they did not cause, nothing answers 500, and the database holds what the answers said.
 */
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { atOnce, expectOutcome } from "../testing/concurrency";
import { publishedApp as publishApp, appBody } from "../apps/apps.test-helpers";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";

const p = await startPlatform();
const PASSWORD = "correct horse battery";
const reviewer = await p.createUser("REVIEWER");
const tag = () => randomBytes(4).toString("hex");

const register = (body: Record<string, unknown>) =>
  p.request("POST", "/auth/register", { body: { password: PASSWORD, ...body } });

const publishedApp = (dev: { token: string }, overrides: Record<string, unknown> = {}) =>
  publishApp(p, { developer: dev.token, reviewer: reviewer.token }, overrides);

async function exchange(app: { clientId: string; clientSecret: string; redirectUrl: string }, code: string) {
  const res = await fetch(p.url + "/oauth/token", {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUrl }),
  });
  return { status: res.status, json: await res.json() };
}

const activeInstallations = async (appId: string, businessId: string) =>
  (
    await p.sql<
      { id: string }[]
    >`select id from installations where app_id = ${appId} and business_id = ${businessId} and status = 'ACTIVE'`
  ).map((r) => r.id);

/** A published app, a merchant signed in in a browser, and the app's consent screen for them. */
async function consentScreen() {
  const dev = await p.register("DEVELOPER");
  const app = await publishedApp(dev, { scopes: ["read_business"] });
  const merchant = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
  const authorize = `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl, state: "s" })}`;
  const open = async () => {
    const page = await browser.get(authorize);
    expect(page.status).toBe(200);
    return hiddenFields(page.html);
  };
  return { app, merchant, browser, open };
}

describe("sign-up", () => {
  it("20 developers with the same name at once: 20 accounts, 20 distinct sandbox slugs", async () => {
    const name = `Same Name ${tag()}`;
    const answers = await atOnce(20, (i) =>
      register({ email: `same-name-${i}-${tag()}@example.test`, name, role: "DEVELOPER" }),
    );
    expectOutcome(answers, { 201: 20 }, { what: "same name" });
    const ids = answers.map((a) => a.json.businessId as string);
    const slugs = (await p.sql<{ slug: string }[]>`select slug from businesses where id = any(${ids})`).map(
      (r) => r.slug,
    );
    expect(new Set(slugs).size).toBe(20);
    const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-") + "-s-sandbox";
    expect(slugs).toContain(base);
    for (const slug of slugs) expect(slug.startsWith(base)).toBe(true);
  });

  it("20 merchants with the same business name at once: 20 shops, each with its own slug and home page", async () => {
    const businessName = `Corner Cafe ${tag()}`;
    const answers = await atOnce(20, (i) =>
      register({ email: `cafe-${i}-${tag()}@example.test`, name: "Owner", role: "MERCHANT", businessName }),
    );
    expectOutcome(answers, { 201: 20 }, { what: "same business name" });
    const ids = answers.map((a) => a.json.businessId as string);
    const rows = await p.sql<
      { slug: string; pages: number }[]
    >`select b.slug, (select count(*)::int from pages where business_id = b.id) as pages from businesses b where b.id = any(${ids})`;
    expect(new Set(rows.map((r) => r.slug)).size).toBe(20);
    expect(rows.every((r) => r.pages === 1)).toBe(true);
  });

  it("20 sign-ups with the same e-mail at once: exactly one account, 19 answers naming the e-mail", async () => {
    const email = `one-address-${tag()}@example.test`;
    const people = `Person ${tag()}`;
    const answers = await atOnce(20, (i) => register({ email, name: `${people} ${i}`, role: "DEVELOPER" }));
    expectOutcome(
      answers,
      { 201: 1, 409: 19 },
      { what: "same e-mail", messages: { 409: /^An account with this email already exists$/ } },
    );
    const [{ n }] = await p.sql<{ n: number }[]>`select count(*)::int as n from accounts where email = ${email}`;
    expect(n).toBe(1);
    // the losers' sandboxes were rolled back with them
    const [{ sandboxes }] = await p.sql<
      { sandboxes: number }[]
    >`select count(*)::int as sandboxes from businesses where name like ${people + " %"}`;
    expect(sandboxes).toBe(1);
  });
});

describe("apps", () => {
  it("one slug, ten developers at once: one app, nine answers that the slug is taken", async () => {
    const devs = await Promise.all(Array.from({ length: 10 }, () => p.register("DEVELOPER")));
    const slug = `contested-${tag()}`;
    const answers = await atOnce(10, (i) =>
      p.request("POST", "/developer/apps", { token: devs[i].token, body: appBody({ slug }) }),
    );
    expectOutcome(
      answers,
      { 201: 1, 409: 9 },
      { what: "app slug", messages: { 409: new RegExp(`^The slug "${slug}" is taken$`) } },
    );
    const [{ n }] = await p.sql<{ n: number }[]>`select count(*)::int as n from apps where slug = ${slug}`;
    expect(n).toBe(1);
  });

  it("regenerating the client secret five times at once: exactly one secret works, and no one is shown a secret that was replaced at the same moment", async () => {
    const dev = await p.register("DEVELOPER");
    const app = await publishedApp(dev);
    const answers = await atOnce(5, () =>
      p.request("POST", `/developer/apps/${app.id}/client-secret`, { token: dev.token }),
    );
    // requests that overlap: one wins, the others are told (409); a request that starts after another
    // finished is a regeneration of its own (200), as two clicks a second apart would be
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.json.message).toMatch(/regenerated by another request at the same moment/);
    const shown = answers.filter((a) => a.status === 200).map((a) => a.json.clientSecret as string);
    expect(shown.length).toBeGreaterThanOrEqual(1);
    // exactly one secret works at the token endpoint (a wrong code: invalid_grant means the client was accepted); the old one does not
    const works = [];
    for (const secret of shown)
      if ((await exchange({ ...app, clientSecret: secret }, "no-such-code")).json.error === "invalid_grant")
        works.push(secret);
    expect(works).toHaveLength(1);
    expect((await exchange(app, "no-such-code")).json.error).toBe("invalid_client");
  });

  it("five manifest saves at once: each applied in turn, the extensions are exactly the last one's", async () => {
    const dev = await p.register("DEVELOPER");
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const manifest = (i: number) => ({
      blocks: [
        { blockType: `block-${i}`, name: `Block ${i}`, renderUrl: "https://blocks.example/b" },
        { blockType: "shared", name: `Shared ${i}`, renderUrl: "https://blocks.example/s" },
      ],
    });
    const answers = await atOnce(5, (i) =>
      p.request("PUT", `/developer/apps/${created.json.id}/manifest`, { token: dev.token, body: manifest(i) }),
    );
    expectOutcome(answers, { 200: 5 }, { what: "manifest saves" });
    const [stored] = await p.sql<
      { manifest: { blocks: { blockType: string; name: string }[] } }[]
    >`select manifest from apps where id = ${created.json.id}`;
    const active = await p.sql<
      { key: string; name: string }[]
    >`select key, definition->>'name' as name from extensions where app_id = ${created.json.id} and is_active order by key`;
    expect(active.map((e) => e.key)).toEqual(stored.manifest.blocks.map((b) => b.blockType).sort());
    expect(active.find((e) => e.key === "shared")!.name).toBe(
      stored.manifest.blocks.find((b) => b.blockType === "shared")!.name,
    );
    const [{ rows }] = await p.sql<
      { rows: number }[]
    >`select count(*)::int as rows from extensions where app_id = ${created.json.id}`;
    expect(rows).toBe(6); // block-0..4 and shared, each once: the others deactivated, not duplicated
  });

  it("an approval racing the developer's PATCH: the reviewer approves what was reviewed", async () => {
    for (let round = 0; round < 4; round++) {
      const dev = await p.register("DEVELOPER");
      const created = await p.request("POST", "/developer/apps", {
        token: dev.token,
        body: appBody({ scopes: ["read_orders"] }),
      });
      await p.request("POST", `/developer/apps/${created.json.id}/submit`, { token: dev.token });
      const [approve, patch] = await atOnce(2, (i) =>
        i === 0
          ? p.request("POST", `/review/apps/${created.json.id}/approve`, {
              token: reviewer.token,
              body: { criteria: REVIEW_CRITERIA_KEYS },
            })
          : p.request("PATCH", `/developer/apps/${created.json.id}`, {
              token: dev.token,
              body: { name: "Renamed", scopes: ["read_orders", "read_reviews"] },
            }),
      );
      expect(approve.status).toBe(200);
      expect([200, 409]).toContain(patch.status);
      const [app] = await p.sql<
        { name: string; status: string; approved_scopes: string[]; scopes: string[] }[]
      >`select name, status, approved_scopes, scopes from apps where id = ${created.json.id}`;
      expect(app.status).toBe("APPROVED");
      // whichever came first, what was approved is what was in review: the scope change waits for a new review
      expect(app.approved_scopes).toEqual(["read_orders"]);
      if (patch.status === 409) {
        expect(patch.json.message).toMatch(/in review/);
        expect(app.name).toBe("Loyalty Stars");
      } else {
        // applied after the approval: listing fields at once, scopes only when submitted
        expect(app.name).toBe("Renamed");
        expect(app.scopes).toEqual(["read_orders", "read_reviews"]);
      }
    }
  });
});

describe("installations", () => {
  it("one test install per app: ten at once give one install and nine 409s", async () => {
    const dev = await p.register("DEVELOPER");
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const answers = await atOnce(10, () =>
      p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token }),
    );
    expectOutcome(
      answers,
      { 201: 1, 409: 9 },
      { what: "test install", messages: { 409: /already installed on your sandbox/ } },
    );
    expect(await activeInstallations(created.json.id, dev.businessId)).toHaveLength(1);
    // the token of the one install works
    const token = answers.find((a) => a.status === 201)!.json.accessToken;
    expect((await p.request("GET", "/app-api/products", { token })).status).toBe(200);
  });

  it("'Install' clicked five times at once: one installation, every click gets a code for it", async () => {
    const { app, merchant, browser, open } = await consentScreen();
    const fields = await open();
    const clicks = await atOnce(5, () => browser.post("/oauth/authorize", { ...fields, decision: "approve" }));
    expectOutcome(clicks, { 302: 5 }, { what: "consent clicks" });
    const installed = await activeInstallations(app.id, merchant.businessId);
    expect(installed).toHaveLength(1);
    // each code exchanges for a token of that one installation; the last token issued is the one that works
    const tokens: { access_token: string; installation_id: string }[] = [];
    for (const click of clicks) {
      const res = await exchange(app, new URL(click.location!).searchParams.get("code")!);
      expect(res.status).toBe(200);
      tokens.push(res.json);
    }
    expect(new Set(tokens.map((t) => t.installation_id))).toEqual(new Set(installed));
    expect((await p.request("GET", "/app-api/business", { token: tokens.at(-1)!.access_token })).status).toBe(200);
    expect((await p.request("GET", "/app-api/business", { token: tokens[0].access_token })).status).toBe(401);
  });

  it("one code exchanged five times at once: one token, four invalid_grant, and the token is revoked as the contract says", async () => {
    const { app, browser, open } = await consentScreen();
    const click = await browser.post("/oauth/authorize", { ...(await open()), decision: "approve" });
    const code = new URL(click.location!).searchParams.get("code")!;
    const answers = await atOnce(5, () => exchange(app, code));
    expectOutcome(answers, { 200: 1, 400: 4 }, { what: "code replay" });
    expect(answers.filter((a) => a.status === 400).every((a) => a.json.error === "invalid_grant")).toBe(true);
    // a second use of a code revokes the token first issued from it
    expect(
      (await p.request("GET", "/app-api/business", { token: answers.find((a) => a.status === 200)!.json.access_token }))
        .status,
    ).toBe(401);
  });

  it("re-authorization racing an uninstall: never a 500, and the exchange tells the truth about the installation", async () => {
    const { app, merchant, browser, open } = await consentScreen();
    for (let round = 0; round < 5; round++) {
      const first = await browser.post("/oauth/authorize", { ...(await open()), decision: "approve" });
      expect((await exchange(app, new URL(first.location!).searchParams.get("code")!)).status).toBe(200);
      const [installationId] = await activeInstallations(app.id, merchant.businessId);
      const again = await open();
      const [click, removal] = (await atOnce(2, (i): Promise<{ status: number; location?: string | null }> =>
        i === 0
          ? browser.post("/oauth/authorize", { ...again, decision: "approve" })
          : p.request("DELETE", `/merchant/installations/${installationId}`, { token: merchant.token }),
      )) as [{ status: number; location: string | null }, { status: number }];
      expect(click.status).toBe(302);
      expect(removal.status).toBe(200);
      const result = await exchange(app, new URL(click.location!).searchParams.get("code")!);
      const active = await activeInstallations(app.id, merchant.businessId);
      expect(active.length).toBeLessThanOrEqual(1);
      if (result.status === 200) {
        // the uninstall came first: the click installed the app again, and its token works
        expect(active).toEqual([result.json.installation_id]);
        expect(result.json.installation_id).not.toBe(installationId);
        expect((await p.request("GET", "/app-api/business", { token: result.json.access_token })).status).toBe(200);
        await p.request("DELETE", `/merchant/installations/${result.json.installation_id}`, { token: merchant.token });
      } else {
        // the click came first, then the uninstall: the code's installation is gone, and the exchange says so
        expect(result).toMatchObject({
          status: 400,
          json: { error: "invalid_grant", error_description: "The installation no longer exists" },
        });
        expect(active).toEqual([]);
      }
    }
  });
});

describe("pages, webhooks and guest orders", () => {
  it("ten PUTs of a new page at once: all saved, one page with the last content", async () => {
    const merchant = await p.register("MERCHANT");
    const slug = `offers-${tag()}`;
    const answers = await atOnce(10, (i) =>
      p.request("PUT", `/merchant/pages/${slug}`, {
        token: merchant.token,
        body: { title: `Offers ${i}`, isPublished: true, blocks: [] },
      }),
    );
    expectOutcome(answers, { 200: 10 }, { what: "page PUT" });
    const rows = await p.sql<
      { title: string }[]
    >`select title from pages where business_id = ${merchant.businessId} and slug = ${slug}`;
    expect(rows).toHaveLength(1);
    expect(answers.map((a) => a.json.title)).toContain(rows[0].title);
  });

  it("the admin's 'New page' form submitted five times at once: one page, four told it exists", async () => {
    const merchant = await p.register("MERCHANT");
    const browser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
    await browser.get("/admin/pages");
    const slug = `summer-${tag()}`;
    const answers = await atOnce(5, () => browser.post("/admin/pages", { slug, title: "Summer" }));
    expectOutcome(answers, { 302: 1, 409: 4 }, { what: "new page" });
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.html).toContain(`A page /${slug} exists already.`);
    const [{ n }] = await p.sql<
      { n: number }[]
    >`select count(*)::int as n from pages where business_id = ${merchant.businessId} and slug = ${slug}`;
    expect(n).toBe(1);
  });

  it("ten identical webhook registrations at once: no uniqueness rule, ten registrations with their own secrets", async () => {
    const dev = await p.register("DEVELOPER");
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const install = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
    const body = { url: "https://hooks.example/orders", events: ["order.created"] };
    const answers = await atOnce(10, () => p.request("POST", "/webhooks", { token: install.json.accessToken, body }));
    expectOutcome(answers, { 201: 10 }, { what: "webhook registrations" });
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(10);
    expect(new Set(answers.map((a) => a.json.secret)).size).toBe(10);
  });

  it("one Idempotency-Key sent ten times at once: one order, every answer is that order", async () => {
    const dev = await p.register("DEVELOPER");
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ scopes: ["write_orders", "read_products"] }),
    });
    const install = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
    const token = install.json.accessToken;
    const products = await p.request("GET", "/app-api/products?limit=100", { token });
    const product = products.json.data.find((x: any) => x.isAvailable && x.status === "ACTIVE" && x.stock === null);
    const key = `order-${tag()}`;
    const body = {
      customer: { name: "Ann", phone: "555 0100" },
      items: [{ productId: product.id, quantity: 1 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    };
    const answers = await atOnce(10, () =>
      p.request("POST", "/app-api/orders", { token, body, headers: { "Idempotency-Key": key } }),
    );
    expectOutcome(answers, { 201: 10 }, { what: "idempotent orders" });
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    const [{ n }] = await p.sql<
      { n: number }[]
    >`select count(*)::int as n from orders where id = ${answers[0].json.id}`;
    expect(n).toBe(1);
    const [{ total }] = await p.sql<
      { total: number }[]
    >`select count(*)::int as total from idempotency_keys where key = ${key}`;
    expect(total).toBe(1);
  });
});
