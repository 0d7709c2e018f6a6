/**
 * Several PostgreSQL hosts in DATABASE_URL for the driver that takes one (issue 34 point 2, decision
 * 038): `postgres://u:p@h1:5432,h2:5432/platform?target_session_attrs=primary`. postgres.js (the web
 * processes, the worker's own queries) tries the hosts itself; `pg`, which graphile-worker and its
 * migrations use, takes a single host. For `pg`, each new connection goes to the host that is the
 * primary when it connects: the hosts are asked in turn (`pg_is_in_recovery()`), the answer kept
 * for a moment, and asked again after a connection fails. A connection open when its primary dies
 * fails with it (PostgreSQL cannot demote a running server), and the pool's next one follows the
 * new primary.
 */
import pg from "pg";
import postgres from "postgres";

type Host = { host: string; port: number };

/** A postgres URL's three parts: scheme with credentials, the host list, and the path with its query. */
const URL_PARTS = /^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)([^/?]*)(.*)$/;

/** The hosts of a URL with several (`h1:p1,h2:p2`), or null for a URL with one. */
export function hostsOf(url: string): Host[] | null {
  const list = URL_PARTS.exec(url)?.[2];
  if (!list?.includes(",")) return null;
  return list.split(",").map((h) => {
    const at = h.lastIndexOf(":");
    return at > 0 && !h.endsWith("]")
      ? { host: h.slice(0, at), port: Number(h.slice(at + 1)) }
      : { host: h, port: 5432 };
  });
}

/** The URL with one host in place of the list, and without target_session_attrs (which `pg` does not know). */
export function withHost(url: string, { host, port }: Host): string {
  const match = URL_PARTS.exec(url)!;
  const rest = match[3].replace(/([?&])target_session_attrs=[^&]*&?/, "$1").replace(/[?&]$/, "");
  return `${match[1]}${host}:${port}${rest}`;
}

const KEEP_MS = 2_000;

/** Finds the primary among `hosts`: the first that answers and is not in recovery. */
function primaryFinder(url: string, hosts: Host[]) {
  let known: { host: Host; at: number } | null = null;
  let asking: Promise<Host> | null = null;
  const ask = async (): Promise<Host> => {
    const seen: string[] = [];
    for (const host of hosts) {
      const probe = postgres(withHost(url, host), { max: 1, connect_timeout: 3, idle_timeout: 1, onnotice: () => {} });
      try {
        const [{ standby }] = await probe<{ standby: boolean }[]>`select pg_is_in_recovery() as standby`;
        if (!standby) return host;
        seen.push(`${host.host}:${host.port} is a standby`);
      } catch (e) {
        seen.push(`${host.host}:${host.port}: ${(e as Error).message}`);
      } finally {
        await probe.end({ timeout: 1 }).catch(() => undefined);
      }
    }
    throw new Error(`no primary among the database hosts (${seen.join("; ")})`);
  };
  return {
    async primary(): Promise<Host> {
      if (known && Date.now() - known.at < KEEP_MS) return known.host;
      asking ??= ask().finally(() => (asking = null));
      const host = await asking;
      known = { host, at: Date.now() };
      return host;
    },
    /** A connection failed: the next one asks again. */
    forget() {
      known = null;
    },
  };
}

/**
 * A `pg` pool on `url`: an ordinary one for one host; for several, one whose every new connection
 * goes to the current primary.
 */
export function pgPool(url: string, config: pg.PoolConfig = {}): pg.Pool {
  const hosts = hostsOf(url);
  if (!hosts) return new pg.Pool({ ...config, connectionString: url });
  const finder = primaryFinder(url, hosts);
  class PrimaryClient extends pg.Client {
    // pg's one place where a client opens its socket (pg 8): the host is chosen just before
    _connect(callback: (error: Error | null) => void) {
      finder.primary().then(
        ({ host, port }) => {
          Object.assign(this, { host, port });
          (pg.Client.prototype as unknown as { _connect(cb: typeof callback): void })._connect.call(this, (error) => {
            if (error) finder.forget();
            callback(error);
          });
        },
        (error: Error) => callback(error),
      );
    }
  }
  return new pg.Pool({ ...config, connectionString: withHost(url, hosts[0]), Client: PrimaryClient });
}

/**
 * The two error handlers graphile-worker asks of a pool it is given: an idle connection the server
 * ends (a restart, a dropped database) raises the pool's 'error', and a checked-out one raises its
 * client's 'error' (pg raises it again on that client's next query, but the event itself needs a
 * listener, or it ends the process and graphile-worker warns "Your pool doesn't have all of the
 * error handlers").
 */
export function handlePoolErrors(pool: pg.Pool, log: (e: Error, idle: boolean) => void) {
  pool.on("error", (e) => log(e, true));
  pool.on("connect", (client) => client.on("error", (e) => log(e, false)));
}
