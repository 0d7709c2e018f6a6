/**
 * Debian's nginx as a child process in front of a running platform, with the configuration of
 * deploy/nginx/config.ts and every file under its own prefix (tests and benchmark B4c). It runs in
 * the foreground (`daemon off`), so it is this process's child, and stop() ends it (SIGQUIT: the
 * workers finish what they send and the access log is written out).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { nginxStandaloneConfig, standaloneDirs } from "./config";

export const NGINX = process.env.NGINX_BIN ?? "/usr/sbin/nginx";

export type RunningNginx = {
  port: number;
  prefix: string;
  accessLog: string;
  process: ChildProcess;
  stop(): Promise<void>;
};

/** A port nothing listens on now (the kernel's choice). */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, output: () => string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}) before listening:\n${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} within ${timeoutMs} ms:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts nginx on 127.0.0.1:`port` in front of `upstream` (the platform's host:port), for the
 * platform's two host names (PUBLIC_URL's and STOREFRONT_URL's, which must name this port).
 */
export async function startNginx(options: {
  prefix: string;
  port: number;
  upstreams: string[];
  platformHost: string;
  storefrontHost: string;
  workerProcesses?: number | "auto";
}): Promise<RunningNginx> {
  if (!fs.existsSync(NGINX))
    throw new Error(`${NGINX} is missing: install Debian's nginx (apt-get install -y nginx), as .ci/run does`);
  const prefix = path.resolve(options.prefix);
  fs.rmSync(prefix, { recursive: true, force: true });
  for (const dir of standaloneDirs(prefix)) fs.mkdirSync(dir, { recursive: true });
  const accessLog = path.join(prefix, "access.log");
  const conf = path.join(prefix, "nginx.conf");
  fs.writeFileSync(
    conf,
    nginxStandaloneConfig({
      prefix,
      platformHost: options.platformHost,
      storefrontHost: options.storefrontHost,
      upstreams: options.upstreams,
      listen: `127.0.0.1:${options.port}`,
      cacheDir: path.join(prefix, "cache"),
      accessLog,
      workerProcesses: options.workerProcesses ?? 1,
      // as root nginx would hand its workers to "nobody", who may not write under .data/
      user: process.getuid?.() === 0 ? os.userInfo().username : null,
    }),
  );
  let output = "";
  const child = spawn(NGINX, ["-p", prefix, "-c", conf, "-e", "stderr"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // never left behind by a test run that dies
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  try {
    await waitForPort(options.port, child, () => output);
  } catch (e) {
    kill();
    throw e;
  }
  return {
    port: options.port,
    prefix,
    accessLog,
    process: child,
    async stop() {
      process.removeListener("exit", kill);
      if (child.exitCode !== null) return;
      child.kill("SIGQUIT");
      const timer = setTimeout(kill, 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The cache's verdict of every request in the access log (`cache=HIT`, `MISS`, …; `-` when the cache was not asked). */
export function cacheVerdicts(accessLog: string): Record<string, number> {
  const counts: Record<string, number> = {};
  if (!fs.existsSync(accessLog)) return counts;
  for (const m of fs.readFileSync(accessLog, "utf8").matchAll(/ cache=(\S+)$/gm))
    counts[m[1]] = (counts[m[1]] ?? 0) + 1;
  return counts;
}
