/**
 * What the admin's Activity page and the portal's per-app Activity page share (contract 18;
 * decision 084): the filters read from the URL (days in the shop's time zone), one page of entries
 * in the pages' words, and the CSV download of every entry the filters match.
 */
import { and, desc, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { activityLog, apps, type ActivityRow } from "../../../db/schema";
import { dateFormatter, isKnownTimeZone } from "../core/dates";
import {
  ACTION_LABELS,
  ACTIVITY_ACTIONS,
  ACTIVITY_CSV_HEADER,
  activityCsvCells,
  activityCsvRow,
  allActivity,
  listActivity,
  type ActivityFilters,
  type ActivityScope,
} from "./activity.server";

/** Entries on one page of the Activity pages. */
export const ACTIVITY_PAGE_SIZE = 25;

/** The filters as the form shows them (the URL's `who`, `what`, `from`, `to`, days as YYYY-MM-DD). */
export type ActivityForm = { who: string; what: string; from: string; to: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string) => DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/** The instant a calendar day starts in a time zone (its local midnight). */
export function zonedMidnight(day: string, timeZone: string): Date {
  const zone = isKnownTimeZone(timeZone) ? timeZone : "UTC";
  const f = dateFormatter("en-US", zone);
  const wall = Date.parse(`${day}T00:00:00Z`);
  const offsetAt = (t: number) => {
    const iso = f.iso(t); // …+09:00
    const m = /([+-])(\d{2}):(\d{2})$/.exec(iso);
    return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  };
  // the offset at the guess, then again at the corrected instant (a change of offset that night)
  let t = wall - offsetAt(wall);
  t = wall - offsetAt(t);
  return new Date(t);
}

/**
 * Reads the page's filters: `who` (an e-mail, an account's or app's id, or "system"), `what` (an
 * action), `from` and `to` (days, both included, in `timeZone`). What cannot be used is left out
 * and said in a notice.
 */
export function parseActivityFilter(
  params: URLSearchParams,
  timeZone: string,
): { filter: ActivityFilters; form: ActivityForm; notices: string[] } {
  const notices: string[] = [];
  const who = (params.get("who") ?? "").trim().slice(0, 254);
  let what = (params.get("what") ?? "").trim();
  if (what && !(ACTIVITY_ACTIONS as string[]).includes(what)) {
    notices.push(`There is no action "${what.slice(0, 40)}": showing every action.`);
    what = "";
  }
  const day = (name: "from" | "to", label: string) => {
    const v = (params.get(name) ?? "").trim();
    if (!v) return "";
    if (isDay(v)) return v;
    notices.push(`"${v.slice(0, 40)}" is not a date (${label}): it was left out.`);
    return "";
  };
  let from = day("from", "From");
  let to = day("to", "To");
  if (from && to && from > to) {
    notices.push(`The range ended (${to}) before it started (${from}): the dates were swapped.`);
    [from, to] = [to, from];
  }
  const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    filter: {
      actor: who || undefined,
      action: what || undefined,
      from: from ? zonedMidnight(from, timeZone) : undefined,
      // `to` is included: up to the next day's midnight
      to: to ? zonedMidnight(nextDay(to), timeZone) : undefined,
    },
    form: { who, what, from, to },
    notices,
  };
}

/** The page's query string for its filters (for the pagination and the CSV link). */
export function activityQuery(form: ActivityForm): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter(([, v]) => v));
}

/** One entry as the pages show it: words for the action and the actor, the details as "name: value" pairs. */
export type ActivityView = {
  id: string;
  at: string;
  actor: { type: "ACCOUNT" | "APP" | "SYSTEM"; id: string | null; label: string };
  action: string;
  actionLabel: string;
  target: string;
  ip: string | null;
  details: [string, string][];
};

const detailValue = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** One page of a log for the Activity pages, with the names of the apps that acted. */
export async function activityPage(db: Db, scope: ActivityScope, filter: ActivityFilters, page: number) {
  const { rows, total } = await listActivity(db, scope, filter, {
    limit: ACTIVITY_PAGE_SIZE,
    offset: (page - 1) * ACTIVITY_PAGE_SIZE,
  });
  const appIds = [...new Set(rows.filter((r) => r.actorType === "APP" && r.actorId).map((r) => r.actorId!))];
  const names = new Map(
    appIds.length
      ? (await db.select({ id: apps.id, name: apps.name }).from(apps).where(inArray(apps.id, appIds))).map((a) => [
          a.id,
          a.name,
        ])
      : [],
  );
  const view = (r: ActivityRow): ActivityView => ({
    id: r.id,
    at: r.createdAt.toISOString(),
    actor: {
      type: r.actorType,
      id: r.actorId,
      label:
        r.actorType === "ACCOUNT"
          ? (r.actorEmail ?? r.actorId ?? "An account")
          : r.actorType === "APP"
            ? `App: ${names.get(r.actorId ?? "") ?? r.actorId}`
            : "The platform",
    },
    action: r.action,
    actionLabel: ACTION_LABELS[r.action as keyof typeof ACTION_LABELS] ?? r.action,
    target: `${r.targetType} ${r.targetId}`,
    ip: r.ip,
    details: Object.entries(r.details ?? {}).map(([k, v]) => [k, detailValue(v)]),
  });
  return { rows: rows.map(view), total, pages: Math.max(1, Math.ceil(total / ACTIVITY_PAGE_SIZE)) };
}

/** The e-mails that acted lately in a log (the "Who" field's suggestions). */
export async function recentActors(db: Db, scope: ActivityScope): Promise<string[]> {
  const own =
    "businessId" in scope
      ? sql`${activityLog.businessId} = ${scope.businessId}`
      : "appId" in scope
        ? sql`${activityLog.appId} = ${scope.appId}`
        : sql`${activityLog.accountId} = ${scope.accountId}`;
  const recent = db
    .select({ email: activityLog.actorEmail })
    .from(activityLog)
    .where(and(own, isNotNull(activityLog.actorEmail)))
    .orderBy(desc(activityLog.createdAt))
    .limit(500)
    .as("recent");
  const rows = await db.selectDistinct({ email: recent.email }).from(recent).orderBy(recent.email).limit(50);
  return rows.map((r) => r.email!).filter(Boolean);
}

/**
 * The CSV download of every entry the filters match, streamed in batches; a private attachment
 * (the log names people and addresses). Cells a spreadsheet would run as a formula are quoted.
 */
export function activityCsvResponse(db: Db, scope: ActivityScope, filter: ActivityFilters, filename: string) {
  const entries = allActivity(db, scope, filter);
  const encoder = new TextEncoder();
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(activityCsvRow(ACTIVITY_CSV_HEADER)));
        return;
      }
      let chunk = "";
      for (let i = 0; i < 200; i++) {
        const next = await entries.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += activityCsvRow(activityCsvCells(next.value));
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await entries.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * What an Activity page shows (the admin's and the portal's): the filter from the address in the
 * page's time zone, one page of entries, and who acted lately (the "who" filter's choices).
 */
export async function activityPageData(db: Db, scope: ActivityScope, url: URL, timeZone: string, page: number) {
  const { filter, form, notices } = parseActivityFilter(url.searchParams, timeZone);
  const { rows, total, pages } = await activityPage(db, scope, filter, page);
  return { form, notices, rows, total, page, pages, actors: await recentActors(db, scope) };
}
