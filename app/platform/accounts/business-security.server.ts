/**
 * The business's sign-in rule (contract 18): its owner may require a second factor of every member.
 * Members without one are then sent to enrol before any other page (session.server.ts
 * `secondFactorMissing`). The owner must have one first, so the rule never locks them out of it.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { accounts, businesses } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { accountActor, recordActivity } from "../activity/activity.server";
import type { Member } from "./permissions";

export async function businessSecurity(db: Database, businessId: string) {
  const [b] = await db
    .select({ requireSecondFactor: businesses.requireSecondFactor })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!b) throw new ApiError(404, "Business not found");
  return b;
}

export async function setRequireSecondFactor(
  db: Database,
  member: Member,
  input: { requireSecondFactor: boolean; ip: string },
) {
  if (!member.owner) throw new ApiError(403, "Only the business's owner can change its sign-in rule");
  return db.transaction(async (tx) => {
    const [actor] = await tx.select().from(accounts).where(eq(accounts.id, member.accountId));
    if (input.requireSecondFactor && !actor?.hasSecondFactor)
      throw new ApiError(409, "Set up your own second factor first (the Security page), then require it of everyone");
    const [before] = await tx
      .select({ v: businesses.requireSecondFactor })
      .from(businesses)
      .where(eq(businesses.id, member.businessId))
      .for("update");
    if (!before) throw new ApiError(404, "Business not found");
    if (before.v !== input.requireSecondFactor) {
      await tx
        .update(businesses)
        .set({ requireSecondFactor: input.requireSecondFactor, updatedAt: now() })
        .where(eq(businesses.id, member.businessId));
      await recordActivity(tx, {
        businessId: member.businessId,
        actor: accountActor(actor),
        action: "security.changed",
        target: { type: "business", id: member.businessId },
        ip: input.ip,
        details: { requireSecondFactor: input.requireSecondFactor },
      });
    }
    return { requireSecondFactor: input.requireSecondFactor };
  });
}
