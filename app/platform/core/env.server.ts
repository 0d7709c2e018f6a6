/**
 * Settings, read once from the environment through one schema and validated at start.
 * Contract section 0. Secrets are generated and kept under .data/ when unset outside production.
 */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import proxyaddr from "proxy-addr";

const boolString = z.enum(["true", "false"]).transform((v) => v === "true");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  READ_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  PUBLIC_URL: z.string().url().optional(),
  STOREFRONT_URL: z.string().url().optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, "base64").length === 32, "must be 32 random bytes, base64-encoded")
    .optional(),
  APP_API_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  OUTBOUND_ALLOW_PRIVATE: boolString.optional(),
  DATA_DIR: z.string().default(".data"),
  MAIL_URL: z
    .string()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "smtp:" || u.protocol === "smtps:") && !!u.hostname && !/[\r\n]/.test(v);
      } catch {
        return false;
      }
    }, "must be smtp://[user:pass@]host:port (STARTTLS when offered) or smtps://… (implicit TLS)")
    .optional(),
  MAIL_FROM: z
    .string()
    .max(300)
    .refine((v) => !/[\r\n\u0000]/.test(v), "must be one line")
    .refine(
      (v) => /^[^<>@\s]+@[^<>@\s]+$/.test(v) || /^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(v.trim()),
      "must be an address or Name <address>",
    )
    .optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().max(100).default(10),
  MAIL_CONCURRENCY: z.coerce.number().int().positive().max(50).default(2),
  WORKER_STRANDED_AFTER_MS: z.coerce.number().int().min(1000).default(60_000),
  DATABASE_PREPARE: boolString.default(true),
  DEMO_APPS_PORT: z
    .union([z.literal("off"), z.coerce.number().int().min(0).max(65535)], {
      message: "must be a port (0-65535: 0 picks a free one) or off",
    })
    .optional(),
  DEMO_APPS_URL: z.string().url().optional(),
  TRUSTED_PROXIES: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => {
        try {
          proxyaddr.compile(list);
          return true;
        } catch {
          return false;
        }
      },
      { message: "must be IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal), separated by commas" },
    )
    .optional(),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  databaseUrl?: string;
  /**
   * a session-level path to the primary for the start-up's migrations (they hold an advisory lock
   * for the session); DATABASE_URL when unset. Set it when DATABASE_URL is a pooler in transaction mode.
   */
  databaseDirectUrl?: string;
  /** a replica for reads where staleness is harmless (core/context.ts replicaOf); none when unset */
  readDatabaseUrl?: string;
  /** the platform's origin: admin, portal, reviewer, sign-in, consent, marketplace */
  publicUrl: string;
  /** the storefront's origin (`/s/<business>`): another host, so it never holds the platform's session */
  storefrontUrl: string;
  sessionSecret: string;
  encryptionKey: Buffer;
  appApiRateLimit: number;
  outboundAllowPrivate: boolean;
  dataDir: string;
  workerConcurrency: number;
  /** Messages one worker sends at once, in a lane of their own beside the other jobs (decision 087). */
  mailConcurrency: number;
  /** how long after it was due a job counts as lost and is re-queued by the sweeper */
  workerStrandedAfterMs: number;
  /** named prepared statements (db/client.ts); false behind a pooler in transaction mode that cannot keep them */
  databasePrepare: boolean;
  /**
   * the peers whose X-Forwarded-For is believed (a balancer, a CDN): the client's address is then the
   * nearest one in that header that is not itself trusted; empty (the default): only the socket's peer
   */
  trustedProxies: string[];
  /**
   * the demo marketplace's apps, served by `npm start` on an origin of their own (decision 062): the
   * port they listen on (0: a free one) and their public origin; null when they are off
   */
  demoApps: { port: number; url: string } | null;
  /** the outgoing SMTP server (contract 16); none outside production: the embedded development mailbox */
  mailUrl?: string;
  /** the From of every message: MAIL_FROM, else `Storefront Apps <no-reply@PUBLIC_URL's host>` */
  mailFrom: string;
};

export class EnvError extends Error {}

/** Reads and validates the environment. Throws EnvError naming every bad setting. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid settings:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";
  let sessionSecret = e.SESSION_SECRET;
  let encryptionKey = e.ENCRYPTION_KEY;
  if (isProduction) {
    const missing = [
      !sessionSecret && "SESSION_SECRET",
      !encryptionKey && "ENCRYPTION_KEY",
      !e.DATABASE_URL && "DATABASE_URL",
      !e.STOREFRONT_URL && "STOREFRONT_URL",
      !e.MAIL_URL && "MAIL_URL",
    ].filter(Boolean);
    if (missing.length)
      throw new EnvError(`Invalid settings:\n${missing.map((m) => `  ${m}: required in production`).join("\n")}`);
  } else if (!sessionSecret || !encryptionKey) {
    const kept = keptSecrets(e.DATA_DIR);
    sessionSecret ??= kept.SESSION_SECRET;
    encryptionKey ??= kept.ENCRYPTION_KEY;
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  const storefrontUrl = (e.STOREFRONT_URL ?? defaultStorefrontUrl(publicUrl)).replace(/\/$/, "");
  const originProblem = checkOrigins(publicUrl, storefrontUrl);
  if (originProblem) throw new EnvError(`Invalid settings:\n  ${originProblem}`);
  const demoApps = demoAppsSetting(e, publicUrl, storefrontUrl);
  if (typeof demoApps === "string") throw new EnvError(`Invalid settings:\n  ${demoApps}`);
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    readDatabaseUrl: e.READ_DATABASE_URL,
    publicUrl,
    storefrontUrl,
    sessionSecret: sessionSecret!,
    encryptionKey: Buffer.from(encryptionKey!, "base64"),
    appApiRateLimit: e.APP_API_RATE_LIMIT,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE ?? !isProduction,
    dataDir: e.DATA_DIR,
    workerConcurrency: e.WORKER_CONCURRENCY,
    mailConcurrency: e.MAIL_CONCURRENCY,
    workerStrandedAfterMs: e.WORKER_STRANDED_AFTER_MS,
    databasePrepare: e.DATABASE_PREPARE,
    trustedProxies: e.TRUSTED_PROXIES ?? [],
    demoApps,
    mailUrl: e.MAIL_URL,
    mailFrom: e.MAIL_FROM?.trim() ?? `Storefront Apps <no-reply@${new URL(publicUrl).hostname}>`,
  };
}

/**
 * Where the demo apps run (decision 062): DEMO_APPS_PORT (default PORT + 100; `off` turns them off)
 * and DEMO_APPS_URL (default http on the other loopback name than PUBLIC_URL's host, at that port,
 * so the platform's session cookie never reaches them). Without DEMO_APPS_URL they run only when
 * PUBLIC_URL is on loopback: a visitor of a deployed platform could not reach a loopback address.
 * An error message when the setting is wrong.
 */
function demoAppsSetting(
  e: { PORT: number; DEMO_APPS_PORT?: number | "off"; DEMO_APPS_URL?: string },
  publicUrl: string,
  storefrontUrl: string,
): { port: number; url: string } | null | string {
  if (e.DEMO_APPS_PORT === "off") return null;
  const port = e.DEMO_APPS_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 100);
  if (port > 65535) return `DEMO_APPS_PORT: PORT + 100 is above 65535; set DEMO_APPS_PORT (or off)`;
  const platformHost = new URL(publicUrl).hostname;
  let url = e.DEMO_APPS_URL?.replace(/\/$/, "");
  if (!url) {
    const loopback: Record<string, string> = { localhost: "127.0.0.1", "127.0.0.1": "localhost" };
    if (!loopback[platformHost]) return null;
    url = `http://${loopback[platformHost]}:${port}`;
  }
  const parsed = new URL(url);
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.origin !== url)
    return "DEMO_APPS_URL: must be an http(s) origin only (scheme, host and port; no path, query or credentials)";
  if (parsed.hostname === platformHost)
    return "DEMO_APPS_URL: must have a different host from PUBLIC_URL (the platform's session cookie would reach the demo apps)";
  // port 0 (tests) is known only once the server listens, and the origin is then set to the real one
  if (port !== 0 && (parsed.origin === new URL(storefrontUrl).origin || parsed.origin === new URL(publicUrl).origin))
    return "DEMO_APPS_URL: must be an origin of its own, neither PUBLIC_URL's nor STOREFRONT_URL's";
  return { port, url };
}

/**
 * Without STOREFRONT_URL, the storefront takes the other loopback name of PUBLIC_URL's host on the same
 * port (localhost <-> 127.0.0.1): two hosts, so two cookie jars, and nothing to set up on a fresh machine.
 */
function defaultStorefrontUrl(publicUrl: string): string {
  const url = new URL(publicUrl);
  const other: Record<string, string> = { localhost: "127.0.0.1", "127.0.0.1": "localhost" };
  if (!other[url.hostname]) return "";
  url.hostname = other[url.hostname];
  return url.origin;
}

/** Both addresses are bare http(s) origins, and the storefront's host differs from the platform's. */
function checkOrigins(publicUrl: string, storefrontUrl: string): string | null {
  if (!storefrontUrl)
    return "STOREFRONT_URL: required when PUBLIC_URL is not on localhost or 127.0.0.1 (a host of its own for the storefront)";
  for (const [name, value] of [
    ["PUBLIC_URL", publicUrl],
    ["STOREFRONT_URL", storefrontUrl],
  ] as const) {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return `${name}: must be an http(s) address`;
    if (url.origin !== value)
      return `${name}: must be an origin only (scheme, host and port; no path, query or credentials)`;
  }
  if (new URL(publicUrl).hostname === new URL(storefrontUrl).hostname)
    return "STOREFRONT_URL: must have a different host from PUBLIC_URL (the storefront runs app scripts and must never see the platform's session)";
  return null;
}

function keptSecrets(dataDir: string): { SESSION_SECRET: string; ENCRYPTION_KEY: string } {
  const file = path.join(dataDir, "secrets.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8"));
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
