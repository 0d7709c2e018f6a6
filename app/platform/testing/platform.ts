/**
 * Starts the real platform for a test file: a cloned database, the Remix build behind the real
 * HTTP server on 127.0.0.1, and (on request) a real graphile-worker. Tests talk to it over HTTP.
 */
import { afterAll } from "vitest";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { businesses, pages } from "../../../db/schema";
import type { Worker } from "../../../jobs/worker";
import type { Database } from "../../../db/client";
import { testDatabase } from "../../../db/testing/database";
import { loadEnv, type Env } from "../core/env.server";
import { createWebServer } from "../../web.server";
import { isStorefrontPath } from "../core/areas";
import { startWorker } from "../../../jobs/worker";
import { createAccount, type Role } from "../accounts/accounts.server";
import { tokenForNewSession } from "../accounts/second-step.server";
import { TEST_TOTP_SECRET } from "./browser";
import { enrolKnownTotp } from "../accounts/second-factor.server";
import { seedDemoData } from "../demo/seed.server";
import { startDemoApps, type DemoAppsServer } from "../demo/apps-server.server";

/** An HTTP answer as the tests read it: the status, the headers, the text, and the JSON (null if none). */
export async function readAnswer(res: Response) {
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export type TestPlatform = Awaited<ReturnType<typeof startPlatform>>;

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: "test",
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    OUTBOUND_ALLOW_PRIVATE: "true",
    DATA_DIR: ".data/test-tmp",
    ...overrides,
  });
}

export async function startPlatform(
  options: {
    worker?: boolean;
    env?: Record<string, string>;
    readDb?: Database;
    /** the demo data and the demo apps server, as `npm start` has them (decision 062) */
    demo?: boolean;
  } = {},
) {
  const database = await testDatabase();
  // the origins are known once the server listens (below); placeholders until then
  const env = testEnv({
    PUBLIC_URL: "http://localhost",
    STOREFRONT_URL: "http://127.0.0.1",
    DEMO_APPS_PORT: "0",
    ...options.env,
  });
  const web = await createWebServer({ db: database.db, readDb: options.readDb, env, port: 0, host: "127.0.0.1" });
  // the two origins of the running server: the platform on localhost, the storefront on 127.0.0.1 (same port)
  if (!options.env?.PUBLIC_URL)
    Object.assign(env, { publicUrl: `http://localhost:${web.port}`, storefrontUrl: `http://127.0.0.1:${web.port}` });
  let demoApps: DemoAppsServer | null = null;
  if (options.demo) {
    await seedDemoData(database.db, env);
    demoApps = await startDemoApps({ db: database.db, env, port: 0 });
  }
  let worker: Worker | null = null;
  if (options.worker) worker = await startWorker({ url: database.url, deps: { db: database.db, env }, concurrency: 4 });
  afterAll(async () => {
    await worker?.stop();
    await demoApps?.close();
    await web.close();
  });

  const request = async (
    method: string,
    path: string,
    init: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
  ) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["Content-Type"] ??= "application/json";
    }
    // as a browser following links would: storefront pages on the storefront's origin, the rest on the platform's
    const res = await fetch((isStorefrontPath(path) ? env.storefrontUrl : env.publicUrl) + path, {
      method,
      headers,
      body,
      redirect: "manual",
    });
    return readAnswer(res);
  };

  /** Registers an account through the real API and returns its token. */
  const register = async (role: "DEVELOPER" | "MERCHANT", extra: Record<string, string> = {}) => {
    const email = `${role.toLowerCase()}-${randomBytes(5).toString("hex")}@example.test`;
    const res = await request("POST", "/auth/register", {
      body: {
        email,
        password: "correct horse battery",
        name: `${role} ${email.slice(0, 6)}`,
        role,
        ...(role === "MERCHANT" ? { businessName: `Shop ${email.slice(9, 15)}` } : {}),
        ...extra,
      },
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
    return {
      token: res.json.token as string,
      account: res.json.account,
      businessId: res.json.businessId as string,
      email,
      password: "correct horse battery",
    };
  };

  /** A merchant registered through the API, and its business's row. */
  const registerMerchant = async () => {
    const m = await register("MERCHANT");
    const [business] = await database.db.select().from(businesses).where(eq(businesses.id, m.businessId));
    return { m, business };
  };

  /** Accounts the API cannot create (reviewers), made directly. */
  const createUser = async (role: Role) => {
    const email = `${role.toLowerCase()}-${randomBytes(5).toString("hex")}@example.test`;
    const { account, business } = await createAccount(database.db, {
      email,
      password: "correct horse battery",
      name: role,
      role,
      businessName: "Shop",
    });
    // platform staff always have a second factor (decision 072): a test reviewer gets the demo's known secret
    if (role === "REVIEWER") await enrolKnownTotp(database.db, env, account.id, TEST_TOTP_SECRET);
    const token = await tokenForNewSession(database.db, env, account, { ip: "127.0.0.1", userAgent: "test" }, "test");
    return { account, business, token, email };
  };

  return {
    url: env.publicUrl,
    storefrontUrl: env.storefrontUrl,
    port: web.port,
    db: database.db,
    sql: database.sql,
    dbUrl: database.url,
    env,
    worker: () => worker,
    demoApps,
    request,
    register,
    registerMerchant,
    createUser,
    /** A business's site page row by its slug, as stored. */
    pageRow: async (businessId: string, slug: string) =>
      (
        await database.db
          .select()
          .from(pages)
          .where(and(eq(pages.businessId, businessId), eq(pages.slug, slug)))
      )[0],
  };
}

/**
 * A second platform in production mode on the database at `dbUrl` (fixed secrets; `env` adds
 * settings), for what only production does: https-only URLs, Secure cookies, HSTS.
 */
export function startProductionPlatform(dbUrl: string, env: Record<string, string> = {}) {
  return startPlatform({
    env: {
      NODE_ENV: "production",
      DATABASE_URL: dbUrl,
      SESSION_SECRET: "x".repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
      // required in production (contract 16); nothing listens there, and no test of this platform sends mail
      MAIL_URL: "smtp://127.0.0.1:9",
      ...env,
    },
  });
}
