/**
 * The developer's sandbox is a real shop (contract 14, decision 036): a developer's token and session
 * reach the merchant's admin and /merchant API for their own sandbox business, and nothing else. The
 * business always comes from the account's row: a token claiming another business, an installation
 * or page of another business, an account pointed at a real shop, a reviewer, all fail; a merchant's
 * access is unchanged. Test-installed DRAFT apps' blocks are offered and placed without review.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { starsBlock } from "../testing/manifests";
import { accounts, apps, installations, pages } from "../../../db/schema";
import { signJwt } from "../core/crypto.server";
import { now } from "../core/clock.server";
import { ACCOUNT_TOKEN_AUDIENCE } from "./accounts.server";

const p = await startPlatform();
const dev = await p.register("DEVELOPER");
const otherDev = await p.register("DEVELOPER");
const merchant = await p.register("MERCHANT");
const reviewer = await p.createUser("REVIEWER");

const slugsOf = async (businessId: string) =>
  (await p.db.select({ slug: pages.slug }).from(pages).where(eq(pages.businessId, businessId)))
    .map((r) => r.slug)
    .sort();
const pageRow = p.pageRow;

/** A DRAFT app of `owner` with a block, test-installed on the owner's sandbox. */
async function draftAppWithBlock(owner: { token: string }, blockType = "stars") {
  const created = await p.request("POST", "/developer/apps", {
    token: owner.token,
    body: appBody({
      scopes: ["read_business"],
      manifest: { blocks: [starsBlock({ blockType, name: `Block ${blockType}` })] },
    }),
  });
  expect(created.status, created.text).toBe(201);
  expect(created.json.status).toBe("DRAFT");
  const inst = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: owner.token });
  expect(inst.status, inst.text).toBe(201);
  return { appId: created.json.id as string, installationId: inst.json.installationId as string };
}

describe("the /merchant API with a developer's token", () => {
  it("answers the developer's own sandbox business: its pages, the same as the database holds", async () => {
    const list = await p.request("GET", "/merchant/pages", { token: dev.token });
    expect(list.status, list.text).toBe(200);
    const slugs = list.json.data.map((pg: { slug: string }) => pg.slug).sort();
    expect(slugs.length).toBeGreaterThanOrEqual(3);
    expect(slugs).toEqual(await slugsOf(dev.businessId));
    // positive control: a merchant's token answers the merchant's pages, not the sandbox's
    const mine = await p.request("GET", "/merchant/pages", { token: merchant.token });
    expect(mine.status).toBe(200);
    expect(mine.json.data.map((pg: { slug: string }) => pg.slug).sort()).toEqual(await slugsOf(merchant.businessId));
  });

  it("a token claiming another business still reaches only the account's own sandbox", async () => {
    const [row] = await p.db.select().from(accounts).where(eq(accounts.id, dev.account.id));
    // a real session's id (contract 18: a token carries one), with another business claimed
    const { sid } = JSON.parse(Buffer.from(dev.token.split(".")[1], "base64url").toString()) as { sid: string };
    const forged = await signJwt(
      { sub: row.id, sid, aud: ACCOUNT_TOKEN_AUDIENCE, role: "MERCHANT", businessId: merchant.businessId },
      p.env.sessionSecret,
      3600,
      Math.floor(now().getTime() / 1000),
    );
    const before = await pageRow(merchant.businessId, "home");
    const put = await p.request("PUT", "/merchant/pages/home", {
      token: forged,
      body: { title: "Claimed", isPublished: true, blocks: [] },
    });
    expect(put.status, put.text).toBe(200);
    // the write went to the developer's sandbox; the merchant's page is untouched
    expect((await pageRow(dev.businessId, "home")).title).toBe("Claimed");
    expect(await pageRow(merchant.businessId, "home")).toEqual(before);
  });

  it("another business's installation is 404 and unchanged; the list holds only the sandbox's own", async () => {
    const theirs = await draftAppWithBlock(otherDev, "theirs");
    const mine = await draftAppWithBlock(dev, "mine");
    const list = await p.request("GET", "/merchant/installations", { token: dev.token });
    expect(list.status).toBe(200);
    const ids = list.json.data.map((i: { installationId: string }) => i.installationId);
    expect(ids).toContain(mine.installationId);
    expect(ids).not.toContain(theirs.installationId);
    for (const [method, path, body] of [
      ["GET", `/merchant/installations/${theirs.installationId}/review`, undefined],
      ["PUT", `/merchant/installations/${theirs.installationId}/settings`, {}],
      ["PUT", `/merchant/installations/${theirs.installationId}/embeds/chat`, { enabled: false }],
      ["DELETE", `/merchant/installations/${theirs.installationId}`, undefined],
    ] as const) {
      const res = await p.request(method, path, { token: dev.token, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      expect(res.json).toMatchObject({ statusCode: 404, error: "Not Found" });
    }
    const [still] = await p.db.select().from(installations).where(eq(installations.id, theirs.installationId));
    expect(still.status).toBe("ACTIVE");
  });

  it("a developer account pointed at a business that is not a sandbox, and a reviewer, are refused (403)", async () => {
    const rogue = await p.register("DEVELOPER");
    await p.db.update(accounts).set({ businessId: merchant.businessId }).where(eq(accounts.id, rogue.account.id));
    for (const token of [rogue.token, reviewer.token]) {
      const res = await p.request("GET", "/merchant/pages", { token });
      expect(res.status, res.text).toBe(403);
      expect(res.json).toMatchObject({ statusCode: 403, error: "Forbidden" });
    }
    // and the reviewer stays out of the developer's area, the developer out of the reviewer's
    expect((await p.request("GET", "/review/apps", { token: dev.token })).status).toBe(403);
    expect((await p.request("GET", "/developer/apps", { token: merchant.token })).status).toBe(403);
  });

  it("a sandbox does not review apps (403)", async () => {
    const own = await draftAppWithBlock(dev, "reviewed");
    const res = await p.request("PUT", `/merchant/installations/${own.installationId}/review`, {
      token: dev.token,
      body: { rating: 5, body: "Best app ever, truly" },
    });
    expect(res.status, res.text).toBe(403);
  });
});

describe("the admin pages for a developer", () => {
  it("a developer's session opens their sandbox's admin, marked as the sandbox; a merchant's is unmarked", async () => {
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    for (const path of [
      "/admin",
      "/admin/orders",
      "/admin/products",
      "/admin/pages",
      "/admin/apps",
      "/admin/settings",
    ]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain("Sandbox of ");
      expect(page.html, path).toContain('href="/portal"');
    }
    const shop = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const admin = await shop.get("/admin");
    expect(admin.status).toBe(200);
    expect(admin.html).not.toContain("Sandbox of ");
  });

  it("a reviewer, and a developer pointed at a real shop, get 403 from the admin", async () => {
    const rogue = await p.register("DEVELOPER");
    await p.db.update(accounts).set({ businessId: merchant.businessId }).where(eq(accounts.id, rogue.account.id));
    const browser = await BrowserSession.signIn(p.url, rogue.email, rogue.password);
    expect((await browser.get("/admin/pages/home")).status).toBe(403);
    const [rev] = await p.db.select().from(accounts).where(eq(accounts.id, reviewer.account.id));
    const asReviewer = await BrowserSession.signIn(p.url, rev.email, "correct horse battery");
    expect((await asReviewer.get("/admin")).status).toBe(403);
  });

  it("the builder offers the DRAFT app's block of the test installation; saved, it is on the sandbox storefront", async () => {
    const { appId } = await draftAppWithBlock(dev, "draftblock");
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    const builder = await browser.get("/admin/pages/home");
    expect(builder.status).toBe(200);
    expect(builder.html).toContain("Block draftblock");
    // the live preview opens for the developer (its token names an account that runs the sandbox)
    const previewUrl = /"url":"([^"]+\/preview\/home[^"]*)"/.exec(builder.html)?.[1];
    expect(previewUrl).toBeTruthy();
    const preview = await fetch(JSON.parse(`"${previewUrl}"`));
    expect(preview.status).toBe(200);

    const [app] = await p.db.select().from(apps).where(eq(apps.id, appId));
    expect(app.status).toBe("DRAFT");
    const put = await p.request("PUT", "/merchant/pages/home", {
      token: dev.token,
      body: {
        title: "Home",
        isPublished: true,
        blocks: [{ kind: "app", type: "draftblock", appId, settings: {} }],
      },
    });
    expect(put.status, put.text).toBe(200);
    const saved = await p.request("GET", "/merchant/pages/home", { token: dev.token });
    expect(saved.json.blocks[0]).toMatchObject({ kind: "app", type: "draftblock", appId });
    const [{ slug: sandboxSlug }] = await p.sql`select slug from businesses where id = ${dev.businessId}`;
    const storefront = await fetch(`${p.storefrontUrl}/s/${sandboxSlug}`);
    expect(storefront.status).toBe(200);
    expect(await storefront.text()).toContain("https://app.example/blocks/stars");
  });
});
