/**
 * The notifications other domains raise (contract 16), each written in its cause's transaction:
 * an app's review outcome and a disabled webhook registration to the app's developer, a privacy
 * request done to the member who made it. The reader chooses them (accounts.mail_off).
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { apps } from "../../../db/schema";
import { queueNotification } from "./queue.server";

/** The app's members: its developer (the teams of contract 17 add the others). */
async function appMembers(db: Db, appId: string) {
  const [app] = await db.select({ name: apps.name, developerId: apps.developerId }).from(apps).where(eq(apps.id, appId));
  return app ? { name: app.name, accountIds: [app.developerId] } : null;
}

/** `cause`: what makes this outcome one of its own (the approved version's id, the rejection's time). */
export async function notifyReviewOutcome(
  db: Db,
  input: { appId: string; approved: boolean; notes: string; cause: string },
) {
  const members = await appMembers(db, input.appId);
  if (!members) return;
  await queueNotification(db, {
    kind: "app.review_outcome",
    cause: `${input.appId}:${input.cause}`,
    accountIds: members.accountIds,
    data: { appId: input.appId, appName: members.name, approved: input.approved, notes: input.notes },
  });
}

export async function notifyWebhookDisabled(
  db: Db,
  input: { webhookId: string; appId: string; businessId: string; url: string; lastError: string; at: Date },
) {
  const members = await appMembers(db, input.appId);
  if (!members) return;
  await queueNotification(db, {
    kind: "webhook.disabled",
    cause: `${input.webhookId}:${input.at.getTime()}`,
    accountIds: members.accountIds,
    data: { appId: input.appId, appName: members.name, url: input.url, lastError: input.lastError },
  });
}

/** The request's own id is the cause; the message names no shopper (an erasure's notice keeps nothing of them). */
export async function notifyPrivacyDone(
  db: Db,
  input: { requestId: string; businessId: string; requestedBy: string; kind: "EXPORT" | "ERASE"; orders: number; reviews: number },
) {
  await queueNotification(db, {
    kind: "privacy.done",
    cause: input.requestId,
    accountIds: [input.requestedBy],
    businessId: input.businessId,
    data: { kind: input.kind, orders: input.orders, reviews: input.reviews },
  });
}
