/**
 * The one checkout pipeline, shared by the storefront and POST /app-api/orders (contract 8):
 * check products -> order.validate -> checkout.shipping_rates -> order.calculate_discounts ->
 * create the order (PENDING) and enqueue order.created in one transaction ->
 * checkout.create_payment when the method is an app's. Hook calls happen outside the transaction.
 *
 * This file checks the products and writes the order; the hooks' interface and the pricing steps are
 * checkout-pricing.server.ts, the quote (the same steps, nothing written) quote.server.ts, and the
 * app's payment checkout-payment.server.ts.
 */
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { idempotencyKeys, orderItems, type Business, type Order } from "../../../db/schema";
import { perDatabase, pgErrorCode, rawQuery } from "../../../db/sql";
import { ApiError, describeZodError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { eventCte, eventParams, eventRow, eventTime, NOBODY, audiencesJson } from "../events/emit.server";
import {
  deliveriesCtes,
  deliveryParams,
  deliveryRows,
  targetsSelect,
  wakeDispatchers,
  type Target,
} from "../webhooks/fanout.server";
import { serializeOrder } from "../catalog/serialize.server";
import { getOrder } from "../catalog/queries.server";
import { BUILT_IN_METHODS, checkoutSchema, type CheckoutInput } from "./checkout-schema";
import {
  LOW_STOCK_THRESHOLD,
  reservedStockCrossedSql,
  reservedStockEventSql,
  STOCK_EVENT_TYPES,
} from "../catalog/stock";
import { orderCreatedEvent } from "./events.server";
import { orderMailCtes } from "../mail/queue.server";
import { wakeMailDispatchers } from "../mail/dispatch.server";
import {
  noHooks,
  price,
  sellableLines,
  TotalChangedError,
  wantedOf,
  type CheckoutHooks,
  type CheckoutLine,
  type LineProduct,
  type OfferedMethod,
  type PaymentResult,
} from "./checkout-pricing.server";
import { startPayment } from "./checkout-payment.server";

export { BUILT_IN_METHODS, checkoutSchema, quoteSchema, type CheckoutInput, type QuoteInput } from "./checkout-schema";
export {
  BUILT_IN_DELIVERY_FEE,
  noHooks,
  TotalChangedError,
  type CheckoutHooks,
  type CheckoutLine,
  type OfferedMethod,
  type PaymentResult,
  type Priced,
} from "./checkout-pricing.server";
export { quote, type Quote } from "./quote.server";

/**
 * The lines' products, and the order's number when every line can be sold ($2 distinct product ids,
 * $3 the quantities wanted of each): the business's counter is bumped in this statement, which
 * commits without waiting for its WAL flush (synchronous_commit off, for this statement only), so
 * the counter row is held for microseconds, not through a disk flush: a flash sale on one business
 * does not queue on it. Numbers stay unique after a crash: an order that used a number commits
 * (synchronously) after the bump, and its flush covers the bump's earlier WAL record. A checkout
 * that fails after this statement leaves a gap, as a sequence would (decision 012). The registrations
 * an order.created of the business goes to come with it (the order statement writes their deliveries),
 * and whether any app takes part in its checkouts (when none does, no hook registry is read).
 */
const productsSql = () => `
  with p as (select id, name, price, status, is_available as "isAvailable", stock from products where business_id = $1 and id = any($2::text[])),
  ok as (
    select count(*) = cardinality($2::text[]) as ok
    from p join unnest($2::text[], $3::int[]) as q(id, quantity) on q.id = p.id
    where p.status = 'ACTIVE' and p."isAvailable" and (p.stock is null or p.stock >= q.quantity)),
  n as (update businesses set last_order_number = last_order_number + 1 where id = $1 and (select ok from ok) returning last_order_number),
  quick as (select set_config('synchronous_commit', 'off', true) where exists (select 1 from n))
  select p.*, (select last_order_number from n) as "orderNumber", (select count(*) from quick)::int as "quick",
    (select coalesce(json_agg(t), '[]'::json) from (${targetsSelect("array[$1]")}) t) as "targets",
    exists (select 1 from installations i join extensions e on e.app_id = i.app_id
            where i.business_id = $1 and i.status = 'ACTIVE' and e.kind = 'hook' and e.is_active) as "hasHooks"
  from p`;

function requestHash(input: CheckoutInput): string {
  return createHash("sha256").update(JSON.stringify(input)).digest("hex");
}

/** The lines with their products, the order's number (taken only when every line can be sold) and the registrations of order.created. */
async function checkProducts(
  db: Database,
  business: Business,
  input: CheckoutInput,
): Promise<{ lines: CheckoutLine[]; orderNumber: string; targets: Target[]; hasHooks: boolean }> {
  const wanted = wantedOf(input.items);
  const rows = await rawQuery<
    LineProduct & { orderNumber: number | null; targets: Target[] | string; hasHooks: boolean }
  >(db, (PRODUCTS_SQL ??= productsSql()), [business.id, [...wanted.keys()], [...wanted.values()]]);
  const lines = sellableLines(input.items, wanted, rows);
  if (rows[0]?.orderNumber == null) throw new Error("checkout: no order number although every line can be sold");
  const targets = rows[0].targets;
  return {
    lines,
    orderNumber: String(rows[0].orderNumber),
    targets: typeof targets === "string" ? JSON.parse(targets) : targets,
    hasHooks: rows[0].hasHooks,
  };
}

/**
 * The whole order in one statement, committed on its own (no transaction block: one round trip):
 * the order, its items, its first status, the idempotency key (when $27 is not null), the stock of
 * tracked products ($30 the distinct product ids, with $29 an event id ready for each), product.out_of_stock
 * and product.low_stock for a product that crossed its threshold (fanned out by a job: rare; $49 their
 * audiences by type when the order is a trigger's, decision 035), the order.created event and its deliveries (the dispatchers are woken once it has committed), the shopper's confirmation and the members' new-order notices (mail_messages rows, whose trigger adds their jobs; contract 16). Stock never goes below zero: the
 * products' check constraint fails the whole statement (nothing is written) and the checkout answers 409.
 */
const orderSql = () => `
  with o as (
    insert into orders (id, business_id, order_number, status, subtotal, discount, discount_reason, delivery_fee, amount, currency,
                        delivery_method, payment_method, payment_status, payment_installation_id, is_guest, customer_name, customer_phone,
                        customer_email, address, notes, created_at, updated_at)
    values ($1, $2, $3, 'PENDING', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, true, $14, $15, $16, $17, $18, $19, $19)
    returning id),
  i as (
    insert into order_items (id, order_id, product_id, name, price, quantity)
    select u.id, (select id from o), u.product_id, u.name, u.price, u.quantity
    from unnest($20::text[], $21::text[], $22::text[], $23::int[], $24::int[]) as u(id, product_id, name, price, quantity)
    returning id),
  s as (
    insert into order_status_changes (id, order_id, from_status, to_status, actor, created_at)
    select $25, id, null, 'PENDING', $26, $19 from o
    returning id),
  k as (
    insert into idempotency_keys (business_id, key, request_hash, order_id, created_at)
    select $2, $27::text, $28, id, $19 from o where $27::text is not null
    returning order_id),
  st as (
    update products p set stock = p.stock - q.quantity, updated_at = $19
    from (select product_id, sum(quantity)::int as quantity from unnest($21::text[], $24::int[]) as u(product_id, quantity) group by product_id) q
    where p.id = q.product_id and p.business_id = $2 and p.stock is not null
    returning p.id, p.stock, q.quantity),
  se as (
    insert into platform_events (id, business_id, type, data, fanned_out_at, created_at, audience)
    select e.event_id, $2, x.type,
           jsonb_build_object('productId', st.id, 'stock', st.stock, 'threshold', ${LOW_STOCK_THRESHOLD}),
           case when $49::jsonb ->> x.type = '${NOBODY}' then $31::timestamptz end, $31, $49::jsonb ->> x.type
    from st join unnest($30::text[], $29::text[]) as e(product_id, event_id) on e.product_id = st.id
      cross join lateral (select ${reservedStockEventSql("st.stock")} as type) x
    where ${reservedStockCrossedSql("st.stock", "st.quantity")}
    returning id, fanned_out_at),
  sj as (select graphile_worker.add_job('event__fanout', json_build_object('eventIds', json_agg(id))) as job
         from se where fanned_out_at is null having count(*) > 0),
  ${eventCte(32)},
  ${orderMailCtes({ business: "$2", email: "$16", name: "$14", at: "$19" })},
  ${deliveriesCtes(38, { notify: false })}
  select (select count(*) from i)::int as items, (select count(*) from d)::int as deliveries, (select count(*) from woken)::int as woken,
         (select count(*) from sj)::int as "stockEvents", ((select count(*) from mc) + (select count(*) from mn))::int as mails`;

/**
 * The two statements' texts, assembled once, on first use (the input schema lives in
 * checkout-schema.ts, which the checkout page may bundle for the browser; this module never is).
 */
let PRODUCTS_SQL: string | undefined;
let ORDER_SQL: string | undefined;

export type CheckoutResult = {
  order: Awaited<ReturnType<typeof getOrder>>;
  payment: PaymentResult | null;
  replayed: boolean;
};
export type CheckoutOptions = {
  hooks?: CheckoutHooks;
  idempotencyKey?: string | null;
  actor: string;
  /** The total (minor units) the shopper was shown; when the pipeline arrives at another, nothing is written and TotalChangedError is thrown. */
  expectedAmount?: number | null;
};

/** Runs the pipeline. Throws ApiError: 400 bad input or products, 422 rejected by a hook or key reuse, 502 payment failure. */
export async function checkout(
  db: Database,
  business: Business,
  rawInput: unknown,
  options: CheckoutOptions,
): Promise<CheckoutResult> {
  try {
    return await runCheckout(db, business, rawInput, options);
  } finally {
    await options.hooks?.settle?.();
  }
}

async function runCheckout(
  db: Database,
  business: Business,
  rawInput: unknown,
  options: CheckoutOptions,
): Promise<CheckoutResult> {
  const parsed = checkoutSchema.safeParse(rawInput);
  if (!parsed.success) throw new ApiError(400, describeZodError(parsed.error));
  const input = parsed.data;
  const key = options.idempotencyKey ?? null;
  const hash = requestHash(input);

  if (key) {
    const replay = await findIdempotent(db, business.id, key, hash);
    if (replay) return { order: replay, payment: null, replayed: true };
  }

  const { lines, orderNumber, targets, hasHooks } = await checkProducts(db, business, input);
  // a business no app takes part in the checkouts of (most of them) has no hook registry to read
  const hooks = hasHooks ? (options.hooks ?? noHooks) : noHooks;

  let method: OfferedMethod | null = null;
  if (!BUILT_IN_METHODS.includes(input.paymentMethod)) {
    method = (await hooks.paymentMethods(business)).find((m) => m.id === input.paymentMethod) ?? null;
    if (!method)
      throw new ApiError(
        400,
        `paymentMethod: ${input.paymentMethod} is not offered; use CASH, CARD or a method from checkout.payment_methods`,
      );
  }

  const priced = await price(business, hooks, lines, input);
  const { subtotal, deliveryFee, discount, amount } = priced;
  // the shopper was shown another total (a hook answers differently now): nothing is written (decision 020)
  if (options.expectedAmount != null && amount !== options.expectedAmount)
    throw new TotalChangedError(priced, options.expectedAmount);

  const t = now();
  const id = newId("ord");
  const values = {
    id,
    businessId: business.id,
    orderNumber,
    status: "PENDING" as const,
    subtotal,
    discount,
    discountReason: priced.discountReason,
    deliveryFee,
    amount,
    currency: business.currency,
    deliveryMethod: input.deliveryMethod,
    paymentMethod: input.paymentMethod,
    paymentStatus: method ? ("PENDING" as const) : ("NONE" as const),
    paymentInstallationId: method?.installationId ?? null,
    paymentInvoiceId: null,
    paymentUrl: null,
    paymentQrCode: null,
    paymentExpiresAt: null,
    isGuest: true,
    customerName: input.customer.name,
    customerPhone: input.customer.phone,
    customerEmail: input.customer.email ?? null,
    address: input.address ?? null,
    notes: input.notes ?? null,
    createdAt: t,
    updatedAt: t,
  };
  const items = lines.map((l) => ({
    id: newId("itm"),
    orderId: id,
    productId: l.productId,
    name: l.product.name,
    price: l.product.price,
    quantity: l.quantity,
  }));
  const created = eventRow(orderCreatedEvent(values));
  const products = [...new Set(items.map((x) => x.productId))];
  let written: { mails: number } | undefined;
  try {
    [written] = await rawQuery<{ mails: number }>(db, (ORDER_SQL ??= orderSql()), [
      id,
      business.id,
      orderNumber,
      subtotal,
      discount,
      values.discountReason,
      deliveryFee,
      amount,
      business.currency,
      input.deliveryMethod,
      input.paymentMethod,
      values.paymentStatus,
      values.paymentInstallationId,
      values.customerName,
      values.customerPhone,
      values.customerEmail,
      values.address,
      values.notes,
      t.toISOString(),
      items.map((x) => x.id),
      items.map((x) => x.productId),
      items.map((x) => x.name),
      items.map((x) => x.price),
      items.map((x) => x.quantity),
      newId("osc"),
      options.actor,
      key,
      hash,
      products.map(() => newId("evt")),
      products,
      eventTime().toISOString(),
      ...eventParams(created),
      ...deliveryParams(deliveryRows([created], targets, created.createdAt), created.createdAt),
      audiencesJson(STOCK_EVENT_TYPES),
    ]);
  } catch (e) {
    // the same key raced in from a concurrent retry: answer with the order that won
    if (key && pgErrorCode(e) === "23505") {
      const replay = await findIdempotent(db, business.id, key, hash);
      if (replay) return { order: replay, payment: null, replayed: true };
    }
    // a tracked product sold out between the check and the order (nothing was written)
    if (pgErrorCode(e) === "23514") throw await soldOut(db, business, lines);
    throw e;
  }
  // the deliveries and messages are committed: wake their dispatchers now (not by a NOTIFY inside
  // the statement, see deliveriesCtes and mail/dispatch.server.ts)
  wakeDispatchers(db);
  // (an order without a message to send, no shopper address and no member who wants the notice, wakes nobody)
  if (written && written.mails > 0) wakeMailDispatchers(db);

  if (!method)
    return {
      order: serializeOrder(
        values as Order,
        [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) as (typeof orderItems.$inferSelect)[],
      ),
      payment: null,
      replayed: false,
    };
  const payment = await startPayment(db, business, id, method, hooks, options.actor);
  return { order: await getOrder(db, business.id, id), payment, replayed: false };
}

/** The 409 of an order refused by the stock constraint: names the line that no longer fits. */
async function soldOut(db: Database, business: Business, lines: CheckoutLine[]): Promise<ApiError> {
  const wanted = new Map<string, number>();
  for (const l of lines) wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
  const now = await rawQuery<{ id: string; name: string; stock: number | null }>(
    db,
    `select id, name, stock from products where business_id = $1 and id = any($2::text[])`,
    [business.id, [...wanted.keys()]],
  );
  const short =
    now.find((p) => p.stock !== null && p.stock < (wanted.get(p.id) ?? 0)) ?? now.find((p) => p.stock !== null);
  return new ApiError(
    409,
    short
      ? `Product ${short.name} (${short.id}) sold out while you were checking out`
      : "A product sold out while you were checking out",
  );
}

/** Read by every storefront order (its checkout key) and API order with an Idempotency-Key: built once per database handle. */
const idempotencyQuery = perDatabase((db: Database) =>
  db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.businessId, sql.placeholder("businessId")),
        eq(idempotencyKeys.key, sql.placeholder("key")),
      ),
    )
    .prepare("checkout_idempotency_key"),
);

async function findIdempotent(db: Database, businessId: string, key: string, hash: string) {
  const [row] = await idempotencyQuery(db).execute({ businessId, key });
  if (!row || row.createdAt.getTime() < now().getTime() - 24 * 3600 * 1000) return null;
  if (row.requestHash !== hash) throw new ApiError(422, "This Idempotency-Key was used with a different request body");
  return getOrder(db, businessId, row.orderId);
}
