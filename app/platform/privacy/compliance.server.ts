/**
 * Telling apps of a shopper's privacy request (contract 15, decision 040): customer.data_request for an
 * export, customer.redact for an erasure, to the install registration of every ACTIVE installation of
 * the business holding read_orders or read_reviews, whatever it subscribes to and even when the app
 * switched that registration off (like business.data_erasure). Written in the request's transaction;
 * signed, sent and retried by the ordinary dispatcher. The portal lists them per app.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { apps, businesses, installations, orders, webhookDeliveries, webhooks } from "../../../db/schema";
import { rawQuery, textArray } from "../../../db/sql";
import { newId } from "../core/ids.server";
import { newestFirst, pageWithTotal, type Page } from "../core/paging.server";
import { COMPLIANCE_EVENTS, COMPLIANCE_SCOPES, type ComplianceEvent } from "../shapes/app-catalog";
import { deliveriesCtes, deliveryParams, envelope, type DeliveryRow } from "../webhooks/fanout.server";
import { ERASED_TEXT } from "./scrub.server";
import { renderVersion } from "../versions/registry";
import { emitEvent } from "../events/emit.server";
import { event as typedEvent } from "../shapes/events";
import { VERSIONING } from "../versions/changes";

/** What a privacy request names: the request, the shopper's e-mail, their orders and reviews. */
export type ComplianceRequest = { requestId: string; customerEmail: string; orderIds: string[]; reviewIds: string[] };

/**
 * The data of customer.data_request and customer.redact (one shape for both) as an installation with
 * these scopes receives it: order ids only with read_orders, review ids only with read_reviews. The
 * one payload builder of both events (trigger and the event schemas use it too).
 */
export function complianceEventData(request: ComplianceRequest, scopes: readonly string[]) {
  return {
    requestId: request.requestId,
    customerEmail: request.customerEmail,
    orderIds: scopes.includes("read_orders") ? request.orderIds : [],
    reviewIds: scopes.includes("read_reviews") ? request.reviewIds : [],
  };
}

/** The business's ACTIVE installations that may hold shoppers' data, with their install registration (null without a webhook URL). */
export function appsHolding(db: Db, businessId: string, options: { installationId?: string } = {}) {
  return db
    .select({
      installationId: installations.id,
      appId: installations.appId,
      appName: apps.name,
      scopes: installations.scopes,
      isTestInstall: installations.isTestInstall,
      webhookId: webhooks.id,
      apiVersion: apps.apiVersion,
    })
    .from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId))
    .leftJoin(webhooks, and(eq(webhooks.installationId, installations.id), eq(webhooks.isInstallDefault, true)))
    .where(
      and(
        eq(installations.businessId, businessId),
        eq(installations.status, "ACTIVE"),
        sql`${installations.scopes} && ${textArray(COMPLIANCE_SCOPES)}`,
        options.installationId ? eq(installations.id, options.installationId) : undefined,
      ),
    )
    .orderBy(installations.installedAt);
}

/**
 * Writes the event (platform_events) and one delivery per installation that holds a compliance scope
 * and has a webhook URL (`installationId`: that one only, for a test send); the dispatchers are woken at
 * commit. The event row of an erasure keeps no e-mail; the delivery bodies carry it until they are
 * over (a trigger then replaces it, migration 0020). Returns the number of deliveries written.
 */
export async function notifyApps(
  tx: Db,
  businessId: string,
  event: ComplianceEvent,
  request: ComplianceRequest,
  options: { installationId?: string } = {},
): Promise<number> {
  // the event row (through emitEvent, which records it with its audience; it fans none of these out)
  const row = await emitEvent(
    tx,
    typedEvent(businessId, event, {
      ...complianceEventData(request, COMPLIANCE_SCOPES),
      ...(event === "customer.redact" ? { customerEmail: ERASED_TEXT } : {}),
    }),
  );
  const [t, eventId] = [row.createdAt, row.id];
  const targets = (await appsHolding(tx, businessId, options)).filter((a) => a.webhookId !== null);
  if (targets.length === 0) return 0;
  const rows: DeliveryRow[] = targets.map((a) => {
    const id = newId("dlv");
    // rendered in the app's API version, like every delivery (contract 12)
    const apiVersion = renderVersion(a.apiVersion, t);
    return {
      id,
      eventId,
      apiVersion,
      event,
      webhookId: a.webhookId!,
      installationId: a.installationId,
      appId: a.appId,
      businessId,
      isTestInstall: a.isTestInstall,
      body: envelope({
        id,
        event,
        timestamp: t,
        webhookId: a.webhookId!,
        businessId,
        apiVersion,
        data: VERSIONING.event(event, complianceEventData(request, a.scopes), apiVersion) as Record<string, unknown>,
      }),
    };
  });
  const [written] = await rawQuery<{ n: number }>(
    tx,
    `with ${deliveriesCtes(1)} select (select count(*) from d)::int as n, (select count(*) from woken)::int as w`,
    deliveryParams(rows, t),
  );
  return written.n;
}

/**
 * A request built from real rows of a business, for `trigger` on a test installation: the e-mail of
 * its latest order that has one, with that shopper's orders and reviews. Null when no order has an
 * e-mail.
 */
export async function sampleComplianceRequest(db: Db, businessId: string): Promise<ComplianceRequest | null> {
  const [latest] = await db
    .select({ email: orders.customerEmail })
    .from(orders)
    .where(and(eq(orders.businessId, businessId), sql`${orders.customerEmail} is not null`))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!latest?.email) return null;
  const email = latest.email.trim().toLowerCase();
  const [orderRows, reviewRows] = await Promise.all([
    rawQuery<{ id: string }>(
      db,
      `select id from orders where business_id = $1 and lower(btrim(customer_email)) = $2 order by created_at desc`,
      [businessId, email],
    ),
    rawQuery<{ id: string }>(
      db,
      `select id from reviews where business_id = $1 and lower(btrim(author_email)) = $2 order by created_at desc`,
      [businessId, email],
    ),
  ]);
  return {
    requestId: newId("prv"),
    customerEmail: email,
    orderIds: orderRows.map((r) => r.id),
    reviewIds: reviewRows.map((r) => r.id),
  };
}

/** The compliance requests an app was sent (every business), newest first, with their delivery status. */
export async function listComplianceDeliveries(db: Db, appId: string, page: Page) {
  const where = and(eq(webhookDeliveries.appId, appId), inArray(webhookDeliveries.event, [...COMPLIANCE_EVENTS]));
  const { rows, total } = await pageWithTotal(
    db,
    db
      .select({
        id: webhookDeliveries.id,
        event: webhookDeliveries.event,
        webhookId: webhookDeliveries.webhookId,
        businessName: businesses.name,
        isTestInstall: webhookDeliveries.isTestInstall,
        body: webhookDeliveries.body,
        status: webhookDeliveries.status,
        attempts: webhookDeliveries.attempts,
        lastStatusCode: webhookDeliveries.lastStatusCode,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        createdAt: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .innerJoin(businesses, eq(businesses.id, webhookDeliveries.businessId))
      .$dynamic(),
    { from: webhookDeliveries, where, order: newestFirst(webhookDeliveries) },
    page,
  );
  return {
    total,
    rows: rows.map(({ body, ...r }) => {
      const data = (JSON.parse(body) as { data?: Partial<ComplianceRequest> }).data ?? {};
      return {
        ...r,
        requestId: data.requestId ?? "",
        orderCount: data.orderIds?.length ?? 0,
        reviewCount: data.reviewIds?.length ?? 0,
      };
    }),
  };
}
