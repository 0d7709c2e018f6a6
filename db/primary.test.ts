/**
 * Several hosts in DATABASE_URL for `pg` (graphile-worker and its migrations; db/primary.ts): the
 * URL is read, each new connection goes to the host that answers as a primary, and a worker and the
 * start-up migrations run on such a URL. (A standby among the hosts, and the primary moving to it,
 * are exercised by the failover test: deploy/topology/failover.ts runs a worker on the nodes' list.)
 */
import { expect, it } from "vitest";
import net from "node:net";
import { quickAddJob, run } from "graphile-worker";
import { testDatabase } from "./testing/database";
import { handlePoolErrors, hostsOf, pgPool, withHost } from "./primary";
import { migrateDatabase, quietLogger } from "./migrate";

const database = await testDatabase();
const live = new URL(database.url);

/** A port nothing listens on: opened, then closed. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

it("reads the hosts of a URL and writes a URL for one of them", () => {
  const url = "postgres://u:p%40ss@10.0.0.1:5433,db-2/platform?target_session_attrs=primary&sslmode=disable";
  expect(hostsOf(url)).toEqual([
    { host: "10.0.0.1", port: 5433 },
    { host: "db-2", port: 5432 },
  ]);
  expect(withHost(url, { host: "db-2", port: 5432 })).toBe("postgres://u:p%40ss@db-2:5432/platform?sslmode=disable");
  expect(withHost("postgresql://h1:1,h2:2/x?target_session_attrs=primary", { host: "h2", port: 2 })).toBe(
    "postgresql://h2:2/x",
  );
  expect(hostsOf("postgres://u:p@10.0.0.1:5432/platform")).toBeNull();
});

it("sends each connection to the host that answers as the primary, and migrations and a worker run on the list", async () => {
  const dead = await deadPort();
  const url = `postgres://${live.username}:${live.password}@127.0.0.1:${dead},${live.hostname}:${live.port}${live.pathname}?target_session_attrs=primary`;
  const pool = pgPool(url, { max: 2, connectionTimeoutMillis: 3000 });
  handlePoolErrors(pool, () => {});
  try {
    const { rows } = await pool.query<{ port: number }>("select inet_server_port() as port");
    expect(rows[0].port).toBe(Number(live.port));
  } finally {
    await pool.end();
  }

  // start-up migrations (drizzle's through postgres.js, graphile-worker's through pg) on the list
  await migrateDatabase(url);

  // a graphile-worker runner on the list takes a job
  const done: unknown[] = [];
  const workerPool = pgPool(url, { max: 4 });
  handlePoolErrors(workerPool, () => {});
  const runner = await run({
    pgPool: workerPool,
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: 200,
    logger: quietLogger,
    taskList: { primary__probe: async (payload) => void done.push(payload) },
  });
  try {
    await quickAddJob({ pgPool: workerPool, logger: quietLogger }, "primary__probe", { n: 1 });
    for (let i = 0; i < 100 && done.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(done).toEqual([{ n: 1 }]);
  } finally {
    await runner.stop();
    await workerPool.end();
  }
});

it("names every host and why when none is a primary", async () => {
  const [a, b] = [await deadPort(), await deadPort()];
  const pool = pgPool(`postgres://u:p@127.0.0.1:${a},127.0.0.1:${b}/x`, { max: 1 });
  handlePoolErrors(pool, () => {});
  try {
    await expect(pool.query("select 1")).rejects.toThrow(
      new RegExp(`no primary among the database hosts \\(127\\.0\\.0\\.1:${a}: .*; 127\\.0\\.0\\.1:${b}: .*\\)`),
    );
  } finally {
    await pool.end();
  }
});
