/**
 * A developer's sandbox business with an app test-installed on it and its webhook registration, as
 * the failover test and the topology benchmark drive the platform: created on the database the
 * way the platform creates them (no HTTP), then used from outside through the balancer.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { Env } from "../../app/platform/core/env.server";
import { createAccount, getAccount } from "../../app/platform/accounts/accounts.server";
import { createApp } from "../../app/platform/apps/apps.server";
import { testInstall } from "../../app/platform/installs/test-installs.server";
import { authenticateInstallation } from "../../app/platform/installs/installs.server";
import { createRegistration } from "../../app/platform/webhooks/registrations.server";
import type { EventName } from "../../app/platform/shapes/app-catalog";

export async function sandboxApp(
  db: Database,
  env: Env,
  options: { label: string; scopes: string[]; webhook?: { url: string; events: EventName[] } },
) {
  const tag = `${options.label}-${randomBytes(4).toString("hex")}`;
  const { account, business } = await createAccount(db, {
    email: `${tag}@example.test`,
    password: `${options.label}-pw`,
    name: options.label,
    role: "DEVELOPER",
  });
  const { app } = await createApp(db, env, account.id, {
    name: `${options.label} app`,
    slug: tag,
    description: options.label,
    category: "other",
    scopes: options.scopes,
    redirectUrl: "https://sandbox-app.example/cb",
    webhookUrl: null,
    webhookEvents: [],
  } as never);
  const install = await testInstall(db, env, (await getAccount(db, account.id))!, app.id);
  const caller = await authenticateInstallation(db, `Bearer ${install.accessToken}`);
  if (options.webhook) await createRegistration(db, env, caller, options.webhook);
  // a demo product that never runs out (the sandbox is seeded with the demo menu)
  const [product] = await db.execute<{ id: string }>(
    sql`select id from products where business_id = ${business!.id} and stock is null and is_available limit 1`,
  );
  return { account, business: business!, token: install.accessToken, productId: product.id };
}
