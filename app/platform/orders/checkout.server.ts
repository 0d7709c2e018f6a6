/**
 * The one checkout pipeline, shared by the storefront and POST /app-api/orders (contract 8):
 * check products -> order.validate -> checkout.shipping_rates -> order.calculate_discounts ->
 * create the order (PENDING) and enqueue order.created in one transaction ->
 * checkout.create_payment when the method is an app's. Hook calls happen outside the transaction.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client";
import {
  idempotencyKeys,
  orderItems,
  orders,
  orderStatusChanges,
  type Business,
  type Order,
  type Product,
} from "../../../db/schema";
import { pgErrorCode, rawQuery } from "../../../db/sql";
import { ApiError, describeZodError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { emitEvent, eventCte, eventParams, eventRow, eventTime, NOBODY, audiencesJson } from "../events/emit.server";
import {
  deliveriesCtes,
  deliveryParams,
  deliveryRows,
  targetsSelect,
  wakeDispatchers,
  type Target,
} from "../webhooks/fanout.server";
import { serializeOrder } from "../catalog/serialize.server";
import { formatMoney } from "../core/money";
import { getOrder } from "../catalog/queries.server";
import { BUILT_IN_METHODS, checkoutSchema, quoteSchema, type CheckoutInput } from "./checkout-schema";
import {
  LOW_STOCK_THRESHOLD,
  reservedStockCrossedSql,
  reservedStockEventSql,
  STOCK_EVENT_TYPES,
} from "../catalog/stock";
import { orderCreatedEvent, statusMoveEvents } from "./events.server";
import { orderMailCtes, queueOrderStatusMail } from "../mail/queue.server";

export { BUILT_IN_METHODS, checkoutSchema, quoteSchema, type CheckoutInput, type QuoteInput } from "./checkout-schema";
export const BUILT_IN_DELIVERY_FEE = 300; // minor units

type LineProduct = Pick<Product, "id" | "name" | "price" | "status" | "isAvailable" | "stock">;
export type CheckoutLine = { productId: string; quantity: number; product: LineProduct };

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
export type OfferedMethod = { id: string; name: string; description?: string; icon?: string; installationId: string };
export type PaymentResult = { paymentUrl?: string; qrCode?: string; invoiceId?: string; expiresAt?: string };

/** The points where apps take part; the hooks domain supplies the real ones. */
export interface CheckoutHooks {
  paymentMethods(business: Business): Promise<OfferedMethod[]>;
  // the checkout's own figures, in minor units; the hooks domain writes each hook call's data from them
  validate(
    business: Business,
    ctx: { items: { productId: string; quantity: number }[]; subtotal: number; deliveryMethod: "DELIVERY" | "PICKUP" },
  ): Promise<{ valid: boolean; reason?: string }>;
  shippingFee(
    business: Business,
    ctx: { deliveryMethod: "DELIVERY" | "PICKUP"; locality?: string; subtotal: number; builtInFee: number },
  ): Promise<number>;
  discounts(
    business: Business,
    ctx: {
      items: { productId: string; quantity: number }[];
      subtotal: number;
      promoDiscount: number;
      deliveryFee: number;
    },
  ): Promise<{ discount: number; reason?: string }>;
  createPayment(business: Business, order: Order, method: OfferedMethod): Promise<PaymentResult | null>;
  /** Optional: wait for bookkeeping the steps left running (their call logs). */
  settle?(): Promise<void>;
}

/** No app takes part: built-in fee, no discount, every order valid, CASH and CARD only. */
export const noHooks: CheckoutHooks = {
  paymentMethods: async () => [],
  validate: async () => ({ valid: true }),
  shippingFee: async (_b, ctx) => ctx.builtInFee,
  discounts: async () => ({ discount: 0 }),
  createPayment: async () => null,
};

function requestHash(input: CheckoutInput): string {
  return createHash("sha256").update(JSON.stringify(input)).digest("hex");
}

/** The quantity wanted of each distinct product. */
function wantedOf(items: { productId: string; quantity: number }[]): Map<string, number> {
  const wanted = new Map<string, number>();
  for (const item of items) wanted.set(item.productId, (wanted.get(item.productId) ?? 0) + item.quantity);
  return wanted;
}

/** The lines with their products; a 400 naming the first line that cannot be sold. */
function sellableLines(
  items: { productId: string; quantity: number }[],
  wanted: Map<string, number>,
  rows: LineProduct[],
): CheckoutLine[] {
  const byId = new Map(rows.map((p) => [p.id, p]));
  for (const [id, quantity] of wanted) {
    const p = byId.get(id);
    if (!p) throw new ApiError(400, `Unknown product ${id}`);
    if (p.status !== "ACTIVE" || !p.isAvailable) throw new ApiError(400, `Product ${p.name} (${id}) is not available`);
    if (p.stock !== null && p.stock < quantity)
      throw new ApiError(400, `Product ${p.name} (${id}) has only ${p.stock} left`);
  }
  return items.map((i) => ({ ...i, product: byId.get(i.productId)! }));
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

/** What an order of these lines costs: subtotal, the delivery fee and discounts from the hooks, the total (minor units). */
export type Priced = {
  subtotal: number;
  deliveryFee: number;
  discount: number;
  discountReason: string | null;
  amount: number;
  currency: string;
};

/**
 * The pipeline's pricing steps, shared by checkout() and quote() so that a quote and the order's
 * amount come from the same code: order.validate (a refusal is a 422) -> checkout.shipping_rates ->
 * order.calculate_discounts (capped at the subtotal).
 */
async function price(
  business: Business,
  hooks: CheckoutHooks,
  lines: CheckoutLine[],
  input: { deliveryMethod: "DELIVERY" | "PICKUP"; address?: string | null },
): Promise<Priced> {
  const subtotal = lines.reduce((s, l) => s + l.product.price * l.quantity, 0);
  const itemRefs = lines.map((l) => ({ productId: l.productId, quantity: l.quantity }));
  const verdict = await hooks.validate(business, { items: itemRefs, subtotal, deliveryMethod: input.deliveryMethod });
  if (!verdict.valid) throw new ApiError(422, verdict.reason || "The order was rejected");

  const builtInFee = input.deliveryMethod === "DELIVERY" ? BUILT_IN_DELIVERY_FEE : 0;
  const deliveryFee = Math.max(
    0,
    Math.round(
      await hooks.shippingFee(business, {
        deliveryMethod: input.deliveryMethod,
        locality: input.address ?? undefined,
        subtotal,
        builtInFee,
      }),
    ),
  );
  const { discount: rawDiscount, reason: discountReason } = await hooks.discounts(business, {
    items: itemRefs,
    subtotal,
    promoDiscount: 0,
    deliveryFee,
  });
  const discount = Math.min(Math.max(0, Math.round(rawDiscount)), subtotal);
  return {
    subtotal,
    deliveryFee,
    discount,
    discountReason: discount > 0 ? (discountReason ?? null) : null,
    amount: subtotal - discount + deliveryFee,
    currency: business.currency,
  };
}

/** A quote: what the order would cost now, or why it would be refused (the status the checkout would answer). */
export type Quote = ({ ok: true } & Priced) | { ok: false; status: number; message: string };

/**
 * The products of a quote, read as PRODUCTS_SQL reads them but without taking an order number,
 * and whether any app takes part in the business's checkouts (as in PRODUCTS_SQL).
 */
const QUOTE_PRODUCTS_SQL = `
  select id, name, price, status, is_available as "isAvailable", stock,
    exists (select 1 from installations i join extensions e on e.app_id = i.app_id
            where i.business_id = $1 and i.status = 'ACTIVE' and e.kind = 'hook' and e.is_active) as "hasHooks"
  from products where business_id = $1 and id = any($2::text[])`;

/**
 * What the order would cost if it were placed now, computed by the pipeline's own steps (check
 * products -> order.validate -> checkout.shipping_rates -> order.calculate_discounts) without
 * creating anything: no order number, no order, no event. The checkout page shows it before
 * "Place order"; the hooks are called as for an order, so their answers must not depend on whether
 * an order follows (docs/developers/hooks.md). Never throws for the shopper's input: a refusal is a
 * value with the status the checkout would answer.
 */
export async function quote(
  db: Database,
  business: Business,
  rawInput: unknown,
  options: { hooks?: CheckoutHooks } = {},
): Promise<Quote> {
  try {
    const parsed = quoteSchema.safeParse(rawInput);
    if (!parsed.success) return { ok: false, status: 400, message: describeZodError(parsed.error) };
    const input = parsed.data;
    const wanted = wantedOf(input.items);
    const rows = await rawQuery<LineProduct & { hasHooks: boolean }>(db, QUOTE_PRODUCTS_SQL, [
      business.id,
      [...wanted.keys()],
    ]);
    const lines = sellableLines(input.items, wanted, rows);
    // as in checkout(): a business no app takes part in the checkouts of has no hook registry to read
    const hooks = rows[0]?.hasHooks ? (options.hooks ?? noHooks) : noHooks;
    return { ok: true, ...(await price(business, hooks, lines, input)) };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, status: e.status, message: e.message };
    throw e;
  } finally {
    await options.hooks?.settle?.();
  }
}

/**
 * The order's total differs from the one the shopper was shown (a hook answered differently since
 * the quote): nothing was written, and `quote` is the new total to show before the shopper places
 * the order again (decision 020).
 */
export class TotalChangedError extends ApiError {
  constructor(
    public quote: Priced,
    public expectedAmount: number,
  ) {
    super(
      409,
      `The total changed: it is ${formatMoney(quote.amount, quote.currency)} now, not ${formatMoney(expectedAmount, quote.currency)}. Check the new total and place the order again.`,
    );
  }
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
         (select count(*) from sj)::int as "stockEvents"`;

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
  try {
    await rawQuery(db, (ORDER_SQL ??= orderSql()), [
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
  // the deliveries are committed: wake the dispatchers now (not by a NOTIFY inside the statement, see deliveriesCtes)
  wakeDispatchers(db);

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

async function findIdempotent(db: Database, businessId: string, key: string, hash: string) {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.businessId, businessId), eq(idempotencyKeys.key, key)));
  if (!row || row.createdAt.getTime() < now().getTime() - 24 * 3600 * 1000) return null;
  if (row.requestHash !== hash) throw new ApiError(422, "This Idempotency-Key was used with a different request body");
  return getOrder(db, businessId, row.orderId);
}

/** checkout.create_payment for an app's method; a failure cancels the order. */
async function startPayment(
  db: Database,
  business: Business,
  orderId: string,
  method: OfferedMethod,
  hooks: CheckoutHooks,
  actor: string,
): Promise<PaymentResult> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const result = await hooks.createPayment(business, order, method);
  if (!result) {
    await db.transaction(async (tx) => {
      const t = now();
      await tx
        .update(orders)
        .set({ status: "CANCELLED", paymentStatus: "FAILED", paymentMethodName: method.name, updatedAt: t })
        .where(eq(orders.id, orderId));
      await tx
        .insert(orderStatusChanges)
        .values({ id: newId("osc"), orderId, fromStatus: "PENDING", toStatus: "CANCELLED", actor, createdAt: t });
      for (const event of statusMoveEvents(order, "PENDING", "CANCELLED")) await emitEvent(tx, event);
      await queueOrderStatusMail(tx, order, "CANCELLED");
    });
    throw new ApiError(
      502,
      `The payment could not be started with ${method.name}; the order was cancelled. Choose another payment method.`,
    );
  }
  const expiresAt = result.expiresAt ? new Date(result.expiresAt) : null;
  await db
    .update(orders)
    .set({
      // the method's name as the app gave it, for the merchant's pages (orders/labels.ts)
      paymentMethodName: method.name,
      paymentInvoiceId: result.invoiceId ?? null,
      paymentUrl: result.paymentUrl ?? null,
      paymentQrCode: result.qrCode ?? null,
      paymentExpiresAt: expiresAt,
      updatedAt: now(),
    })
    .where(eq(orders.id, orderId));
  return result;
}
