import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { BrowserSession } from "../app/platform/testing/browser";
import { createProduct, createReview, productSchema } from "../app/platform/catalog/products.server";
import { newId } from "../app/platform/core/ids.server";
import { pages, reviews, type PageBlock } from "../db/schema";
import {
  loadBusinessBySlug,
  loadPage,
  productBySlug,
  publicBlocks,
  publishedPages,
  safeUrl,
  gridProducts,
  moneyFormatter,
} from "./site.server";

const p = await startPlatform();

async function shop() {
  const { m, business } = await p.registerMerchant();
  return { m, business, slug: business.slug };
}

const text = (html: string) => html.replace(/<!-- -->/g, "");
const plain = (html: string) =>
  text(html)
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/ \)/g, ")")
    .replace(/\( /g, "(");

async function addPage(businessId: string, slug: string, title: string, blocks: PageBlock[], isPublished = true) {
  const t = new Date();
  await p.db
    .insert(pages)
    .values({ id: newId("pg"), businessId, slug, title, isPublished, blocks, createdAt: t, updatedAt: t });
}

const block = (
  type: string,
  settings: Record<string, unknown>,
  kind: "builtin" | "app" = "builtin",
  appId?: string,
): PageBlock => ({ id: newId("blk", 12), kind, type, settings, ...(appId ? { appId } : {}) });

describe("site queries", () => {
  it("finds a business by slug, or answers 404", async () => {
    const { business, slug } = await shop();
    expect((await loadBusinessBySlug(p.db, slug)).id).toBe(business.id);
    const missing = await loadBusinessBySlug(p.db, "no-such-shop").catch((e) => e);
    expect(missing).toBeInstanceOf(Response);
    expect((missing as Response).status).toBe(404);
  });

  it("serves only published pages of the business", async () => {
    const { business } = await shop();
    const other = await shop();
    await addPage(business.id, "about", "About us", [block("text", { text: "Hello" })]);
    await addPage(business.id, "draft", "Draft", [], false);
    await addPage(other.business.id, "theirs", "Theirs", []);
    expect((await loadPage(p.db, business.id, "about")).title).toBe("About us");
    for (const slug of ["draft", "theirs", "nope"])
      expect(await loadPage(p.db, business.id, slug).catch((e: Response) => e.status)).toBe(404);
    expect((await publishedPages(p.db, business.id)).map((pg) => pg.slug).sort()).toEqual(["about", "home"]);
  });

  it("lists ACTIVE, available products newest first, and a product with its reviews and stats", async () => {
    const { business } = await shop();
    const older = await createProduct(p.db, business.id, productSchema.parse({ name: "Older", price: 100 }));
    await new Promise((r) => setTimeout(r, 5));
    const newer = await createProduct(p.db, business.id, productSchema.parse({ name: "Newer", price: 200 }));
    await createProduct(p.db, business.id, productSchema.parse({ name: "Hidden", price: 300, status: "ARCHIVED" }));
    await createProduct(p.db, business.id, productSchema.parse({ name: "Off", price: 300, isAvailable: false }));
    expect((await gridProducts(p.db, business.id, 10)).map((x) => x.name)).toEqual(["Newer", "Older"]);
    expect((await gridProducts(p.db, business.id, 1)).map((x) => x.id)).toEqual([newer.id]);

    await createReview(p.db, business.id, older.id, { authorName: "A", rating: 5, comment: "first" });
    await new Promise((r) => setTimeout(r, 5));
    await createReview(p.db, business.id, older.id, { authorName: "B", rating: 4, comment: "second" });
    const found = await productBySlug(p.db, business.id, "older");
    expect(found!.reviews.map((r) => r.comment)).toEqual(["second", "first"]);
    expect(found!.stats).toEqual({ averageRating: 4.5, totalReviews: 2 });
    expect(await productBySlug(p.db, business.id, "hidden")).toBeNull();
    const other = await shop();
    expect(await productBySlug(p.db, other.business.id, "older")).toBeNull();
  });

  it("keeps only safe URLs and known block settings", () => {
    expect(safeUrl("/images/a.svg")).toBe("/images/a.svg");
    expect(safeUrl("https://cdn.example/a.png")).toBe("https://cdn.example/a.png");
    for (const bad of [
      "javascript:alert(1)",
      "//evil.example/a.png",
      "data:image/png;base64,AAAA",
      "/\\evil.example",
      " java\nscript:x",
      42,
      null,
    ])
      expect(safeUrl(bad)).toBe("");
    const blocks = publicBlocks([
      block("heading", { text: "Hi", extra: "x" }),
      block("image", { url: "javascript:alert(1)", alt: "x" }),
      block("image", { url: "/a.png", alt: "A" }),
      block("product-grid", { limit: 1000 }),
      block("unknown", {}),
      block("reviews-widget", { secret: "s" }, "app", "app_1"),
    ]);
    // an app block renders only while an installed app offers it
    expect(blocks.map((b) => b.type)).toEqual(["heading", "image", "product-grid"]);
    expect(blocks[2]).toMatchObject({ limit: 48 });
    const offered = [
      {
        appId: "app_1",
        blockType: "reviews-widget",
        name: "Reviews",
        renderUrl: "https://reviews.example/block",
        appName: "Reviews",
        installationId: "inst_1",
      },
    ];
    const withApp = publicBlocks([block("reviews-widget", { color: "#fff" }, "app", "app_1")], offered);
    expect(withApp).toEqual([
      {
        id: expect.any(String),
        kind: "app",
        type: "reviews-widget",
        appId: "app_1",
        name: "Reviews",
        renderUrl: "https://reviews.example/block",
        settings: { color: "#fff" },
      },
    ]);
  });

  it("formats money in the business's locale and currency", () => {
    expect(moneyFormatter({ locale: "en-US", currency: "USD" })(1150)).toBe("$11.50");
    expect(moneyFormatter({ locale: "de-DE", currency: "EUR" })(1150)).toMatch(/^11,50\s€$/);
    expect(moneyFormatter({ locale: "xx-invalid-!!", currency: "NOPE" })(100)).toBe("1.00 NOPE");
  });
});

describe("storefront pages", () => {
  it("renders the home page's blocks and the navigation, and no block of an app that is not installed", async () => {
    const { business, slug } = await shop();
    await createProduct(
      p.db,
      business.id,
      productSchema.parse({ name: "Espresso", price: 250, imageUrl: "/images/espresso.svg" }),
    );
    await createProduct(p.db, business.id, productSchema.parse({ name: "Draft Cake", price: 500, status: "DRAFT" }));
    await addPage(business.id, "about", "About us", [block("text", { text: "Since 2012" })]);
    await addPage(business.id, "hidden", "Hidden page", [], false);
    const home = block("reviews-widget", {}, "app", "app_1");
    await p.db
      .update(pages)
      .set({
        blocks: [
          block("heading", { text: "Welcome <b>friends</b>" }),
          block("text", { text: "<script>alert(1)</script>" }),
          block("image", { url: "javascript:alert(1)", alt: "bad" }),
          block("image", { url: "https://cdn.example/shop.jpg", alt: "Our shop front" }),
          block("product-grid", { limit: 8 }),
          home,
        ],
      })
      .where(and(eq(pages.businessId, business.id), eq(pages.slug, "home")));

    const res = await p.request("GET", `/s/${slug}`);
    expect(res.status).toBe(200);
    const html = text(res.text);
    expect(html).toMatch(new RegExp(`<a class="sf-brand"[^>]* href="/s/${slug}">${business.name}</a>`));
    expect(html).toMatch(/<h2 class="sf-block-heading">Welcome &lt;b&gt;friends&lt;\/b&gt;<\/h2>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('src="https://cdn.example/shop.jpg" alt="Our shop front"');
    expect(html).toContain("Espresso");
    expect(html).toContain("$2.50");
    expect(html).not.toContain("Draft Cake");
    // the app behind this block is not installed: nothing of it is rendered
    expect(html).not.toContain(`data-app-block="${home.id}"`);
    // the navigation: published pages other than home, the menu and the cart
    expect(html).toContain(`href="/s/${slug}/pages/about"`);
    expect(html).not.toContain("Hidden page");
    expect(html).toContain(`href="/s/${slug}/products"`);
    expect(plain(html)).toContain("Cart (0)");
    expect(html).toContain("/build/_assets/storefront-");
    // no platform header on a storefront
    expect(html).not.toContain("Storefront Apps</a>");
  });

  it("shows a published page and answers 404 for an unpublished or unknown one", async () => {
    const { business, slug } = await shop();
    await addPage(business.id, "about", "About us", [
      block("heading", { text: "Our story" }),
      block("text", { text: "Since 2012" }),
    ]);
    await addPage(business.id, "secret", "Secret", [block("text", { text: "Not yet" })], false);
    const about = await p.request("GET", `/s/${slug}/pages/about`);
    expect(about.status).toBe(200);
    expect(about.text).toContain("<h1>About us</h1>");
    expect(about.text).toContain("Since 2012");
    const secret = await p.request("GET", `/s/${slug}/pages/secret`);
    expect(secret.status).toBe(404);
    expect(secret.text).not.toContain("Not yet");
    expect((await p.request("GET", `/s/${slug}/pages/nothing`)).status).toBe(404);
    expect((await p.request("GET", `/s/no-such-shop`)).status).toBe(404);
    expect((await p.request("GET", `/s/no-such-shop/products`)).status).toBe(404);
    // an unpublished home page is not shown either
    await p.db
      .update(pages)
      .set({ isPublished: false })
      .where(and(eq(pages.businessId, business.id), eq(pages.slug, "home")));
    expect((await p.request("GET", `/s/${slug}`)).status).toBe(404);
  });

  it("lists the ACTIVE products by category on the menu", async () => {
    const { business, slug } = await shop();
    await createProduct(p.db, business.id, productSchema.parse({ name: "Margherita", price: 1150, category: "Pizza" }));
    await createProduct(p.db, business.id, productSchema.parse({ name: "Tiramisu", price: 700, category: "Desserts" }));
    await createProduct(
      p.db,
      business.id,
      productSchema.parse({ name: "Old Pizza", price: 900, category: "Pizza", status: "ARCHIVED" }),
    );
    await createProduct(
      p.db,
      business.id,
      productSchema.parse({ name: "Sold Out Pie", price: 900, category: "Desserts", stock: 0 }),
    );
    const res = await p.request("GET", `/s/${slug}/products`);
    expect(res.status).toBe(200);
    const html = text(res.text);
    expect(html.indexOf(">Pizza</h2>")).toBeGreaterThan(0);
    expect(html.indexOf(">Desserts</h2>")).toBeGreaterThan(html.indexOf(">Pizza</h2>"));
    expect(html).toContain("Margherita");
    expect(html).toContain("Tiramisu");
    expect(html).not.toContain("Old Pizza");
    expect(html).toContain("Sold Out Pie");
    expect(html).toContain("Sold out");
    expect(html.match(/name="intent" value="add"/g)).toHaveLength(2);
  });

  it("shows a product with its reviews and takes a new review", async () => {
    const { business, slug } = await shop();
    const product = await createProduct(
      p.db,
      business.id,
      productSchema.parse({ name: "Lasagna", price: 1400, description: "Beef ragù", stock: 3 }),
    );
    await createProduct(p.db, business.id, productSchema.parse({ name: "Draft Dish", price: 100, status: "DRAFT" }));
    await createReview(p.db, business.id, product.id, { authorName: "Old Reviewer", rating: 2, comment: "Meh" });

    const b = new BrowserSession(p.url);
    const page = await b.get(`/s/${slug}/products/lasagna`);
    expect(page.status).toBe(200);
    let html = text(page.html);
    expect(html).toContain("<h1>Lasagna</h1>");
    expect(html).toContain("$14.00");
    expect(html).toContain("Beef ragù");
    expect(html).toContain("Only 3 left");
    expect(html).toContain("2.0 out of 5");
    expect(html).toContain("Meh");
    expect((await b.get(`/s/${slug}/products/draft-dish`)).status).toBe(404);
    expect((await b.get(`/s/${slug}/products/nothing`)).status).toBe(404);

    const bad = await b.post(`/s/${slug}/products/lasagna`, { authorName: "", rating: "9", comment: "x" });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Please enter your name");
    expect(bad.html).toContain("Please choose a rating from 1 to 5");
    expect(bad.html).toContain('role="alert"');

    const res = await b.post(`/s/${slug}/products/lasagna`, {
      authorName: "Zoë <Critic>",
      rating: "5",
      comment: "Superb & hearty",
    });
    expect(res.status).toBe(302);
    // the review's own address, which no cache holds yet (decision 021)
    expect(res.location).toMatch(new RegExp(`^/s/${slug}/products/lasagna\\?reviewed=rev_[A-Za-z0-9_-]+#reviews$`));
    html = text((await b.get(res.location!)).html);
    expect(html).toContain("Thank you for your review!");
    expect(html).toContain("Zoë &lt;Critic&gt;");
    expect(html).toContain("Superb &amp; hearty");
    expect(html).toContain("3.5 out of 5");
    expect(html.indexOf("Superb")).toBeLessThan(html.indexOf("Meh")); // newest first
    const rows = await p.db.select().from(reviews).where(eq(reviews.productId, product.id));
    expect(rows).toHaveLength(2);
    const [event] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from platform_events where business_id = ${business.id} and type = 'review.created'`,
    );
    expect(event.n).toBe(2);

    // a review from another site is refused (a visitor without a cart holds no token: the browser's Origin decides, decision 021)
    const attempts: Record<string, string>[] = [
      {},
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of attempts) {
      const forged = await fetch(`${p.storefrontUrl}/s/${slug}/products/lasagna`, {
        method: "POST",
        body: new URLSearchParams({ authorName: "X", rating: "5", csrf: "forged" }),
        headers,
        redirect: "manual",
      });
      expect(forged.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await p.db.select().from(reviews).where(eq(reviews.productId, product.id))).toHaveLength(2);
  });
});
