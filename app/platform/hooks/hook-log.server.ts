import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { businesses, hookCalls } from "../../../db/schema";
import { newestFirst, pageWithTotal } from "../core/paging.server";

/** The developer's view of an app's hook calls, newest first. */
export async function appHookCalls(db: Db, appId: string, page: { limit: number; offset: number }, hookPoint?: string) {
  const where = hookPoint
    ? and(eq(hookCalls.appId, appId), eq(hookCalls.hookPoint, hookPoint))
    : eq(hookCalls.appId, appId);
  const rows = db
    .select({ call: hookCalls, businessName: businesses.name })
    .from(hookCalls)
    .innerJoin(businesses, eq(businesses.id, hookCalls.businessId));
  return pageWithTotal(db, rows, { from: hookCalls, where, order: newestFirst(hookCalls) }, page);
}
