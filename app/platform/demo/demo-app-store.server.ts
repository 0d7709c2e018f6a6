/**
 * The demo apps' own store (decision 062): per app and business, the installation's access token
 * and webhook secret (encrypted with ENCRYPTION_KEY) and the app's own records (`data`). A table of
 * the platform's database, as a real app would keep its rows in its own: it survives a restart and
 * each test database has its own.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { demoAppInstallations } from "../../../db/schema";
import { decrypt, encrypt } from "../core/crypto.server";
import type { DemoAppSlug } from "./demo-apps";

export type DemoInstall = {
  businessId: string;
  installationId: string;
  accessToken: string;
  webhookSecret: string;
  scopes: string[];
  data: Record<string, unknown>;
};

export function demoAppStore(db: Db, key: Buffer, slug: DemoAppSlug) {
  const where = (businessId: string) =>
    and(eq(demoAppInstallations.appSlug, slug), eq(demoAppInstallations.businessId, businessId));
  return {
    /** After a token exchange: the installation's credentials (a reinstall replaces them; the app's records stay). */
    async save(i: {
      businessId: string;
      installationId: string;
      accessToken: string;
      webhookSecret: string;
      scopes: string[];
    }) {
      const row = {
        installationId: i.installationId,
        accessTokenEnc: encrypt(i.accessToken, key),
        webhookSecretEnc: encrypt(i.webhookSecret, key),
        scopes: i.scopes,
        updatedAt: new Date(),
      };
      await db
        .insert(demoAppInstallations)
        .values({ appSlug: slug, businessId: i.businessId, ...row })
        .onConflictDoUpdate({ target: [demoAppInstallations.appSlug, demoAppInstallations.businessId], set: row });
    },
    async get(businessId: string): Promise<DemoInstall | null> {
      const [row] = await db.select().from(demoAppInstallations).where(where(businessId));
      if (!row) return null;
      return {
        businessId: row.businessId,
        installationId: row.installationId,
        accessToken: decrypt(row.accessTokenEnc, key),
        webhookSecret: decrypt(row.webhookSecretEnc, key),
        scopes: row.scopes,
        data: row.data,
      };
    },
    /** Merges `patch` into the app's records for the business (one statement: concurrent patches of other keys both stay). */
    async patch(businessId: string, patch: Record<string, unknown>) {
      await db
        .update(demoAppInstallations)
        .set({ data: sql`${demoAppInstallations.data} || ${JSON.stringify(patch)}::jsonb`, updatedAt: new Date() })
        .where(where(businessId));
    },
    /**
     * Appends `entry` to the list `listKey` (the newest 100 kept) unless `id` was seen before under
     * `seenKey`; false when it was (a redelivered webhook). One statement under the row's lock.
     */
    async append(businessId: string, listKey: string, entry: Record<string, unknown>, id?: string): Promise<boolean> {
      const seen = id ?? null;
      const rows = await db.execute(sql`
        update demo_app_installations
        set data = data
          || jsonb_build_object(${listKey}::text, jsonb_path_query_array(
               jsonb_build_array(${JSON.stringify(entry)}::jsonb) || coalesce(data -> ${listKey}, '[]'::jsonb), '$[0 to 99]'))
          || case when ${seen}::text is null then '{}'::jsonb
               else jsonb_build_object('seen', jsonb_path_query_array(
                 jsonb_build_array(${seen}::text) || coalesce(data -> 'seen', '[]'::jsonb), '$[0 to 499]')) end,
          updated_at = now()
        where app_slug = ${slug} and business_id = ${businessId}
          and (${seen}::text is null or not coalesce(data -> 'seen', '[]'::jsonb) ? ${seen}::text)
        returning 1`);
      return rows.length > 0;
    },
    /** customer.redact: every record of the app's lists about those orders or that e-mail is removed. */
    async redact(businessId: string, email: string, orderIds: string[]) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(demoAppInstallations).where(where(businessId)).for("update");
        if (!row) return;
        const about = (e: unknown) => {
          const r = e as { orderId?: string; email?: string };
          return (
            (!!r?.orderId && orderIds.includes(r.orderId)) ||
            (!!email && r?.email?.toLowerCase() === email.toLowerCase())
          );
        };
        const data = Object.fromEntries(
          Object.entries(row.data).map(([k, v]) => [
            k,
            Array.isArray(v) && k !== "seen" ? v.filter((e) => !about(e)) : v,
          ]),
        );
        await tx.update(demoAppInstallations).set({ data, updatedAt: new Date() }).where(where(businessId));
      });
    },
    /** app.uninstalled / business.data_erasure: everything the app kept about the business goes. */
    async forget(businessId: string) {
      await db.delete(demoAppInstallations).where(where(businessId));
    },
  };
}
export type DemoAppStore = ReturnType<typeof demoAppStore>;
