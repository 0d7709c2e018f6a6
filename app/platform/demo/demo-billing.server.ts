/**
 * The demo's billing (issues 39 and 40, decision 062): Demo Bistro installed Ready Text 62 days ago
 * and pays for its Text Pro plan ($4.99 every 30 days, 5 cents a text). Everything is made by
 * billing's own functions while the platform clock is moved back: the subscription is requested and
 * approved 62 days ago, texts are charged as usage on the days they were sent, and the two periods
 * that ended since are closed by `closeDuePeriods` into invoices and ledger entries. So the merchant's
 * Billing page shows the subscription, this period's usage and past invoices, and the developer's
 * Earnings show the months.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { orders, type App, type Business } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { now, setClockOffset } from "../core/clock.server";
import { createInstallation, issueAccessToken } from "../installs/installs.server";
import { approveSubscription, createSubscription, recordUsage } from "../billing/subscriptions.server";
import { closeDuePeriods } from "../billing/closing.server";
import { demoAppStore } from "./demo-app-store.server";
import { READY_TEXT_PLAN, TEXT_PRICE_CENTS } from "./demo-apps";
import { readyTextMessage } from "./demo-app-behaviour.server";

const DAY = 24 * 3600 * 1000;
/** Days ago a text was sent: six in the first period, four in the second, three in the current one. */
const TEXT_DAYS_AGO = [59, 55, 50, 44, 39, 34, 28, 21, 14, 6, 1.5, 1, 0.2];

export async function seedDemoBilling(
  db: Database,
  env: Env,
  input: { bistro: Business; readyText: App; developerId: string },
) {
  const { bistro, readyText } = input;
  const realNow = Date.now();
  const offset = now().getTime() - realNow;
  const at = (daysAgo: number) => setClockOffset(offset - daysAgo * DAY);
  const store = demoAppStore(db, env.encryptionKey, "ready-text");
  const appUrl = readyText.redirectUrl.replace(/\/oauth\/callback$/, "");
  // the orders the texts were about: Demo Bistro's fulfilled ones, oldest number first
  const fulfilled = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      customerName: orders.customerName,
      customerPhone: orders.customerPhone,
    })
    .from(orders)
    .where(and(eq(orders.businessId, bistro.id), inArray(orders.status, ["READY", "IN_DELIVERY", "DELIVERED"])))
    .orderBy(orders.orderNumber);
  try {
    at(62.1);
    const installation = await db.transaction(async (tx) => {
      const { installation, webhookSecret } = await createInstallation(tx, env, {
        app: readyText,
        businessId: bistro.id,
        scopes: readyText.approvedScopes,
        isTestInstall: false,
        installedBy: input.developerId,
      });
      const accessToken = await issueAccessToken(tx, installation);
      await demoAppStore(tx, env.encryptionKey, "ready-text").save({
        businessId: bistro.id,
        installationId: installation.id,
        accessToken,
        webhookSecret,
        scopes: installation.scopes,
      });
      return installation;
    });
    const caller = { installation, business: bistro, app: { id: readyText.id } };
    at(62);
    const pending = await createSubscription(db, caller, {
      planId: READY_TEXT_PLAN,
      returnUrl: `${appUrl}/billing/done`,
    });
    const sub = await approveSubscription(db, bistro.id, pending.id);
    for (const [i, daysAgo] of TEXT_DAYS_AGO.entries()) {
      // periods that ended by then are closed first, as the worker's job would have closed them
      at(daysAgo);
      await closeDuePeriods(db);
      const order = fulfilled[i % Math.max(1, fulfilled.length)];
      const orderNumber = order?.orderNumber ?? String(1000 + i);
      const status = i % 3 === 0 ? "IN_DELIVERY" : "READY";
      const key = `demo-text-${i}`;
      await recordUsage(
        db,
        caller,
        sub.id,
        { description: `Text for order #${orderNumber}`, amount: { amount: TEXT_PRICE_CENTS, currency: "USD" } },
        key,
      );
      await store.append(
        bistro.id,
        "texts",
        {
          at: now().toISOString(),
          orderId: order?.id,
          orderNumber,
          to: order?.customerPhone ?? "",
          message: readyTextMessage({}, status, order?.customerName ?? "there", orderNumber),
          charged: "$0.05",
        },
        key,
      );
    }
    setClockOffset(offset);
    await closeDuePeriods(db);
  } finally {
    setClockOffset(offset);
  }
}
