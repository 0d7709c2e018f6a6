/**
 * What a developer sees of their app's webhooks in the portal: registrations on every business
 * that installed the app, the delivery log with each attempt, and redelivery.
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Database, Db } from "../../../db/client";
import { businesses, installations, webhookAttempts, webhookDeliveries, webhooks } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import type { Env } from "../core/env.server";
import { sendTest } from "./send-test.server";
import { pageOfDeliveries } from "./registrations.server";
import { addJob } from "../core/jobs.server";

export async function appRegistrations(db: Db, appId: string) {
  return db
    .select({
      webhook: webhooks,
      businessName: businesses.name,
      installationStatus: installations.status,
      isTestInstall: installations.isTestInstall,
    })
    .from(webhooks)
    .innerJoin(installations, eq(installations.id, webhooks.installationId))
    .innerJoin(businesses, eq(businesses.id, webhooks.businessId))
    .where(eq(webhooks.appId, appId))
    .orderBy(desc(webhooks.createdAt));
}

export async function appDeliveries(db: Db, appId: string, webhookId: string, page: { limit: number; offset: number }) {
  const where = and(eq(webhookDeliveries.appId, appId), eq(webhookDeliveries.webhookId, webhookId));
  const { rows, total } = await pageOfDeliveries(db, where, page);
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(webhookAttempts.attemptNo))
    : [];
  return { rows: rows.map((d) => ({ delivery: d, attempts: attempts.filter((a) => a.deliveryId === d.id) })), total };
}

export async function redeliverForApp(db: Database, appId: string, deliveryId: string) {
  const [d] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.appId, appId)));
  if (!d) throw new ApiError(404, "Delivery not found");
  await addJob(db, "webhook__deliver", { deliveryId, manual: true });
}

/** "Send a test" from the delivery log: webhook.test to one of the app's registrations on a business that has the app installed. */
export async function testRegistrationForApp(db: Db, env: Env, appId: string, webhookId: string) {
  const [found] = await db
    .select({ webhook: webhooks })
    .from(webhooks)
    .innerJoin(installations, eq(installations.id, webhooks.installationId))
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.appId, appId), eq(installations.status, "ACTIVE")));
  if (!found) throw new ApiError(404, "Webhook registration not found");
  return sendTest(db, env, found.webhook);
}
