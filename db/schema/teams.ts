import { pgTable, text, index, uniqueIndex, primaryKey } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, id, refersTo, textList, ts } from "./columns";
import { accounts, businesses } from "./accounts";
import { apps } from "./apps";

export const APP_MEMBER_ROLES = ["OWNER", "ADMIN", "DEVELOPER", "VIEWER"] as const;

/**
 * An invitation (contract 17) to a business's staff (`STAFF`, with permissions) or to an app's
 * members (`APP`, with a role). Only the SHA-256 of its token is kept; 7 days, single use. At most
 * one pending invitation per address and business (or app): a second invite of the same address,
 * even at the same moment, finds the first (decision 069).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: id(),
    kind: text("kind", { enum: ["STAFF", "APP"] }).notNull(),
    businessId: text("business_id").references(() => businesses.id, { onDelete: "cascade" }),
    appId: text("app_id").references(() => apps.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    permissions: textList("permissions"),
    appRole: text("app_role", { enum: ["ADMIN", "DEVELOPER", "VIEWER"] }),
    tokenHash: text("token_hash").notNull(),
    invitedBy: refersTo("invited_by", () => accounts.id),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedBy: text("accepted_by").references(() => accounts.id),
  },
  (t) => [
    uniqueIndex("invitations_token_key").on(t.tokenHash),
    uniqueIndex("invitations_pending_staff_key")
      .on(t.businessId, t.email)
      .where(sql`kind = 'STAFF' and accepted_at is null`),
    uniqueIndex("invitations_pending_app_key")
      .on(t.appId, t.email)
      .where(sql`kind = 'APP' and accepted_at is null`),
  ],
);

/** The developers of an app (contract 17): its creator as OWNER, and those invited as ADMIN, DEVELOPER or VIEWER. */
export const appMembers = pgTable(
  "app_members",
  {
    appId: refersTo("app_id", () => apps.id, { onDelete: "cascade" }),
    accountId: refersTo("account_id", () => accounts.id),
    role: text("role", { enum: APP_MEMBER_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.accountId] }), index("app_members_account_idx").on(t.accountId)],
);

export type Invitation = typeof invitations.$inferSelect;
export type AppMember = typeof appMembers.$inferSelect;
export type AppMemberRole = (typeof APP_MEMBER_ROLES)[number];
