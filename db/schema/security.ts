/**
 * Strong sign-in and the activity log (contract 18, decisions 072-075): second factors (TOTP,
 * recovery codes, passkeys), the single-use challenges of the sign-in's second step and of WebAuthn,
 * and the append-only activity log.
 */
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { accounts } from "./accounts";
import { createdAt, id, refersTo, textList, ts } from "./columns";

/** An account's TOTP (RFC 6238): the secret sealed with ENCRYPTION_KEY; null `confirmedAt` while enrolment waits for its first code. */
export const totpFactors = pgTable("totp_factors", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  secretEnc: text("secret_enc").notNull(),
  confirmedAt: ts("confirmed_at"),
  /** the last time step a code was accepted for: a code of that step or an earlier one is refused */
  lastUsedStep: bigint("last_used_step", { mode: "number" }).notNull().default(0),
  createdAt: createdAt(),
});

/** Single-use recovery codes: their SHA-256 only. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: id(),
    accountId: refersTo("account_id", () => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_account_idx").on(t.accountId)],
);

/** WebAuthn credentials (passkeys). The relying party is PUBLIC_URL's host. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: id(),
    accountId: refersTo("account_id", () => accounts.id, { onDelete: "cascade" }),
    /** base64url, as the browser gives it; unique over the platform */
    credentialId: text("credential_id").notNull(),
    /** the COSE public key, base64url */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: textList("transports"),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [index("passkeys_account_idx").on(t.accountId), uniqueIndex("passkeys_credential_key").on(t.credentialId)],
);

/**
 * Single-use, short-lived challenges: the sign-in's pending second step (SECOND_STEP: the password
 * was right, a code or passkey is owed) and WebAuthn's (PASSKEY_REGISTER, PASSKEY_SIGN_IN). Only the
 * SHA-256 of the id the browser holds is stored; `usedAt` is set by the one statement that takes it.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    idHash: text("id_hash").primaryKey(),
    purpose: text("purpose", { enum: ["SECOND_STEP", "PASSKEY_REGISTER", "PASSKEY_SIGN_IN"] }).notNull(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    /** WebAuthn's challenge (base64url); empty for SECOND_STEP */
    challenge: text("challenge").notNull().default(""),
    /** wrong codes given for this pending step (SECOND_STEP) */
    failures: integer("failures").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [index("sign_in_challenges_expires_idx").on(t.expiresAt)],
);

/**
 * The activity log (contract 18, decision 073): append-only (a trigger refuses UPDATE, DELETE and
 * TRUNCATE, save the two narrow paths the decision names: the retention job's delete of entries
 * past the retention period, and an erasure's scrub of a shopper's e-mail in `details`). Written in
 * the transaction of the action. `created_at` is the entry's `at`.
 */
export const activityLog = pgTable(
  "activity_log",
  {
    id: id(),
    createdAt: createdAt(),
    /** the business whose log shows it (the account's business for sign-ins), if any */
    businessId: text("business_id"),
    /** the app whose log shows it, if any */
    appId: text("app_id"),
    /** the account the entry is about (its own security history), if any */
    accountId: text("account_id"),
    actorType: text("actor_type", { enum: ["ACCOUNT", "APP", "SYSTEM"] }).notNull(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    ip: text("ip"),
    details: jsonb("details")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    index("activity_business_idx").on(t.businessId, t.createdAt.desc(), t.id.desc()),
    index("activity_app_idx").on(t.appId, t.createdAt.desc(), t.id.desc()),
    index("activity_account_idx").on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index("activity_created_idx").on(t.createdAt),
  ],
);

export type ActivityRow = typeof activityLog.$inferSelect;
export type Passkey = typeof passkeys.$inferSelect;
