/**
 * The types of what the platform sends an app, generated from the App API document's `webhooks`
 * section (`npm run sdk:openapi`), which the platform makes from the same schemas it builds and
 * checks its deliveries and hook calls with: an event's envelope and `data` by its name, a hook
 * point's call and the answer it accepts.
 *
 * ```ts
 * const event = verifyWebhook(raw, req.headers, secret); // WebhookEvent
 * if (event.event === "order.created") console.log(event.data.amount); // typed
 * await handleWebhookEvent(event, {
 *   "order.created": (e) => saveOrder(e.data.orderId, e.data.amount),
 *   "app.uninstalled": (e) => forget(e.data.installationId),
 * });
 * ```
 */
import type { webhooks } from "./generated/app-api.ts";

type BodyOf<K extends keyof webhooks> = webhooks[K]["post"] extends {
  requestBody: { content: { "application/json": infer B } };
}
  ? B
  : never;
type HookKey = Extract<keyof webhooks, `hook:${string}`>;

/** Every event the platform delivers (the catalogue). */
export type WebhookEventName = Exclude<keyof webhooks, HookKey>;
/** The delivery of one event: its envelope, with `data` of that event's shape. */
export type WebhookEventOf<E extends WebhookEventName> = BodyOf<E>;
/** Any delivery, told apart by `event`: narrowing on it types `data`. */
export type WebhookEvent = { [E in WebhookEventName]: BodyOf<E> }[WebhookEventName];
/** The `data` of one event. */
export type WebhookData<E extends WebhookEventName> = WebhookEventOf<E> extends { data: infer D } ? D : never;

/** Every hook point. */
export type HookPointName = HookKey extends `hook:${infer P}` ? P : never;
/** The call of a hook point: its envelope, with `data` of that point's shape. */
export type HookCallOf<P extends HookPointName> = BodyOf<`hook:${P}`>;
/** The answer the platform accepts from a hook point (any other is skipped). */
export type HookAnswerOf<P extends HookPointName> = webhooks[`hook:${P}`]["post"] extends {
  responses: { 200: { content: { "application/json": infer A } } };
}
  ? A
  : never;

/** A handler per event name, each given the typed delivery. */
export type WebhookHandlers = { [E in WebhookEventName]?: (event: WebhookEventOf<E>) => unknown };

/**
 * Calls the handler for a verified delivery's event (see {@link verifyWebhook}); returns whether
 * one was there. Events without a handler are left alone (answer 2xx anyway).
 */
export async function handleWebhookEvent(event: WebhookEvent, handlers: WebhookHandlers): Promise<boolean> {
  const handler = handlers[event.event] as ((e: WebhookEvent) => unknown) | undefined;
  if (!handler) return false;
  await handler(event);
  return true;
}
