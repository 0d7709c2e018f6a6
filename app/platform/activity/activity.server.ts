/**
 * The activity log (contract 18, decision 073): who did what, written in the transaction of the
 * action (`recordActivity(tx, …)`), never changed afterwards (a trigger refuses UPDATE, DELETE and
 * TRUNCATE; see db/migrations/0034). Read by the business's members (`GET /merchant/activity`, the
 * admin's Activity page) and an app's members (`GET /developer/apps/<id>/activity`, the portal).
 *
 * Imports only core and db: every other domain calls it.
 */
import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { activityLog, type ActivityRow } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { newestPageWithTotal, type Page } from "../core/paging.server";

/** Who acted: an account (a member, a developer, a reviewer), an app (through its token), or the platform itself. */
export type ActivityActor =
  { type: "ACCOUNT"; id: string; email: string } | { type: "APP"; id: string } | { type: "SYSTEM"; id?: null };

export type ActivityEntry = {
  /** the business whose log shows the entry */
  businessId?: string | null;
  /** the app whose log shows the entry */
  appId?: string | null;
  /** the account the entry is about (its own security history) */
  accountId?: string | null;
  actor: ActivityActor;
  action: ActivityAction;
  target: { type: string; id: string };
  ip?: string | null;
  details?: Record<string, unknown>;
};

/**
 * Every action the log knows (contract 18). The names are the API's values of `action` and its
 * filter; `ACTION_LABELS` gives the pages their words.
 */
export const ACTION_LABELS = {
  "account.signed_in": "Signed in",
  "account.sign_in_failed": "Failed sign-in",
  "account.password_changed": "Password changed",
  "account.totp_enrolled": "Authenticator app added",
  "account.totp_removed": "Authenticator app removed",
  "account.recovery_codes_regenerated": "Recovery codes regenerated",
  "account.recovery_code_used": "Recovery code used",
  "account.passkey_added": "Passkey added",
  "account.passkey_removed": "Passkey removed",
  "session.ended": "Session ended",
  "staff.invited": "Staff member invited",
  "staff.invitation_withdrawn": "Invitation withdrawn",
  "staff.joined": "Staff member joined",
  "staff.permissions_changed": "Staff permissions changed",
  "staff.removed": "Staff member removed",
  "app_member.invited": "App member invited",
  "app_member.joined": "App member joined",
  "app_member.role_changed": "App member's role changed",
  "app_member.removed": "App member removed",
  "installation.created": "App installed",
  "installation.uninstalled": "App uninstalled",
  "installation.scopes_approved": "App's access approved",
  "charge.approved": "Charge approved",
  "charge.declined": "Charge declined",
  "privacy.requested": "Customer privacy request",
  "app.secret_rotated": "Secret rotated",
  "webhook.created": "Webhook added",
  "webhook.updated": "Webhook changed",
  "webhook.deleted": "Webhook removed",
  "manifest.synced": "Manifest synced",
  "app.submitted": "Submitted for review",
  "app.approved": "App approved",
  "app.rejected": "App rejected",
  "settings.changed": "Settings changed",
  "security.changed": "Security settings changed",
} as const;

export type ActivityAction = keyof typeof ACTION_LABELS;
export const ACTIVITY_ACTIONS = Object.keys(ACTION_LABELS) as [ActivityAction, ...ActivityAction[]];

/** How long entries are kept (decision 073): the retention job removes older ones; the trigger refuses younger. */
export const ACTIVITY_RETENTION_DAYS = 365;

/** Writes one entry in the caller's transaction (or on its own, for what has no transaction: a failed sign-in). */
export async function recordActivity(db: Db, entry: ActivityEntry): Promise<void> {
  await db.insert(activityLog).values({
    id: newId("act"),
    createdAt: now(),
    businessId: entry.businessId ?? null,
    appId: entry.appId ?? null,
    accountId: entry.accountId ?? null,
    actorType: entry.actor.type,
    actorId: entry.actor.id ?? null,
    actorEmail: entry.actor.type === "ACCOUNT" ? entry.actor.email : null,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    ip: entry.ip ?? null,
    details: entry.details ?? {},
  });
}

/** An account as an actor. */
export const accountActor = (a: { id: string; email: string }): ActivityActor => ({
  type: "ACCOUNT",
  id: a.id,
  email: a.email,
});

/** The filters of a list (contract 18): `actor` (an account id or e-mail, an app id, or SYSTEM), `action`, `from`, `to`. */
export type ActivityFilters = { actor?: string; action?: string; from?: Date; to?: Date };

/** Whose log: a business's, an app's, or an account's own. */
export type ActivityScope = { businessId: string } | { appId: string } | { accountId: string };

function whereOf(scope: ActivityScope, f: ActivityFilters): SQL | undefined {
  const own =
    "businessId" in scope
      ? eq(activityLog.businessId, scope.businessId)
      : "appId" in scope
        ? eq(activityLog.appId, scope.appId)
        : eq(activityLog.accountId, scope.accountId);
  const actor = f.actor?.trim().toLowerCase();
  return and(
    own,
    actor
      ? actor === "system"
        ? eq(activityLog.actorType, "SYSTEM")
        : sql`(${activityLog.actorId} = ${f.actor!.trim()} or lower(${activityLog.actorEmail}) = ${actor})`
      : undefined,
    f.action ? eq(activityLog.action, f.action) : undefined,
    f.from ? gte(activityLog.createdAt, f.from) : undefined,
    f.to ? lt(activityLog.createdAt, f.to) : undefined,
  );
}

/** One page of a log, newest first, with its total. */
export function listActivity(db: Db, scope: ActivityScope, filters: ActivityFilters, page: Page) {
  const scopeId = "businessId" in scope ? scope.businessId : "appId" in scope ? scope.appId : scope.accountId;
  return newestPageWithTotal(
    db,
    db.select().from(activityLog).$dynamic(),
    { from: activityLog, where: whereOf(scope, filters), identity: { list: "activity", scope: scopeId } },
    page,
  );
}

/** Every entry of a log that matches the filters, newest first, in batches (the CSV download). */
export async function* allActivity(
  db: Db,
  scope: ActivityScope,
  filters: ActivityFilters,
): AsyncGenerator<ActivityRow> {
  let before: { at: string; id: string } | null = null;
  for (;;) {
    const rows: (ActivityRow & { atText: string })[] = await db
      .select({ row: activityLog, atText: sql<string>`${activityLog.createdAt}::text` })
      .from(activityLog)
      .where(
        and(
          whereOf(scope, filters),
          before
            ? sql`(${activityLog.createdAt}, ${activityLog.id}) < (${before.at}::timestamptz, ${before.id})`
            : undefined,
        ),
      )
      .orderBy(sql`${activityLog.createdAt} desc, ${activityLog.id} desc`)
      .limit(500)
      .then((r) => r.map((x) => ({ ...x.row, atText: x.atText })));
    for (const r of rows) yield r;
    if (rows.length < 500) return;
    const last = rows[rows.length - 1];
    before = { at: last.atText, id: last.id };
  }
}

/** The contract's entry: `{id, at, actor: {type, id, email?}, action, target: {type, id}, ip, details}`. */
export function serializeActivity(r: ActivityRow) {
  return {
    id: r.id,
    at: r.createdAt.toISOString(),
    actor: {
      type: r.actorType,
      id: r.actorId,
      ...(r.actorEmail !== null ? { email: r.actorEmail } : {}),
    },
    action: r.action,
    target: { type: r.targetType, id: r.targetId },
    ip: r.ip,
    details: r.details,
  };
}

/**
 * Retention (decision 073): removes the entries older than ACTIVITY_RETENTION_DAYS. The only delete
 * the trigger lets through, and only in a transaction that says it is this job's.
 */
export async function pruneActivity(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('activity.retention', 'on', true)`);
    const gone = await tx.execute(
      sql`delete from activity_log where created_at < now() - make_interval(days => ${ACTIVITY_RETENTION_DAYS})`,
    );
    return gone.count ?? 0;
  });
}

/**
 * A shopper's erasure (contract 15; decision 073): their e-mail, wherever it stands in a business's
 * entries' `details`, becomes `replacement`. In the erasure's transaction; the only update the
 * trigger lets through, and only of `details`.
 */
export async function scrubActivity(tx: Db, businessId: string, email: string, replacement: string): Promise<number> {
  const needle = email.trim().toLowerCase();
  if (!needle) return 0;
  await tx.execute(sql`select set_config('activity.scrub', 'on', true)`);
  const rows = await tx
    .select({ id: activityLog.id, details: activityLog.details })
    .from(activityLog)
    .where(
      and(eq(activityLog.businessId, businessId), sql`strpos(lower(${activityLog.details}::text), ${needle}) > 0`),
    );
  for (const r of rows) {
    const scrubbed = JSON.parse(
      JSON.stringify(r.details, (_k, v: unknown) =>
        typeof v === "string" ? v.replace(new RegExp(escapeRegExp(needle), "gi"), replacement) : v,
      ),
    ) as Record<string, unknown>;
    await tx.update(activityLog).set({ details: scrubbed }).where(eq(activityLog.id, r.id));
  }
  await tx.execute(sql`select set_config('activity.scrub', 'off', true)`);
  return rows.length;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A CSV of entries: one header row, then one row per entry; cells that a spreadsheet would run as a formula are quoted as text. */
export function activityCsvRow(cells: (string | null)[]): string {
  return (
    cells
      .map((c) => {
        let v = c ?? "";
        if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
        return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
      })
      .join(",") + "\r\n"
  );
}

export const ACTIVITY_CSV_HEADER = [
  "at",
  "actor_type",
  "actor_id",
  "actor_email",
  "action",
  "target_type",
  "target_id",
  "ip",
  "details",
];

export const activityCsvCells = (r: ActivityRow) => [
  r.createdAt.toISOString(),
  r.actorType,
  r.actorId,
  r.actorEmail,
  r.action,
  r.targetType,
  r.targetId,
  r.ip,
  JSON.stringify(r.details),
];

/** Who did it, as the domains pass it along: the signed-in account and its address (none: the platform). */
export type ActivityBy = { account: { id: string; email: string }; ip: string | null };

/** The actor and address of an entry from an `ActivityBy`. */
export const byOf = (by?: ActivityBy): Pick<ActivityEntry, "actor" | "ip"> =>
  by ? { actor: accountActor(by.account), ip: by.ip } : { actor: { type: "SYSTEM" }, ip: null };
