/**
 * The shopper's messages under the privacy requests of contract 15: an export lists what was sent
 * to them; an erasure replaces their address and name in the message records (and a message not yet
 * sent is not sent) and, outside production, removes the development mailbox's copies.
 */
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devMailbox, mailMessages } from "../../../db/schema";
import { ERASED_NAME, ERASED_TEXT } from "../core/erased";
import { textArray } from "../../../db/sql";

const toShopper = (businessId: string, email: string) =>
  and(eq(mailMessages.businessId, businessId), sql`lower(${mailMessages.toAddress}) = ${email.toLowerCase()}`);

/** The messages the business's shop sent (or is sending) to this address, oldest first. */
export async function sentMailTo(db: Db, businessId: string, email: string) {
  const rows = await db
    .select()
    .from(mailMessages)
    .where(toShopper(businessId, email))
    .orderBy(asc(mailMessages.createdAt), asc(mailMessages.id));
  return rows.map((m) => ({
    kind: m.kind,
    to: m.toAddress,
    subject: m.subject,
    status: m.status,
    orderId: typeof m.data.orderId === "string" ? m.data.orderId : null,
    createdAt: m.createdAt.toISOString(),
    sentAt: m.sentAt?.toISOString() ?? null,
  }));
}

/** Replaces the shopper's address and name in the records of messages to them; returns how many rows changed. */
export async function scrubSentMail(db: Db, businessId: string, email: string, orderIds: string[]) {
  const rows = await db
    .update(mailMessages)
    .set({
      toAddress: ERASED_TEXT,
      toName: ERASED_NAME,
      status: sql`case when ${mailMessages.status} = 'QUEUED' then 'SKIPPED' else ${mailMessages.status} end`,
      lastError: sql`case when ${mailMessages.lastError} is null then null else replace(lower(${mailMessages.lastError}), ${email.toLowerCase()}, ${ERASED_TEXT}) end`,
    })
    .where(
      or(
        toShopper(businessId, email),
        // the shopper messages of their orders, whatever address they went to
        orderIds.length
          ? and(
              eq(mailMessages.businessId, businessId),
              sql`${mailMessages.kind} in ('order.confirmation', 'order.cancelled', 'order.fulfilled')`,
              sql`${mailMessages.data} ->> 'orderId' = any(${textArray(orderIds)})`,
            )
          : sql`false`,
      ),
    )
    .returning({ id: mailMessages.id });
  // outside production, the development mailbox's copies go too: what they were sent, and every
  // message about their orders (the members' new-order notices name them)
  await db.delete(devMailbox).where(
    or(
      sql`exists (select 1 from unnest(${devMailbox.envelopeTo}) e where lower(e) = ${email.toLowerCase()})`,
      orderIds.length
        ? sql`${devMailbox.messageId} in (select m.message_id from mail_messages m
            where m.business_id = ${businessId} and m.data ->> 'orderId' = any(${textArray(orderIds)}))`
        : sql`false`,
    ),
  );
  return rows.length;
}
