/**
 * The nginx configuration of a shared cache in front of the platform (issue 17, decision 021;
 * docs/deployment.md). One function makes it, so that the committed example
 * (deploy/nginx/storefront-apps.conf), the test that runs Debian's nginx in front of the real
 * platform (deploy/nginx/nginx-cache.test.ts) and benchmark B4c use the same directives.
 *
 *   node --import tsx deploy/nginx/config.ts [--platform-host H] [--storefront-host H] [--upstream HOST:PORT]…
 *        [--listen PORT] [--cache-dir DIR] [--certificate FILE --certificate-key FILE] [--standalone --prefix DIR]
 *
 * prints a configuration: without --standalone the `http {}` part, for /etc/nginx/conf.d/; with
 * --standalone a whole nginx.conf that runs in the foreground with everything under --prefix.
 */
import os from "node:os";
import path from "node:path";
import { SHARED_CACHE_CONTROL } from "../../storefront/http-cache";

export type NginxOptions = {
  /** PUBLIC_URL's host name: admin, portal, sign-in, consent, marketplace; never cached */
  platformHost: string;
  /** STOREFRONT_URL's host name: the shops; their shared pages are cached */
  storefrontHost: string;
  /** the platform's web processes (`npm start` or `npm run web`), host:port each */
  upstreams: string[];
  /** what the servers listen on: a port, or address:port (with TLS: where plain http is moved to https) */
  listen: string;
  /** where the cache keeps pages (nginx's worker user must be able to write there) */
  cacheDir: string;
  /** the cache's size on disk */
  cacheMaxSize?: string;
  /** TLS for both hosts (production: cookies are Secure, so browsers need https) */
  tls?: { listen: string; certificate: string; certificateKey: string } | null;
  /** an access log with the cache's verdict of every request (HIT, MISS, BYPASS, …), or null for none */
  accessLog?: string | null;
};

export type StandaloneOptions = NginxOptions & {
  /** every file nginx writes lives under it: pid, logs, temporary files */
  prefix: string;
  workerProcesses?: number | "auto";
  /** the worker processes' user when nginx starts as root (tests and benchmarks run as the current user) */
  user?: string | null;
};

/** The `http {}` part: the cache, the upstream, and one server per origin (decision 013). */
export function nginxHttpConfig(o: NginxOptions): string {
  // with TLS the two origins are served on https only; plain http is moved there
  const listens = (extra = "") => [o.tls ? `listen ${o.tls.listen} ssl${extra};` : `listen ${o.listen}${extra};`];
  const tls = o.tls ? [`ssl_certificate ${o.tls.certificate};`, `ssl_certificate_key ${o.tls.certificateKey};`] : [];
  // the platform decides by the Host header which origin a request is for, so the original one
  // (with its port) goes through; the platform throttles by the socket's address (docs/security.md)
  const proxyHeaders = [
    "proxy_http_version 1.1;",
    'proxy_set_header Connection "";',
    "proxy_set_header Host $http_host;",
    "proxy_set_header X-Forwarded-Host $http_host;",
    "proxy_set_header X-Forwarded-Proto $scheme;",
    "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    "proxy_set_header X-Real-IP $remote_addr;",
    "proxy_redirect off;",
  ];
  const block = (lines: string[], indent: string) => lines.map((l) => (l ? indent + l : "")).join("\n");
  return `# Storefront Apps behind nginx: a shared cache for the storefront's pages (issue 17, decision 021).
# Made by deploy/nginx/config.ts; see docs/deployment.md. The platform says what may be cached:
# a storefront page the same for every anonymous visitor answers
#   Cache-Control: ${SHARED_CACHE_CONTROL}
# with a strong ETag (the shop's content version); everything else is no-store or private.

proxy_cache_path ${o.cacheDir} levels=1:2 keys_zone=storefront_pages:10m max_size=${o.cacheMaxSize ?? "1g"} inactive=10m use_temp_path=off;

upstream storefront_apps {
${block([...o.upstreams.map((u) => `server ${u};`), "keepalive 32;"], "    ")}
}

# A shopper with a cart holds __cart and the storefront's CSRF cookie __shop: their pages are their
# own (the cart count, the form token), so such requests go past the cache and never into it.
map "$cookie___cart$cookie___shop" $storefront_personal {
    "" "";
    default 1;
}

log_format storefront_cache '$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time cache=$upstream_cache_status';

# the storefront's origin (STOREFRONT_URL)
server {
${block([...listens(), `server_name ${o.storefrontHost};`, ...tls, "client_max_body_size 2m;", o.accessLog ? `access_log ${o.accessLog} storefront_cache buffer=64k flush=1s;` : "access_log off;"], "    ")}

    location / {
${block(
  [
    "proxy_pass http://storefront_apps;",
    ...proxyHeaders,
    "",
    "proxy_cache storefront_pages;",
    "proxy_cache_key $scheme$host$request_uri;",
    "# only what the platform marks shared (Cache-Control s-maxage) is kept; GET and HEAD only",
    "proxy_cache_bypass $storefront_personal $http_authorization;",
    "proxy_no_cache $storefront_personal $http_authorization $upstream_http_set_cookie;",
    "# a page the platform answers `Vary: Cookie` differs only by the two cookies above; each",
    "# analytics cookie of a visitor would otherwise make a copy of its own",
    "proxy_ignore_headers Vary;",
    "# one encoding in the cache: gzip from the platform, unpacked for the rare client without it",
    "proxy_set_header Accept-Encoding gzip;",
    "gunzip on;",
    "# an expired page is asked for again with If-None-Match (304 while the shop is unchanged),",
    "# in the background while the old one is served; one request per page goes to the platform",
    "# at a time (the others wait for it); the old page stands in while the platform is away",
    "proxy_cache_revalidate on;",
    "proxy_cache_background_update on;",
    "proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;",
    "proxy_cache_lock on;",
    "proxy_cache_lock_timeout 5s;",
    "proxy_cache_lock_age 5s;",
    "add_header X-Cache-Status $upstream_cache_status always;",
  ],
  "        ",
)}
    }
}

# the platform's origin (PUBLIC_URL): admin, portal, sign-in; nothing here is cached
server {
${block([...listens(), `server_name ${o.platformHost};`, ...tls, "client_max_body_size 2m;"], "    ")}

    location / {
${block(["proxy_pass http://storefront_apps;", ...proxyHeaders], "        ")}
    }
}

${
  o.tls
    ? `# plain http: moved to https
server {
    listen ${o.listen};
    server_name ${o.storefrontHost} ${o.platformHost};
    return 301 https://$host$request_uri;
}

`
    : ""
}# any other host name: no answer (the platform would move it to one of the two origins)
server {
${block([...listens(" default_server"), "server_name _;", ...(o.tls ? ["ssl_reject_handshake on;"] : []), "return 444;"], "    ")}
}
`;
}

/** A whole nginx.conf that runs in the foreground with every file under `prefix` (tests, benchmarks, a local trial). */
export function nginxStandaloneConfig(o: StandaloneOptions): string {
  const p = (name: string) => path.join(o.prefix, name);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `${t}_temp_path ${p(`temp/${t}`)};`);
  return `# Made by deploy/nginx/config.ts (--standalone): nginx in the foreground, everything under ${o.prefix}
daemon off;
master_process on;
${o.user ? `user ${o.user};\n` : ""}worker_processes ${o.workerProcesses ?? "auto"};
pid ${p("nginx.pid")};
error_log ${p("error.log")} warn;

events {
    worker_connections 4096;
}

http {
    ${temp.join("\n    ")}
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;

${nginxHttpConfig(o)
  .trimEnd()
  .split("\n")
  .map((l) => (l ? "    " + l : ""))
  .join("\n")}
}
`;
}

/** The directories a standalone nginx needs before it starts. */
export const standaloneDirs = (prefix: string) =>
  ["temp/client_body", "temp/proxy", "temp/fastcgi", "temp/uwsgi", "temp/scgi", "cache"].map((d) =>
    path.join(prefix, d),
  );

/** The committed example (deploy/nginx/storefront-apps.conf): production host names, TLS, the platform on :3000. */
export const EXAMPLE: NginxOptions = {
  platformHost: "apps.example.com",
  storefrontHost: "shops.example-stores.com",
  upstreams: ["127.0.0.1:3000"],
  listen: "80",
  cacheDir: "/var/cache/nginx/storefront-apps",
  tls: {
    listen: "443",
    certificate: "/etc/ssl/certs/storefront-apps.pem",
    certificateKey: "/etc/ssl/private/storefront-apps.key",
  },
  accessLog: "/var/log/nginx/storefront-apps.log",
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const all = (name: string) => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]] : []));
  const certificate = value("--certificate");
  const options: NginxOptions = {
    platformHost: value("--platform-host") ?? EXAMPLE.platformHost,
    storefrontHost: value("--storefront-host") ?? EXAMPLE.storefrontHost,
    upstreams: all("--upstream").length ? all("--upstream") : EXAMPLE.upstreams,
    listen: value("--listen") ?? EXAMPLE.listen,
    cacheDir: value("--cache-dir") ?? EXAMPLE.cacheDir,
    tls: certificate
      ? { listen: value("--tls-listen") ?? "443", certificate, certificateKey: value("--certificate-key") ?? "" }
      : args.includes("--standalone") || value("--listen")
        ? null
        : EXAMPLE.tls,
    accessLog: value("--access-log") ?? (args.includes("--standalone") ? null : EXAMPLE.accessLog),
  };
  if (args.includes("--standalone")) {
    const prefix = path.resolve(value("--prefix") ?? ".data/nginx");
    process.stdout.write(
      nginxStandaloneConfig({
        ...options,
        cacheDir: value("--cache-dir") ?? path.join(prefix, "cache"),
        prefix,
        user: process.getuid?.() === 0 ? os.userInfo().username : null,
      }),
    );
  } else process.stdout.write(nginxHttpConfig(options));
}
