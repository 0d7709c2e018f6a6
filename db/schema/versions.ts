import { pgTable, text, date, bigint, primaryKey, index } from "drizzle-orm/pg-core";
import { apps } from "./apps";

/**
 * App API calls per app, day (UTC), API version and operation (issue 32, decision 042): counted in
 * each web process's memory and added here in batches every few seconds, never a write per request.
 * Counts of a process that dies between two flushes are lost (a few seconds of figures).
 */
export const apiVersionUsage = pgTable(
  "api_version_usage",
  {
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    apiVersion: text("api_version").notNull(),
    /** the operation id of the document (getAppApiOrders), or "unmatched" for a path no operation has */
    operation: text("operation").notNull(),
    calls: bigint("calls", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.day, t.apiVersion, t.operation] }),
    index("api_version_usage_version_day_idx").on(t.apiVersion, t.day),
  ],
);

export type ApiVersionUsage = typeof apiVersionUsage.$inferSelect;
