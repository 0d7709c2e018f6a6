/**
 * A business's staff (contract 17; decision 069): the owner and the members invited with a set of
 * permissions. Invitations live in `invitations` (their token only as a SHA-256); a member is a
 * MERCHANT account of the business whose `staff_permissions` lists what it may use. Removal closes
 * the account (its sessions and JWTs answer 401 at once) and keeps the row, so that what the person
 * did still names them.
 */
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import { accounts, invitations, sessions, type Account, type Invitation } from "../../../db/schema";
import { uniqueViolation } from "../../../db/sql";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { PERMISSIONS, type Member, type Permission } from "../accounts/permissions";
import { newInvitation } from "./invitations.server";

export const permissionsSchema = z
  .array(z.enum(PERMISSIONS, { message: `must be one of ${PERMISSIONS.join(", ")}` }))
  .max(PERMISSIONS.length)
  .transform((list) => PERMISSIONS.filter((p) => list.includes(p)));

export const inviteStaffSchema = z.object({
  email: z.string().trim().toLowerCase().email("must be an e-mail address").max(254),
  permissions: permissionsSchema,
});

export const updateStaffSchema = z.object({ permissions: permissionsSchema });

export type StaffEntry = {
  id: string;
  email: string;
  name: string | null;
  owner: boolean;
  permissions: Permission[];
  status: "INVITED" | "ACTIVE";
  lastSignInAt: Date | null;
  /** An invitation's end (INVITED only); null for a member. */
  expiresAt: Date | null;
};

const invitedEntry = (i: Invitation): StaffEntry => ({
  id: i.id,
  email: i.email,
  name: null,
  owner: false,
  permissions: PERMISSIONS.filter((p) => i.permissions.includes(p)),
  status: "INVITED",
  lastSignInAt: null,
  expiresAt: i.expiresAt,
});

const memberEntry = (a: Account): StaffEntry => ({
  id: a.id,
  email: a.email,
  name: a.name,
  owner: a.staffPermissions === null,
  permissions:
    a.staffPermissions === null ? [...PERMISSIONS] : PERMISSIONS.filter((p) => a.staffPermissions!.includes(p)),
  status: "ACTIVE",
  lastSignInAt: a.lastSignInAt,
  expiresAt: null,
});

/** The business's members that are not removed: the owner and the active staff. */
const activeMembers = (businessId: string) => and(eq(accounts.businessId, businessId), isNull(accounts.closedAt));

/**
 * `GET /merchant/staff`: the owner first, then the members by when they joined, then the pending
 * invitations (the newest last). A business has tens of people, not thousands: both lists are read
 * whole and the page is cut from them.
 */
export async function listStaff(db: Db, businessId: string, page: { limit: number; offset: number }) {
  const [members, pending] = await Promise.all([
    db.select().from(accounts).where(activeMembers(businessId)).orderBy(asc(accounts.createdAt), asc(accounts.id)),
    db
      .select()
      .from(invitations)
      .where(and(eq(invitations.kind, "STAFF"), eq(invitations.businessId, businessId), isNull(invitations.acceptedAt)))
      .orderBy(asc(invitations.createdAt), asc(invitations.id)),
  ]);
  const all = [
    ...members.filter((a) => a.staffPermissions === null).map(memberEntry),
    ...members.filter((a) => a.staffPermissions !== null).map(memberEntry),
    ...pending.map(invitedEntry),
  ];
  return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

/** The words for an address that cannot be invited because it has an account already. */
function existingAccountRefusal(existing: Account, businessId: string): ApiError {
  if (existing.businessId === businessId && existing.role === "MERCHANT")
    return new ApiError(409, `${existing.email} is already a member of this business`);
  const kind =
    existing.role === "DEVELOPER"
      ? "a developer account"
      : existing.role === "REVIEWER"
        ? "a platform staff account"
        : "a merchant account of another business";
  return new ApiError(
    409,
    `${existing.email} already has ${kind}; an account belongs to one business, so it cannot join this one. Invite another address.`,
  );
}

/**
 * `POST /merchant/staff`: one invitation (7 days, single use) and its e-mail, in one transaction.
 * An address with an account is refused, saying so (a removed member's closed account excepted:
 * accepting opens it again, decision 069). One pending invitation per address: a second invite,
 * even at the same moment, is 409 (the partial unique index decides); an expired one is replaced.
 */
export async function inviteStaff(
  db: Database,
  env: Pick<Env, "publicUrl" | "sessionSecret">,
  inviter: Member & { name: string },
  input: z.output<typeof inviteStaffSchema>,
  by?: ActivityBy,
) {
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx.select().from(accounts).where(eq(accounts.email, input.email));
      if (existing && !(existing.closedAt && existing.role === "MERCHANT"))
        throw existingAccountRefusal(existing, inviter.businessId);
      await tx
        .delete(invitations)
        .where(
          and(
            eq(invitations.kind, "STAFF"),
            eq(invitations.businessId, inviter.businessId),
            eq(invitations.email, input.email),
            isNull(invitations.acceptedAt),
            lte(invitations.expiresAt, now()),
          ),
        );
      const { invitation } = await newInvitation(tx, env, {
        kind: "STAFF",
        businessId: inviter.businessId,
        email: input.email,
        permissions: input.permissions,
        invitedBy: inviter,
      });
      await recordActivity(tx, {
        businessId: inviter.businessId,
        ...byOf(by),
        action: "staff.invited",
        target: { type: "invitation", id: invitation.id },
        details: { email: input.email, permissions: input.permissions },
      });
      return invitedEntry(invitation);
    });
  } catch (e) {
    if (uniqueViolation(e) === "invitations_pending_staff_key")
      throw new ApiError(409, `${input.email} has been invited already; withdraw that invitation to send a new one`);
    throw e;
  }
}

/** A member of the business (not removed) by account id, locked for the transaction; 404 for anyone else. */
async function lockMember(tx: Db, businessId: string, id: string): Promise<Account> {
  const [account] = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), activeMembers(businessId)))
    .for("update");
  if (!account) throw new ApiError(404, "Staff member not found");
  return account;
}

const OWNER_FIXED = "The owner has every permission and cannot be changed or removed";

/** `PATCH /merchant/staff/<id>`: a member's (or a pending invitation's) permissions, in force at once. */
export async function updateStaff(
  db: Database,
  businessId: string,
  id: string,
  permissions: Permission[],
  by?: ActivityBy,
) {
  return db.transaction(async (tx) => {
    await recordActivity(tx, {
      businessId,
      ...byOf(by),
      action: "staff.permissions_changed",
      target: { type: id.startsWith("inv_") ? "invitation" : "account", id },
      details: { permissions },
    });
    if (id.startsWith("inv_")) {
      const [row] = await tx
        .update(invitations)
        .set({ permissions })
        .where(
          and(
            eq(invitations.id, id),
            eq(invitations.kind, "STAFF"),
            eq(invitations.businessId, businessId),
            isNull(invitations.acceptedAt),
          ),
        )
        .returning();
      if (!row) throw new ApiError(404, "Staff member not found");
      return invitedEntry(row);
    }
    const account = await lockMember(tx, businessId, id);
    if (account.staffPermissions === null) throw new ApiError(403, OWNER_FIXED);
    const [updated] = await tx
      .update(accounts)
      .set({ staffPermissions: permissions })
      .where(eq(accounts.id, account.id))
      .returning();
    return memberEntry(updated);
  });
}

/**
 * `DELETE /merchant/staff/<id>`: a pending invitation is withdrawn (its link stops working); a
 * member is removed: the account is closed and every session ended in one transaction, so its next
 * request (page or JWT) answers 401. A request of theirs already past its guard finishes or fails
 * whole: every action is one transaction of its own, and the removal waits for the row lock of
 * a concurrent permission change.
 */
export async function removeStaff(db: Database, businessId: string, id: string, by?: ActivityBy): Promise<void> {
  await db.transaction(async (tx) => {
    await recordActivity(tx, {
      businessId,
      ...byOf(by),
      action: id.startsWith("inv_") ? "staff.invitation_withdrawn" : "staff.removed",
      target: { type: id.startsWith("inv_") ? "invitation" : "account", id },
    });
    if (id.startsWith("inv_")) {
      const gone = await tx
        .delete(invitations)
        .where(
          and(
            eq(invitations.id, id),
            eq(invitations.kind, "STAFF"),
            eq(invitations.businessId, businessId),
            isNull(invitations.acceptedAt),
          ),
        )
        .returning({ id: invitations.id });
      if (!gone.length) throw new ApiError(404, "Staff member not found");
      return;
    }
    const account = await lockMember(tx, businessId, id);
    if (account.staffPermissions === null) throw new ApiError(403, OWNER_FIXED);
    const t = now();
    await tx.update(accounts).set({ closedAt: t, staffPermissions: [] }).where(eq(accounts.id, account.id));
    await tx
      .update(sessions)
      .set({ revokedAt: t })
      .where(and(eq(sessions.accountId, account.id), isNull(sessions.revokedAt)));
  });
}

/**
 * `POST /merchant/staff/<id>/ownership` (decision 069): the owner hands the business to an active
 * member, who becomes the owner (every permission); the former owner stays as a member holding every
 * permission, which the new owner may then change. Only the owner may do it; both rows are locked in
 * one order, so two transfers at once cannot leave two owners or none.
 */
export async function transferOwnership(db: Database, actor: Member, id: string) {
  if (!actor.owner) throw new ApiError(403, "Only the business's owner can hand over ownership");
  return db.transaction(async (tx) => {
    const locked = await tx
      .select()
      .from(accounts)
      .where(and(inArray(accounts.id, [actor.accountId, id]), activeMembers(actor.businessId)))
      .orderBy(asc(accounts.id))
      .for("update");
    const owner = locked.find((a) => a.id === actor.accountId);
    const target = locked.find((a) => a.id === id);
    if (!owner || owner.staffPermissions !== null)
      throw new ApiError(403, "Only the business's owner can hand over ownership");
    if (!target) throw new ApiError(404, "Staff member not found");
    if (target.id === owner.id) throw new ApiError(409, "You own this business already");
    if (target.role !== "MERCHANT") throw new ApiError(409, "Only a merchant account can own a business");
    await tx
      .update(accounts)
      .set({ staffPermissions: [...PERMISSIONS] })
      .where(eq(accounts.id, owner.id));
    const [updated] = await tx
      .update(accounts)
      .set({ staffPermissions: sql`null` })
      .where(eq(accounts.id, target.id))
      .returning();
    return memberEntry(updated);
  });
}

export const serializeStaff = (e: StaffEntry) => ({
  id: e.id,
  email: e.email,
  name: e.name,
  owner: e.owner,
  permissions: e.permissions,
  status: e.status,
  lastSignInAt: e.lastSignInAt?.toISOString() ?? null,
  expiresAt: e.expiresAt?.toISOString() ?? null,
});
