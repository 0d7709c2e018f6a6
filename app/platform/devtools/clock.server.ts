/**
 * The sandbox's clock (contract 19, decision 076). A developer's sandbox business keeps an offset
 * (`businesses.clock_offset_seconds`) from the platform's clock; every request that acts for the
 * sandbox (its admin, the merchant API, its installations' App API calls) runs in a clock scope of
 * that offset (core/clock.server.ts), so `now()` is the sandbox's date there. Advancing it runs,
 * at once and in the order they fall due, what the sandbox owes by the new date: pending requests
 * expire, periods close into test invoices, trials end, and uninstalled installations get their
 * business.data_erasure. Only the sandbox's own rows are read or changed: a real business never
 * has an offset and is never in a scope.
 */
import { and, asc, eq, gt, isNotNull, isNull, lte, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/client";
import { appSubscriptions, businesses, installations, type AppSubscription, type Business } from "../../../db/schema";
import { atBusinessClock, businessNow, nowMs } from "../core/clock.server";
import { ApiError } from "../core/http.server";
import { closePeriod, expirePendingOf } from "../billing/closing.server";
import { removeJob } from "../core/jobs.server";
import { erasureJobKey } from "../installs/installs.server";
import { sendErasure } from "../events/special-sends.server";

const DAY_S = 86_400;

export const ClockAdvance = z
  .object({
    advanceDays: z
      .number({ error: () => "must be a whole number of days from 1 to 400" })
      .int("must be a whole number of days from 1 to 400")
      .min(1, "must be at least 1 (the clock moves forward only)")
      .max(400, "must be at most 400"),
  })
  .strict()
  .meta({ id: "SandboxClockAdvance" });

export type Happened = {
  at: string;
  kind: "SUBSCRIPTION_EXPIRED" | "PERIOD_CLOSED" | "TRIAL_ENDED" | "DATA_ERASURE_SENT";
  id: string;
};

async function sandboxOf(db: Database, business: Business | null): Promise<Business> {
  if (!business?.isSandbox) throw new ApiError(404, "This account has no sandbox business");
  const [row] = await db.select().from(businesses).where(eq(businesses.id, business.id));
  return row;
}

const clockOf = (b: Business) => ({ now: businessNow(b).toISOString(), offsetSeconds: b.clockOffsetSeconds });

export async function getSandboxClock(db: Database, business: Business | null) {
  return clockOf(await sandboxOf(db, business));
}

/** Back to the platform's time for what happens next; what already happened keeps its dates. */
export async function resetSandboxClock(db: Database, business: Business | null) {
  const sandbox = await sandboxOf(db, business);
  const [row] = await db
    .update(businesses)
    .set({ clockOffsetSeconds: 0 })
    .where(and(eq(businesses.id, sandbox.id), eq(businesses.isSandbox, true)))
    .returning();
  return clockOf(row);
}

type Due = { at: Date; run: () => Promise<Happened[]> };

/** The business's subscription that comes first by `column` among those meeting `conditions`. */
const firstSubscription =
  (db: Database, businessId: string) =>
  async (column: AnyColumn, conditions: SQL[]): Promise<AppSubscription | undefined> =>
    (
      await db
        .select()
        .from(appSubscriptions)
        .where(and(eq(appSubscriptions.businessId, businessId), ...conditions))
        .orderBy(asc(column))
        .limit(1)
    )[0];

/** The earliest thing the sandbox owes by `until`, or null. */
async function nextDue(db: Database, businessId: string, from: Date, until: Date): Promise<Due | null> {
  const candidates: Due[] = [];
  const firstOf = firstSubscription(db, businessId);
  const pending = await firstOf(appSubscriptions.expiresAt, [
    eq(appSubscriptions.status, "PENDING"),
    lte(appSubscriptions.expiresAt, until),
  ]);
  if (pending)
    candidates.push({
      at: pending.expiresAt,
      run: async () =>
        (await expirePendingOf(db, businessId)).map((s) => ({
          at: s.expiresAt.toISOString(),
          kind: "SUBSCRIPTION_EXPIRED" as const,
          id: s.id,
        })),
    });
  const period = await firstOf(appSubscriptions.currentPeriodEnd, [
    eq(appSubscriptions.status, "ACTIVE"),
    eq(appSubscriptions.kind, "RECURRING"),
    isNull(appSubscriptions.closedAt),
    lte(appSubscriptions.currentPeriodEnd, until),
  ]);
  if (period)
    candidates.push({
      at: period.currentPeriodEnd!,
      run: () =>
        db.transaction(async (tx) => {
          const [sub] = await tx
            .select()
            .from(appSubscriptions)
            .where(eq(appSubscriptions.id, period.id))
            .for("update");
          if (sub.status !== "ACTIVE" || !sub.currentPeriodEnd || sub.currentPeriodEnd > until) return [];
          await closePeriod(tx, sub, sub.currentPeriodEnd, false);
          return [{ at: sub.currentPeriodEnd.toISOString(), kind: "PERIOD_CLOSED" as const, id: sub.id }];
        }),
    });
  const trial = await firstOf(appSubscriptions.trialEndsAt, [
    eq(appSubscriptions.status, "ACTIVE"),
    gt(appSubscriptions.trialEndsAt, from),
    lte(appSubscriptions.trialEndsAt, until),
  ]);
  if (trial)
    candidates.push({
      at: trial.trialEndsAt!,
      // nothing to write: from here on the period's days are billed (closing.server.ts)
      run: async () => [{ at: trial.trialEndsAt!.toISOString(), kind: "TRIAL_ENDED" as const, id: trial.id }],
    });
  const [erasure] = await db
    .select()
    .from(installations)
    .where(
      and(
        eq(installations.businessId, businessId),
        eq(installations.status, "UNINSTALLED"),
        isNotNull(installations.erasureScheduledAt),
        isNull(installations.erasureDeliveredAt),
        lte(installations.erasureScheduledAt, until),
        sql`not exists (select 1 from webhook_deliveries d where d.installation_id = ${installations.id} and d.event = 'business.data_erasure')`,
      ),
    )
    .orderBy(asc(installations.erasureScheduledAt))
    .limit(1);
  if (erasure)
    candidates.push({
      at: erasure.erasureScheduledAt!,
      run: async () => {
        const sent = await sendErasure(db, erasure.id);
        await removeJob(db, erasureJobKey(erasure.id));
        // an installation without an install registration has nothing to receive: it is done all the same
        if (!sent)
          await db
            .update(installations)
            .set({ erasureDeliveredAt: erasure.erasureScheduledAt })
            .where(and(eq(installations.id, erasure.id), isNull(installations.erasureDeliveredAt)));
        return sent
          ? [{ at: erasure.erasureScheduledAt!.toISOString(), kind: "DATA_ERASURE_SENT" as const, id: erasure.id }]
          : [];
      },
    });
  candidates.sort((a, b) => a.at.getTime() - b.at.getTime());
  return candidates[0] ?? null;
}

/**
 * Moves the sandbox's clock forward by `days` and makes everything due by the new date happen, in
 * order: each item runs with the sandbox's clock at the moment it fell due, so its rows (an
 * invoice line's month, an event's time) carry that date. Two advances of one sandbox at once are
 * ordered by the business row's lock.
 */
export async function advanceSandboxClock(db: Database, business: Business | null, days: number) {
  const sandbox = await sandboxOf(db, business);
  const targetOffset = sandbox.clockOffsetSeconds + days * DAY_S;
  const happened: Happened[] = [];
  let from = businessNow(sandbox);
  const until = businessNow({ clockOffsetSeconds: targetOffset });
  // a bound on the work of one call: 400 days of daily periods of many subscriptions is far below it
  for (let step = 0; step < 10_000; step++) {
    const due = await nextDue(db, sandbox.id, from, until);
    if (!due) break;
    const offsetMs = Math.max(sandbox.clockOffsetSeconds * 1000, due.at.getTime() - nowMs());
    happened.push(...(await atBusinessClock(offsetMs, () => due.run())));
    from = due.at;
  }
  const [row] = await db
    .update(businesses)
    .set({ clockOffsetSeconds: targetOffset })
    .where(and(eq(businesses.id, sandbox.id), eq(businesses.isSandbox, true)))
    .returning();
  return { ...clockOf(row), happened };
}
