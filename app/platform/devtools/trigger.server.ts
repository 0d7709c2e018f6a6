/**
 * `storefront-apps trigger <event>` (contract 14, decision 035): makes the event happen for real on
 * the developer's sandbox (an order placed through the checkout pipeline, a product created,
 * changed, restocked or deleted, a review written, a payment moved, an order moved along its
 * statuses) through the domains' own functions, so its payload is built by the same code as in
 * production. The work runs inside `withEventAudience`: the triggered event goes only to this app's
 * installation on the sandbox, every other event the work raises (the product.created of a new
 * product before its deletion, the order.created of an order then cancelled) is recorded and sent
 * to nobody. business.data_erasure and app.uninstalled are built for the installation without
 * uninstalling it; customer.redact erases a shopper of its own for real; webhook.test goes to each
 * active registration of the installation. Every order the trigger places goes through the checkout
 * with this app's hooks (and no other app's), as a shopper's order would (decision 054): its
 * validation, delivery fee and discount are the app's.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client";
import {
  appSubscriptions,
  webhookDeliveries,
  webhooks,
  type Account,
  type App,
  type Business,
  type Installation,
} from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { getDeveloperApp } from "../apps/app-lookups.server";
import { EVENT_NAMES, EVENTS, eventAllowed, MANDATORY_EVENTS, type EventName } from "../shapes/app-catalog";
import { notifyApps, sampleComplianceRequest } from "../privacy/compliance.server";
import { notifySubscription } from "../billing/notify.server";
import { emitEvent, event, withEventAudience } from "../events/emit.server";
import {
  createProduct,
  createReview,
  deleteProduct,
  deleteReview,
  productSchema,
  updateProduct,
} from "../catalog/products.server";
import { moveOrderStatus } from "../orders/status.server";
import { checkoutHooks } from "../orders/checkout-hooks.server";
import type { CheckoutHooks } from "../orders/checkout.server";
import { openPayment, reportPayment } from "../orders/payments.server";
import type { OrderStatus } from "../../../db/schema";
import { installRegistration, writeDirectDeliveries } from "../webhooks/fanout.server";
import { sendAppUninstalled, sendErasureEvent } from "../events/special-sends.server";
import { webhookTestData } from "../webhooks/send-test.server";
import {
  placeSampleOrder,
  sampleCart,
  sandboxInstallation,
  TRIGGER_ACTOR,
  triggerProduct,
} from "./sandbox-objects.server";
import { requestPrivacy } from "../privacy/privacy.server";
import { checkOverrideKeys, reviewInput, type Overrides } from "./overrides.server";
import { checkout } from "../orders/checkout.server";
import { randomInt } from "node:crypto";

/** Every event of the catalogue can be triggered. */
export const TRIGGERABLE = EVENT_NAMES;

type Made = { kind: "order" | "product" | "review" | "installation" | "webhook" | "subscription"; id: string };
/** `hooks`: the checkout's hook bindings restricted to this app's installation (the orders the trigger places). */
type Ctx = {
  db: Database;
  env: Env;
  account: Account;
  business: Business;
  installation: Installation;
  app: App;
  hooks: CheckoutHooks;
  /** the developer's fixtures for the made order or review (contract 19) */
  overrides?: Overrides;
};

/**
 * A sample order placed through the checkout with the app's own hooks, as a shopper's would be; a
 * refusal by the app's order.validate hook is reported as such (422, nothing triggered).
 */
async function placeOrder(ctx: Ctx) {
  try {
    return await placeSampleOrder(ctx.db, ctx.business, { hooks: ctx.hooks, overrides: ctx.overrides });
  } catch (e) {
    if (e instanceof ApiError && e.status === 422)
      throw new ApiError(
        422,
        `Your order.validate hook refused the sample order ("${e.message}"), as it would refuse a shopper's: nothing was triggered. Answer {"valid": true} to it, then trigger again`,
      );
    throw e;
  }
}

const sampleProduct = (what: string) =>
  productSchema.parse({
    name: `Sample product ${what} ${newId("p", 6).slice(2)}`,
    description: `Made by storefront-apps trigger ${what}.`,
    price: 990,
    category: "Samples",
    stock: 12,
  });

/** An order placed through the checkout and moved along `moves` (each move by the status machine). */
async function orderMovedThrough(ctx: Ctx, moves: OrderStatus[]): Promise<Made> {
  const { order } = await placeOrder(ctx);
  for (const to of moves) await moveOrderStatus(ctx.db, ctx.business.id, order.id, to, TRIGGER_ACTOR);
  return { kind: "order", id: order.id };
}

/** A payment opened on a placed order for this installation, then reported by it as the app would. */
async function paymentMoved(ctx: Ctx, status: "COMPLETED" | "EXPIRED"): Promise<Made> {
  const { order } = await placeOrder(ctx);
  const invoiceId = newId("inv_trigger");
  await openPayment(ctx.db, ctx.business.id, order.id, { installationId: ctx.installation.id, invoiceId });
  await reportPayment(ctx.db, ctx.business.id, ctx.installation.id, order.id, { status, invoiceId });
  return { kind: "order", id: order.id };
}

/** The trigger product's stock set to `from` (events sent to nobody), then to `to` (the triggered event). */
/** A sample shopper's review of the sandbox's trigger product (with the trigger's overrides). */
async function sampleReview(ctx: Ctx, rating: number, comment: string) {
  const product = await triggerProduct(ctx.db, ctx.business.id);
  return createReview(
    ctx.db,
    ctx.business.id,
    product.id,
    reviewInput({ rating, comment, authorName: "Sample Shopper" }, ctx.overrides),
  );
}

async function stockMoved(ctx: Ctx, from: number, to: number): Promise<Made> {
  const product = await triggerProduct(ctx.db, ctx.business.id);
  await updateProduct(ctx.db, ctx.business.id, product.id, { stock: from });
  await updateProduct(ctx.db, ctx.business.id, product.id, { stock: to });
  return { kind: "product", id: product.id };
}

/**
 * customer.data_request: a shopper's export request sent to this installation as the merchant's would
 * be, for the sandbox's latest shopper with an e-mail (their real orders and reviews); nothing changes.
 */
async function dataRequest(ctx: Ctx, name: "customer.data_request"): Promise<Made> {
  const request = await sampleComplianceRequest(ctx.db, ctx.business.id);
  if (!request)
    throw new ApiError(
      409,
      `No order on your sandbox has a shopper's e-mail: place one on the sandbox's storefront with an e-mail, then trigger ${name}`,
    );
  await ctx.db.transaction((tx) =>
    notifyApps(tx, ctx.business.id, name, request, { installationId: ctx.installation.id }),
  );
  return { kind: "installation", id: ctx.installation.id };
}

/**
 * customer.redact for real (decision 049): a shopper of its own (a new e-mail, name, phone and address)
 * orders through the checkout, the order is delivered, and the shopper is erased as the merchant's
 * Customer privacy page erases (recorded in the sandbox's privacy requests, every copy scrubbed), told
 * to this installation only. The delivery names that order, which the App API then shows erased. Not
 * the sandbox's other shoppers: an erasure waits for open orders (409), and the developer's own test
 * orders stay as they were.
 */
async function redact(ctx: Ctx): Promise<Made> {
  const tag = newId("", 8).slice(1);
  const digits = String(randomInt(1_000_000, 10_000_000));
  const { input } = await sampleCart(ctx.db, ctx.business.id);
  const { order } = await checkout(
    ctx.db,
    ctx.business,
    {
      ...input,
      customer: { name: `Erasable Shopper ${tag}`, phone: `+1 555 ${digits}`, email: `erase-${tag}@example.test` },
      address: `${tag} Forget-Me Lane, Springfield`,
      notes: "Placed and erased by storefront-apps trigger customer.redact",
      paymentMethod: "CASH",
    },
    { actor: TRIGGER_ACTOR, hooks: ctx.hooks },
  );
  for (const to of ["CONFIRMED", "PREPARING", "READY", "DELIVERED"] as const)
    await moveOrderStatus(ctx.db, ctx.business.id, order.id, to, TRIGGER_ACTOR);
  await requestPrivacy(
    ctx.db,
    ctx.env,
    { businessId: ctx.business.id, accountId: ctx.account.id },
    { email: `erase-${tag}@example.test`, kind: "ERASE" },
    { installationId: ctx.installation.id },
  );
  return { kind: "order", id: order.id };
}

/** What each event's trigger does on the sandbox (the change that raises the event in production). */
const MAKERS: Record<EventName, (ctx: Ctx) => Promise<Made>> = {
  "order.created": async (ctx) => ({ kind: "order", id: (await placeOrder(ctx)).order.id }),
  "order.status_changed": (ctx) => orderMovedThrough(ctx, ["CONFIRMED"]),
  "order.delivered": (ctx) => orderMovedThrough(ctx, ["CONFIRMED", "PREPARING", "READY", "DELIVERED"]),
  "order.cancelled": (ctx) => orderMovedThrough(ctx, ["CANCELLED"]),
  "payment.completed": (ctx) => paymentMoved(ctx, "COMPLETED"),
  "payment.expired": (ctx) => paymentMoved(ctx, "EXPIRED"),
  "product.created": async (ctx) => ({
    kind: "product",
    id: (await createProduct(ctx.db, ctx.business.id, sampleProduct("created"))).id,
  }),
  "product.updated": async (ctx) => {
    const product = await triggerProduct(ctx.db, ctx.business.id);
    await updateProduct(ctx.db, ctx.business.id, product.id, {
      description: `Sold, reviewed and restocked by storefront-apps trigger; updated ${now().toISOString()}.`,
    });
    return { kind: "product", id: product.id };
  },
  "product.deleted": async (ctx) => {
    const product = await createProduct(ctx.db, ctx.business.id, sampleProduct("to delete"));
    await deleteProduct(ctx.db, ctx.business.id, product.id);
    return { kind: "product", id: product.id };
  },
  "product.out_of_stock": (ctx) => stockMoved(ctx, 20, 0),
  "product.low_stock": (ctx) => stockMoved(ctx, 20, 3),
  "product.back_in_stock": (ctx) => stockMoved(ctx, 0, 20),
  "review.created": async (ctx) => {
    const review = await sampleReview(
      ctx,
      5,
      "Lovely, would buy again. (A sample review written by storefront-apps trigger.)",
    );
    return { kind: "review", id: review.id };
  },
  "review.deleted": async (ctx) => {
    const review = await sampleReview(ctx, 4, "A sample review, deleted at once by storefront-apps trigger.");
    await deleteReview(ctx.db, ctx.business.id, review.id);
    return { kind: "review", id: review.id };
  },
  "business.data_erasure": async (ctx) => {
    await ctx.db.transaction((tx) => sendErasureEvent(tx, ctx.installation, now()));
    return { kind: "installation", id: ctx.installation.id };
  },
  "app.uninstalled": async (ctx) => {
    await ctx.db.transaction((tx) => sendAppUninstalled(tx, ctx.installation, now()));
    return { kind: "installation", id: ctx.installation.id };
  },
  "customer.data_request": (ctx) => dataRequest(ctx, "customer.data_request"),
  "customer.redact": redact,
  "app_subscription.updated": async (ctx) => {
    // the installation's latest subscription or charge, as it stands (billing makes them: POST /app-api/billing/…)
    const [sub] = await ctx.db
      .select()
      .from(appSubscriptions)
      .where(eq(appSubscriptions.installationId, ctx.installation.id))
      .orderBy(desc(appSubscriptions.updatedAt))
      .limit(1);
    if (!sub)
      throw new ApiError(
        409,
        "Your test installation has no subscription or charge yet: create one with POST /app-api/billing/subscriptions (Api-Version 2026-11-27), then trigger app_subscription.updated to receive its latest state",
      );
    await ctx.db.transaction((tx) => notifySubscription(tx, sub, "STATUS_CHANGED"));
    return { kind: "subscription", id: sub.id };
  },
  "webhook.test": async (ctx) => {
    await ctx.db.transaction(async (tx) => {
      const targets = await activeRegistrations(tx, ctx.installation.id);
      const row = await emitEvent(tx, event(ctx.business.id, "webhook.test", webhookTestData(targets[0].id)));
      await writeDirectDeliveries(
        tx,
        row,
        targets.map((w) => ({
          ...w,
          installationId: ctx.installation.id,
          isTestInstall: ctx.installation.isTestInstall,
          apiVersion: ctx.app.apiVersion,
        })),
        (w) => webhookTestData(w.id),
      );
    });
    return { kind: "installation", id: ctx.installation.id };
  },
};

function activeRegistrations(db: Pick<Database, "select">, installationId: string) {
  return db
    .select({ id: webhooks.id, appId: webhooks.appId, events: webhooks.events })
    .from(webhooks)
    .where(and(eq(webhooks.installationId, installationId), eq(webhooks.isActive, true)));
}

/** 409 naming what to do when the event could reach none of the installation's registrations (checked before anything is made). */
async function checkReachable(db: Database, installation: Installation, name: EventName) {
  if (MANDATORY_EVENTS.includes(name)) {
    if (!eventAllowed(name, installation.scopes))
      throw new ApiError(
        409,
        `${name} goes only to installations holding read_orders or read_reviews: add one to the app, then test-uninstall and test-install again`,
      );
    if (!(await installRegistration(db, installation.id)))
      throw new ApiError(
        409,
        `${name} goes to the install registration, and this installation has none: the app had no webhookUrl when it was test-installed. Set webhookUrl, then test-uninstall and test-install again`,
      );
    return;
  }
  const registrations = await activeRegistrations(db, installation.id);
  if (name === "webhook.test") {
    if (registrations.length === 0)
      throw new ApiError(409, "Your test installation has no active webhook registration to send webhook.test to");
    return;
  }
  if (!eventAllowed(name, installation.scopes))
    throw new ApiError(
      409,
      `Your test installation was not granted ${EVENTS[name]}, which ${name} needs: add the scope to the app, then test-uninstall and test-install again`,
    );
  if (!registrations.some((w) => w.events.includes(name)))
    throw new ApiError(
      409,
      `No active webhook registration of your test installation subscribes to ${name}: add it to the app's webhookEvents and test-install again, or register it with POST /webhooks`,
    );
}

/**
 * Triggers `name` for the app's installation on the developer's sandbox; answers what was made, the
 * event and its deliveries (each also in the registration's delivery log, and relayed to
 * `storefront-apps listen` like any delivery).
 */
export async function triggerEvent(
  db: Database,
  env: Env,
  account: Account,
  business: Business | null,
  appId: string,
  name: EventName,
  overrides?: Overrides,
) {
  const app = await getDeveloperApp(db, account.id, appId);
  checkOverrideKeys(name, overrides);
  const installation = await sandboxInstallation(db, app, business);
  await checkReachable(db, installation, name);
  const ctx: Ctx = {
    db,
    env,
    account,
    business: business!,
    installation,
    app,
    hooks: checkoutHooks(db, env, { only: installation.id }),
    overrides,
  };
  const { result: made, emitted } = await withEventAudience({ installationId: installation.id, events: [name] }, () =>
    MAKERS[name](ctx),
  );
  const ids = emitted.filter((e) => e.type === name).map((e) => e.id);
  const deliveries = ids.length
    ? await db
        .select({ id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId, url: webhooks.url })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(and(inArray(webhookDeliveries.eventId, ids), eq(webhookDeliveries.installationId, installation.id)))
        .orderBy(sql`${webhookDeliveries.id}`)
    : [];
  return {
    event: name,
    eventId: ids[0] ?? null,
    businessId: installation.businessId,
    installationId: installation.id,
    object: made,
    deliveries,
  };
}
