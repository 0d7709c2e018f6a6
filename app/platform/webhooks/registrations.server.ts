/**
 * Webhook registrations of an installation (contract 7): create, list, read, change, delete,
 * the delivery log and redelivery. Every query is scoped to the calling installation.
 */
import { and, eq, type SQL } from "drizzle-orm";
import { recordActivity } from "../activity/activity.server";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import { webhookDeliveries, webhooks, type Webhook, type WebhookDelivery } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { encrypt } from "../core/crypto.server";
import { appUrlProblem } from "../core/urls";
import { EVENTS, SUBSCRIBABLE_EVENTS, eventAllowed } from "../shapes/app-catalog";
import type { AppCaller } from "../apps/caller";
import { newWebhookSecret } from "../outbound/signing-secret.server";
import { addJob } from "../core/jobs.server";
import { newestPageWithTotal, type ListIdentity, type Page } from "../core/paging.server";
import { DELIVERY_COUNT_CAP } from "../shapes/api";

const subscribable = SUBSCRIBABLE_EVENTS as [string, ...string[]];

/** An absolute http(s) URL (https only in production: `productionUrl`, which needs the settings). */
const webhookUrl = z
  .string()
  .trim()
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = appUrlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe("absolute http(s) URL; https in production");
export const WebhookEventName = z.enum(subscribable, { error: (issue) => `unknown event ${String(issue.input)}` });
const eventList = z.array(WebhookEventName).min(1, "must name at least one event").max(50);

/** The bodies of POST /webhooks and PATCH /webhooks/<id>, declared by their route modules (decision 025). */
export const WebhookCreate = z
  .object({ url: webhookUrl, events: eventList, description: z.string().trim().max(500).optional() })
  .meta({ id: "WebhookCreate" });
export const WebhookUpdate = z
  .object({
    url: webhookUrl.optional(),
    events: eventList.optional(),
    description: z.string().trim().max(500).optional(),
    isActive: z.boolean().optional().describe("true re-activates and resets the failure count"),
  })
  .strict()
  .meta({ id: "WebhookUpdate" });
export type WebhookCreateInput = z.output<typeof WebhookCreate>;
export type WebhookUpdateInput = z.output<typeof WebhookUpdate>;

function productionUrl(env: Pick<Env, "isProduction">, url: string) {
  const problem = env.isProduction ? appUrlProblem(url, { httpsOnly: true }) : null;
  if (problem) throw new ApiError(400, `url: ${problem}`);
}

/** 400 for an unknown event; 403 for one whose scope the installation lacks. */
function checkEvents(caller: AppCaller, events: string[]) {
  const unknown = events.filter((e) => !(subscribable as string[]).includes(e));
  if (unknown.length) throw new ApiError(400, `events: unknown event ${unknown.join(", ")}`);
  const forbidden = events.filter((e) => !eventAllowed(e, caller.installation.scopes));
  if (forbidden.length) {
    const scopes = [...new Set(forbidden.map((e) => EVENTS[e as keyof typeof EVENTS]))];
    throw new ApiError(
      403,
      `events ${forbidden.join(", ")} need the ${scopes.join(", ")} scope, which the installation has not been granted`,
    );
  }
}

export function serializeWebhook(w: Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    isActive: w.isActive,
    description: w.description,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt.toISOString(),
  };
}

export function serializeDelivery(d: WebhookDelivery) {
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.event,
    apiVersion: d.apiVersion,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastDurationMs: d.lastDurationMs,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  };
}

/**
 * The log's entry of an app's change to its registrations (contract 18): in the business's log and
 * the app's, the app as the actor; never the URL's secret parts (the URL is the app's own address).
 */
function recordWebhookChange(
  tx: Db,
  caller: AppCaller,
  action: "webhook.created" | "webhook.updated" | "webhook.deleted",
  id: string,
  ip: string | null,
  details: Record<string, unknown>,
) {
  return recordActivity(tx, {
    businessId: caller.business.id,
    appId: caller.app.id,
    actor: { type: "APP", id: caller.app.id },
    action,
    target: { type: "webhook", id },
    ip,
    details,
  });
}

export async function createRegistration(
  db: Database,
  env: Env,
  caller: AppCaller,
  input: WebhookCreateInput,
  ip: string | null = null,
) {
  productionUrl(env, input.url);
  input = { ...input, events: [...new Set(input.events)] };
  checkEvents(caller, input.events);
  const secret = newWebhookSecret(caller.installation.isTestInstall);
  const t = now();
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhooks)
      .values({
        id: newId("wh"),
        installationId: caller.installation.id,
        appId: caller.app.id,
        businessId: caller.business.id,
        url: input.url,
        events: input.events,
        secretEnc: encrypt(secret, env.encryptionKey),
        description: input.description ?? "",
        createdAt: t,
        updatedAt: t,
      })
      .returning();
    await recordWebhookChange(tx, caller, "webhook.created", created.id, ip, {
      url: created.url,
      events: created.events,
    });
    return created;
  });
  const { disabledReason: _d, ...rest } = serializeWebhook(row);
  return { ...rest, secret };
}

export async function getRegistration(db: Db, caller: AppCaller, id: string): Promise<Webhook> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.installationId, caller.installation.id)));
  if (!row) throw new ApiError(404, "Webhook not found");
  return row;
}

export async function listRegistrations(db: Db, caller: AppCaller, page: Page) {
  const where = eq(webhooks.installationId, caller.installation.id);
  const identity = { list: "webhooks", scope: caller.installation.id };
  return newestPageWithTotal(db, db.select().from(webhooks), { from: webhooks, where, identity }, page);
}

export async function updateRegistration(
  db: Database,
  env: Env,
  caller: AppCaller,
  id: string,
  input: WebhookUpdateInput,
  ip: string | null = null,
) {
  const existing = await getRegistration(db, caller, id);
  if (input.url !== undefined) productionUrl(env, input.url);
  if (input.events) input = { ...input, events: [...new Set(input.events)] };
  if (input.events) checkEvents(caller, input.events);
  const change: Partial<Webhook> = { updatedAt: now() };
  if (input.url !== undefined) change.url = input.url;
  if (input.events !== undefined) change.events = input.events;
  if (input.description !== undefined) change.description = input.description;
  if (input.isActive !== undefined) {
    change.isActive = input.isActive;
    // re-activation starts counting failures again
    if (input.isActive && !existing.isActive) Object.assign(change, { consecutiveFailures: 0, disabledReason: null });
    if (!input.isActive) change.disabledReason = null;
  }
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx.update(webhooks).set(change).where(eq(webhooks.id, id)).returning();
    const { updatedAt: _u, consecutiveFailures: _c, ...changed } = change;
    await recordWebhookChange(tx, caller, "webhook.updated", id, ip, changed);
    return updated;
  });
  return serializeWebhook(row);
}

export async function deleteRegistration(db: Database, caller: AppCaller, id: string, ip: string | null = null) {
  const existing = await getRegistration(db, caller, id);
  if (existing.isInstallDefault)
    throw new ApiError(
      409,
      "This is the app's install registration: it receives business.data_erasure. Deactivate it with isActive: false instead",
    );
  await db.transaction(async (tx) => {
    await tx.delete(webhooks).where(eq(webhooks.id, id));
    await recordWebhookChange(tx, caller, "webhook.deleted", id, ip, { url: existing.url, events: existing.events });
  });
}

export async function listDeliveries(db: Db, caller: AppCaller, webhookId: string, page: Page) {
  await getRegistration(db, caller, webhookId);
  return pageOfDeliveries(db, eq(webhookDeliveries.webhookId, webhookId), page, {
    list: "deliveries",
    scope: webhookId,
  });
}

/**
 * A page of the deliveries that match `where`, newest first (by cursor when `page` carries one),
 * with their total counted up to DELIVERY_COUNT_CAP (decision 068: an exact count of a busy app's
 * log read every row of it on every page).
 */
export function pageOfDeliveries(
  db: Db,
  where: SQL | undefined,
  page: Page,
  identity: ListIdentity = { list: "deliveries", scope: "" },
) {
  const newest = db.select().from(webhookDeliveries);
  return newestPageWithTotal(
    db,
    newest,
    { from: webhookDeliveries, where, identity, countCap: DELIVERY_COUNT_CAP },
    page,
  );
}

/** A new attempt of a delivery, with the same X-Service-Event-Id. */
export async function redeliver(db: Database, caller: AppCaller, webhookId: string, deliveryId: string) {
  await getRegistration(db, caller, webhookId);
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)));
  if (!delivery) throw new ApiError(404, "Delivery not found");
  await addJob(db, "webhook__deliver", { deliveryId, manual: true });
  return { id: delivery.id, status: "QUEUED" as const };
}
