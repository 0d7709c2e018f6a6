/**
 * `storefront-apps trigger hook <point>` (decision 035): calls the app's hook for a hook point as a
 * checkout of the sandbox would, with a real cart of the sandbox, through the checkout's own hook
 * bindings (orders/checkout-hooks.server.ts, restricted to this app's installation) and pipeline
 * steps (`quote()`; a real order for checkout.create_payment), and answers the call (what the app
 * answered, or why it was skipped) and what the platform made of it.
 */
import type { Database } from "../../../db/client";
import type { Account, Business } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { formatMoney } from "../core/money";
import { getDeveloperApp } from "../apps/app-lookups.server";
import { HOOK_SCOPES, type HookPoint } from "../shapes/manifest";
import { hookRegistry, hookTargets } from "../extensions/registry.server";
import type { HookResult } from "../hooks/invoke.server";
import { checkoutHooks } from "../orders/checkout-hooks.server";
import { noHooks, quote, type CheckoutHooks } from "../orders/checkout.server";
import { withEventAudience } from "../events/emit.server";
import { placeSampleOrder, sampleCart, sandboxInstallation } from "./sandbox-objects.server";

type Outcome = { summary: string } & Record<string, unknown>;

export async function triggerHook(
  db: Database,
  env: Env,
  account: Account,
  business: Business | null,
  appId: string,
  point: HookPoint,
) {
  const app = await getDeveloperApp(db, account.id, appId);
  const installation = await sandboxInstallation(db, app, business);
  const sandbox = business!;
  if (!installation.scopes.includes(HOOK_SCOPES[point]))
    throw new ApiError(
      409,
      `Your test installation was not granted ${HOOK_SCOPES[point]}, which ${point} needs: add the scope to the app, then test-uninstall and test-install again`,
    );
  const registry = await hookRegistry(db, sandbox.id);
  if (!hookTargets(registry.extensions, point, HOOK_SCOPES[point]).some((t) => t.installation.id === installation.id))
    throw new ApiError(
      409,
      `${app.name} has no active hook for ${point}: add one to the manifest (hooks: [{hookPoint: "${point}", url}]) and push it with storefront-apps manifest push`,
    );

  const calls: HookResult<HookPoint>[] = [];
  const real = checkoutHooks(db, env, {
    only: installation.id,
    observe: (p, results) => {
      if (p === point) calls.push(...results);
    },
  });
  // only this point's hook is called; the checkout's other steps run as if no app took part
  const only = (part: Partial<CheckoutHooks>): CheckoutHooks => ({ ...noHooks, ...part, settle: real.settle });
  const { product, input } = await sampleCart(db, sandbox.id);
  const cart = { ...input, paymentMethod: "CASH" };
  let outcome: Outcome;
  try {
    outcome = await run();
  } finally {
    await real.settle?.();
  }

  async function run(): Promise<Outcome> {
    const money = (minor: number) => formatMoney(minor, sandbox.currency);
    switch (point) {
      case "checkout.payment_methods": {
        const methods = await real.paymentMethods(sandbox);
        return {
          methods: methods.map((m) => ({ id: m.id, name: m.name })),
          summary: methods.length
            ? `Shown at checkout: ${methods.map((m) => `${m.name} (${m.id})`).join(", ")}`
            : "No method of this app is shown at checkout",
        };
      }
      case "checkout.create_payment": {
        const [method] = await real.paymentMethods(sandbox);
        if (!method)
          return {
            summary:
              "Not called: the app offered no payment method at checkout.payment_methods, so no shopper could choose one of its methods",
          };
        // a real order paying with the app's first method; its events go to nobody
        try {
          const { result } = await withEventAudience({ installationId: installation.id, events: [] }, () =>
            placeSampleOrder(db, sandbox, {
              paymentMethod: method.id,
              hooks: only({ paymentMethods: real.paymentMethods, createPayment: real.createPayment }),
            }),
          );
          return {
            orderId: result.order.id,
            payment: result.payment,
            summary: `Order #${result.order.orderNumber} placed with ${method.name}: the payment is PENDING${result.payment?.paymentUrl ? `, the shopper is sent to ${result.payment.paymentUrl}` : ""}${result.payment?.expiresAt ? `, it expires at ${result.payment.expiresAt}` : ""}`,
          };
        } catch (e) {
          if (e instanceof ApiError) return { status: e.status, summary: `Refused (${e.status}): ${e.message}` };
          throw e;
        }
      }
      default: {
        const step: Partial<CheckoutHooks> =
          point === "order.validate"
            ? { validate: real.validate }
            : point === "checkout.shipping_rates"
              ? { shippingFee: real.shippingFee }
              : { discounts: real.discounts };
        const q = await quote(db, sandbox, cart, { hooks: only(step) });
        if (!q.ok) return { quote: q, summary: `The checkout refuses the order (${q.status}): ${q.message}` };
        const answered = calls.some((c) => c.ok);
        const summary =
          point === "order.validate"
            ? "Accepted: the order can be placed"
            : point === "checkout.shipping_rates"
              ? `Delivery fee used: ${money(q.deliveryFee)} (${answered ? "the app's fee" : "the built-in fee: the app's answer was skipped"})`
              : `Discount applied: ${money(q.discount)} of a ${money(q.subtotal)} subtotal${q.discountReason ? ` ("${q.discountReason}")` : ""}; total ${money(q.amount)}`;
        return { quote: q, summary };
      }
    }
  }

  return {
    hookPoint: point,
    installationId: installation.id,
    cart: {
      items: input.items.map((i) => ({ ...i, name: product.name, price: product.price })),
      subtotal: product.price * input.items[0].quantity,
      currency: sandbox.currency,
      deliveryMethod: input.deliveryMethod,
    },
    calls: calls.map((c) => ({
      ok: c.ok,
      statusCode: c.statusCode ?? null,
      durationMs: c.durationMs ?? 0,
      ...(c.answer ? { answer: c.answer } : {}),
      ...(c.error ? { error: c.error } : {}),
    })),
    outcome,
  };
}
