import { jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { textList, timestamps } from "./columns";

/**
 * The demo apps' own store (decision 062): what each demo app (app/platform/demo/apps-server.server.ts)
 * keeps about a business it is installed on, as a real app keeps it in its own database. No foreign
 * keys: the platform's rows are not the app's; the app forgets a business on `app.uninstalled` and
 * `business.data_erasure`. The token and the webhook secret are encrypted with ENCRYPTION_KEY.
 */
export const demoAppInstallations = pgTable(
  "demo_app_installations",
  {
    appSlug: text("app_slug").notNull(),
    businessId: text("business_id").notNull(),
    installationId: text("installation_id").notNull(),
    accessTokenEnc: text("access_token_enc").notNull(),
    webhookSecretEnc: text("webhook_secret_enc").notNull(),
    scopes: textList("scopes"),
    /** the app's own records for this business: texts sent, sign-ups, its subscription, deliveries seen */
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.appSlug, t.businessId] })],
);

export type DemoAppInstallation = typeof demoAppInstallations.$inferSelect;
