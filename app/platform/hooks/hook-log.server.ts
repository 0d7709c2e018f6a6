import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { businesses, hookCalls } from "../../../db/schema";

/** The developer's view of an app's hook calls, newest first. */
export async function appHookCalls(db: Db, appId: string, page: { limit: number; offset: number }, hookPoint?: string) {
  const where = hookPoint
    ? and(eq(hookCalls.appId, appId), eq(hookCalls.hookPoint, hookPoint))
    : eq(hookCalls.appId, appId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ call: hookCalls, businessName: businesses.name })
      .from(hookCalls)
      .innerJoin(businesses, eq(businesses.id, hookCalls.businessId))
      .where(where)
      .orderBy(desc(hookCalls.createdAt), desc(hookCalls.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(hookCalls).where(where),
  ]);
  return { rows, total };
}
