/**
 * Fan-out: for each event, one delivery per subscribed active registration of an active installation
 * whose scopes cover the event, with first-attempt jobs of up to DELIVERY_BATCH deliveries each, in
 * the caller's transaction. Used by emitEvent (inline, in the transaction that makes the change: one
 * job hop between commit and the POST) and by the fan-out job (bulk emits, the sweeper).
 * It imports nothing of the events module, which calls it.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { textArray } from "../../../db/sql";
import type { Db } from "../../../db/client";
import { installations, webhookDeliveries, webhooks } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { eventAllowed } from "../apps/catalog";

/** Deliveries whose first attempt shares one job: sent in parallel, successes recorded in one statement. */
export const DELIVERY_BATCH = 10;

export function envelope(input: { id: string; event: string; timestamp: Date; webhookId: string; businessId: string; data: Record<string, unknown> }) {
  return JSON.stringify({ id: input.id, event: input.event, timestamp: input.timestamp.toISOString(), webhookId: input.webhookId, businessId: input.businessId, data: input.data });
}

export type FannedEvent = { id: string; type: string; businessId: string; data: Record<string, unknown>; createdAt: Date };

/** Writes the events' deliveries and queues their first attempts; returns how many were written. */
export async function writeDeliveries(tx: Db, events: FannedEvent[], t: Date): Promise<number> {
  if (events.length === 0) return 0;
  const targets = await tx
    // only the columns a delivery needs (the rows are read in the order's transaction: keep it light)
    .select({
      webhook: { id: webhooks.id, businessId: webhooks.businessId, appId: webhooks.appId, events: webhooks.events },
      installation: { id: installations.id, scopes: installations.scopes, isTestInstall: installations.isTestInstall },
    })
    .from(webhooks)
    .innerJoin(installations, eq(installations.id, webhooks.installationId))
    .where(and(inArray(webhooks.businessId, [...new Set(events.map((e) => e.businessId))]), eq(webhooks.isActive, true), eq(installations.status, "ACTIVE")));
  const rows = events.flatMap((event) =>
    targets
      .filter(({ webhook, installation }) => webhook.businessId === event.businessId && webhook.events.includes(event.type) && eventAllowed(event.type, installation.scopes))
      .map(({ webhook, installation }) => {
        const id = newId("dlv");
        return {
          id, eventId: event.id, event: event.type, webhookId: webhook.id, installationId: installation.id, appId: webhook.appId, businessId: event.businessId,
          isTestInstall: installation.isTestInstall,
          body: envelope({ id, event: event.type, timestamp: event.createdAt, webhookId: webhook.id, businessId: event.businessId, data: event.data }),
          status: "PENDING" as const, nextAttemptAt: t, createdAt: t, updatedAt: t,
        };
      }),
  );
  if (rows.length === 0) return 0;
  const inserted: { id: string }[] = [];
  for (let i = 0; i < rows.length; i += 1000)
    inserted.push(...(await tx.insert(webhookDeliveries).values(rows.slice(i, i + 1000)).onConflictDoNothing().returning({ id: webhookDeliveries.id })));
  if (inserted.length === 0) return 0;
  // first attempts: one job per DELIVERY_BATCH deliveries, its payload the list of them
  await tx.execute(sql`select graphile_worker.add_jobs((
    select array_agg(row('webhook__deliver', batch, null, null, null, null, null, null)::graphile_worker.job_spec)
    from (select json_agg(json_build_object('deliveryId', id, 'after', 0)) as batch
          from unnest(${textArray(inserted.map((d) => d.id))}) with ordinality as u(id, n) group by (n - 1) / ${DELIVERY_BATCH}) b))`);
  return inserted.length;
}
