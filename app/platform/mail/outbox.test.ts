/**
 * The outbox against a real SMTP server that is not the platform's own (contract 16): one message per
 * cause with a stable Message-ID, temporary failures retried until the server is back (each message
 * arrives once), permanent ones recorded with the server's answer, no header from a name.
 */
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { mailMessages } from "../../../db/schema";
import { startPlatform } from "../testing/platform";
import { startSmtp } from "../testing/smtp";
import { makeDue } from "../testing/jobs";
import { queueMail } from "./queue.server";
import { closeTransports } from "./transport.server";

const smtp = await startSmtp();
const p = await startPlatform({ worker: true, env: { MAIL_URL: smtp.url } });
afterAll(async () => {
  closeTransports();
  await smtp.stop().catch(() => {});
});

const rowOf = async (id: string) => (await p.db.select().from(mailMessages).where(eq(mailMessages.id, id)))[0];
async function until<T>(what: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the mail outbox", () => {
  it("writes one message per cause and sends it once with its Message-ID", async () => {
    const { account } = await p.register("DEVELOPER");
    const before = smtp.received.length;
    const ids = await p.db.transaction(async (tx) => [
      await queueMail(tx, {
        kind: "privacy.done",
        causeKey: "test:one",
        to: { address: account.email, name: "A" },
        accountId: account.id,
        data: { kind: "EXPORT", orders: 1, reviews: 0 },
      }),
      await queueMail(tx, {
        kind: "privacy.done",
        causeKey: "test:one",
        to: { address: account.email },
        accountId: account.id,
      }),
    ]);
    expect(ids[0]).toMatch(/^mail_/);
    expect(ids[1]).toBeNull();
    const row = await until(async () => {
      const r = await rowOf(ids[0]!);
      return r.status === "SENT" && r;
    });
    await new Promise((r) => setTimeout(r, 500));
    const got = smtp.received.slice(before).filter((m) => m.parsed.messageId === row.messageId);
    expect(got).toHaveLength(1);
    expect(row.messageId).toBe(`<${row.id}@localhost>`);
    expect(got[0].parsed.subject).toBe("A shopper's data export is ready");
    expect(got[0].parsed.text).toContain("The export covers 1 orders");
    expect(got[0].parsed.html).toContain("The export is ready");
    // a notification: one-click unsubscribe (RFC 8058)
    const header = (name: string) =>
      got[0].parsed.headerLines
        .find((h) => h.key === name)
        ?.line.replace(/\r?\n\s+/g, " ")
        .replace(/^[^:]+:\s*/, "");
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(header("list-unsubscribe")).toMatch(new RegExp(`^<${p.env.publicUrl}/unsubscribe\\?token=[\\w.-]+>$`));
  });

  it("a rolled-back cause writes no message and sends nothing", async () => {
    const { account } = await p.register("DEVELOPER");
    await expect(
      p.db.transaction(async (tx) => {
        await queueMail(tx, {
          kind: "privacy.done",
          causeKey: "test:rollback",
          to: { address: account.email },
          accountId: account.id,
        });
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");
    expect(await p.db.select().from(mailMessages).where(eq(mailMessages.causeKey, "test:rollback"))).toHaveLength(0);
  });

  it("a name with CR/LF adds no header", async () => {
    const before = smtp.received.length;
    const id = await queueMail(p.db, {
      kind: "privacy.done",
      causeKey: "test:crlf",
      to: { address: "shopper@example.test", name: "Eve\r\nBcc: victim@example.test\r\nX-Injected: yes" },
      data: { kind: "EXPORT" },
    });
    await until(async () => (await rowOf(id!)).status === "SENT");
    // this message (others of earlier tests, a registration's verification, may arrive in between)
    await smtp.waitFor(before + 1);
    const m = await until(async () =>
      smtp.received.slice(before).find((r) => r.envelopeTo.includes("shopper@example.test")),
    );
    expect(smtp.received.some((r) => r.envelopeTo.includes("victim@example.test"))).toBe(false);
    expect(m.parsed.headers.has("x-injected")).toBe(false);
    expect(m.parsed.headers.has("bcc")).toBe(false);
    expect(m.envelopeTo).toEqual(["shopper@example.test"]);
    expect(m.raw).not.toMatch(/^X-Injected:/im);
    expect(m.raw).not.toMatch(/^Bcc:/im);
  });

  it("messages queued while the SMTP server is down arrive once each when it is back", async () => {
    await smtp.stop();
    const before = smtp.received.length;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await queueMail(p.db, {
          kind: "privacy.done",
          causeKey: `test:down:${i}`,
          to: { address: `down${i}@example.test` },
          data: { kind: "EXPORT" },
        }))!,
      );
    // each was tried, failed for the refused connection, and waits for its next attempt
    for (const id of ids)
      await until(async () => {
        const r = await rowOf(id);
        return r.attempts >= 1 && r.nextAttemptAt !== null && r.status === "QUEUED" && r;
      });
    expect((await rowOf(ids[0])).lastError).toMatch(/ECONNECTION|ECONNREFUSED|connect/i);
    await smtp.start();
    await makeDue(p.db, "mail__send");
    for (const id of ids) await until(async () => (await rowOf(id)).status === "SENT");
    await new Promise((r) => setTimeout(r, 1000));
    const got = smtp.received.slice(before);
    expect(got.map((m) => m.envelopeTo[0]).sort()).toEqual([
      "down0@example.test",
      "down1@example.test",
      "down2@example.test",
    ]);
    for (const id of ids) expect(got.filter((m) => m.parsed.messageId === `<${id}@localhost>`)).toHaveLength(1);
  });

  it("a 4xx answer is retried, a 5xx answer fails the message with the server's words", async () => {
    smtp.answerWith({ code: 451, text: "Try again later" });
    const temp = await queueMail(p.db, {
      kind: "privacy.done",
      causeKey: "test:451",
      to: { address: "t@example.test" },
      data: { kind: "EXPORT" },
    });
    const waiting = await until(async () => {
      const r = await rowOf(temp!);
      return r.nextAttemptAt && r;
    });
    expect(waiting.status).toBe("QUEUED");
    expect(waiting.lastError).toContain("451");
    smtp.answerWith({ code: 550, text: "No such user here" });
    const perm = await queueMail(p.db, {
      kind: "privacy.done",
      causeKey: "test:550",
      to: { address: "p@example.test" },
      data: { kind: "EXPORT" },
    });
    const failed = await until(async () => {
      const r = await rowOf(perm!);
      return r.status === "FAILED" && r;
    });
    expect(failed.lastError).toContain("550");
    expect(failed.lastError).toContain("No such user here");
    expect(failed.attempts).toBe(1);
    smtp.answerWith(null);
    await makeDue(p.db, "mail__send");
    await until(async () => (await rowOf(temp!)).status === "SENT");
    expect((await rowOf(temp!)).messageId).toBe(waiting.messageId);
  });
});
