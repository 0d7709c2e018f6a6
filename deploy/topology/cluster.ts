/**
 * What the cluster says of itself: Patroni's leader and members, haproxy's view of its servers,
 * PostgreSQL's own replication state, and the wait for all three to agree (a steady cluster); psql
 * for the statements the topology sends as the superuser.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import net from "node:net";
import path from "node:path";
import { PG_BIN, type Topology } from "./settings";
import { waitFor } from "./processes";

/** The node names Patroni reports as leader and (synchronous) standby. */
export async function clusterState(t: Topology): Promise<{ leader: string | null; members: Record<string, string> }> {
  for (const port of t.ports.patroni) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/cluster`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { members: { name: string; role: string; state: string }[] };
      const members = Object.fromEntries(body.members.map((m) => [m.name, `${m.role}/${m.state}`]));
      const leader = body.members.find((m) => m.role === "leader" && m.state === "running")?.name ?? null;
      return { leader, members };
    } catch {
      // try the other node
    }
  }
  return { leader: null, members: {} };
}

export const psql = (t: Topology, port: number, sqlText: string, db = "postgres") =>
  execFileSync(
    `${PG_BIN}/psql`,
    ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", db, "-qAtc", sqlText],
    {
      env: { ...process.env, PGPASSWORD: t.password, PGCONNECT_TIMEOUT: "5" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 15_000,
    },
  ).trim();

/** psql without blocking the event loop (the failover test's clients run meanwhile). */
const psqlAsync = async (t: Topology, port: number, sqlText: string) =>
  (
    await promisify(execFile)(
      `${PG_BIN}/psql`,
      ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-qAtc", sqlText],
      { env: { ...process.env, PGPASSWORD: t.password, PGCONNECT_TIMEOUT: "5" }, encoding: "utf8", timeout: 15_000 },
    )
  ).stdout.trim();

/** haproxy's view of the servers of `proxy` (its stats socket): name → status ("UP", "DOWN", "UP 1/2", …). */
export async function haproxyServers(t: Topology, proxy: string): Promise<Record<string, string>> {
  const text = await new Promise<string>((resolve, reject) => {
    let out = "";
    const socket = net.connect(path.join(t.dir, "haproxy.sock"), () => socket.write("show stat\n"));
    socket.setTimeout(2000, () => socket.destroy(new Error("haproxy's stats socket did not answer")));
    socket.on("data", (c) => (out += c));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
  const [header, ...rows] = text.trim().split("\n");
  const columns = header.replace(/^# /, "").split(",");
  const [px, sv, status] = ["pxname", "svname", "status"].map((c) => columns.indexOf(c));
  return Object.fromEntries(
    rows
      .map((r) => r.split(","))
      .filter((r) => r[px] === proxy && r[sv] !== "FRONTEND" && r[sv] !== "BACKEND")
      .map((r) => [r[sv], r[status]]),
  );
}

/**
 * What a steady cluster looks like now, or null: Patroni's leader running, its synchronous standby
 * streaming as PostgreSQL on the leader itself reports it (pg_stat_replication: one standby,
 * sync, streaming; the leader out of recovery), and, once haproxy runs, haproxy's primary port
 * sending to the leader alone.
 */
async function steadyState(t: Topology, withHaproxy: boolean): Promise<string | null> {
  try {
    const { leader, members } = await clusterState(t);
    const standby = Object.entries(members).find(
      ([, m]) => m === "sync_standby/streaming" || m === "sync_standby/running",
    );
    if (!leader || !standby) return null;
    const onLeader = await psqlAsync(
      t,
      t.ports.pg[leader === "pg1" ? 0 : 1],
      "select pg_is_in_recovery()::text || ' ' || (select count(*) from pg_stat_replication where sync_state = 'sync' and state = 'streaming')",
    );
    if (onLeader !== "false 1") return null;
    if (withHaproxy) {
      const servers = await haproxyServers(t, "pg_primary");
      if (servers[leader] !== "UP") return null;
      if (Object.entries(servers).some(([name, status]) => name !== leader && !status.startsWith("DOWN"))) return null;
    }
    return `${leader} leads, ${standby[0]} streams synchronously`;
  } catch {
    return null;
  }
}

/**
 * Waits until the cluster is steady (steadyState) and has stayed so, unchanged, for a second:
 * seen twice, with no other answer between. A new cluster goes through a few states on its way
 * (haproxy starts with every server up until its first checks; Patroni's first loops), and a
 * statement sent on the first good answer could find no server (issue 39: `psql` exit 2 in 1 of
 * 4 clean runs). Returns the leader's name.
 */
export async function waitForSteadyCluster(t: Topology, options: { haproxy: boolean; timeoutMs?: number }) {
  let seen: string | null = null;
  let since = 0;
  await waitFor(
    `a steady cluster (leader running, synchronous standby streaming${options.haproxy ? ", haproxy agreeing" : ""})`,
    async () => {
      const state = await steadyState(t, options.haproxy);
      if (state === null || state !== seen) {
        seen = state;
        since = Date.now();
        return false;
      }
      return Date.now() - since >= 1000;
    },
    options.timeoutMs ?? 180_000,
  );
  return seen!.split(" ")[0];
}

/** A statement through `port`, sent again (up to a minute) while it fails: `statement` must be safe to repeat. */
export async function psqlRetrying(t: Topology, port: number, statement: string): Promise<string> {
  let out = "";
  await waitFor(`psql: ${statement.replace(t.password, "***")}`, () => {
    out = psql(t, port, statement);
    return true;
  });
  return out;
}
