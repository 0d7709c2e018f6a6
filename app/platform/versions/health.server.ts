/**
 * An app's API health (issue 32, decision 042): calls and deliveries per API version over 30 days,
 * the operations it called in older versions and the fields of their answers a later version
 * changes, and the developer's notices when a version an app uses is deprecated and 30 days
 * before its sunset.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rawQuery } from "../../../db/sql";
import { newId } from "../core/ids.server";
import { METHODS, operationId, type DeclaredRoute } from "../core/operations.server";
import { namedSchemasIn, type Versioning } from "./transform";
import { versionStates } from "./registry";

export const HEALTH_DAYS = 30;
/** The second notice comes this many days before the sunset. */
export const SUNSET_NOTICE_DAYS = 30;

export type VersionUse = { version: string; calls: number; deliveries: number };
export type OperationUse = { version: string; operation: string; method: string; path: string; calls: number };

/** Calls (from the daily counters) and deliveries (from the delivery rows) per version over the last 30 days, and calls per operation. */
export async function apiUsage(db: Db, appId: string, at: Date) {
  const since = new Date(at.getTime() - HEALTH_DAYS * 24 * 3600_000);
  const [calls, deliveries] = await Promise.all([
    rawQuery<{ version: string; operation: string; calls: number }>(
      db,
      `select api_version as version, operation, sum(calls)::bigint as calls from api_version_usage
       where app_id = $1 and day >= $2::date group by 1, 2 order by 1, 3 desc`,
      [appId, since.toISOString().slice(0, 10)],
    ),
    rawQuery<{ version: string; deliveries: number }>(
      db,
      `select api_version as version, count(*)::bigint as deliveries from webhook_deliveries
       where app_id = $1 and created_at >= $2::timestamptz group by 1`,
      [appId, since.toISOString()],
    ),
  ]);
  const byVersion = new Map<string, VersionUse>();
  const use = (v: string) => {
    let u = byVersion.get(v);
    if (!u) byVersion.set(v, (u = { version: v, calls: 0, deliveries: 0 }));
    return u;
  };
  for (const c of calls) use(c.version).calls += Number(c.calls);
  for (const d of deliveries) use(d.version).deliveries += Number(d.deliveries);
  return {
    versions: [...byVersion.values()].sort((a, b) => (a.version < b.version ? 1 : -1)),
    operations: calls.map((c) => ({ version: c.version, operation: c.operation, calls: Number(c.calls) })),
  };
}

/**
 * For each operation of `routes`: its method, path, and, for an app answered in `version`, the
 * fields of its answer that the changes after `version` change (dotted paths, "data.price").
 */
export function changedFields(routes: DeclaredRoute[], versioning: Versioning, version: string) {
  const out = new Map<string, { method: string; path: string; fields: { anchor: string; field: string }[] }>();
  const undo = versioning.downTo(version);
  for (const route of routes)
    for (const method of METHODS) {
      const spec = route.operations[method];
      if (!spec) continue;
      const fields: { anchor: string; field: string }[] = [];
      if (spec.answer.schema)
        for (const change of undo)
          for (const { path, name } of namedSchemasIn(spec.answer.schema))
            if (change.schemas?.[name]) fields.push({ anchor: change.anchor, field: path.join(".") || "(the answer)" });
      out.set(operationId(method, route.path), { method, path: route.path, fields });
    }
  return out;
}

/**
 * Writes the developer notices due at `at` (hourly, from the maintenance job; idempotent): for every
 * DEPRECATED version, `api_version.deprecated` to the developer of each app pinned to it or that
 * called the App API in it over the last 30 days, and `api_version.sunset_soon` once the sunset is
 * 30 days away or less. One notice per app, version and kind, whenever this runs.
 */
export async function notifyVersionDeadlines(db: Db, at: Date): Promise<number> {
  let written = 0;
  const since = new Date(at.getTime() - HEALTH_DAYS * 24 * 3600_000).toISOString().slice(0, 10);
  for (const state of versionStates(at)) {
    if (state.status !== "DEPRECATED" || !state.sunsetAt) continue;
    const kinds = ["api_version.deprecated"];
    if (at.getTime() >= state.sunsetAt.getTime() - SUNSET_NOTICE_DAYS * 24 * 3600_000)
      kinds.push("api_version.sunset_soon");
    for (const kind of kinds) {
      const data = JSON.stringify({ version: state.version, sunsetAt: state.sunsetAt.toISOString() });
      const rows = await db.execute(sql`
        insert into developer_notifications (id, developer_id, app_id, type, data, created_at)
        select ${newId("ntf")} || '_' || a.id, a.developer_id, a.id, ${kind}, ${data}::jsonb, ${at.toISOString()}::timestamptz
        from apps a
        where (a.api_version = ${state.version}
               or exists (select 1 from api_version_usage u where u.app_id = a.id and u.api_version = ${state.version} and u.day >= ${since}::date))
          and not exists (select 1 from developer_notifications n
                          where n.app_id = a.id and n.type = ${kind} and n.data->>'version' = ${state.version})
        returning id`);
      written += rows.length;
    }
  }
  return written;
}
