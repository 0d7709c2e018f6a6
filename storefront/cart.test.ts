import { describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { BrowserSession, hiddenFields } from "../app/platform/testing/browser";
import { createProduct, productSchema, updateProduct } from "../app/platform/catalog/products.server";
import { orderItems, orders } from "../db/schema";
import {
  addToCart,
  cartCookie,
  cartLines,
  MAX_LINES,
  parseQuantity,
  readCart,
  setQuantity,
  writeCart,
} from "./cart.server";
import { orderToken, verifyOrderToken } from "../app/platform/core/order-link.server";

const p = await startPlatform();

async function shop() {
  const { m, business } = await p.registerMerchant();
  const pizza = await createProduct(
    p.db,
    business.id,
    productSchema.parse({ name: "Margherita", price: 1150, category: "Pizza" }),
  );
  const fries = await createProduct(
    p.db,
    business.id,
    productSchema.parse({ name: "Fries", price: 450, category: "Sides", stock: 10 }),
  );
  const draft = await createProduct(
    p.db,
    business.id,
    productSchema.parse({ name: "Secret Special", price: 999, status: "DRAFT" }),
  );
  return { m, business, slug: business.slug, pizza, fries, draft };
}

/** The text of server-rendered HTML: no tags, no React text separators, whitespace collapsed. */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/ \)/g, ")")
    .replace(/\( /g, "(");

const orderCount = async (businessId: string) =>
  (await p.db.select({ n: count() }).from(orders).where(eq(orders.businessId, businessId)))[0].n;

/** A request carrying the cookie that writeCart produced. */
const withCookie = (setCookie: string) => new Request("http://x/s/a", { headers: { Cookie: setCookie.split(";")[0] } });

describe("cart functions", () => {
  it("adds, merges, caps at 999, sets and removes quantities", () => {
    let cart = addToCart([], "prd_a", 2);
    cart = addToCart(cart, "prd_b", 1);
    cart = addToCart(cart, "prd_a", 3);
    expect(cart).toEqual([
      { productId: "prd_a", quantity: 5 },
      { productId: "prd_b", quantity: 1 },
    ]);
    expect(addToCart(cart, "prd_a", 999)[0].quantity).toBe(999);
    expect(setQuantity(cart, "prd_a", 7)[0]).toEqual({ productId: "prd_a", quantity: 7 });
    expect(setQuantity(cart, "prd_a", 0)).toEqual([{ productId: "prd_b", quantity: 1 }]);
    expect(() => setQuantity(cart, "prd_a", 1000)).toThrow(/0 to 999/);
    expect(() => addToCart(cart, "prd_a", 0)).toThrow(/1 to 999/);
    const full = Array.from({ length: MAX_LINES }, (_, i) => ({ productId: `prd_${i}`, quantity: 1 }));
    expect(() => addToCart(full, "prd_new", 1)).toThrow(/cart is full/);
  });

  it("parses form quantities strictly", () => {
    expect(parseQuantity("3")).toBe(3);
    expect(parseQuantity("0", 0)).toBe(0);
    for (const bad of ["0", "-1", "1.5", "abc", "", "1000", "1e3", null]) expect(() => parseQuantity(bad)).toThrow();
  });

  it("keeps one signed cookie for every business, and ignores a tampered one", async () => {
    const first = await writeCart(new Request("http://x/"), p.env, "biz_one", [{ productId: "prd_a", quantity: 2 }]);
    expect(first).toMatch(/^__cart=/);
    expect(first).toMatch(/Path=\/s\//);
    expect(first).toMatch(/HttpOnly/);
    expect(first).toMatch(/SameSite=Lax/);
    const both = await writeCart(withCookie(first), p.env, "biz_two", [{ productId: "prd_b", quantity: 1 }]);
    expect(await readCart(withCookie(both), p.env, "biz_one")).toEqual([{ productId: "prd_a", quantity: 2 }]);
    expect(await readCart(withCookie(both), p.env, "biz_two")).toEqual([{ productId: "prd_b", quantity: 1 }]);

    // the same payload with a signature of another secret is no cart at all
    const forged = await cartCookie({ ...p.env, sessionSecret: "x".repeat(40) }).serialize({
      biz_one: [{ productId: "prd_evil", quantity: 5 }],
    });
    expect(await readCart(withCookie(forged), p.env, "biz_one")).toEqual([]);
    // malformed lines are dropped
    const odd = await cartCookie(p.env).serialize({
      biz_one: [
        { productId: "prd_a", quantity: -3 },
        { productId: "<script>", quantity: 1 },
        { productId: "prd_c", quantity: 2.5 },
        { productId: "prd_d", quantity: 4 },
      ],
    });
    expect(await readCart(withCookie(odd), p.env, "biz_one")).toEqual([{ productId: "prd_d", quantity: 4 }]);
  });

  it("drops other businesses' carts, oldest first, before the cookie grows too large", async () => {
    const full = (prefix: string) =>
      Array.from({ length: MAX_LINES }, (_, i) => ({
        productId: `prd_${prefix}${String(i).padStart(18, "0")}`,
        quantity: 999,
      }));
    let header = await writeCart(new Request("http://x/"), p.env, "biz_one", full("a"));
    header = await writeCart(withCookie(header), p.env, "biz_two", full("b"));
    header = await writeCart(withCookie(header), p.env, "biz_three", [{ productId: "prd_c", quantity: 1 }]);
    expect(header.split(";")[0].length).toBeLessThanOrEqual(3800);
    expect(await readCart(withCookie(header), p.env, "biz_three")).toEqual([{ productId: "prd_c", quantity: 1 }]);
    expect(await readCart(withCookie(header), p.env, "biz_one")).toEqual([]);
    expect(await readCart(withCookie(header), p.env, "biz_two")).toHaveLength(MAX_LINES);
    // emptying the only cart expires the cookie
    const cleared = await writeCart(
      withCookie(await writeCart(new Request("http://x/"), p.env, "biz_one", [{ productId: "prd_a", quantity: 1 }])),
      p.env,
      "biz_one",
      [],
    );
    expect(cleared).toMatch(/Max-Age=0/);
  });

  it("joins the products of the business, dropping missing, other businesses' and unavailable ones", async () => {
    const { business, pizza, fries, draft } = await shop();
    const other = await shop();
    const view = await cartLines(p.db, business, [
      { productId: pizza.id, quantity: 2 },
      { productId: fries.id, quantity: 3 },
      { productId: draft.id, quantity: 1 },
      { productId: other.pizza.id, quantity: 1 },
      { productId: "prd_gone", quantity: 1 },
    ]);
    expect(view.lines.map((l) => [l.name, l.quantity, l.lineTotal])).toEqual([
      ["Margherita", 2, 2300],
      ["Fries", 3, 1350],
    ]);
    expect(view).toMatchObject({ subtotal: 3650, subtotalLabel: "$36.50", count: 5, dropped: 3 });
    await updateProduct(p.db, business.id, fries.id, { isAvailable: false });
    expect((await cartLines(p.db, business, [{ productId: fries.id, quantity: 1 }])).lines).toEqual([]);
  });

  it("signs order links so that only the shopper's token verifies", () => {
    const token = orderToken(p.env, "ord_1");
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(verifyOrderToken(p.env, "ord_1", token)).toBe(true);
    expect(verifyOrderToken(p.env, "ord_2", token)).toBe(false);
    expect(verifyOrderToken(p.env, "ord_1", token.slice(0, 31) + (token[31] === "0" ? "1" : "0"))).toBe(false);
    expect(verifyOrderToken(p.env, "ord_1", null)).toBe(false);
    expect(verifyOrderToken(p.env, "ord_1", "")).toBe(false);
  });
});

/** The total the checkout page shows for a delivery method (what its fetcher asks for), which the page sends back with "Place order". */
const quotedFor = async (b: BrowserSession, slug: string, deliveryMethod: "DELIVERY" | "PICKUP") =>
  String(JSON.parse((await b.get(`/s/${slug}/checkout/quote?deliveryMethod=${deliveryMethod}`)).html).amount);

describe("the cart and checkout in a browser", () => {
  it("adds, updates, removes, checks out with CASH and lands on the confirmation", async () => {
    const { business, slug, pizza, fries, draft } = await shop();
    const b = new BrowserSession(p.url);
    const home = await b.get(`/s/${slug}`);
    expect(home.status).toBe(200);
    expect(text(home.html)).toContain("Cart (0)");

    const added = await b.post(`/s/${slug}/cart`, {
      intent: "add",
      productId: pizza.id,
      quantity: "2",
      redirectTo: `/s/${slug}/products`,
    });
    expect(added.status).toBe(302);
    expect(added.location).toBe(`/s/${slug}/products?added=1`);
    const menu = await b.get(added.location!);
    expect(text(menu.html)).toContain("Cart (2)");
    expect(menu.html).toContain("Added to your cart");

    // no redirectTo: the cart
    expect((await b.post(`/s/${slug}/cart`, { intent: "add", productId: fries.id, quantity: "1" })).location).toBe(
      `/s/${slug}/cart`,
    );
    // a product that is not ACTIVE cannot be added
    const refused = await b.post(`/s/${slug}/cart`, { intent: "add", productId: draft.id, quantity: "1" });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("not available");
    // more than the stock left cannot be added
    expect((await b.post(`/s/${slug}/cart`, { intent: "add", productId: fries.id, quantity: "20" })).status).toBe(400);

    let cart = text((await b.get(`/s/${slug}/cart`)).html);
    expect(cart).toContain("Cart (3)");
    expect(cart).toContain("$27.50"); // 2 × 11.50 + 4.50

    expect((await b.post(`/s/${slug}/cart`, { intent: "update", productId: pizza.id, quantity: "3" })).location).toBe(
      `/s/${slug}/cart`,
    );
    cart = text((await b.get(`/s/${slug}/cart`)).html);
    expect(cart).toContain("Cart (4)");
    expect(cart).toContain("$39.00");
    expect((await b.post(`/s/${slug}/cart`, { intent: "update", productId: pizza.id, quantity: "abc" })).status).toBe(
      400,
    );
    await b.post(`/s/${slug}/cart`, { intent: "remove", productId: fries.id });
    await b.post(`/s/${slug}/cart`, { intent: "update", productId: pizza.id, quantity: "1" });
    await b.post(`/s/${slug}/cart`, { intent: "add", productId: fries.id, quantity: "2" });
    cart = text((await b.get(`/s/${slug}/cart`)).html);
    expect(cart).toContain("Cart (3)");
    expect(cart).toContain("$20.50");

    const page = await b.get(`/s/${slug}/checkout`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Cash on delivery/pickup");
    expect(page.html).toContain("Card on delivery/pickup");
    const { checkoutKey } = hiddenFields(page.html);
    expect(checkoutKey).toMatch(/^sf-/);

    const quotedAmount = await quotedFor(b, slug, "PICKUP");
    expect(quotedAmount).toBe("2050");
    const res = await b.post(`/s/${slug}/checkout`, {
      checkoutKey,
      quotedAmount,
      name: "Ana Shopper",
      phone: "+1 555 0100",
      email: "",
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
      address: "",
      notes: "Ring twice",
    });
    expect(res.status, res.html.slice(0, 500)).toBe(302);
    const location = new URL(res.location!, p.url);
    const orderId = location.pathname.split("/").pop()!;
    expect(location.pathname).toBe(`/s/${slug}/orders/${orderId}`);
    expect(location.searchParams.get("t")).toBe(orderToken(p.env, orderId));

    const [order] = await p.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      businessId: business.id,
      status: "PENDING",
      subtotal: 2050,
      deliveryFee: 0,
      amount: 2050,
      paymentMethod: "CASH",
      deliveryMethod: "PICKUP",
      customerName: "Ana Shopper",
      customerEmail: null,
      address: null,
      notes: "Ring twice",
    });
    const items = await p.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(items.map((i) => [i.name, i.quantity]).sort()).toEqual([
      ["Fries", 2],
      ["Margherita", 1],
    ]);

    const confirmation = await b.get(location.pathname + location.search);
    expect(confirmation.status).toBe(200);
    const html = text(confirmation.html);
    expect(html).toContain(`Thank you! Order #${order.orderNumber}`);
    expect(html).toContain("$20.50");
    expect(html).toContain("Cart (0)"); // the cart was emptied
    expect(html).not.toContain("Pay now");

    // another token, no token, or another business's storefront: 404
    expect((await b.get(`${location.pathname}?t=${"0".repeat(32)}`)).status).toBe(404);
    expect((await b.get(location.pathname)).status).toBe(404);
    const other = await shop();
    expect((await b.get(`/s/${other.slug}/orders/${orderId}${location.search}`)).status).toBe(404);

    // an empty cart has nothing to check out
    expect((await b.get(`/s/${slug}/checkout`)).location).toBe(`/s/${slug}/cart`);
  });

  it("creates one order when the checkout form is submitted twice", async () => {
    const { business, slug, pizza } = await shop();
    const b = new BrowserSession(p.url);
    await b.get(`/s/${slug}`);
    await b.post(`/s/${slug}/cart`, { intent: "add", productId: pizza.id, quantity: "1" });
    // the page's own hidden fields: its key and the total it shows for delivery (the default)
    const { checkoutKey, quotedAmount } = hiddenFields((await b.get(`/s/${slug}/checkout`)).html);
    expect(quotedAmount).toBe("1450");
    const form = {
      checkoutKey,
      quotedAmount,
      name: "Ben",
      phone: "555 0101",
      deliveryMethod: "DELIVERY",
      address: "1 Main Street",
      paymentMethod: "CARD",
    };
    const cookies = new Map([...b.jars].map(([host, jar]) => [host, new Map(jar)])); // both requests leave the browser with the same cookies
    const first = await b.post(`/s/${slug}/checkout`, form);
    b.jars = cookies;
    const second = await b.post(`/s/${slug}/checkout`, form);
    expect(first.status).toBe(302);
    expect(second.location).toBe(first.location);
    expect(await orderCount(business.id)).toBe(1);
    const [order] = await p.db.select().from(orders).where(eq(orders.businessId, business.id));
    expect(order).toMatchObject({
      deliveryMethod: "DELIVERY",
      address: "1 Main Street",
      deliveryFee: 300,
      amount: 1450,
      paymentMethod: "CARD",
    });
    const page = text((await b.get(first.location!)).html);
    expect(page).toContain("Delivery fee");
    expect(page).toContain("$3.00");
    expect(page).toContain("1 Main Street");
  });

  it("shows an app payment's link and code, and a discount, on the confirmation", async () => {
    const { slug, pizza } = await shop();
    const b = new BrowserSession(p.url);
    await b.get(`/s/${slug}`);
    await b.post(`/s/${slug}/cart`, { intent: "add", productId: pizza.id, quantity: "2" });
    const { checkoutKey } = hiddenFields((await b.get(`/s/${slug}/checkout`)).html);
    const res = await b.post(`/s/${slug}/checkout`, {
      checkoutKey,
      quotedAmount: await quotedFor(b, slug, "PICKUP"),
      name: "Dee",
      phone: "555 0103",
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    });
    const orderId = new URL(res.location!, p.url).pathname.split("/").pop()!;
    // what checkout.create_payment leaves on the order row for an app's method
    await p.db
      .update(orders)
      .set({
        paymentStatus: "PENDING",
        paymentUrl: "https://pay.example/i/1?x=1&y=2",
        paymentQrCode: "PAYCODE-<123>",
        paymentExpiresAt: new Date(Date.now() + 3600_000),
        discount: 300,
        amount: 2000,
      })
      .where(eq(orders.id, orderId));
    let html = (await b.get(res.location!)).html;
    expect(html).toMatch(/<a href="https:\/\/pay\.example\/i\/1\?x=1&amp;y=2"[^>]*>Pay now<\/a>/);
    expect(html).toContain("<figcaption>Payment code</figcaption>");
    expect(html).toContain("<code>PAYCODE-&lt;123&gt;</code>");
    expect(text(html)).toContain("Pay before");
    expect(text(html)).toContain("Discount −$3.00");
    expect(text(html)).toContain("Total $20.00");

    await p.db
      .update(orders)
      .set({ paymentUrl: "javascript:alert(1)", paymentQrCode: null })
      .where(eq(orders.id, orderId));
    html = (await b.get(res.location!)).html;
    expect(html).not.toContain("Pay now");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("Payment code");
  });

  it("shows what is wrong, keeps the form values and creates no order", async () => {
    const { business, slug, fries } = await shop();
    const b = new BrowserSession(p.url);
    await b.get(`/s/${slug}`);
    await b.post(`/s/${slug}/cart`, { intent: "add", productId: fries.id, quantity: "5" });
    const { checkoutKey } = hiddenFields((await b.get(`/s/${slug}/checkout`)).html);
    const checkout = (fields: Record<string, string>) =>
      b.post(`/s/${slug}/checkout`, { checkoutKey, name: "Cleo", phone: "555 0102", ...fields });

    const noAddress = await checkout({ deliveryMethod: "DELIVERY", address: "  ", paymentMethod: "CASH" });
    expect(noAddress.status).toBe(400);
    expect(noAddress.html).toContain('role="alert"');
    expect(noAddress.html).toContain("Enter the delivery address");
    expect(noAddress.html).toContain('value="Cleo"');
    expect(noAddress.html).toMatch(/id="co-address"[^>]*aria-invalid="true"/);
    expect(await orderCount(business.id)).toBe(0);

    const unknownMethod = await checkout({ deliveryMethod: "PICKUP", paymentMethod: "BITCOIN" });
    expect(unknownMethod.status).toBe(400);
    expect(unknownMethod.html).toContain("BITCOIN is not offered");

    // the pipeline's own refusal (ApiError) is shown as it is
    await updateProduct(p.db, business.id, fries.id, { stock: 2 });
    const short = await checkout({ deliveryMethod: "PICKUP", paymentMethod: "CASH" });
    expect(short.status).toBe(400);
    expect(short.html).toContain("has only 2 left");
    expect(short.html).toContain('value="Cleo"');
    // a fresh key for the next attempt
    expect(hiddenFields(short.html).checkoutKey).not.toBe(checkoutKey);
    expect(await orderCount(business.id)).toBe(0);
    // the cart is kept
    expect(text((await b.get(`/s/${slug}/cart`)).html)).toContain("Cart (5)");
  });

  it("only sends the shopper back within the storefront", async () => {
    const { slug, pizza } = await shop();
    const b = new BrowserSession(p.url);
    await b.get(`/s/${slug}`);
    const add = (redirectTo: string) =>
      b.post(`/s/${slug}/cart`, { intent: "add", productId: pizza.id, quantity: "1", redirectTo });
    for (const outside of [
      "https://evil.example/",
      "//evil.example/x",
      "/admin",
      `/s/${slug}-evil`,
      `/s/${slug}/../../admin`,
      "/\\evil.example",
      `/s/other-shop/products`,
      "javascript:alert(1)",
    ])
      expect((await add(outside)).location, outside).toBe(`/s/${slug}/cart`);
    expect((await add(`/s/${slug}/products/margherita?x=1#top`)).location).toBe(
      `/s/${slug}/products/margherita?x=1&added=1`,
    );
    expect((await add(`/s/${slug}`)).location).toBe(`/s/${slug}?added=1`);
  });

  it("refuses a cart change from another site, and one without the form's CSRF token once the shopper has a cart", async () => {
    const { slug, pizza, fries } = await shop();
    const b = new BrowserSession(p.url);
    const url = `${p.storefrontUrl}/s/${slug}/cart`;
    const post = (fields: Record<string, string>, headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Cookie: b.cookieHeader(new URL(url)), ...headers },
        redirect: "manual",
      });
    const add = { intent: "add", productId: pizza.id, quantity: "1" };
    // no cart yet, so no token (decision 021): the browser must say the form is the storefront's own
    const attempts: Record<string, string>[] = [
      {},
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      { Origin: "null" },
    ];
    for (const headers of attempts) {
      const res = await post(add, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.getSetCookie(), JSON.stringify(headers)).toEqual([]);
    }
    // a same-origin form gives the first cart, and with it the shopper's token
    const first = await b.post(`/s/${slug}/cart`, add);
    expect(first.status).toBe(302);
    expect([...b.cookies.keys()].sort()).toEqual(["__cart", "__shop"]);
    // now the token is required, even from the storefront's own origin
    const change = { intent: "add", productId: fries.id, quantity: "1" };
    const own = { Origin: p.storefrontUrl, "Sec-Fetch-Site": "same-origin" };
    for (const csrf of [undefined, "", "not-the-token"]) {
      const res = await post(csrf === undefined ? change : { ...change, csrf }, own);
      expect(res.status, String(csrf)).toBe(403);
    }
    expect(text((await b.get(`/s/${slug}/cart`)).html)).not.toContain("Fries");
    // the page of a shopper with a cart carries their token, which is accepted
    expect(b.csrf).not.toBe("");
    expect((await b.post(`/s/${slug}/cart`, change)).status).toBe(302);
    expect(text((await b.get(`/s/${slug}/cart`)).html)).toContain("Fries");
  });

  it("gives the storefront's CSRF cookie with the first cart and takes it away with the last", async () => {
    const a = await shop();
    const c = await shop();
    const b = new BrowserSession(p.url);
    // page views set no cookie
    for (const path of [
      `/s/${a.slug}`,
      `/s/${a.slug}/products`,
      `/s/${a.slug}/products/margherita`,
      `/s/${a.slug}/cart`,
    ])
      await b.get(path);
    expect(b.cookies.size).toBe(0);
    await b.post(`/s/${a.slug}/cart`, { intent: "add", productId: a.pizza.id, quantity: "1" });
    await b.get(`/s/${a.slug}/cart`);
    const shopCookie = b.cookies.get("__shop");
    expect(shopCookie).toBeTruthy();
    await b.post(`/s/${c.slug}/cart`, { intent: "add", productId: c.fries.id, quantity: "1" });
    // one token for the shopper (the same cookie), kept while a cart is left
    await b.post(`/s/${a.slug}/cart`, { intent: "remove", productId: a.pizza.id });
    expect([...b.cookies.keys()].sort()).toEqual(["__cart", "__shop"]);
    expect(b.cookies.get("__shop")).toBe(shopCookie);
    // the last cart emptied: no storefront cookie left, the shopper is an anonymous visitor again
    await b.post(`/s/${c.slug}/cart`, { intent: "update", productId: c.fries.id, quantity: "0" });
    expect(b.cookies.size).toBe(0);
    const page = await fetch(`${p.storefrontUrl}/s/${c.slug}`);
    expect(page.headers.get("cache-control")).toMatch(/^public, /);
    // a storefront cookie without a cart (page views set one before decision 021) goes with the next page view
    const stray = await b.post(`/s/${a.slug}/cart`, { intent: "add", productId: a.pizza.id, quantity: "1" });
    expect(stray.status).toBe(302);
    b.jars.get(new URL(p.storefrontUrl).hostname)!.delete("__cart");
    expect([...b.cookies.keys()]).toEqual(["__shop"]);
    const view = await b.get(`/s/${a.slug}/products`);
    expect(view.status).toBe(200);
    expect(b.cookies.size).toBe(0);
    expect((await fetch(`${p.storefrontUrl}/s/${a.slug}/products`)).headers.get("cache-control")).toMatch(/^public, /);
  });

  it("keeps each business's cart separate", async () => {
    const a = await shop();
    const c = await shop();
    const b = new BrowserSession(p.url);
    await b.get(`/s/${a.slug}`);
    await b.post(`/s/${a.slug}/cart`, { intent: "add", productId: a.pizza.id, quantity: "2" });
    await b.post(`/s/${c.slug}/cart`, { intent: "add", productId: c.fries.id, quantity: "1" });
    // a product id of another business is not added to this one's cart
    expect((await b.post(`/s/${c.slug}/cart`, { intent: "add", productId: a.fries.id, quantity: "1" })).status).toBe(
      400,
    );
    expect(text((await b.get(`/s/${a.slug}/cart`)).html)).toContain("Cart (2)");
    expect(text((await b.get(`/s/${c.slug}/cart`)).html)).toContain("Cart (1)");
    const [row] = await p.db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.businessId, a.business.id)));
    expect(row.n).toBe(0);
  });
});
