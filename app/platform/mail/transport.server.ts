/**
 * The outgoing channel (contract 16): SMTP through nodemailer, to MAIL_URL (`smtp://` upgrades with
 * STARTTLS when the server offers it, `smtps://` is implicit TLS, user and password in the URL
 * authenticate) or, outside production without MAIL_URL, to the embedded development mailbox, over
 * SMTP like any other server.
 */
import nodemailer, { type Transporter } from "nodemailer";

export type OutgoingMessage = {
  from: string;
  to: { name: string; address: string };
  subject: string;
  messageId: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
};

/** What a send came to: accepted, or a failure that is worth another try (4xx, network) or not (5xx). */
export type SendOutcome =
  { ok: true; response: string } | { ok: false; temporary: boolean; error: string; responseCode: number | null };

const transports = new Map<string, Transporter>();

/** One pooled transporter per server address. */
export function transportFor(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    const u = new URL(url);
    t = nodemailer.createTransport({
      host: u.hostname,
      port: Number(u.port) || (u.protocol === "smtps:" ? 465 : 587),
      // smtps:// is TLS from the first byte; smtp:// upgrades with STARTTLS whenever the server offers it
      secure: u.protocol === "smtps:",
      // a few connections kept open and reused: a new connection a message waits for the server's
      // greeting every time (smtp-server pauses 100 ms before it, Postfix's postscreen seconds)
      pool: true,
      maxConnections: 5,
      maxMessages: 1000,
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      // 30 s to connect and to greet, 60 s of silence at most: a stuck server is a temporary failure
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    transports.set(url, t);
  }
  return t;
}

/** Forgets the transporters (tests that restart a server on the same address; shutdown). */
export function closeTransports() {
  for (const t of transports.values()) t.close();
  transports.clear();
}

/**
 * No value becomes a header of its own (contract 16): line breaks and other control characters in a
 * name or subject are turned into spaces before nodemailer encodes them (which it also does, with
 * RFC 2047 words for anything but plain ASCII).
 */
export const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

/** An address the platform will put in a header: one line, one @, no spaces or angle brackets. */
export const isMailAddress = (value: string) => /^[^\s<>@",;:()[\]\\]+@[^\s<>@",;:()[\]\\]+$/.test(value);

export async function sendMessage(url: string, message: OutgoingMessage): Promise<SendOutcome> {
  if (!isMailAddress(message.to.address))
    return {
      ok: false,
      temporary: false,
      error: `not an e-mail address: ${JSON.stringify(message.to.address)}`,
      responseCode: null,
    };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = oneLine(v);
  try {
    const info = await transportFor(url).sendMail({
      from: message.from,
      to: { name: oneLine(message.to.name), address: message.to.address },
      subject: oneLine(message.subject),
      messageId: message.messageId,
      html: message.html,
      text: message.text,
      headers,
      // the envelope is the message's own address: nothing a header might hold adds a recipient
      envelope: { from: addressOf(message.from), to: [message.to.address] },
    });
    return { ok: true, response: String(info.response ?? "") };
  } catch (e) {
    const err = e as Error & { responseCode?: number; response?: string; code?: string };
    const responseCode = typeof err.responseCode === "number" ? err.responseCode : null;
    // a 5xx answer is the server's final word; everything else (4xx, refused, dropped, timed out) may pass
    const temporary = responseCode === null ? true : responseCode < 500;
    const error = (err.response ?? `${err.code ?? "ERROR"} ${err.message}`).slice(0, 1000);
    return { ok: false, temporary, error, responseCode };
  }
}

/** The bare address of `Name <address>` or of `address`. */
export function addressOf(from: string): string {
  const m = /<([^<>]+)>\s*$/.exec(from);
  return (m ? m[1] : from).trim();
}
