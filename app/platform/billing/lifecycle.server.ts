/**
 * What every side of a subscription's life shares: who calls, the 48 hours a request waits, the
 * row lock, the lazy expiry of a stale PENDING request and the end of an ACTIVE subscription.
 */
import { and, eq } from "drizzle-orm";
import type { Database, Tx } from "../../../db/client";
import { appSubscriptions, type AppSubscription, type Business, type Installation } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { closeEndedPeriods, closePeriod } from "./closing.server";
import { notifySubscription } from "./notify.server";

export const PENDING_FOR_MS = 48 * 3600 * 1000;

/** Who calls: the app's installation (the App API wrapper's caller, without importing it). */
export type BillingCaller = { installation: Installation; business: Business; app: { id: string } };

/** A PENDING request past its 48 hours becomes EXPIRED when read (with its webhook). */
export async function expireIfStale(db: Database, sub: AppSubscription): Promise<AppSubscription> {
  if (sub.status !== "PENDING" || sub.expiresAt > now()) return sub;
  return db.transaction(async (tx) => {
    const [expired] = await tx
      .update(appSubscriptions)
      .set({ status: "EXPIRED", endedAt: sub.expiresAt, updatedAt: now() })
      .where(and(eq(appSubscriptions.id, sub.id), eq(appSubscriptions.status, "PENDING")))
      .returning();
    if (!expired) {
      const [current] = await tx.select().from(appSubscriptions).where(eq(appSubscriptions.id, sub.id));
      return current;
    }
    await notifySubscription(tx, expired, "STATUS_CHANGED");
    return expired;
  });
}

/**
 * Ends an ACTIVE subscription now in the caller's transaction: its period is closed prorated (a
 * one-time charge was billed when approved). A subscription REPLACED by a newly approved one bills
 * its whole days only: the day of the change is the new subscription's, whose period starts now
 * (decision 050).
 */
export async function endActive(tx: Tx, sub: AppSubscription, by: "APP" | "MERCHANT" | "UNINSTALL" | "REPLACED") {
  const t = now();
  let current = sub;
  if (sub.kind === "RECURRING") {
    // periods that ended before the job came round are closed whole first
    current = await closeEndedPeriods(tx, current, t);
    current = await closePeriod(tx, current, t, true, by === "REPLACED" ? "whole" : "started");
  }
  const [ended] = await tx
    .update(appSubscriptions)
    .set({ status: "CANCELLED", endedAt: t, endedBy: by, updatedAt: t })
    .where(eq(appSubscriptions.id, current.id))
    .returning();
  await notifySubscription(tx, ended, "STATUS_CHANGED");
  return ended;
}

export async function lockSubscription(tx: Tx, where: ReturnType<typeof and>) {
  const [sub] = await tx.select().from(appSubscriptions).where(where).for("update");
  if (!sub) throw new ApiError(404, "Subscription not found");
  return sub;
}
