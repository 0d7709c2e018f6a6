/** `storefront-apps trigger [<event>]` and `trigger hook <point>`. */
import { api, appIdOf, CliError, out, readConfig, str, type Config, type Flags } from "../shared.ts";

/** The events of the catalogue and the hook points, as the platform's document lists them. */
export const EVENTS = [
  "order.created",
  "order.status_changed",
  "order.delivered",
  "order.cancelled",
  "payment.completed",
  "payment.expired",
  "product.created",
  "product.updated",
  "product.deleted",
  "product.out_of_stock",
  "product.low_stock",
  "product.back_in_stock",
  "review.created",
  "review.deleted",
  "business.data_erasure",
  "app.uninstalled",
  "customer.data_request",
  "customer.redact",
  "app_subscription.updated",
  "webhook.test",
];
export const HOOK_POINTS = [
  "checkout.payment_methods",
  "checkout.create_payment",
  "checkout.shipping_rates",
  "order.validate",
  "order.calculate_discounts",
];

export async function trigger(event: string | undefined, flags: Flags) {
  const config = readConfig();
  if (event === "hook") return triggerHook(str(flags.point) ?? process.argv[4], flags, config);
  if (!event) {
    out("trigger <event> makes the event happen on your sandbox and sends it to your test installation only:");
    for (const e of EVENTS) out(`  ${e}`);
    out("trigger hook <point> calls your hook as a sandbox checkout would:");
    for (const p of HOOK_POINTS) out(`  ${p}`);
    return;
  }
  const id = appIdOf(flags, config);
  const r = await api(config, "POST", `/developer/apps/${encodeURIComponent(id)}/trigger`, { event });
  out(
    `Triggered ${r.event} (event ${r.eventId}) on your sandbox business ${r.businessId}, from ${r.object.kind} ${r.object.id}.`,
  );
  for (const d of r.deliveries) out(`  delivery ${d.id} -> ${d.url} (registration ${d.webhookId})`);
}

async function triggerHook(point: string | undefined, flags: Flags, config: Config) {
  if (!point) throw new CliError(`trigger hook needs a hook point: ${HOOK_POINTS.join(", ")}`);
  const id = appIdOf(flags, config);
  const r = await api(config, "POST", `/developer/apps/${encodeURIComponent(id)}/trigger-hook`, { hookPoint: point });
  out(
    `Cart: ${r.cart.items.map((i: { quantity: number; name: string }) => `${i.quantity} x ${i.name}`).join(", ")}, subtotal ${r.cart.subtotal} (${r.cart.currency} minor units), ${r.cart.deliveryMethod}`,
  );
  if (r.calls.length === 0) out(`Your ${point} hook was not called.`);
  for (const c of r.calls)
    out(
      c.ok
        ? `Your hook answered ${c.statusCode} in ${c.durationMs} ms: ${JSON.stringify(c.answer)}`
        : `Your hook's call was skipped (${c.statusCode ?? "no answer"}, ${c.durationMs} ms): ${c.error}`,
    );
  out(`The platform: ${r.outcome.summary}`);
}
