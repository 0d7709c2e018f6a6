/**
 * The storefront checkout's requests as a shopper's browser makes them (issue 45, point 4;
 * docs/performance.md, session 14): a page and the checkout's quote go out in one piece with their
 * length, a form's body is read whole (and refused past the web layer's limit however it is sent),
 * the checkout page's layout and page share one read of the cart, and the cart's statements keep
 * to the shop's own products.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { startPlatform } from "../app/platform/testing/platform";
import { BrowserSession } from "../app/platform/testing/browser";
import { createProduct, productSchema } from "../app/platform/catalog/products.server";
import { cartProduct, readCarts, shopperCart, writeCart } from "./cart.server";

const p = await startPlatform();

async function shopWithCart() {
  const { business } = await p.registerMerchant();
  const soup = await createProduct(p.db, business.id, productSchema.parse({ name: "Soup", price: 500 }));
  const bread = await createProduct(p.db, business.id, productSchema.parse({ name: "Bread", price: 250 }));
  const b = new BrowserSession(p.url);
  const shop = `/s/${business.slug}`;
  expect((await b.post(`${shop}/cart`, { intent: "add", productId: soup.id, quantity: "2" })).status).toBe(302);
  expect((await b.post(`${shop}/cart`, { intent: "add", productId: bread.id, quantity: "1" })).status).toBe(302);
  return { business, soup, bread, b, shop };
}

/**
 * The statements sent while a shopper's page with a 3-item cart is served, after checking that the
 * page shows (its layout's cart count comes from the same read as the page's own lines).
 */
async function statementsOfPage(b: BrowserSession, path: string): Promise<string[]> {
  const client = p.db.$client as unknown as { options: { debug?: unknown } };
  const statements: string[] = [];
  client.options.debug = (_c: number, text: string) => statements.push(text);
  try {
    const { res, body } = await browserGet(b, path);
    expect(res.status).toBe(200);
    expect(body.toString()).toContain('Cart <span class="sf-cart-count">(<!-- -->3<!-- -->)</span>');
  } finally {
    client.options.debug = false;
  }
  return statements;
}

/** A GET as the shopper's browser sends it (uncompressed: a compressed answer's length is not known before), with the raw answer's headers. */
async function browserGet(b: BrowserSession, path: string) {
  const url = b.urlOf(path);
  const res = await fetch(url, {
    headers: { Cookie: b.cookieHeader(url), "Accept-Encoding": "identity" },
    redirect: "manual",
  });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

describe("the storefront checkout's requests", () => {
  it("answers the checkout page and its quote in one piece, with their length", async () => {
    const { b, shop } = await shopWithCart();
    for (const path of [`${shop}/checkout`, `${shop}/cart`]) {
      const { res, body } = await browserGet(b, path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("transfer-encoding"), path).toBeNull();
      expect(Number(res.headers.get("content-length")), path).toBe(body.length);
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
      expect(res.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
    }
    // the quote, straight from its loader: the same answer and headers as through Remix
    const { res, body } = await browserGet(b, `${shop}/checkout/quote?deliveryMethod=PICKUP`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(body.toString())).toMatchObject({
      ok: true,
      deliveryMethod: "PICKUP",
      amount: 1250,
      total: "$12.50",
    });
    // compressed when the browser takes it, as every answer of 1 KiB or more
    const url = b.urlOf(`${shop}/checkout`);
    const gz = await fetch(url, { headers: { Cookie: b.cookieHeader(url), "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(await gz.text()).toContain("Place order");
  });

  it("refuses a form body larger than the web layer takes, also when it is sent without a length", async () => {
    const { business } = await p.registerMerchant();
    const url = new URL(`/s/${business.slug}/cart`, new BrowserSession(p.url).storefrontUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            "Transfer-Encoding": "chunked",
            Origin: url.origin,
            "Sec-Fetch-Site": "same-origin",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? null : reject(e)));
      const chunk = "intent=add&padding=" + "x".repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 20) {
          sent++;
          if (!req.write(chunk)) return void req.once("drain", more);
        }
        req.end();
      };
      more();
    });
    expect(status).toBe(413);
  });

  it("reads the cart's products once for the checkout page's layout and the page", async () => {
    const { b, shop } = await shopWithCart();
    const statements = await statementsOfPage(b, `${shop}/checkout`);
    // the cart's read (the quote reads the products again with the checkout's own statement)
    expect(statements.filter((s) => /from "products"/.test(s))).toHaveLength(1);
    // and the business once: the layout's read of the shop serves the page too
    expect(statements.filter((s) => /from "?businesses"?/.test(s))).toHaveLength(1);
  });

  it("reads the business once for the cart page's layout and the page", async () => {
    const { b, shop } = await shopWithCart();
    const statements = await statementsOfPage(b, `${shop}/cart`);
    expect(statements.filter((s) => /from "?businesses"?/.test(s))).toHaveLength(1);
  });

  it("shares one cart read per request and business, and gives each reader its own copy", async () => {
    const { business, soup, bread } = await shopWithCart();
    const cookie = (
      await writeCart(new Request("http://x/s/a"), p.env, business.id, [{ productId: soup.id, quantity: 2 }])
    ).split(";")[0];
    const request = new Request("http://x/s/a", { headers: { Cookie: cookie } });
    const first = await readCarts(request, p.env);
    first[business.id][0].quantity = 99;
    first[business.id].push({ productId: bread.id, quantity: 1 });
    expect((await readCarts(request, p.env))[business.id]).toEqual([{ productId: soup.id, quantity: 2 }]);
    // a changed Cookie header is read again
    request.headers.set("Cookie", "");
    expect(await readCarts(request, p.env)).toEqual({});

    const context = { db: p.db, env: p.env };
    const withCart = new Request("http://x/s/a", { headers: { Cookie: cookie } });
    const [a, c] = [shopperCart(context, withCart, business), shopperCart(context, withCart, business)];
    expect(a).toBe(c);
    expect((await a).count).toBe(2);
    // another request's context reads for itself
    expect(shopperCart({ db: p.db, env: p.env }, withCart, business)).not.toBe(a);
  });

  it("finds a cart's product only in its own shop", async () => {
    const { business, soup } = await shopWithCart();
    const other = await p.registerMerchant();
    expect((await cartProduct(p.db, business.id, soup.id))?.name).toBe("Soup");
    expect(await cartProduct(p.db, other.business.id, soup.id)).toBeUndefined();
    expect(await cartProduct(p.db, business.id, "prd_missing")).toBeUndefined();
  });
});
