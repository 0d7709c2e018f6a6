/**
 * A shopper's privacy requests (contract 15, decision 040): find what a business holds about an
 * e-mail (orders, reviews), export it, or erase it. Every request is recorded (privacy_requests:
 * who asked, when, kind, counts; the e-mail only as a keyed digest) and, when anything is held, told
 * to the business's apps (compliance.server.ts) in the same transaction.
 */
import { byOf, recordActivity, scrubActivity } from "../activity/activity.server";
import { scrubSentMail, sentMailTo } from "../mail/shopper-data.server";
import { notifyPrivacyDone } from "../mail/notices.server";
import { dropOrderExports } from "../orders/exports.server";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import {
  accounts,
  orderItems,
  orderStatusChanges,
  orders,
  privacyRequests,
  products,
  reviews,
  type Order,
  type PrivacyRequest,
} from "../../../db/schema";
import { accounts as accountsTable } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { hmacSha256Hex } from "../core/crypto.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import type { Env } from "../core/env.server";
import { newestFirst, pageWithTotal, type Page } from "../core/paging.server";
import { serializeOrder } from "../catalog/serialize.server";
import { ERASED_NAME, ERASED_TEXT, scrubCopies, scrubText, type ShopperValues } from "./scrub.server";
import { appsHolding, notifyApps } from "./compliance.server";

export const PRIVACY_KINDS = ["EXPORT", "ERASE"] as const;
export type PrivacyKind = (typeof PRIVACY_KINDS)[number];

/** The e-mail as matched: trimmed, lower case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const shopperEmail = z
  .string()
  .trim()
  .min(1, "is required")
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be an e-mail address"))
  .transform(normalizeEmail);

export const privacyRequestInput = z.object({
  email: shopperEmail.describe("The shopper's e-mail (matched trimmed and in any case)"),
  kind: z.enum(PRIVACY_KINDS).describe("EXPORT: everything held about them; ERASE: replace their personal data"),
});
export type PrivacyRequestInput = z.infer<typeof privacyRequestInput>;

/** Orders that are not over yet: an erasure waits for them (decision 040). */
const CLOSED = ["DELIVERED", "CANCELLED"];

const emailMatches = (column: typeof orders.customerEmail | typeof reviews.authorEmail, email: string) =>
  sql`lower(btrim(${column})) = ${email}`;

/** The keyed digest a request keeps instead of the e-mail (per business, so it links nothing across businesses). */
const emailDigest = (env: Env, businessId: string, email: string) =>
  hmacSha256Hex(env.encryptionKey.toString("base64"), `privacy:${businessId}:${email}`);

/** The shopper's orders and reviews at this business (newest first): what the admin page lists. */
export async function findShopper(db: Db, businessId: string, email: string) {
  const [orderRows, reviewRows] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(and(eq(orders.businessId, businessId), emailMatches(orders.customerEmail, email)))
      .orderBy(...newestFirst(orders)),
    db
      .select({
        id: reviews.id,
        productId: reviews.productId,
        productName: products.name,
        rating: reviews.rating,
        comment: reviews.comment,
        authorName: reviews.authorName,
        createdAt: reviews.createdAt,
      })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(and(eq(reviews.businessId, businessId), emailMatches(reviews.authorEmail, email)))
      .orderBy(desc(reviews.createdAt), desc(reviews.id)),
  ]);
  return { email, orders: orderRows, reviews: reviewRows };
}
export type Shopper = Awaited<ReturnType<typeof findShopper>>;

/** The orders that keep an erasure waiting. */
export const openOrders = (shopper: Shopper) => shopper.orders.filter((o) => !CLOSED.includes(o.status));

/** Everything the platform holds about the shopper at this business, as the export's JSON. */
export async function exportOf(db: Db, businessId: string, shopper: Shopper, at: Date) {
  const ids = shopper.orders.map((o) => o.id);
  const [items, history, apps] = await Promise.all([
    ids.length ? db.select().from(orderItems).where(inArray(orderItems.orderId, ids)).orderBy(asc(orderItems.id)) : [],
    ids.length
      ? db
          .select()
          .from(orderStatusChanges)
          .where(inArray(orderStatusChanges.orderId, ids))
          .orderBy(asc(orderStatusChanges.createdAt), asc(orderStatusChanges.id))
      : [],
    appsHolding(db, businessId),
  ]);
  return {
    email: shopper.email,
    exportedAt: at.toISOString(),
    orders: shopper.orders.map((o) => ({
      ...serializeOrder(
        o,
        items.filter((i) => i.orderId === o.id),
      ),
      statusHistory: history
        .filter((h) => h.orderId === o.id)
        .map((h) => ({ from: h.fromStatus, to: h.toStatus, at: h.createdAt.toISOString() })),
    })),
    reviews: shopper.reviews.map((r) => ({
      id: r.id,
      productId: r.productId,
      productName: r.productName,
      rating: r.rating,
      comment: r.comment,
      authorName: r.authorName,
      createdAt: r.createdAt.toISOString(),
    })),
    /** the installed apps that may have read these orders or reviews (and are told of this request) */
    apps: apps.map((a) => ({ appId: a.appId, name: a.appName, scopes: a.scopes })),
    /** the e-mails the shop sent them (contract 16) */
    messages: await sentMailTo(db, businessId, shopper.email),
  };
}
export type ShopperExport = Awaited<ReturnType<typeof exportOf>>;

/** The shopper's values as their orders and reviews store them (what every copy is searched for). */
function valuesOf(shopper: Shopper): ShopperValues {
  const uniq = (xs: (string | null)[]) => [...new Set(xs.map((x) => (x ?? "").trim()).filter((x) => x !== ""))];
  return {
    email: shopper.email,
    names: uniq([...shopper.orders.map((o) => o.customerName), ...shopper.reviews.map((r) => r.authorName)]),
    phones: uniq(shopper.orders.map((o) => o.customerPhone)),
    addresses: uniq(shopper.orders.map((o) => o.address)),
    notes: uniq(shopper.orders.map((o) => o.notes)),
  };
}

/** Replaces the shopper's personal data in their orders and reviews and in every stored copy. */
async function erase(tx: Db, businessId: string, shopper: Shopper) {
  const values = valuesOf(shopper);
  const t = now();
  const orderIds = shopper.orders.map((o) => o.id);
  const reviewIds = shopper.reviews.map((r) => r.id);
  if (orderIds.length)
    await tx
      .update(orders)
      .set({
        customerName: ERASED_NAME,
        customerPhone: ERASED_TEXT,
        customerEmail: null,
        address: sql`case when ${orders.address} is null then null else ${ERASED_TEXT}::text end`,
        notes: null,
        // a payment app's link or QR code may carry the shopper's details; the order is over, nobody pays through them any more
        paymentUrl: null,
        paymentQrCode: null,
        updatedAt: t,
      })
      .where(and(eq(orders.businessId, businessId), inArray(orders.id, orderIds)));
  for (const r of shopper.reviews)
    await tx
      .update(reviews)
      .set({ authorName: ERASED_NAME, authorEmail: null, comment: scrubText(r.comment, values) })
      .where(and(eq(reviews.businessId, businessId), eq(reviews.id, r.id)));
  // the records of the e-mails sent to them (contract 16)
  await scrubSentMail(tx, businessId, values.email, orderIds);
  // the admin's CSV exports, any of which may hold their orders (decision 081)
  if (orderIds.length) await dropOrderExports(tx, businessId);
  return scrubCopies(tx, businessId, [...orderIds, ...reviewIds], values);
}

export type PrivacyAnswer = {
  id: string;
  kind: PrivacyKind;
  email: string;
  orders: string[];
  reviews: string[];
  appsNotified: number;
  createdAt: string;
  export?: ShopperExport;
};

const answerOf = (row: PrivacyRequest, email: string, exported?: ShopperExport): PrivacyAnswer => ({
  id: row.id,
  kind: row.kind,
  email,
  orders: row.orderIds,
  reviews: row.reviewIds,
  appsNotified: row.appsNotified,
  createdAt: row.createdAt.toISOString(),
  ...(exported ? { export: exported } : {}),
});

/**
 * A merchant's privacy request for a shopper of their business: recorded, carried out and told to the
 * apps in one transaction. Requests for one e-mail at one business run one at a time (an advisory
 * lock), so identical erasures sent together erase once: the later ones find nothing held and answer
 * the erasure that did it. An erasure while an order is still open is refused (409, naming the
 * orders). An e-mail the business knows nothing of answers empty lists and tells no app.
 * `installationId`: only that installation is told (storefront-apps trigger on the sandbox).
 */
export async function requestPrivacy(
  db: Database,
  env: Env,
  who: { businessId: string; accountId: string },
  input: PrivacyRequestInput,
  options: { installationId?: string } = {},
): Promise<PrivacyAnswer> {
  const { businessId } = who;
  const email = normalizeEmail(input.email);
  const digest = emailDigest(env, businessId, email);
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`privacy:${businessId}:${digest}`}::text, 0))`,
    );
    const shopper = await findShopper(tx, businessId, email);
    const held = shopper.orders.length + shopper.reviews.length > 0;
    if (input.kind === "ERASE") {
      if (!held) {
        const [earlier] = await tx
          .select()
          .from(privacyRequests)
          .where(
            and(
              eq(privacyRequests.businessId, businessId),
              eq(privacyRequests.emailDigest, digest),
              eq(privacyRequests.kind, "ERASE"),
              sql`${privacyRequests.orderCount} + ${privacyRequests.reviewCount} > 0`,
            ),
          )
          .orderBy(desc(privacyRequests.createdAt))
          .limit(1);
        if (earlier) return answerOf(earlier, email);
      }
      const open = openOrders(shopper);
      if (open.length)
        throw new ApiError(
          409,
          `Cannot erase while orders are open: ${open.map((o) => `#${o.orderNumber} (${o.status})`).join(", ")}. Erase once they are delivered or cancelled.`,
        );
    }
    const t = now();
    const exported = input.kind === "EXPORT" ? await exportOf(tx, businessId, shopper, t) : undefined;
    if (input.kind === "ERASE" && held) await erase(tx, businessId, shopper);
    const id = newId("prv");
    const request = {
      requestId: id,
      customerEmail: email,
      orderIds: shopper.orders.map((o) => o.id),
      reviewIds: shopper.reviews.map((r) => r.id),
    };
    const appsNotified = held
      ? await notifyApps(
          tx,
          businessId,
          input.kind === "EXPORT" ? "customer.data_request" : "customer.redact",
          request,
          options,
        )
      : 0;
    const [row] = await tx
      .insert(privacyRequests)
      .values({
        id,
        businessId,
        requestedBy: who.accountId,
        kind: input.kind,
        emailDigest: digest,
        orderIds: request.orderIds,
        reviewIds: request.reviewIds,
        orderCount: request.orderIds.length,
        reviewCount: request.reviewIds.length,
        appsNotified,
        createdAt: t,
      })
      .returning();
    // the activity log (contract 18): who asked, about whom; an erasure then replaces the address
    // in every entry of the business, this one included (decision 073)
    const [asker] = await tx
      .select({ id: accountsTable.id, email: accountsTable.email })
      .from(accountsTable)
      .where(eq(accountsTable.id, who.accountId));
    await recordActivity(tx, {
      businessId,
      ...byOf(asker ? { account: asker, ip: null } : undefined),
      action: "privacy.requested",
      target: { type: "privacy_request", id },
      details: { kind: input.kind, email, orders: request.orderIds.length, reviews: request.reviewIds.length },
    });
    if (input.kind === "ERASE") await scrubActivity(tx, businessId, email, ERASED_TEXT);
    // the member who asked hears it is done (contract 16), in the request's transaction
    await notifyPrivacyDone(tx, {
      requestId: id,
      businessId,
      requestedBy: who.accountId,
      kind: input.kind,
      orders: request.orderIds.length,
      reviews: request.reviewIds.length,
    });
    return answerOf(row, email, exported);
  });
}

/** One of the business's requests (null for none, or another business's). */
export async function getPrivacyRequest(db: Db, businessId: string, id: string | null) {
  if (!id) return null;
  const [row] = await db
    .select()
    .from(privacyRequests)
    .where(and(eq(privacyRequests.businessId, businessId), eq(privacyRequests.id, id)));
  return row ?? null;
}

/** The business's privacy requests, newest first, with who asked. */
export function listPrivacyRequests(db: Db, businessId: string, page: Page) {
  return pageWithTotal(
    db,
    db
      .select({
        id: privacyRequests.id,
        kind: privacyRequests.kind,
        orderCount: privacyRequests.orderCount,
        reviewCount: privacyRequests.reviewCount,
        appsNotified: privacyRequests.appsNotified,
        createdAt: privacyRequests.createdAt,
        requestedBy: accounts.name,
      })
      .from(privacyRequests)
      .innerJoin(accounts, eq(accounts.id, privacyRequests.requestedBy))
      .$dynamic(),
    { from: privacyRequests, where: eq(privacyRequests.businessId, businessId), order: newestFirst(privacyRequests) },
    page,
  );
}

/** An order as the privacy page lists it. */
export const orderLine = (o: Order) => ({
  id: o.id,
  orderNumber: o.orderNumber,
  status: o.status,
  /** minor units */
  amount: o.amount,
  currency: o.currency,
  createdAt: o.createdAt.toISOString(),
  open: !CLOSED.includes(o.status),
});
