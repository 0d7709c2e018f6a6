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

/**
 * `--override key=value` (repeatable; dotted keys for nested fields): `customer.email=a@b.c`,
 * `items.0.productId=prd_…`, `items.0.quantity=3`, `rating=2`, `body="Too slow"`. A value that reads
 * of `quantity` or `rating` that reads as a number is sent as one; `--override 'items=[…]'` takes JSON.
 */
const NUMERIC = new Set(["quantity", "rating"]);
export function parseOverrides(pairs: string[]): Record<string, unknown> | undefined {
  if (pairs.length === 0) return undefined;
  const root: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new CliError(`--override ${pair}: expected key=value (e.g. customer.email=shopper@example.com)`);
    const path = pair.slice(0, eq).split(".");
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    // the numeric fields are numbers; everything else (a phone number too) stays text
    if (NUMERIC.has(path[path.length - 1]) && /^-?\d+(\.\d+)?$/.test(raw)) value = Number(raw);
    else if (/^[[{]/.test(raw))
      try {
        value = JSON.parse(raw);
      } catch {
        throw new CliError(`--override ${pair}: the value is not JSON`);
      }
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((key, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]);
      const slot = node as Record<string, unknown>;
      if (last) slot[key] = value;
      else node = (slot[key] ??= nextIsIndex ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

export async function trigger(event: string | undefined, flags: Flags, overridePairs: string[] = []) {
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
  const overrides = parseOverrides(overridePairs);
  const r = await api(config, "POST", `/developer/apps/${encodeURIComponent(id)}/trigger`, {
    event,
    ...(overrides ? { overrides } : {}),
  });
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
