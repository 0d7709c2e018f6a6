import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { apps } from "../db/schema";
import type { Bench } from "./lib";
import { createApp } from "../app/platform/apps/apps.server";
import { testInstall } from "../app/platform/installs/test-installs.server";
import { getAccount } from "../app/platform/accounts/accounts.server";
import { emitEvents } from "../app/platform/events/emit.server";
import type { Database } from "../db/client";

/** An app of the developer with these scopes, test-installed on their sandbox. */
export async function testInstallToken(
  b: Bench,
  dev: { account: { id: string } },
  scopes: string[],
  extra: Record<string, unknown> = {},
) {
  const { app } = await createApp(b.db.db, b.env, dev.account.id, {
    name: "Bench app",
    slug: `bench-${randomBytes(4).toString("hex")}`,
    description: "Benchmark",
    category: "other",
    scopes,
    redirectUrl: "https://bench.example/cb",
    webhookUrl: null,
    webhookEvents: [],
    ...extra,
  } as never);
  const account = (await getAccount(b.db.db, dev.account.id))!;
  const install = await testInstall(b.db.db, b.env, account, app.id);
  const [row] = await b.db.db.select().from(apps).where(eq(apps.id, app.id));
  return {
    token: install.accessToken,
    appId: app.id,
    installationId: install.installationId,
    webhookSecret: install.webhookSecret,
    app: row,
  };
}

/** A burst of `count` order.status_changed events of one business, committed 500 per transaction (B2's burst). */
export async function emitStatusChanges(db: Database, businessId: string, count: number) {
  for (let i = 0; i < count; i += 500)
    await db.transaction((tx) =>
      emitEvents(
        tx,
        Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
          businessId,
          type: "order.status_changed" as const,
          data: { orderId: `ord_${i + k}`, orderNumber: String(i + k), previousStatus: "PENDING", status: "CONFIRMED" },
        })),
      ),
    );
}
