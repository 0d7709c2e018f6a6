/**
 * The shopper's cart: one signed cookie "__cart" holding {[businessId]: [{productId, quantity}]},
 * httpOnly, SameSite=Lax, Secure in production, scoped to the storefronts (path /s/). Nothing is
 * stored on the server until checkout; cartLines re-reads the products on every request, so a
 * product that was deleted, archived or made unavailable simply drops out of the cart.
 */
import { createCookie, type Cookie } from "@remix-run/node";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { perDatabase } from "../db/sql";
import { products, type Business } from "../db/schema";
import type { Env } from "../app/platform/core/env.server";
import { ApiError } from "../app/platform/core/http.server";
import { shopperSessionCookie } from "../app/platform/accounts/session.server";
import { isSellable, moneyFormatter, safeUrl } from "./site.server";

export type CartItem = { productId: string; quantity: number };
export type Carts = Record<string, CartItem[]>;

export const CART_COOKIE = "__cart";
export const MAX_QUANTITY = 999;
/** different products per cart: keeps the cookie well under the browsers' 4 KB */
export const MAX_LINES = 30;
const MAX_COOKIE_CHARS = 3800;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

const cookies = new Map<string, Cookie>();

export function cartCookie(env: Env): Cookie {
  const key = `${env.sessionSecret}:${env.isProduction}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    cookie = createCookie(CART_COOKIE, {
      secrets: [env.sessionSecret],
      httpOnly: true,
      sameSite: "lax",
      secure: env.isProduction,
      path: "/s/",
      maxAge: 30 * 24 * 3600,
    });
    cookies.set(key, cookie);
  }
  return cookie;
}

/** Keeps only well-formed lines: known id shape, integer quantity 1-999, one line per product. */
function sanitizeItems(value: unknown): CartItem[] {
  if (!Array.isArray(value)) return [];
  const out: CartItem[] = [];
  for (const raw of value.slice(0, MAX_LINES * 2)) {
    if (!raw || typeof raw !== "object") continue;
    const { productId, quantity } = raw as Record<string, unknown>;
    if (typeof productId !== "string" || !ID.test(productId)) continue;
    if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1) continue;
    const existing = out.find((l) => l.productId === productId);
    if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + quantity);
    else if (out.length < MAX_LINES) out.push({ productId, quantity: Math.min(MAX_QUANTITY, quantity) });
  }
  return out;
}

/**
 * The cookie's carts as read for one request: an action reads them up to three times (the cart,
 * the other businesses' carts, writing the new one), and each read verifies the cookie's signature.
 * Kept per Request and per cookie header and secret (a request's headers are not changed after it
 * arrives, but a changed one is read again); copies are handed out, so a caller may change its own.
 */
const readsOfRequest = new WeakMap<Request, { cookie: string | null; key: string; carts: Promise<Carts> }>();

const copyCarts = (carts: Carts): Carts =>
  Object.fromEntries(Object.entries(carts).map(([id, items]) => [id, items.map((l) => ({ ...l }))]));

/** Every business's cart in the cookie; a missing, tampered or malformed cookie is an empty cart. */
export async function readCarts(request: Request, env: Env): Promise<Carts> {
  const cookie = request.headers.get("Cookie");
  const key = `${env.sessionSecret}:${env.isProduction}`;
  let read = readsOfRequest.get(request);
  if (!read || read.cookie !== cookie || read.key !== key) {
    read = { cookie, key, carts: parseCarts(cookie, env) };
    readsOfRequest.set(request, read);
  }
  return copyCarts(await read.carts);
}

async function parseCarts(cookie: string | null, env: Env): Promise<Carts> {
  let value: unknown = null;
  try {
    value = await cartCookie(env).parse(cookie);
  } catch {
    value = null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const carts: Carts = {};
  for (const [businessId, items] of Object.entries(value as Record<string, unknown>).slice(0, 20)) {
    if (!ID.test(businessId)) continue;
    const clean = sanitizeItems(items);
    if (clean.length) carts[businessId] = clean;
  }
  return carts;
}

export async function readCart(request: Request, env: Env, businessId: string): Promise<CartItem[]> {
  return (await readCarts(request, env))[businessId] ?? [];
}

/**
 * The Set-Cookie header that stores this business's cart (empty removes it), keeping the other
 * businesses' carts; when the cookie would grow too large, the least recently changed carts of
 * other businesses are dropped.
 */
export async function writeCart(request: Request, env: Env, businessId: string, items: CartItem[]): Promise<string> {
  const cookie = cartCookie(env);
  const carts = await readCarts(request, env);
  delete carts[businessId];
  const clean = sanitizeItems(items);
  if (clean.length) carts[businessId] = clean; // the last key is the most recently changed cart
  if (Object.keys(carts).length === 0) return cookie.serialize("", { maxAge: 0, expires: new Date(0) });
  let header = await cookie.serialize(carts);
  for (const other of Object.keys(carts)) {
    if (header.length <= MAX_COOKIE_CHARS) break;
    if (other === businessId) continue;
    delete carts[other];
    header = await cookie.serialize(carts);
  }
  return header;
}

export async function clearCart(request: Request, env: Env, businessId: string): Promise<string> {
  return writeCart(request, env, businessId, []);
}

/**
 * The Set-Cookie headers of a change to this business's cart: the cart cookie, and the storefront's
 * CSRF cookie, which a shopper holds exactly while some cart is left (decision 021: given with the
 * first cart, taken away with the last).
 */
export async function cartCookies(request: Request, env: Env, businessId: string, items: CartItem[]): Promise<Headers> {
  const others = await readCarts(request, env);
  delete others[businessId];
  const headers = new Headers();
  headers.append("Set-Cookie", await writeCart(request, env, businessId, items));
  const shop = await shopperSessionCookie(
    request,
    env,
    sanitizeItems(items).length > 0 || Object.keys(others).length > 0,
  );
  if (shop) headers.append("Set-Cookie", shop);
  return headers;
}

/** A quantity from a form: an integer from min to 999, else a 400. */
export function parseQuantity(raw: unknown, min = 1): number {
  const text = typeof raw === "string" ? raw.trim() : typeof raw === "number" ? String(raw) : "";
  const n = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < min || n > MAX_QUANTITY)
    throw new ApiError(400, `Quantity must be a whole number from ${min} to ${MAX_QUANTITY}.`);
  return n;
}

/** Adds quantity of a product (merging with its line, at most 999). */
export function addToCart(items: CartItem[], productId: string, quantity: number): CartItem[] {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY)
    throw new ApiError(400, `Quantity must be a whole number from 1 to ${MAX_QUANTITY}.`);
  const existing = items.find((l) => l.productId === productId);
  if (existing)
    return items.map((l) =>
      l.productId === productId ? { productId, quantity: Math.min(MAX_QUANTITY, l.quantity + quantity) } : l,
    );
  if (items.length >= MAX_LINES)
    throw new ApiError(400, `Your cart is full: it holds up to ${MAX_LINES} different products.`);
  return [...items, { productId, quantity }];
}

/** Sets a line's quantity (1-999); 0 removes the line. */
export function setQuantity(items: CartItem[], productId: string, quantity: number): CartItem[] {
  if (!Number.isInteger(quantity) || quantity < 0 || quantity > MAX_QUANTITY)
    throw new ApiError(400, `Quantity must be a whole number from 0 to ${MAX_QUANTITY}.`);
  if (quantity === 0) return items.filter((l) => l.productId !== productId);
  return items.map((l) => (l.productId === productId ? { productId, quantity } : l));
}

export const removeFromCart = (items: CartItem[], productId: string) => setQuantity(items, productId, 0);

/**
 * The cart's products, read by every storefront request of a shopper with a cart: built once per
 * database handle (docs/performance.md, session 14), the ids as one text[] parameter so that one
 * prepared statement serves a cart of any size.
 */
const cartProductsQuery = perDatabase((db: Db) =>
  db
    .select()
    .from(products)
    .where(
      and(
        eq(products.businessId, sql.placeholder("businessId")),
        sql`${products.id} = any(${sql.placeholder("ids")}::text[])`,
      ),
    )
    .prepare("storefront_cart_products"),
);

/** One product of the business (any status), or undefined: the cart's checks before a change. */
export async function cartProduct(db: Db, businessId: string, productId: string) {
  const [product] = await cartProductsQuery(db).execute({ businessId, ids: [productId] });
  return product;
}

/**
 * The cart joined with the business's products: lines of products that exist, are ACTIVE and
 * available (others are dropped), with line totals, the subtotal and the item count.
 */
export async function cartLines(db: Db, business: Business, cart: CartItem[]) {
  const ids = [...new Set(cart.map((l) => l.productId))];
  const rows = ids.length ? await cartProductsQuery(db).execute({ businessId: business.id, ids }) : [];
  const byId = new Map(rows.map((p) => [p.id, p]));
  const money = moneyFormatter(business);
  const lines = cart.flatMap((item) => {
    const p = byId.get(item.productId);
    if (!p || !isSellable(p)) return [];
    const lineTotal = p.price * item.quantity;
    return [
      {
        productId: p.id,
        slug: p.slug,
        name: p.name,
        imageUrl: safeUrl(p.imageUrl),
        unitPrice: p.price,
        unitPriceLabel: money(p.price),
        quantity: item.quantity,
        /** the stock left when tracked, else null */
        stock: p.stock,
        lineTotal,
        lineTotalLabel: money(lineTotal),
      },
    ];
  });
  const subtotal = lines.reduce((s, l) => s + l.lineTotal, 0);
  return {
    lines,
    subtotal,
    subtotalLabel: money(subtotal),
    count: lines.reduce((s, l) => s + l.quantity, 0),
    /** lines of the cookie that no longer count (deleted or unavailable products) */
    dropped: cart.length - lines.length,
    /** names of the cart's products that exist but can no longer be bought (sold out, unavailable, archived) */
    unavailable: cart.flatMap((item) => {
      const p = byId.get(item.productId);
      return p && !isSellable(p) ? [p.name] : [];
    }),
  };
}
export type CartView = Awaited<ReturnType<typeof cartLines>>;

const cartsOfRequest = new WeakMap<object, Map<string, Promise<CartView>>>();

/**
 * The shopper's cart of this business with its products (readCart, then cartLines), read once per
 * request: a page's layout (its cart count) and the page's own loader (the cart, the checkout) run
 * at the same time with the same load context and share one read, as they share the shop (shopOf).
 * For loaders; an action reads the cart itself, before it changes it.
 */
export function shopperCart(context: { db: Db; env: Env }, request: Request, business: Business): Promise<CartView> {
  let reads = cartsOfRequest.get(context);
  if (!reads) cartsOfRequest.set(context, (reads = new Map()));
  const key = `${business.id}\n${request.headers.get("Cookie") ?? ""}`;
  let read = reads.get(key);
  if (!read) {
    read = readCart(request, context.env, business.id).then((items) => cartLines(context.db, business, items));
    reads.set(key, read);
  }
  return read;
}
