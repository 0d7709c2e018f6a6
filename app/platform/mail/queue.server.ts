/**
 * The writing half of the outbox (contract 16, decision 064): a message is a `mail_messages` row
 * written in the transaction of its cause under a unique cause key (one cause, one message; writing it
 * again does nothing), and a trigger adds its `mail__send` job in the same transaction. Callers in
 * other domains import this module only (it renders nothing).
 */
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accounts, mailMessages } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import type { MailKind } from "./kinds";

export type QueueInput = {
  kind: MailKind;
  /** what caused it, unique: `order.confirmation:<orderId>`, `account.password_reset:<tokenId>` */
  causeKey: string;
  to: { address: string; name?: string };
  accountId?: string | null;
  businessId?: string | null;
  data?: Record<string, unknown>;
};

/** Writes a message in the caller's transaction; returns its id, or null when this cause already has one. */
export async function queueMail(db: Db, input: QueueInput): Promise<string | null> {
  const [row] = await db
    .insert(mailMessages)
    .values({
      id: newId("mail"),
      kind: input.kind,
      causeKey: input.causeKey,
      businessId: input.businessId ?? null,
      accountId: input.accountId ?? null,
      toAddress: input.to.address,
      toName: input.to.name ?? "",
      data: input.data ?? {},
      createdAt: now(),
    })
    .onConflictDoNothing({ target: mailMessages.causeKey })
    .returning({ id: mailMessages.id });
  return row?.id ?? null;
}

/**
 * A notification (not always sent) to every account of a business or of an app's developers that has
 * not turned the kind off; one message per account and cause.
 */
export async function queueNotification(
  db: Db,
  input: Omit<QueueInput, "to" | "accountId" | "causeKey"> & { cause: string; accountIds: string[] },
): Promise<number> {
  if (!input.accountIds.length) return 0;
  const rows = await db
    .select({ id: accounts.id, email: accounts.email, name: accounts.name, mailOff: accounts.mailOff })
    .from(accounts)
    .where(inArray(accounts.id, input.accountIds));
  let n = 0;
  for (const a of rows) {
    if (a.mailOff.includes(input.kind)) continue;
    const id = await queueMail(db, {
      ...input,
      causeKey: `${input.kind}:${input.cause}:${a.id}`,
      to: { address: a.email, name: a.name },
      accountId: a.id,
    });
    if (id) n++;
  }
  return n;
}

/**
 * The shopper's message of an order's move to CANCELLED or DELIVERED (fulfilled), in the move's
 * transaction: one per order and kind, when the order has a customer e-mail.
 */
export async function queueOrderStatusMail(
  db: Db,
  order: { id: string; businessId: string; customerEmail: string | null; customerName: string },
  to: string,
) {
  const kind: MailKind | null = to === "CANCELLED" ? "order.cancelled" : to === "DELIVERED" ? "order.fulfilled" : null;
  if (!kind || !order.customerEmail) return;
  await queueMail(db, {
    kind,
    causeKey: `${kind}:${order.id}`,
    to: { address: order.customerEmail, name: order.customerName },
    businessId: order.businessId,
    data: { orderId: order.id },
  });
}

/**
 * The checkout's messages as CTEs of its one order statement (decision 019: no second round trip):
 * the shopper's confirmation when the order has an e-mail and the shop sends it, and the new-order
 * notice to each account of the business that has not turned it off. `o` is the CTE of the inserted
 * order; `$business`, `$email`, `$name` and `$at` are the statement's parameters. Written waiting
 * (`next_attempt_at` set), without a job: the mail dispatcher adds their jobs after the order
 * commits (dispatch.server.ts, decision 087), so that the order's transaction sends no NOTIFY.
 */
export function orderMailCtes(p: { business: string; email: string; name: string; at: string }): string {
  const id = "'mail_' || replace(gen_random_uuid()::text, '-', '')";
  return `mc as (
    insert into mail_messages (id, kind, cause_key, business_id, to_address, to_name, data, created_at, next_attempt_at)
    select ${id}, 'order.confirmation', 'order.confirmation:' || o.id, ${p.business}, ${p.email}::text, ${p.name},
           jsonb_build_object('orderId', o.id), ${p.at}::timestamptz, ${p.at}::timestamptz
    from o join businesses b on b.id = ${p.business}
    where coalesce(${p.email}::text, '') <> '' and not ('order.confirmation' = any(b.shopper_mail_off))
    returning id),
  mn as (
    insert into mail_messages (id, kind, cause_key, business_id, account_id, to_address, to_name, data, created_at, next_attempt_at)
    select ${id}, 'order.new', 'order.new:' || o.id || ':' || a.id, ${p.business}, a.id, a.email, a.name,
           jsonb_build_object('orderId', o.id), ${p.at}::timestamptz, ${p.at}::timestamptz
    from o join accounts a on a.business_id = ${p.business}
    where not ('order.new' = any(a.mail_off))
    returning id)`;
}
