/**
 * One PostgreSQL cluster for a whole test run, and a migrated template database that each test
 * file clones (CREATE DATABASE … TEMPLATE), so that every file starts from a clean, migrated
 * database in a few hundred milliseconds.
 *
 * TEST_DATABASE_URL (a superuser connection to any PostgreSQL 15+) replaces the embedded cluster.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { databaseUrl, startEmbeddedPostgres, type EmbeddedPostgres } from "../embedded";
import { migrateDatabase, migrationsFolder } from "../migrate";

export const FAST_SETTINGS = { fsync: "off", synchronous_commit: "off", full_page_writes: "off" };

/** `settings`: the server's settings (default FAST_SETTINGS; `{}` keeps PostgreSQL's crash-safe defaults). */
export async function startTestCluster(
  name: string,
  settings: Record<string, string> = FAST_SETTINGS,
): Promise<{ adminUrl: string; embedded: EmbeddedPostgres | null }> {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, embedded: null };
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(".data", name), settings });
  return { adminUrl: embedded.adminUrl, embedded };
}

/**
 * A throwaway cluster of this process alone (so that two test runs on one machine never stop each
 * other's server); `remove()` stops it and deletes its files.
 */
export async function startPrivateCluster(name: string) {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, remove: async () => {} };
  const dataDir = path.join(".data", `${name}-${process.pid}`);
  const embedded = await startEmbeddedPostgres({ dataDir, settings: FAST_SETTINGS });
  return {
    adminUrl: embedded.adminUrl,
    async remove() {
      await embedded.stop();
      const real = fs.existsSync(dataDir) ? fs.realpathSync(dataDir) : null;
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (real) fs.rmSync(real, { recursive: true, force: true });
      const pw = real ? path.join(path.dirname(real), path.basename(real) + ".password") : null;
      if (pw) fs.rmSync(pw, { force: true });
    },
  };
}

function templateName(): string {
  const hash = createHash("sha256");
  for (const file of fs.readdirSync(migrationsFolder).sort()) {
    const full = path.join(migrationsFolder, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const gwPkg = fileURLToPath(new URL("../../node_modules/graphile-worker/package.json", import.meta.url));
  if (fs.existsSync(gwPkg)) hash.update(JSON.parse(fs.readFileSync(gwPkg, "utf8")).version);
  return `tmpl_${hash.digest("hex").slice(0, 12)}`;
}

/** Creates (once per schema version) the migrated template, and drops leftovers of earlier runs. */
export async function prepareTemplate(adminUrl: string, prefix: string): Promise<string> {
  const name = templateName();
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const leftovers = await sql<
      { datname: string }[]
    >`select datname from pg_database where not datistemplate and datname like ${prefix.replace(/_/g, "\\_") + "%"} or (datname like 'tmpl\_%' and datname <> ${name})`;
    for (const { datname } of leftovers) {
      await sql.unsafe(`alter database "${datname}" is_template false`);
      await sql.unsafe(`drop database if exists "${datname}" with (force)`);
    }
    const [exists] = await sql`select 1 from pg_database where datname = ${name}`;
    if (!exists) {
      const building = `${name}_building`;
      await sql.unsafe(`drop database if exists "${building}" with (force)`);
      await sql.unsafe(`create database "${building}"`);
      await migrateDatabase(databaseUrl(adminUrl, building));
      await sql.unsafe(`alter database "${building}" rename to "${name}"`);
      await sql.unsafe(`alter database "${name}" is_template true`);
    }
  } finally {
    await sql.end();
  }
  return name;
}

/** A new database cloned from the template. */
export async function cloneTemplate(adminUrl: string, template: string, name: string): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await sql.unsafe(`create database "${name}" template "${template}"`);
        break;
      } catch (e) {
        // two clones at the same instant can collide on the template; try again
        if (attempt > 20 || !String((e as Error).message).includes("being accessed")) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await sql.end();
  }
  return databaseUrl(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await sql.end();
  }
}
