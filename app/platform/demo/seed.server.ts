/**
 * Demo data, loaded on the first start of an empty database: a merchant "Demo Bistro" with a full
 * catalogue, a developer with a sandbox business and a published demo app ("Loyalty Stars",
 * installed on a few demo shops, with 30 days of history for its analytics), a reviewer, and a
 * living marketplace: more apps in several categories with reviews, replies and staff picks.
 */
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { queueMail } from "../mail/queue.server";
import type { Database } from "../../../db/client";
import { installations, orders, webhookDailyStats } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { createAccount, createBusiness } from "../accounts/accounts.server";
import { createApp, submitApp } from "../apps/apps.server";
import { approveApp } from "../apps/review.server";
import { createInstallation, issueAccessToken } from "../installs/installs.server";
import { now } from "../core/clock.server";
import { seedMarketplaceDemo, uninstallAsOf } from "./marketplace-demo.server";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";
import { DEMO_LOGINS } from "./demo-logins";
export { DEMO_REVIEWER_TOTP_SECRET } from "./demo-logins";
import { demoAppListing } from "./demo-app-listing.server";
import { demoAppStore } from "./demo-app-store.server";
import { seedDemoBilling } from "./demo-billing.server";
import { enrolKnownTotp } from "../accounts/second-factor.server";
import { DEMO_REVIEWER_TOTP_SECRET } from "./demo-logins";

export { DEMO_LOGINS };

const DAY = 24 * 3600 * 1000;

/** Loads the demo data when the database has no accounts. Returns whether it did. */
export async function seedDemoData(db: Database, env: Env): Promise<boolean> {
  const [{ count }] = await db.execute<{ count: number }>(sql`select count(*)::int as count from accounts`);
  if (count > 0) return false;
  const created = [];
  for (const login of DEMO_LOGINS) created.push(await createAccount(db, { ...login, withDemoData: true }));
  const bistro = created[0].business!;
  const dev = created[1].account;
  const rev = created[2].account;
  await enrolKnownTotp(db, env, rev.id, DEMO_REVIEWER_TOTP_SECRET);

  // a published app with some history, so the marketplace and the analytics are not empty
  const { app } = await createApp(db, env, dev.id, {
    name: "Loyalty Stars",
    slug: "loyalty-stars",
    description: "Reward repeat customers with points and a stamp card on your storefront.",
    category: "loyalty",
    scopes: ["read_orders", "read_products", "read_business"],
    ...demoAppListing(env, "loyalty-stars"),
    version: "1.2.0",
  });
  await submitApp(db, dev.id, app.id);
  const approved = await approveApp(db, rev.id, app.id, REVIEW_CRITERIA_KEYS);
  const shops = [
    bistro,
    ...(await Promise.all(
      ["Corner Café", "Noodle Bar", "Green Grocer", "Pizza Piazza"].map((name) =>
        createBusiness(db, { name, isSandbox: false }),
      ),
    )),
  ];
  const t = now().getTime();
  const installedDaysAgo = [26, 21, 14, 9, 3];
  for (const [i, shop] of shops.entries()) {
    const installation = await db.transaction(async (tx) => {
      const { installation, webhookSecret } = await createInstallation(tx, env, {
        app: approved,
        businessId: shop.id,
        scopes: approved.approvedScopes,
        isTestInstall: false,
        installedBy: dev.id,
      });
      const accessToken = await issueAccessToken(tx, installation);
      // the demo app keeps what its token exchange would have given it (decision 062)
      if (shop.id === bistro.id)
        await demoAppStore(tx, env.encryptionKey, "loyalty-stars").save({
          businessId: shop.id,
          installationId: installation.id,
          accessToken,
          webhookSecret,
          scopes: installation.scopes,
        });
      return installation;
    });
    await db
      .update(installations)
      .set({ installedAt: new Date(t - installedDaysAgo[i] * DAY) })
      .where(eq(installations.id, installation.id));
    if (shop.name === "Noodle Bar") {
      await uninstallAsOf(db, installation.id, new Date(t - 6 * DAY), new Date(t - 4 * DAY));
    }
  }
  // 30 days of delivery history (the daily rollup the analytics read)
  const rows = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(t - (29 - i) * DAY).toISOString().slice(0, 10);
    const succeeded = 20 + ((i * 7) % 13) + i;
    const failed = i % 6 === 0 ? 3 : i % 4 === 0 ? 1 : 0;
    const answered = succeeded + failed;
    return { appId: app.id, day, succeeded, failed, answered, latencyTotalMs: answered * (110 + ((i * 17) % 60)) };
  });
  await db.insert(webhookDailyStats).values(rows);
  // more apps in more categories, with reviews, replies, a changelog and staff picks (issue 20)
  const published = await seedMarketplaceDemo(db, env, {
    developerId: dev.id,
    reviewerId: rev.id,
    loyaltyStars: approved,
    loyaltyShops: shops,
  });
  // Demo Bistro pays for Ready Text: a subscription with usage and closed periods (issues 39, 40)
  await seedDemoBilling(db, env, { bistro, readyText: published.get("ready-text")!, developerId: dev.id });
  // the demo's e-mails (contract 16), in the development mailbox once the worker sends them: the app's
  // approval above, and the newest Demo Bistro order's confirmation and new-order notice
  const [newest] = await db
    .select({ id: orders.id, email: orders.customerEmail, name: orders.customerName })
    .from(orders)
    .where(and(eq(orders.businessId, bistro.id), isNotNull(orders.customerEmail)))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (newest?.email) {
    const merchant = created[0].account;
    await queueMail(db, {
      kind: "order.confirmation",
      causeKey: `order.confirmation:${newest.id}`,
      to: { address: newest.email, name: newest.name },
      businessId: bistro.id,
      data: { orderId: newest.id },
    });
    await queueMail(db, {
      kind: "order.new",
      causeKey: `order.new:${newest.id}:${merchant.id}`,
      to: { address: merchant.email, name: merchant.name },
      accountId: merchant.id,
      businessId: bistro.id,
      data: { orderId: newest.id },
    });
  }
  return true;
}
