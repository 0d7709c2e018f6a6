import { describe, expect, it, afterAll } from "vitest";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";

const dataDir = path.resolve(".data", `embedded-test-${process.pid}`);
const started: EmbeddedPostgres[] = [];

async function start() {
  const pg = await startEmbeddedPostgres({ dataDir });
  started.push(pg);
  return pg;
}

async function query<T extends object>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

afterAll(async () => {
  for (const pg of started) await pg.stop();
  // the data directory (or, as root, its relocated target) goes with the test
  const real = fs.existsSync(dataDir) ? fs.realpathSync(dataDir) : null;
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (real && real !== dataDir) fs.rmSync(real, { recursive: true, force: true });
});

describe("embedded PostgreSQL", () => {
  it("creates a UTF-8 cluster on first start and keeps data across a restart", async () => {
    const first = await start();
    const info = await query(first.adminUrl, async (sql) => {
      await sql`create table kept (v text)`;
      await sql`insert into kept values ('still here ✓')`;
      const [row] =
        await sql`select current_setting('server_encoding') as enc, current_setting('server_version_num')::int as v`;
      return row;
    });
    expect(info.enc).toBe("UTF8");
    expect(info.v).toBeGreaterThanOrEqual(150000);
    await first.stop();

    const second = await start();
    const rows = await query(second.adminUrl, (sql) => sql`select v from kept`);
    expect(rows.map((r) => r.v)).toEqual(["still here ✓"]);
    await second.stop();
  });

  it("starts after a crash left a stale postmaster.pid behind", async () => {
    const real = fs.realpathSync(dataDir);
    fs.writeFileSync(path.join(real, "postmaster.pid"), `999999\n${real}\n0\n0\n`);
    const pg = await start();
    const rows = await query(pg.adminUrl, (sql) => sql`select v from kept`);
    expect(rows).toHaveLength(1);
    await pg.stop();
  });

  it("comes back when its parent was killed with SIGKILL and left the server running", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "db/testing/embedded-child.ts", dataDir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const firstUrl = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += d;
        const m = /READY (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`child exited ${code}`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    // the orphaned server still answers
    const orphan = await query(firstUrl, (sql) => sql`select 1 as one`);
    expect(orphan[0].one).toBe(1);

    const pg = await start();
    const rows = await query(pg.adminUrl, (sql) => sql`select v from kept`);
    expect(rows).toHaveLength(1);
    // the orphan was shut down, not left beside the new server
    await expect(
      query(firstUrl === pg.adminUrl ? "postgres://x@127.0.0.1:1/x" : firstUrl, (sql) => sql`select 1`),
    ).rejects.toThrow();
  });
});
