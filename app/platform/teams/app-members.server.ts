/**
 * Apps' members (contract 17): who may do what on an app. Read on every request with the account
 * (one indexed row), so a change of role or a removal counts at once.
 */
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";
import { and, asc, eq, isNull, lte, ne } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import { accounts, appMembers, invitations, type Account } from "../../../db/schema";
import { uniqueViolation } from "../../../db/sql";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { appRoleAtLeast, missingAppRoleMessage, type AppRole } from "../accounts/permissions";
import { newInvitation } from "./invitations.server";

/** The account's role on the app, or null when it is not a member (or there is no such app). */
export async function appRoleOf(db: Db, accountId: string, appId: string): Promise<AppRole | null> {
  const [row] = await db
    .select({ role: appMembers.role })
    .from(appMembers)
    .where(and(eq(appMembers.appId, appId), eq(appMembers.accountId, accountId)));
  return row?.role ?? null;
}

/**
 * The account's role on the app when it is at least `needed`: a developer who is not a member gets
 * 404 (the same as for an app that does not exist), a member with a lower role 403 naming the role.
 */
export async function requireAppRole(db: Db, accountId: string, appId: string, needed: AppRole): Promise<AppRole> {
  const role = await appRoleOf(db, accountId, appId);
  if (!role) throw new ApiError(404, "App not found");
  if (!appRoleAtLeast(role, needed)) throw new ApiError(403, missingAppRoleMessage(needed));
  return role;
}

// ---------------------------------------------------------------------------------------------
// Managing an app's members (OWNER or ADMIN): `/developer/apps/<id>/members…`

export const inviteAppMemberSchema = z.object({
  email: z.string().trim().toLowerCase().email("must be an e-mail address").max(254),
  role: z.enum(["ADMIN", "DEVELOPER", "VIEWER"], { message: "must be ADMIN, DEVELOPER or VIEWER" }),
});
export const updateAppMemberSchema = z.object({
  role: z.enum(["ADMIN", "DEVELOPER", "VIEWER"], { message: "must be ADMIN, DEVELOPER or VIEWER" }),
});

export type AppMemberEntry = {
  id: string;
  email: string;
  name: string | null;
  role: AppRole;
  status: "INVITED" | "ACTIVE";
  expiresAt: Date | null;
};

/** The app's members (the OWNER first, then by when they joined) and its pending invitations. */
export async function listAppMembers(db: Db, appId: string, page: { limit: number; offset: number }) {
  const [members, pending] = await Promise.all([
    db
      .select({ member: appMembers, account: accounts })
      .from(appMembers)
      .innerJoin(accounts, eq(accounts.id, appMembers.accountId))
      .where(eq(appMembers.appId, appId))
      .orderBy(asc(appMembers.createdAt), asc(appMembers.accountId)),
    db
      .select()
      .from(invitations)
      .where(and(eq(invitations.kind, "APP"), eq(invitations.appId, appId), isNull(invitations.acceptedAt)))
      .orderBy(asc(invitations.createdAt)),
  ]);
  const all: AppMemberEntry[] = [
    ...members
      .sort((a, b) => Number(b.member.role === "OWNER") - Number(a.member.role === "OWNER"))
      .map(({ member, account }) => ({
        id: account.id,
        email: account.email,
        name: account.name,
        role: member.role,
        status: "ACTIVE" as const,
        expiresAt: null,
      })),
    ...pending.map((i) => ({
      id: i.id,
      email: i.email,
      name: null,
      role: i.appRole!,
      status: "INVITED" as const,
      expiresAt: i.expiresAt,
    })),
  ];
  return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

/**
 * `POST /developer/apps/<id>/members`: invites a developer (an address without an account becomes a
 * developer on accepting; one with a merchant or reviewer account is refused, saying so). One
 * pending invitation per address and app.
 */
export async function inviteAppMember(
  db: Database,
  env: Pick<Env, "publicUrl" | "sessionSecret">,
  inviter: Account,
  appId: string,
  input: z.output<typeof inviteAppMemberSchema>,
  ip: string | null = null,
) {
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx.select().from(accounts).where(eq(accounts.email, input.email));
      if (existing && existing.role !== "DEVELOPER")
        throw new ApiError(
          409,
          `${input.email} has a ${existing.role.toLowerCase()} account; only developer accounts can be members of an app. Invite another address.`,
        );
      if (existing && (await appRoleOf(tx, existing.id, appId)))
        throw new ApiError(409, `${input.email} is a member of this app already`);
      await tx
        .delete(invitations)
        .where(
          and(
            eq(invitations.kind, "APP"),
            eq(invitations.appId, appId),
            eq(invitations.email, input.email),
            isNull(invitations.acceptedAt),
            lte(invitations.expiresAt, now()),
          ),
        );
      const { invitation } = await newInvitation(tx, env, {
        kind: "APP",
        appId,
        email: input.email,
        appRole: input.role,
        invitedBy: { accountId: inviter.id, name: inviter.name },
      });
      await recordActivity(tx, {
        appId,
        ...byOf({ account: inviter, ip }),
        action: "app_member.invited",
        target: { type: "invitation", id: invitation.id },
        details: { email: input.email, role: input.role },
      });
      return {
        id: invitation.id,
        email: invitation.email,
        name: null,
        role: input.role,
        status: "INVITED",
        expiresAt: invitation.expiresAt,
      } satisfies AppMemberEntry;
    });
  } catch (e) {
    if (uniqueViolation(e) === "invitations_pending_app_key")
      throw new ApiError(409, `${input.email} has been invited already; withdraw that invitation to send a new one`);
    throw e;
  }
}

const OWNER_FIXED = "The app's owner cannot be changed or removed";

/** `PATCH /developer/apps/<id>/members/<memberId>`: a member's (or a pending invitation's) role, in force at once. */
export async function updateAppMember(
  database: Database,
  appId: string,
  id: string,
  role: Exclude<AppRole, "OWNER">,
  by?: ActivityBy,
) {
  return database.transaction(async (db) => {
    await recordActivity(db, {
      appId,
      ...byOf(by),
      action: "app_member.role_changed",
      target: { type: id.startsWith("inv_") ? "invitation" : "account", id },
      details: { role },
    });
    if (id.startsWith("inv_")) {
      const [row] = await db
        .update(invitations)
        .set({ appRole: role })
        .where(
          and(
            eq(invitations.id, id),
            eq(invitations.kind, "APP"),
            eq(invitations.appId, appId),
            isNull(invitations.acceptedAt),
          ),
        )
        .returning();
      if (!row) throw new ApiError(404, "Member not found");
      return {
        id: row.id,
        email: row.email,
        name: null,
        role,
        status: "INVITED",
        expiresAt: row.expiresAt,
      } satisfies AppMemberEntry;
    }
    return db.transaction(async (tx) => {
      const current = await appRoleOf(tx, id, appId);
      if (!current) throw new ApiError(404, "Member not found");
      if (current === "OWNER") throw new ApiError(403, OWNER_FIXED);
      await tx
        .update(appMembers)
        .set({ role })
        .where(and(eq(appMembers.appId, appId), eq(appMembers.accountId, id), ne(appMembers.role, "OWNER")));
      const [account] = await tx.select().from(accounts).where(eq(accounts.id, id));
      return {
        id,
        email: account.email,
        name: account.name,
        role,
        status: "ACTIVE",
        expiresAt: null,
      } satisfies AppMemberEntry;
    });
  });
}

/** `DELETE /developer/apps/<id>/members/<memberId>`: an invitation withdrawn, or a member removed (the next call is 404). */
export async function removeAppMember(database: Database, appId: string, id: string, by?: ActivityBy) {
  return database.transaction(async (db) => {
    await recordActivity(db, {
      appId,
      ...byOf(by),
      action: "app_member.removed",
      target: { type: id.startsWith("inv_") ? "invitation" : "account", id },
    });
    if (id.startsWith("inv_")) {
      const gone = await db
        .delete(invitations)
        .where(
          and(
            eq(invitations.id, id),
            eq(invitations.kind, "APP"),
            eq(invitations.appId, appId),
            isNull(invitations.acceptedAt),
          ),
        )
        .returning({ id: invitations.id });
      if (!gone.length) throw new ApiError(404, "Member not found");
      return;
    }
    const current = await appRoleOf(db, id, appId);
    if (!current) throw new ApiError(404, "Member not found");
    if (current === "OWNER") throw new ApiError(403, OWNER_FIXED);
    await db
      .delete(appMembers)
      .where(and(eq(appMembers.appId, appId), eq(appMembers.accountId, id), ne(appMembers.role, "OWNER")));
  });
}

export const serializeAppMember = (e: AppMemberEntry) => ({
  ...e,
  expiresAt: e.expiresAt?.toISOString() ?? null,
});
