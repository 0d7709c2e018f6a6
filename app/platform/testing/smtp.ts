/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server + mailparser): it keeps every message it
 * accepts, can answer a chosen reply code, and can be stopped and started again on the same port.
 */
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";

export type Received = { parsed: ParsedMail; raw: string; envelopeTo: string[] };

export async function startSmtp(options: { port?: number } = {}) {
  const received: Received[] = [];
  /** when set, every message is answered with this code and text instead of being kept */
  let answer: { code: number; text: string } | null = null;
  let server: SMTPServer;
  let port = options.port ?? 0;

  const make = () =>
    new SMTPServer({
      secure: false,
      hideSTARTTLS: true,
      authOptional: true,
      logger: false,
      // a stop drops the connections clients keep open (the platform's pooled transport) at once,
      // as a server going away does, instead of waiting 30 s for them to leave
      closeTimeout: 100,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", async () => {
          if (answer) return callback(Object.assign(new Error(answer.text), { responseCode: answer.code }));
          const raw = Buffer.concat(chunks);
          received.push({
            parsed: await simpleParser(raw),
            raw: raw.toString("utf8"),
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        });
      },
    });

  const start = async () => {
    server = make();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  };
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await start();

  return {
    received,
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    answerWith(a: { code: number; text: string } | null) {
      answer = a;
    },
    start,
    stop,
    /** Waits until `n` messages arrived (or throws after `ms`). */
    async waitFor(n: number, ms = 20_000): Promise<Received[]> {
      const until = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} messages, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
  };
}

/** The first link in a text part that starts with `prefix`. */
export function linkIn(text: string, prefix: string): string {
  const m = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\S+`).exec(text);
  if (!m) throw new Error(`no link to ${prefix} in:\n${text}`);
  return m[0];
}
