/**
 * The checkout pipeline's hook points bound to the platform: payment methods concatenate
 * (namespaced `<appSlug>:<id>`), create_payment goes to the app that offered the method, the first
 * successful shipping fee wins, any `valid: false` rejects with the first reason, discounts add up.
 * The calls' data is built in the newest API version (money as {amount, currency}); each app gets
 * it in its own version (hooks/invoke.server.ts).
 */
import type { Database } from "../../../db/client";
import type { Business } from "../../../db/schema";
import type { Env } from "../core/env.server";
import type { CheckoutHooks, OfferedMethod } from "./checkout.server";
import { addJob } from "../core/jobs.server";
import { callHooks, type HookResult } from "../hooks/invoke.server";
import type { HookData } from "../shapes/hooks";
import { money } from "../core/money";
import { hookRegistry, type HookRegistry } from "../extensions/registry.server";
import type { HookPoint } from "../shapes/manifest";

export type PlatformMethod = OfferedMethod & { appMethodId: string; appName: string };

/**
 * `only`: call this installation's hooks alone (storefront-apps trigger hook, decision 035);
 * `observe`: sees each step's calls as they come back (what each app answered, or why it was skipped).
 */
export type CheckoutHookOptions = {
  only?: string;
  observe?: (hookPoint: HookPoint, results: HookResult<HookPoint>[]) => void;
};

export function checkoutHooks(db: Database, env: Env, options: CheckoutHookOptions = {}): CheckoutHooks {
  // one read of every hook extension of the business and their breakers, shared by the steps of one checkout
  const registries = new Map<string, Promise<HookRegistry>>();
  const registryOf = (businessId: string) => {
    let p = registries.get(businessId);
    if (!p) registries.set(businessId, (p = hookRegistry(db, businessId)));
    return p;
  };
  // the call logs are written while the checkout goes on; settle() waits for them. A failure to
  // write one is logged, never thrown at the shopper (and never left as an unhandled rejection).
  const pending: Promise<void>[] = [];
  const record = (work: Promise<void>) =>
    pending.push(work.catch((e) => console.error("[hooks] could not record hook calls:", e)));
  const call = async <P extends HookPoint>(
    business: Business,
    hookPoint: P,
    data: HookData<P>,
    onlyInstallationId?: string,
  ) => {
    const results = await callHooks(db, env, business, hookPoint, data, {
      registry: await registryOf(business.id),
      record,
      onlyInstallationId: onlyInstallationId ?? options.only,
    });
    options.observe?.(hookPoint, results as HookResult<HookPoint>[]);
    return results;
  };
  return {
    async settle() {
      await Promise.all(pending.splice(0));
    },
    async paymentMethods(business: Business) {
      const results = await call(business, "checkout.payment_methods", { businessId: business.id });
      return results.flatMap((r) =>
        (r.answer?.methods ?? []).map((m): PlatformMethod => ({
          id: `${r.target.app.slug}:${m.id}`,
          appMethodId: m.id,
          appName: r.target.app.name,
          name: m.name,
          description: m.description,
          icon: m.icon,
          installationId: r.target.installation.id,
        })),
      );
    },
    async validate(business, ctx) {
      const results = await call(business, "order.validate", {
        ...ctx,
        subtotal: money(ctx.subtotal, business.currency),
      });
      const refusal = results.find((r) => r.answer && !r.answer.valid);
      return refusal
        ? { valid: false, reason: refusal.answer!.reason || `${refusal.target.app.name} cannot accept this order` }
        : { valid: true };
    },
    async shippingFee(business, ctx) {
      const results = await call(business, "checkout.shipping_rates", {
        ...ctx,
        subtotal: money(ctx.subtotal, business.currency),
        builtInFee: money(ctx.builtInFee, business.currency),
      });
      const first = results.find((r) => r.answer);
      return first ? Math.round(first.answer!.fee.amount) : ctx.builtInFee;
    },
    async discounts(business, ctx) {
      const results = await call(business, "order.calculate_discounts", {
        ...ctx,
        subtotal: money(ctx.subtotal, business.currency),
        promoDiscount: money(ctx.promoDiscount, business.currency),
        deliveryFee: money(ctx.deliveryFee, business.currency),
      });
      const given = results.filter((r) => r.answer && r.answer.discount.amount > 0);
      return {
        discount: given.reduce((s, r) => s + Math.round(r.answer!.discount.amount), 0),
        reason:
          given
            .map((r) => r.answer!.reason)
            .filter(Boolean)
            .join("; ") || undefined,
      };
    },
    async createPayment(business, order, method) {
      const appMethodId = (method as PlatformMethod).appMethodId ?? method.id.split(":").slice(1).join(":");
      const [result] = await call(
        business,
        "checkout.create_payment",
        {
          orderId: order.id,
          amount: money(order.amount, order.currency),
          currency: order.currency,
          paymentMethodId: appMethodId,
          businessId: business.id,
          description: `Order #${order.orderNumber} at ${business.name}`,
        },
        method.installationId,
      );
      if (!result?.answer) return null;
      if (result.answer.expiresAt)
        await addJob(
          db,
          "payment__expire",
          { orderId: order.id },
          { runAt: new Date(result.answer.expiresAt), jobKey: `payment-expire:${order.id}` },
        );
      return result.answer;
    },
  };
}
