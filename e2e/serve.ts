/**
 * The platform as the browser tests see it: a fresh database on the shared test cluster, the demo
 * data, and web + worker in one process, on E2E_PORT.
 */
import { randomBytes } from "node:crypto";
import { dropDatabase, prepareTemplate, startTestCluster, cloneTemplate } from "../db/testing/cluster";
import { createDb } from "../db/client";
import { seedDemoData } from "../app/platform/demo/seed.server";
import { loadEnv } from "../app/platform/core/env.server";
import { createWebServer } from "../app/web.server";
import { startWorker } from "../jobs/worker";
import http from "node:http";
import { advanceClock } from "../app/platform/core/clock.server";
import { closeDuePeriods } from "../app/platform/billing/closing.server";
import { startDemoApps } from "../app/platform/demo/apps-server.server";

const port = Number(process.env.E2E_PORT ?? 3199);
// a cluster per port: two runs on one checkout (other ports) never stop each other's database
const { adminUrl, embedded } = await startTestCluster(port === 3199 ? "e2e-postgres" : `e2e-postgres-${port}`);
const template = await prepareTemplate(adminUrl, "e2e_");
const name = `e2e_${randomBytes(4).toString("hex")}`;
const url = await cloneTemplate(adminUrl, template, name);
const database = createDb(url);
const env = loadEnv({
  NODE_ENV: "test",
  PORT: String(port),
  // two origins on one port (decision 013): the platform on localhost, storefronts on 127.0.0.1
  PUBLIC_URL: `http://localhost:${port}`,
  STOREFRONT_URL: `http://127.0.0.1:${port}`,
  SESSION_SECRET: randomBytes(32).toString("base64url"),
  ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  OUTBOUND_ALLOW_PRIVATE: "true",
  DATA_DIR: ".data/e2e-tmp",
});
await seedDemoData(database.db, env);
const worker = await startWorker({ url, deps: { db: database.db, env }, concurrency: 4 });
const web = await createWebServer({ db: database.db, env, port, host: "127.0.0.1" });
// the demo marketplace's apps on their own origin, as npm start serves them (decision 062): PORT + 100
const demoApps = await startDemoApps({ db: database.db, env });
console.log(`e2e platform on ${web.url} (database ${name}), demo apps on ${demoApps.url}`);

// Test-only control of the one clock (web and worker share it in this process): POST /clock?ms=N moves
// it by N ms and runs the billing period closing at once, as the worker's crontab would within a minute.
// A spec that moves it forward moves it back when done: the other specs check times against the real one.
const control = http.createServer((req, res) => {
  const ms = Number(new URL(req.url ?? "/", "http://x").searchParams.get("ms"));
  if (req.method !== "POST" || !Number.isSafeInteger(ms)) return void res.writeHead(400).end();
  advanceClock(ms);
  closeDuePeriods(database.db).then(
    (done) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(done)),
    (e: Error) => res.writeHead(500).end(e.message),
  );
});
control.listen(port + 1000, "127.0.0.1");

const stop = async () => {
  control.close();
  await demoApps.close();
  await web.close();
  await worker.stop();
  await database.close();
  await dropDatabase(adminUrl, name).catch(() => {});
  await embedded?.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
