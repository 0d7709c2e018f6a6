import { pgTable, text, boolean, index, uniqueIndex, integer } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { counter, createdAt, id, refersTo, textList, timestamps, ts } from "./columns";

/** The kinds of shop a merchant can choose (the shop settings); RESTAURANT speaks of a menu. */
export const BUSINESS_TYPES = ["RETAIL", "RESTAURANT"] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

export const businesses = pgTable(
  "businesses",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    /**
     * The kind of shop, which words the storefront uses (decision 061): RETAIL ("Products") unless the
     * merchant chose RESTAURANT ("Menu") in the shop settings; the demo catalogue's shops are restaurants.
     */
    type: text("type", { enum: BUSINESS_TYPES }).notNull().default("RETAIL"),
    address: text("address").notNull().default(""),
    phone: text("phone").notNull().default(""),
    email: text("email").notNull().default(""),
    currency: text("currency").notNull().default("USD"),
    locale: text("locale").notNull().default("en-US"),
    timezone: text("timezone").notNull().default("UTC"),
    /** The storefront's `<meta name="description">`; empty: made from the shop's name (decision 061). */
    metaDescription: text("meta_description").notNull().default(""),
    /** When the merchant closed the admin's setup guide (null: it shows while steps are left). */
    setupGuideDismissedAt: ts("setup_guide_dismissed_at"),
    isSandbox: boolean("is_sandbox").notNull().default(false),
    /**
     * A sandbox's own clock (contract 19, decision 076): how far its time runs ahead of the
     * platform's. Always 0 for a real business; `POST /developer/sandbox/clock` moves it forward.
     */
    clockOffsetSeconds: integer("clock_offset_seconds").notNull().default(0),
    /** The owner's setting (contract 18): every member must have a second factor before any other page. */
    requireSecondFactor: boolean("require_second_factor").notNull().default(false),
    /** the shopper messages (mail kinds) this business has turned off (contract 16) */
    shopperMailOff: textList("shopper_mail_off"),
    /** last order number handed out; the next order takes lastOrderNumber + 1 */
    lastOrderNumber: integer("last_order_number").notNull().default(1000),
    ...timestamps(),
  },
  (t) => [uniqueIndex("businesses_slug_key").on(t.slug)],
);

/** The business a row belongs to (required, with its foreign key). */
export const ofBusiness = () => refersTo("business_id", () => businesses.id);

export const accounts = pgTable(
  "accounts",
  {
    id: id(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: ["DEVELOPER", "MERCHANT", "REVIEWER"] }).notNull(),
    passwordHash: text("password_hash").notNull(),
    businessId: text("business_id").references(() => businesses.id),
    /**
     * Contract 17: null for the account that owns its business (the one that registered it, or a
     * developer in their sandbox: every permission); the permissions of a staff member otherwise.
     */
    staffPermissions: text("staff_permissions").array(),
    /** when the account proved it reads its address (contract 16); null until then */
    emailVerifiedAt: ts("email_verified_at"),
    /** bumped by a password reset: every JWT carrying an older value (and every older session) answers 401 */
    credentialsVersion: integer("credentials_version").notNull().default(0),
    /**
     * Whether the account has a second factor (a confirmed TOTP or a passkey, contract 18): kept by
     * accounts/second-factor.server.ts whenever one is added or removed, so the guards read it with
     * the account's row and no other query.
     */
    hasSecondFactor: boolean("has_second_factor").notNull().default(false),
    /** the notification messages (mail kinds, not always sent) the account has turned off */
    mailOff: textList("mail_off"),
    createdAt: createdAt(),
    /** The last sign-in (page or `POST /auth/login`), shown on the Staff page. */
    lastSignInAt: ts("last_sign_in_at"),
    /**
     * Set when a staff member is removed (decision 069): the row stays (what they did still names
     * them) but no session, JWT or sign-in of it works any more.
     */
    closedAt: ts("closed_at"),
  },
  (t) => [uniqueIndex("accounts_email_key").on(t.email), index("accounts_business_idx").on(t.businessId)],
);

/** Failed sign-in attempts, counted per account e-mail and per client address for throttling. */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    key: text("key").notNull(),
    windowStart: ts("window_start").notNull(),
    failures: counter("failures"),
  },
  (t) => [uniqueIndex("sign_in_attempts_key").on(t.key, t.windowStart)],
);

/**
 * Browser sessions. The cookie carries a random session id; only its SHA-256 is stored, so a
 * database dump opens no session. Signing out revokes the row, so a copied cookie stops working.
 */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    /**
     * The session's public id (contract 18): a JWT's `sid` claim, `GET /auth/sessions`' `id`. A
     * browser session is found by its cookie's hash, a JWT's by this id (its unique index).
     */
    id: text("id")
      .notNull()
      .default(sql`'ses_' || replace(gen_random_uuid()::text, '-', '')`),
    accountId: refersTo("account_id", () => accounts.id, { onDelete: "cascade" }),
    /** BROWSER (the cookie) or TOKEN (a JWT of POST /auth/login and friends) */
    kind: text("kind", { enum: ["BROWSER", "TOKEN"] })
      .notNull()
      .default("BROWSER"),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: createdAt(),
    /** moved forward at most once a minute by the request that finds it older */
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("sessions_account_idx").on(t.accountId), uniqueIndex("sessions_id_key").on(t.id)],
);

export type Business = typeof businesses.$inferSelect;
export type Account = typeof accounts.$inferSelect;

/**
 * Growing delays per (account e-mail, client address) pair: after 3 failures from one address for
 * one account, each further attempt from that pair waits twice as long (1 s, 2 s, 4 s … 15 min).
 * A success from the pair removes its row; 24 hours without a failure start it afresh.
 */
export const signInDelays = pgTable("sign_in_delays", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  lastFailureAt: ts("last_failure_at").notNull(),
  lockedUntil: ts("locked_until"),
});

/**
 * Addresses an account has signed in from, as the SHA-256 of account id and address: exempt from
 * the per-account budget, so that failures sprayed from elsewhere cannot lock the owner out.
 */
export const signInKnownAddresses = pgTable("sign_in_known_addresses", {
  hash: text("hash").primaryKey(),
  lastSeenAt: ts("last_seen_at").notNull(),
});
