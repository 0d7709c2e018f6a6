/**
 * E-mail (contract 16, decisions 064-066): the outbox of messages, the single-use tokens their links
 * carry, and the development mailbox.
 */
import { sql } from "drizzle-orm";
import { pgTable, text, jsonb, index, uniqueIndex, integer } from "drizzle-orm/pg-core";
import { createdAt, id, refersTo, textList, ts } from "./columns";
import { accounts } from "./accounts";

/**
 * One row per message, written in the transaction of its cause (`causeKey` is unique: one cause, one
 * message); a trigger adds its `mail__send` job in the same transaction, except for a row written
 * waiting (never tried, `nextAttemptAt` set: the checkout's), whose job the mail dispatcher adds after
 * the commit (decision 087). `messageId` is fixed when the row is written, so a resend after a crash
 * carries the same Message-ID.
 */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: id(),
    kind: text("kind").notNull(),
    causeKey: text("cause_key").notNull(),
    businessId: text("business_id"),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "set null" }),
    toAddress: text("to_address").notNull(),
    toName: text("to_name").notNull().default(""),
    /** `<id@domain of MAIL_FROM>`, fixed by the first attempt and kept by every later one */
    messageId: text("message_id"),
    /** what the template needs beyond what the job reads at send time (never a raw token) */
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: ["QUEUED", "SENT", "FAILED", "SKIPPED"] })
      .notNull()
      .default("QUEUED"),
    subject: text("subject"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: ts("next_attempt_at"),
    sentAt: ts("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mail_messages_cause_key").on(t.causeKey),
    index("mail_messages_business_to_idx").on(t.businessId, t.toAddress),
    index("mail_messages_account_idx").on(t.accountId),
    // the mail dispatcher's queue: rows written waiting for their job (mail/dispatch.server.ts)
    index("mail_messages_waiting_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'QUEUED' and attempts = 0 and next_attempt_at is not null`),
  ],
);

/**
 * Single-use tokens of e-mailed links (verify the address, reset the password, accept an invitation).
 * Only the SHA-256 of the token is stored; the token itself is an HMAC of the row id under the session
 * secret, so the sending job can put it in the link without it ever being written down.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: id(),
    kind: text("kind", { enum: ["VERIFY_EMAIL", "RESET_PASSWORD", "INVITATION"] }).notNull(),
    accountId: refersTo("account_id", () => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("account_tokens_hash_key").on(t.tokenHash), index("account_tokens_account_idx").on(t.accountId)],
);

/** What the embedded development SMTP server received (outside production, MAIL_URL unset). */
export const devMailbox = pgTable(
  "dev_mailbox",
  {
    id: id(),
    receivedAt: createdAt(),
    envelopeFrom: text("envelope_from").notNull().default(""),
    envelopeTo: textList("envelope_to"),
    subject: text("subject").notNull().default(""),
    fromHeader: text("from_header").notNull().default(""),
    toHeader: text("to_header").notNull().default(""),
    messageId: text("message_id").notNull().default(""),
    html: text("html"),
    text: text("text"),
    raw: text("raw").notNull(),
  },
  (t) => [index("dev_mailbox_received_idx").on(t.receivedAt)],
);

export type MailMessage = typeof mailMessages.$inferSelect;
export type AccountToken = typeof accountTokens.$inferSelect;
