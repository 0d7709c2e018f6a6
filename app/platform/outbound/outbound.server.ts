/**
 * The one outbound HTTP client of webhooks and hooks. With the guard on (production unless
 * OUTBOUND_ALLOW_PRIVATE=true) it refuses http, and any address that is loopback, private,
 * link-local, multicast or otherwise reserved, checked on the address actually connected to (the
 * DNS lookup hook), so a name that re-resolves to 127.0.0.1 (DNS rebinding) is refused too.
 * Redirects are never followed. One deadline covers connect, headers and body.
 */
import http from "node:http";
import https from "node:https";
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

export type OutboundResult = {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error?: string;
  bodyExcerpt?: string;
  body?: string;
  headers?: Record<string, string | string[] | undefined>;
};

/**
 * The IPv4 addresses an IPv6 address carries, by its range (ipaddr.js names them): IPv4-mapped
 * (`::ffff:a.b.c.d`), SIIT (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`, local-use `64:ff9b:1::/48`),
 * 6to4 (`2002:AABB:CCDD::/16`), Teredo (server in bits 32-63, client inverted in the last 32) and
 * the deprecated IPv4-compatible `::a.b.c.d`. A packet to such an address can end at the IPv4 one.
 */
function embeddedIPv4(addr: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  const p = addr.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
    case "rfc6052":
      return [v4(p[6], p[7])];
    case "6to4":
      return [v4(p[1], p[2])];
    case "teredo":
      return [v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)];
    default:
      return p.slice(0, 6).every((x) => x === 0) ? [v4(p[6], p[7])] : [];
  }
}

/**
 * Whether an IP address may be reached with the guard on: only public unicast, classified by range
 * with a maintained library (ipaddr.js), never by a hand-kept list. Loopback, private, link-local,
 * unique-local, carrier-grade NAT, multicast, broadcast, unspecified, reserved, documentation,
 * benchmarking and every other special range are refused; an IPv6 address that carries an IPv4
 * one is judged by that IPv4 address (and refused when it carries several and any is not public).
 */
export function isPublicAddress(ip: string): boolean {
  if (!net.isIP(ip)) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return false;
  }
  if (addr.kind() === "ipv4") return addr.range() === "unicast";
  const range = addr.range();
  const carried = embeddedIPv4(addr as ipaddr.IPv6, range);
  if (carried.length) return carried.every((v4) => v4.range() === "unicast");
  return range === "unicast";
}

export class OutboundRefused extends Error {}

/**
 * Keep-alive agents, one set per guard mode: deliveries and hook calls reuse connections to the
 * same endpoint. The guard still runs on every new connection (the lookup hook of each request).
 */
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}:${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = {
      keepAlive: true,
      maxSockets: 64,
      maxFreeSockets: 16,
      timeout: 30_000,
      scheduling: "lifo" as const,
    };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Checks a URL before any connection: scheme, and a literal IP host. Names are checked at lookup. */
export function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused("invalid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new OutboundRefused(`scheme ${url.protocol} is not allowed`);
  if (allowPrivate) return url;
  if (url.protocol !== "https:") throw new OutboundRefused("only https URLs may be called");
  if (url.username || url.password) throw new OutboundRefused("credentials in URLs are not allowed");
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (net.isIP(host) && !isPublicAddress(host)) throw new OutboundRefused(`address ${host} is not public`);
  if (host === "localhost" || host.endsWith(".localhost")) throw new OutboundRefused(`${host} is not public`);
  return url;
}

type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

const guardedLookup =
  (resolve: Resolver) =>
  (
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !isPublicAddress(a.address));
      if (bad)
        return callback(
          Object.assign(new Error(`${hostname} resolves to ${bad.address}, which is not public`), {
            code: "EREFUSED_PRIVATE",
          }),
          "",
          0,
        );
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };

/** POSTs a body; never throws: failures come back with ok=false and an error. */
export const USER_AGENT = "Service-Webhooks/1.0";

export async function postOutbound(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: {
    timeoutMs: number;
    allowPrivate: boolean;
    keepBody?: boolean;
    resolver?: Resolver;
    method?: "POST" | "GET";
  },
): Promise<OutboundResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = checkUrl(rawUrl, options.allowPrivate);
  } catch (e) {
    return { ok: false, statusCode: null, durationMs: elapsed(), error: `refused: ${(e as Error).message}` };
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (r: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      url,
      {
        method: options.method ?? "POST",
        headers:
          options.method === "GET"
            ? headers
            : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body).toString(), ...headers },
        lookup: options.allowPrivate
          ? undefined
          : (guardedLookup(options.resolver ?? (dns.lookup as unknown as Resolver)) as unknown as typeof dns.lookup),
        // a custom resolver (tests) gets a connection of its own
        agent: options.resolver ? false : agentFor(url.protocol, options.allowPrivate),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size <= 65536) chunks.push(c);
        });
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          finish({
            ok,
            statusCode: status,
            durationMs: elapsed(),
            error: ok
              ? undefined
              : status >= 300 && status < 400
                ? `redirect to ${res.headers.location ?? "?"} not followed`
                : `HTTP ${status}`,
            bodyExcerpt: text.slice(0, 1024),
            body: options.keepBody ? text : undefined,
            headers: res.headers,
          });
        });
        res.on("error", (e) =>
          finish({ ok: false, statusCode: res.statusCode ?? null, durationMs: elapsed(), error: e.message }),
        );
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on("error", (e: NodeJS.ErrnoException) => {
      const refused = e.code === "EREFUSED_PRIVATE";
      finish({
        ok: false,
        statusCode: null,
        durationMs: elapsed(),
        error: refused ? `refused: ${e.message}` : e.message,
      });
    });
    req.end(options.method === "GET" ? undefined : body);
  });
}
