/**
 * The storefront's content version (migration 0018, decision 021): every change to what a shop's
 * pages show bumps its business's version in the change's own transaction, through the platform's
 * own functions; changes that show nothing (an ordinary order, a new access token, the order-number
 * counter) bump nothing, and a rolled-back change bumps nothing. Pages answer 304 to their ETag until
 * the version moves.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { appBody } from "../app/platform/apps/apps.test-helpers";
import * as catalog from "../app/platform/catalog/products.server";
import { createApp, submitApp, updateApp } from "../app/platform/apps/apps.server";
import { approveApp } from "../app/platform/apps/review.server";
import { REVIEW_CRITERIA_KEYS } from "../app/platform/shapes/app-catalog";
import { createInstallation, issueAccessToken, uninstallForBusiness } from "../app/platform/installs/installs.server";
import { putManifest } from "../app/platform/apps/manifest.server";
import { savePage, setEmbed } from "../app/platform/extensions/merchant.server";
import { updateBusinessSettings } from "../app/platform/accounts/business-settings.server";
import { pages, products, type Business } from "../db/schema";
import { checkout } from "../app/platform/orders/checkout.server";
import { LOW_STOCK_THRESHOLD } from "../app/platform/catalog/stock";

const p = await startPlatform();

async function shop(): Promise<Business> {
  return (await p.registerMerchant()).business;
}

const version = async (businessId: string) =>
  (
    await p.sql<
      { v: number }[]
    >`select coalesce((select version from storefront_versions where business_id = ${businessId}), 0) as v`
  )[0].v;

/** Runs the change and says by how much the business's version moved (and that another business's did not). */
async function bumps(business: Business, change: () => Promise<unknown>): Promise<number> {
  const bystander = await shop();
  const [before, other] = [await version(business.id), await version(bystander.id)];
  await change();
  expect(await version(bystander.id), "another business's version").toBe(other);
  return (await version(business.id)) - before;
}

const order = (business: Business, productId: string, quantity: number) =>
  checkout(
    p.db,
    business,
    {
      customer: { name: "Ann", phone: "555 0100" },
      items: [{ productId, quantity }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    },
    { actor: "customer" },
  );

const manifest = (blockName: string) => ({
  blocks: [{ blockType: "banner", name: blockName, renderUrl: "https://banner.example/block" }],
  embeds: [
    {
      embedType: "chat",
      name: "Chat",
      kind: "FLOATING_WIDGET",
      position: "bottom_right",
      renderUrl: "https://banner.example/chat",
    },
  ],
});

/** An approved app with a block and an embed, installed on the business. */
async function installedApp(business: Business) {
  const dev = await p.register("DEVELOPER");
  const reviewer = await p.createUser("REVIEWER");
  const { app } = await createApp(
    p.db,
    p.env,
    dev.account.id,
    appBody({ scopes: ["read_business"], webhookUrl: null, webhookEvents: [], manifest: manifest("Banner") }) as never,
  );
  await submitApp(p.db, dev.account.id, app.id);
  const approved = await approveApp(p.db, reviewer.account.id, app.id, REVIEW_CRITERIA_KEYS);
  const installationId = await p.db.transaction(async (tx) => {
    const { installation } = await createInstallation(tx, p.env, {
      app: approved,
      businessId: business.id,
      scopes: ["read_business"],
      isTestInstall: false,
      installedBy: dev.account.id,
    });
    return installation.id;
  });
  return { app: approved, developerId: dev.account.id, installationId };
}

describe("the content version", () => {
  it("moves with the business's public settings, products as shown, reviews and pages", async () => {
    const b = await shop();
    const soup = await catalog.createProduct(p.db, b.id, catalog.productSchema.parse({ name: "Soup", price: 500 }));
    expect(
      await bumps(b, () =>
        catalog.createProduct(p.db, b.id, catalog.productSchema.parse({ name: "Bread", price: 300 })),
      ),
    ).toBe(1);
    expect(await bumps(b, () => catalog.updateProduct(p.db, b.id, soup.id, { price: 550 }))).toBe(1);
    expect(await bumps(b, () => catalog.updateProduct(p.db, b.id, soup.id, { description: "Hot" }))).toBe(1);
    expect(await bumps(b, () => catalog.updateProduct(p.db, b.id, soup.id, { isAvailable: false }))).toBe(1);
    // saved unchanged: nothing a page shows moved
    expect(await bumps(b, () => catalog.updateProduct(p.db, b.id, soup.id, { description: "Hot" }))).toBe(0);
    const review = await catalog.createReview(p.db, b.id, soup.id, { authorName: "Bo", rating: 4, comment: "" });
    expect(
      await bumps(b, () => catalog.createReview(p.db, b.id, soup.id, { authorName: "Cy", rating: 5, comment: "Good" })),
    ).toBe(1);
    expect(await bumps(b, () => catalog.deleteReview(p.db, b.id, review.id))).toBe(1);
    expect(await bumps(b, () => savePage(p.db, b.id, "about", { title: "About", isPublished: true, blocks: [] }))).toBe(
      1,
    );
    expect(
      await bumps(b, () => savePage(p.db, b.id, "about", { title: "About us", isPublished: true, blocks: [] })),
    ).toBe(1);
    expect(await bumps(b, () => p.db.delete(pages).where(eq(pages.slug, "about")))).toBe(1);
    const settings = {
      name: b.name,
      address: "1 Main St",
      phone: b.phone,
      email: b.email,
      currency: b.currency,
      locale: b.locale,
      timezone: b.timezone,
    };
    expect(await bumps(b, () => updateBusinessSettings(p.db, b.id, settings))).toBe(1);
    expect(await bumps(b, () => updateBusinessSettings(p.db, b.id, settings))).toBe(0);
    expect(await bumps(b, () => updateBusinessSettings(p.db, b.id, { ...settings, currency: "EUR" }))).toBe(1);
    // the product, and its reviews with it
    expect(await bumps(b, () => catalog.deleteProduct(p.db, b.id, soup.id))).toBeGreaterThanOrEqual(1);
  });

  it("does not move with an ordinary order, and moves when an order changes what pages show of the stock", async () => {
    const b = await shop();
    const plenty = await catalog.createProduct(
      p.db,
      b.id,
      catalog.productSchema.parse({ name: "Tracked", price: 100, stock: 40 }),
    );
    const open = await catalog.createProduct(
      p.db,
      b.id,
      catalog.productSchema.parse({ name: "Untracked", price: 100 }),
    );
    // 40 -> 39 and an untracked product: the pages are the same ("Available"), the order-number counter moved
    expect(await bumps(b, () => order(b, plenty.id, 1))).toBe(0);
    expect(await bumps(b, () => order(b, open.id, 3))).toBe(0);
    const [{ last }] = await p.sql<
      { last: number }[]
    >`select last_order_number as last from businesses where id = ${b.id}`;
    expect(last).toBe(1002);
    // down to the threshold: still no count shown
    expect(await bumps(b, () => order(b, plenty.id, 39 - LOW_STOCK_THRESHOLD))).toBe(0);
    // below it the page says "Only 4 left", then 3, …, then "Sold out"
    expect(await bumps(b, () => order(b, plenty.id, 1))).toBe(1);
    expect(await bumps(b, () => order(b, plenty.id, 1))).toBe(1);
    expect(await bumps(b, () => order(b, plenty.id, 3))).toBe(1);
    const [row] = await p.db.select({ stock: products.stock }).from(products).where(eq(products.id, plenty.id));
    expect(row.stock).toBe(0);
    // the merchant restocks: shown again
    expect(await bumps(b, () => catalog.updateProduct(p.db, b.id, plenty.id, { stock: 100 }))).toBe(1);
    expect(await bumps(b, () => catalog.updateProduct(p.db, b.id, plenty.id, { stock: 90 }))).toBe(0);
  });

  it("moves with installs, uninstalls, embeds, the app's extensions and its name, for the businesses where it is installed", async () => {
    const b = await shop();
    const elsewhere = await shop();
    let installed!: Awaited<ReturnType<typeof installedApp>>;
    expect(await bumps(b, async () => (installed = await installedApp(b)))).toBeGreaterThanOrEqual(1);
    const { app, developerId, installationId } = installed;
    const before = await version(elsewhere.id);
    expect(await bumps(b, () => setEmbed(p.db, b.id, installationId, "chat", { enabled: false }))).toBe(1);
    expect(await bumps(b, () => setEmbed(p.db, b.id, installationId, "chat", { enabled: true, settings: {} }))).toBe(1);
    // a manifest change takes effect at once (contract 2) on every shop that installed it
    expect(
      await bumps(b, () => putManifest(p.db, developerId, app.id, manifest("Big banner"), { dryRun: false })),
    ).toBeGreaterThanOrEqual(1);
    expect(await bumps(b, () => updateApp(p.db, developerId, app.id, { name: "Banner Pro" } as never))).toBe(1);
    // a new token shows nothing on the storefront
    expect(
      await bumps(b, () =>
        p.db.transaction(async (tx) =>
          issueAccessToken(
            tx,
            (await tx.query.installations.findFirst({ where: (i, { eq }) => eq(i.id, installationId) }))!,
          ),
        ),
      ),
    ).toBe(0);
    expect(await bumps(b, () => uninstallForBusiness(p.db, b.id, installationId))).toBeGreaterThanOrEqual(1);
    expect(await version(elsewhere.id)).toBe(before);
    // uninstalled: its later changes are not this shop's
    expect(await bumps(b, () => updateApp(p.db, developerId, app.id, { name: "Banner Max" } as never))).toBe(0);
  });

  it("does not move when the change rolls back", async () => {
    const b = await shop();
    const soup = await catalog.createProduct(p.db, b.id, catalog.productSchema.parse({ name: "Soup", price: 500 }));
    expect(
      await bumps(b, () =>
        p.db
          .transaction(async (tx) => {
            await tx.update(products).set({ price: 1 }).where(eq(products.id, soup.id));
            throw new Error("rolled back");
          })
          .catch(() => null),
      ),
    ).toBe(0);
  });
});

describe("the pages' ETag", () => {
  it("answers 304 until the shop changes, then the new page with a new ETag", async () => {
    const b = await shop();
    const soup = await catalog.createProduct(
      p.db,
      b.id,
      catalog.productSchema.parse({ name: "Soup", slug: "soup", price: 500 }),
    );
    const paths = [`/s/${b.slug}`, `/s/${b.slug}/products`, `/s/${b.slug}/products/soup`];
    const etags = new Map<string, string>();
    for (const path of paths) {
      const res = await p.request("GET", path);
      expect(res.status, path).toBe(200);
      etags.set(path, res.headers.get("etag")!);
      expect((await p.request("GET", path, { headers: { "If-None-Match": etags.get(path)! } })).status, path).toBe(304);
    }
    // the ETags of different pages differ
    expect(new Set(etags.values()).size).toBe(paths.length);
    // an ordinary order: still 304
    await catalog.createProduct(p.db, b.id, catalog.productSchema.parse({ name: "Tracked", price: 100, stock: 40 }));
    for (const path of paths) etags.set(path, (await p.request("GET", path)).headers.get("etag")!);
    const tracked = (await p.db.select().from(products).where(eq(products.name, "Tracked")))[0];
    await order(b, tracked.id, 1);
    for (const path of paths)
      expect((await p.request("GET", path, { headers: { "If-None-Match": etags.get(path)! } })).status, path).toBe(304);
    // a price: every page of the shop is new
    await catalog.updateProduct(p.db, b.id, soup.id, { price: 650 });
    for (const path of paths) {
      const res = await p.request("GET", path, { headers: { "If-None-Match": etags.get(path)! } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("etag"), path).not.toBe(etags.get(path));
    }
    expect((await p.request("GET", `/s/${b.slug}/products/soup`)).text).toContain("$6.50");
  });
});
