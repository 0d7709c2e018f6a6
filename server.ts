/**
 * Entry point.
 *   tsx server.ts all      web + worker in one process (npm start)
 *   tsx server.ts web      the web server alone (npm run web)
 *   tsx server.ts worker   the worker alone (npm run worker)
 *   tsx server.ts reviewer:create EMAIL PASSWORD [NAME]
 */
// first: the patch of postgres.js's reconnect must be in place before anything loads the driver
import "./db/postgres-fix";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensurePublicSdk } from "./app/platform/runtime/public-sdk";

/** Builds the Remix app when the build is missing, or (outside production) older than its sources. */
function ensureBuild(isProduction: boolean) {
  const built = "build/index.js";
  let stale = !fs.existsSync(built);
  // under test the suite built once before it started (npm test): a process a test starts must not
  // rebuild the files other tests are serving at that moment
  if (!stale && !isProduction && process.env.NODE_ENV !== "test") {
    const builtAt = fs.statSync(built).mtimeMs;
    const newer = (dir: string): boolean =>
      fs.existsSync(dir) &&
      fs.readdirSync(dir, { withFileTypes: true }).some((e) => {
        const full = path.join(dir, e.name);
        return e.isDirectory() ? newer(full) : fs.statSync(full).mtimeMs > builtAt;
      });
    stale = ["app", "storefront", "db/schema"].some(newer);
  }
  if (stale) {
    console.log("Building the web app…");
    // the production build, as `npm run build` makes it, whatever this process's NODE_ENV (a build
    // under NODE_ENV=test would use React's development JSX runtime, which production React lacks)
    execFileSync(process.execPath, [path.resolve("node_modules/@remix-run/dev/dist/cli.js"), "build"], {
      stdio: "inherit",
      // Remix's CLI loads Vite's CJS build though the classic compiler never uses Vite (decision 039)
      env: { ...process.env, NODE_ENV: "production", VITE_CJS_IGNORE_WARNING: "1" },
    });
  }
}

// Signals may arrive while the platform's modules load or while it starts: remember them (instead of
// dying by signal) and shut down cleanly once started. The handlers are in place before the first
// platform module is even loaded; the modules come in through import() below.
let pendingSignal: string | null = null;
let shutdown: ((signal: string) => Promise<void>) | null = null;
const onSignal = (signal: string) => {
  if (shutdown) return void shutdown(signal);
  // a second signal while still starting (a start-up stuck waiting for its database): stop now
  if (pendingSignal) process.exit(130);
  pendingSignal = signal;
};
process.on("SIGINT", () => onSignal("SIGINT"));
process.on("SIGTERM", () => onSignal("SIGTERM"));
if (["all", "web", "worker", undefined].includes(process.argv[2])) console.log("Starting…");

async function main() {
  const [mode = "all", ...args] = process.argv.slice(2);
  const [
    { EnvError, loadEnv },
    { openDatabase },
    { DEMO_LOGINS, DEMO_REVIEWER_TOTP_SECRET },
    { createWebServer },
    { startWorker },
    { createAccount },
    { enrolKnownTotp, newTotpSecret },
    { ApiError },
    { startDemoApps },
  ] = await Promise.all([
    import("./app/platform/core/env.server"),
    import("./app/platform/runtime/database.server"),
    import("./app/platform/demo/seed.server"),
    import("./app/web.server"),
    import("./jobs/worker"),
    import("./app/platform/accounts/accounts.server"),
    import("./app/platform/accounts/second-factor.server"),
    import("./app/platform/core/http.server"),
    import("./app/platform/demo/apps-server.server"),
  ]);
  let env;
  try {
    env = loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }

  if (mode === "reviewer:create") {
    const [email, password, name = "Reviewer"] = args;
    if (!email || !password) {
      console.error("usage: npm run reviewer:create -- EMAIL PASSWORD [NAME]");
      process.exit(2);
    }
    const database = await openDatabase(env, { seed: false, log: () => {} });
    try {
      if (password.length < 8) throw new ApiError(400, "password must be at least 8 characters");
      const { account } = await createAccount(database.db, { email, password, name, role: "REVIEWER" });
      // platform staff always sign in with a second factor (decision 072): the reviewer starts with one
      const secret = newTotpSecret();
      await enrolKnownTotp(database.db, env, account.id, secret);
      console.log(`Reviewer ${account.email} created (${account.id}).`);
      console.log(`Add this secret to the reviewer's authenticator app (TOTP, SHA-1, 6 digits, 30 s): ${secret}`);
    } catch (e) {
      console.error(e instanceof ApiError ? `Could not create the reviewer: ${e.message}` : e);
      process.exitCode = 1;
    } finally {
      await database.close();
      await database.embedded?.stop();
    }
    return;
  }

  if (!["all", "web", "worker"].includes(mode)) {
    console.error(`unknown mode ${mode}; use all, web or worker`);
    process.exit(2);
  }

  if (mode !== "worker") {
    ensureBuild(env.isProduction);
    // the SDK's tarball and its reference every platform serves (/sdk/…, /sdk-reference/)
    ensurePublicSdk(process.cwd());
  }
  const database = await openDatabase(env);
  // graphile-worker LISTENs for new jobs ("jobs:insert"): a session-level path, DATABASE_DIRECT_URL
  // when DATABASE_URL is a pooler in transaction mode (decision 053)
  const worker =
    mode === "web"
      ? null
      : await startWorker({ url: env.databaseDirectUrl ?? database.url, deps: { db: database.db, env } });
  // a replica for the reads where staleness is harmless (READ_DATABASE_URL; app/platform/core/context.ts)
  const replica =
    mode !== "worker" && env.readDatabaseUrl
      ? (await import("./db/client")).createDb(env.readDatabaseUrl, { prepare: env.databasePrepare })
      : null;
  const web = mode === "worker" ? null : await createWebServer({ db: database.db, readDb: replica?.db, env });
  // the demo marketplace's apps, on an origin of their own (decision 062): npm start only
  const demoApps =
    mode === "all" && env.demoApps
      ? await startDemoApps({
          db: database.db,
          env,
          log: (line) => console.log(`[demo apps] ${line}`),
        }).catch((e: Error) => {
          console.error(`  The demo apps could not start (${e.message}); set DEMO_APPS_PORT to a free port, or off.`);
          return null;
        })
      : null;

  if (web) {
    console.log(
      `\n  Storefront App Platform is running at ${env.publicUrl}${web.port !== env.port ? ` (port ${web.port})` : ""}`,
    );
    console.log(`  Storefronts are served at           ${env.storefrontUrl} (an origin of their own)\n`);
    console.log("  Demo logins:");
    for (const l of DEMO_LOGINS) console.log(`    ${l.role.padEnd(9)} ${l.email.padEnd(22)} ${l.password}`);
    console.log(`    (the reviewer's authenticator secret, TOTP: ${DEMO_REVIEWER_TOTP_SECRET})`);
    console.log(`  Demo storefront: ${env.storefrontUrl}/s/demo-bistro`);
    if (!env.mailUrl && !env.isProduction)
      console.log(
        `  Mailbox (development): ${env.publicUrl}/dev/mailbox${worker?.mailbox ? ` (SMTP ${worker.mailbox.host}:${worker.mailbox.port})` : ""}`,
      );
    else if (env.mailUrl) console.log(`  E-mail goes to ${new URL(env.mailUrl).host} (MAIL_URL)`);
    console.log("");
    if (demoApps) {
      console.log(`  Demo apps are served at             ${demoApps.url} (an origin of their own):`);
      for (const a of demoApps.apps) console.log(`    ${a.name.padEnd(19)} ${a.url}`);
      console.log("");
    }
  } else {
    console.log("  Worker running.");
    if (worker?.mailbox)
      console.log(
        `  Development mailbox: SMTP ${worker.mailbox.host}:${worker.mailbox.port}, read at ${env.publicUrl}/dev/mailbox`,
      );
  }

  let stopping = false;
  // while stopping, a pool noticing that the database went away is expected, not a crash; so is a
  // lost connection while running (the database restarts): pools reconnect, the sweeper re-queues
  const CONNECTION_ERRORS = new Set([
    "57P01",
    "57P02",
    "57P03",
    "ECONNREFUSED",
    "ECONNRESET",
    "EPIPE",
    "CONNECTION_CLOSED",
    "CONNECTION_ENDED",
  ]);
  const whileStopping = (error: unknown) => {
    if (stopping) return;
    const code = (error as { code?: string })?.code;
    if (code && CONNECTION_ERRORS.has(code)) {
      console.error(`[server] lost a database connection (${code}); reconnecting`);
      return;
    }
    // the database drivers can throw from a socket that closed under them (a restart, a failover)
    const stack = String((error as Error)?.stack ?? "");
    const message = String((error as Error)?.message ?? "");
    if (
      /node_modules[\\/](pg|pg-pool|postgres)[\\/]/.test(stack) ||
      /Connection terminated|not queryable|terminating connection/.test(message)
    ) {
      console.error(
        `[server] a database client failed after its connection closed (${(error as Error).message}); reconnecting`,
      );
      return;
    }
    console.error(error);
    process.exit(1);
  };
  process.on("unhandledRejection", whileStopping);
  process.on("uncaughtException", whileStopping);
  shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    // in-flight requests and jobs finish first; every step runs even if one fails
    const steps: [string, (() => Promise<void>) | undefined][] = [
      ["web server", web?.close],
      ["demo apps", demoApps?.close],
      ["worker", worker?.stop],
      ["database pool", database.close],
      ["replica pool", replica?.close],
      ["embedded postgres", database.embedded?.stop],
    ];
    let failed = false;
    for (const [name, step] of steps) {
      try {
        await step?.();
      } catch (e) {
        failed = true;
        console.error(`could not stop the ${name}:`, e);
      }
    }
    process.exit(failed ? 1 : 0);
  };
  if (pendingSignal) void shutdown(pendingSignal);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
