/**
 * The development mailbox (contract 16, decision 065): outside production, with MAIL_URL unset, every
 * worker process runs a real SMTP server on 127.0.0.1 (smtp-server) and sends to it over SMTP like to
 * any other; what it receives is parsed with mailparser and kept in `dev_mailbox`, so every process
 * of the platform (the web's /dev/mailbox included) sees the same messages.
 */
import { SMTPServer } from "smtp-server";
import { simpleParser, type AddressObject } from "mailparser";
import { desc, eq, sql } from "drizzle-orm";
import type { AddressInfo } from "node:net";
import type { Db } from "../../../db/client";
import { devMailbox } from "../../../db/schema";
import { ERASED_NAME, ERASED_TEXT } from "../core/erased";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { MAIL_KINDS, type MailKind } from "./kinds";
import { queueMail } from "./queue.server";

export type DevMailboxServer = { url: string; host: string; port: number; stop(): Promise<void> };

/** How many messages the mailbox keeps (the oldest go first). */
export const DEV_MAILBOX_KEEP = 500;
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const addressText = (a: AddressObject | AddressObject[] | undefined) =>
  !a ? "" : Array.isArray(a) ? a.map((x) => x.text).join(", ") : a.text;

export async function startDevMailbox(db: Db, options: { port?: number } = {}): Promise<DevMailboxServer> {
  const server = new SMTPServer({
    // development only, bound to loopback: no TLS to set up, no sign-in to configure
    secure: false,
    hideSTARTTLS: true,
    authOptional: true,
    disabledCommands: ["AUTH"],
    size: MAX_MESSAGE_BYTES,
    banner: "Storefront Apps development mailbox",
    logger: false,
    // a stop drops the connections the worker's pooled transport keeps open, instead of waiting 30 s
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        keep(
          db,
          raw,
          session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          session.envelope.rcptTo.map((r) => r.address),
        )
          .then(() => callback())
          .catch((e: Error) =>
            callback(Object.assign(new Error(`451 could not keep the message: ${e.message}`), { responseCode: 451 })),
          );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  server.on("error", (e) => console.error("[mailbox]", e.message));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    host: "127.0.0.1",
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function keep(db: Db, raw: Buffer, envelopeFrom: string, envelopeTo: string[]) {
  const parsed = await simpleParser(raw);
  // a message of the platform's whose shopper was erased while it was on its way (to them, or a
  // member's notice about their order) is not kept (contract 15)
  const own = /^<(mail_[A-Za-z0-9]+)@/.exec(parsed.messageId ?? "")?.[1];
  // the check and the copy in one transaction that holds the message's order's row and the message's
  // row: an erasure running at the same time (which changes both, then deletes the mailbox's copies)
  // either committed first, and the check sees it, or waits for this copy and deletes it. The rows
  // are locked in the erasure's order, the order first, so that the two never wait on each other
  // (a deadlock the privacy test met when a message arrived during the erasure)
  const kept = await db.transaction(async (tx) => {
    if (own) {
      // what the message is about never changes: read without a lock, to know which order to lock
      const [about] = await tx.execute<{ order_id: string | null }>(sql`
        select data ->> 'orderId' as order_id from mail_messages where id = ${own}`);
      if (about?.order_id) {
        const [order] = await tx.execute<{ customer_name: string }>(sql`
          select customer_name from orders where id = ${about.order_id} for share`);
        if (order?.customer_name === ERASED_NAME) return false;
      }
      const [message] = await tx.execute<{ to_address: string }>(sql`
        select to_address from mail_messages where id = ${own} for share`);
      if (message?.to_address === ERASED_TEXT) return false;
    }
    await tx.insert(devMailbox).values({
      id: newId("dm"),
      receivedAt: now(),
      envelopeFrom,
      envelopeTo,
      subject: parsed.subject ?? "",
      fromHeader: addressText(parsed.from),
      toHeader: addressText(parsed.to),
      messageId: parsed.messageId ?? "",
      html: typeof parsed.html === "string" ? parsed.html : null,
      text: parsed.text ?? null,
      raw: raw.toString("utf8"),
    });
    return true;
  });
  if (!kept) return;
  await db.execute(sql`delete from dev_mailbox where id in (
    select id from dev_mailbox order by created_at desc, id desc offset ${DEV_MAILBOX_KEEP})`);
}

export type DevMailboxEntry = Omit<typeof devMailbox.$inferSelect, "raw" | "html" | "text">;

/** The newest messages first. */
export async function listDevMailbox(db: Db, limit = 100): Promise<DevMailboxEntry[]> {
  return db
    .select({
      id: devMailbox.id,
      receivedAt: devMailbox.receivedAt,
      envelopeFrom: devMailbox.envelopeFrom,
      envelopeTo: devMailbox.envelopeTo,
      subject: devMailbox.subject,
      fromHeader: devMailbox.fromHeader,
      toHeader: devMailbox.toHeader,
      messageId: devMailbox.messageId,
    })
    .from(devMailbox)
    .orderBy(desc(devMailbox.receivedAt), desc(devMailbox.id))
    .limit(limit);
}

export async function getDevMailboxMessage(db: Db, id: string) {
  const [row] = await db.select().from(devMailbox).where(eq(devMailbox.id, id));
  return row ?? null;
}

export async function clearDevMailbox(db: Db) {
  await db.delete(devMailbox);
}

/** The mailbox's pages exist outside production only (contract 16): a 404 there. */
export function requireDevMailbox(env: { isProduction: boolean }) {
  if (env.isProduction) throw new Response("Not Found", { status: 404 });
}

/**
 * One message of every kind, made from the templates' samples and sent through the outbox and SMTP
 * like any other (the worker renders each from its fixture): how a developer, or the e2e test that
 * takes the catalogue's pictures, sees every template as a mail client would. Development only.
 */
export async function queueSamples(db: Db): Promise<number> {
  const batch = newId("smp");
  let queued = 0;
  for (const kind of Object.keys(MAIL_KINDS) as MailKind[]) {
    const id = await queueMail(db, {
      kind,
      causeKey: `sample:${batch}:${kind}`,
      to: { address: "samples@example.test", name: "Sample Reader" },
      data: { sample: true },
    });
    if (id) queued++;
  }
  return queued;
}
