/**
 * The sending half of the outbox (contract 16, decision 064; the writing half is queue.server.ts).
 * The `mail__send` job renders the message from the row and what it names, and sends it: retried with backoff and jitter on a
 * temporary failure, recorded as FAILED with the server's answer on a permanent one.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { perDatabase } from "../../../db/sql";
import { accounts, businesses, mailMessages, type MailMessage } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { now } from "../core/clock.server";
import { addJob } from "../core/jobs.server";
import { MAIL_KINDS, type MailKind } from "./kinds";
import { sendMessage, addressOf } from "./transport.server";
import { renderQueued } from "./catalogue.server";
import { unsubscribeUrl } from "./unsubscribe.server";

/** How the retries of a message are spaced: 10 s, 20 s, 40 s … up to an hour, each 50–100 % of that (jitter). */
export const MAIL_RETRY = { baseMs: 10_000, capMs: 3_600_000, maxAttempts: 12 };

export function retryDelayMs(attempts: number, random = Math.random()): number {
  const full = Math.min(MAIL_RETRY.capMs, MAIL_RETRY.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(full * (0.5 + random / 2));
}

/** `<mail_…@domain of MAIL_FROM>`: fixed at the first attempt and kept. */
export const messageIdFor = (env: Pick<Env, "mailFrom">, id: string) =>
  `<${id}@${addressOf(env.mailFrom).split("@")[1] ?? "localhost"}>`;

/*
 * The statements every message runs, built once per database handle (a sale sends two messages an
 * order, and drizzle's building cost more than the statements: docs/performance.md, session 12).
 */
const claimQuery = perDatabase((db: Db) =>
  db
    .update(mailMessages)
    .set({
      attempts: sql`${mailMessages.attempts} + 1`,
      messageId: sql`coalesce(${mailMessages.messageId}, ${sql.placeholder("messageId")})`,
      nextAttemptAt: null,
    })
    .where(and(eq(mailMessages.id, sql.placeholder("id")), eq(mailMessages.status, "QUEUED")))
    .returning()
    .prepare("mail_claim"),
);
const sentQuery = perDatabase((db: Db) =>
  db
    .update(mailMessages)
    .set({
      status: "SENT",
      sentAt: sql`${sql.placeholder("sentAt")}::timestamptz`,
      subject: sql`${sql.placeholder("subject")}`,
      lastError: null,
    })
    .where(eq(mailMessages.id, sql.placeholder("id")))
    .prepare("mail_sent"),
);
const accountMailOff = perDatabase((db: Db) =>
  db
    .select({ mailOff: accounts.mailOff })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder("id")))
    .prepare("mail_account_off"),
);
const shopMailOff = perDatabase((db: Db) =>
  db
    .select({ off: businesses.shopperMailOff })
    .from(businesses)
    .where(eq(businesses.id, sql.placeholder("id")))
    .prepare("mail_shop_off"),
);

/** Whether the row's reader still wants it: a notification turned off, a shopper message the shop turned off. */
async function unwanted(db: Db, row: MailMessage): Promise<string | null> {
  const kind = row.kind as MailKind;
  const meta = MAIL_KINDS[kind];
  if (!meta) return `unknown kind ${row.kind}`;
  if (!meta.always && row.accountId) {
    const [a] = await accountMailOff(db).execute({ id: row.accountId });
    if (a?.mailOff.includes(kind)) return "turned off by the account";
  }
  if (meta.audience === "shopper" && row.businessId) {
    const [b] = await shopMailOff(db).execute({ id: row.businessId });
    if (b?.off.includes(kind)) return "turned off by the shop";
  }
  return null;
}

/**
 * One attempt at a message (the `mail__send` task). Claims the row (QUEUED only: a SENT or FAILED
 * message is never sent again), renders it, sends it to `mailUrl`, records the outcome; a temporary
 * failure adds the next attempt's job, due after the backoff.
 */
export async function sendQueuedMail(
  deps: { db: Db; env: Env; mailUrl?: string },
  id: string,
): Promise<"SENT" | "RETRY" | "FAILED" | "SKIPPED" | "GONE"> {
  const { db, env } = deps;
  const url = deps.mailUrl ?? env.mailUrl;
  if (!url) throw new Error("no SMTP server: set MAIL_URL");
  const [row] = await claimQuery(db).execute({ id, messageId: messageIdFor(env, id) });
  if (!row) return "GONE";
  const reason = await unwanted(db, row);
  if (reason) {
    await db.update(mailMessages).set({ status: "SKIPPED", lastError: reason }).where(eq(mailMessages.id, id));
    return "SKIPPED";
  }
  let rendered;
  try {
    rendered = await renderQueued(db, env, row);
  } catch (e) {
    // what the message was about is gone (an order erased, an account removed): nothing to send
    await db
      .update(mailMessages)
      .set({ status: "FAILED", lastError: `could not render: ${(e as Error).message}` })
      .where(eq(mailMessages.id, id));
    return "FAILED";
  }
  const headers: Record<string, string> = {};
  if (!MAIL_KINDS[row.kind as MailKind].always && row.accountId) {
    // RFC 8058: one click (a POST without sign-in) unsubscribes this account from this kind
    headers["List-Unsubscribe"] = `<${unsubscribeUrl(env, row.accountId, row.kind as MailKind)}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  const outcome = await sendMessage(url, {
    from: env.mailFrom,
    to: { name: row.toName, address: row.toAddress },
    subject: rendered.subject,
    messageId: row.messageId!,
    html: rendered.html,
    text: rendered.text,
    headers,
  });
  if (outcome.ok) {
    await sentQuery(db).execute({ id, sentAt: now().toISOString(), subject: rendered.subject });
    return "SENT";
  }
  if (!outcome.temporary || row.attempts >= MAIL_RETRY.maxAttempts) {
    await db
      .update(mailMessages)
      .set({ status: "FAILED", subject: rendered.subject, lastError: outcome.error })
      .where(eq(mailMessages.id, id));
    return "FAILED";
  }
  const runAt = new Date(now().getTime() + retryDelayMs(row.attempts));
  await db.transaction(async (tx) => {
    await tx
      .update(mailMessages)
      .set({ subject: rendered.subject, lastError: outcome.error, nextAttemptAt: runAt })
      .where(eq(mailMessages.id, id));
    await addJob(tx, "mail__send", { id }, { runAt, jobKey: `mail:${id}` });
  });
  return "RETRY";
}
