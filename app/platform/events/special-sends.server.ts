/**
 * Events sent to one installation's install registration whatever its subscriptions: the erasure 48 hours
 * after an uninstall, app.uninstalled, and the unscoped events of billing (contract 4, 13, 14).
 */
import { OLDEST_VERSION } from "../versions/registry";
import { and, eq } from "drizzle-orm";
import type { Database, Db } from "../../../db/client";
import { apps, installations, type Installation, webhookDeliveries } from "../../../db/schema";
import { emitEvent, event } from "./emit.server";
import type { EventInput } from "../shapes/events";
import { installRegistration, writeDirectDeliveries, type DeliveryRow } from "../webhooks/fanout.server";

/**
 * 48 hours after an uninstall: business.data_erasure to the registration created at install (its
 * id and secret), even though uninstall deactivated it, with the normal retries.
 */
export async function sendErasure(db: Database, installationId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [inst] = await tx.select().from(installations).where(eq(installations.id, installationId)).for("update");
    if (!inst || inst.status !== "UNINSTALLED" || !inst.erasureScheduledAt || inst.erasureDeliveredAt) return false;
    const existing = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.installationId, inst.id), eq(webhookDeliveries.event, "business.data_erasure")));
    if (existing.length) return false;
    return (await sendErasureEvent(tx, inst, inst.uninstalledAt!)).length > 0;
  });
}

type Installed = Pick<Installation, "id" | "appId" | "businessId" | "isTestInstall">;

/**
 * business.data_erasure of an installation uninstalled at `uninstalledAt`, recorded and sent to its
 * install registration (none: nothing sent). The erasure job calls it 48 hours after the uninstall;
 * storefront-apps trigger for a test installation that stays installed (decision 035).
 */
export async function sendErasureEvent(tx: Db, inst: Installed, uninstalledAt: Date): Promise<DeliveryRow[]> {
  const target = await installRegistration(tx, inst.id);
  const row = await emitEvent(
    tx,
    event(inst.businessId, "business.data_erasure", {
      appId: inst.appId,
      businessId: inst.businessId,
      uninstalledAt: uninstalledAt.toISOString(),
    }),
  );
  return target ? writeDirectDeliveries(tx, row, [target]) : [];
}

/**
 * app.uninstalled (contract 14): recorded with contract 4's fields, and sent at once to the install
 * registration (even though the uninstall deactivated it, signed with the installation's webhook
 * secret, retried like any delivery) with its declared data `{installationId, businessId,
 * uninstalledAt}`. Called in the uninstall's transaction, and by storefront-apps trigger.
 */
export async function sendAppUninstalled(tx: Db, inst: Installed, uninstalledAt: Date): Promise<DeliveryRow[]> {
  const data = { installationId: inst.id, businessId: inst.businessId, uninstalledAt: uninstalledAt.toISOString() };
  const recorded = { appId: inst.appId, ...data, isTestInstall: inst.isTestInstall };
  const row = await emitEvent(tx, { businessId: inst.businessId, type: "app.uninstalled", data: recorded });
  const target = await installRegistration(tx, inst.id);
  return target ? writeDirectDeliveries(tx, row, [target], () => data) : [];
}

/**
 * An event with no scope and no subscription (app_subscription.updated, and the like): the event row
 * and one delivery to the installation's install registration `webhookId` (the app's webhookUrl,
 * signed with the installation's secret, rendered in the app's API version), in the caller's
 * transaction; the dispatchers take it at commit. Returns the delivery's id.
 */
export async function deliverToInstallRegistration(
  tx: Db,
  inst: Installed,
  webhookId: string,
  event: EventInput,
): Promise<string> {
  const row = await emitEvent(tx, event);
  const [app] = await tx.select({ apiVersion: apps.apiVersion }).from(apps).where(eq(apps.id, inst.appId));
  const target = {
    id: webhookId,
    installationId: inst.id,
    appId: inst.appId,
    isTestInstall: inst.isTestInstall,
    apiVersion: app?.apiVersion ?? OLDEST_VERSION,
  };
  const [delivery] = await writeDirectDeliveries(tx, row, [target]);
  return delivery.id;
}
