/**
 * The platform's own processes (`server.ts web` and `server.ts worker`), as in production, for the
 * tests that kill, stop or restart them, or run two of them on one database. Their output is
 * collected for the failure messages.
 */
import { afterAll } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import type { Env } from "../core/env.server";

type Secrets = Pick<Env, "sessionSecret" | "encryptionKey">;

/** Spawns `server.ts <mode>` on the database at `dbUrl`, with the secrets of `env` and `extra` variables. */
export function spawnServer(mode: "web" | "worker", dbUrl: string, env: Secrets, extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--experimental-async-context-frame", "--import", "tsx", "server.ts", mode], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      NODE_ENV: "test",
      SESSION_SECRET: env.sessionSecret,
      ENCRYPTION_KEY: env.encryptionKey.toString("base64"),
      DATA_DIR: ".data/test-tmp",
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, exited, output: () => out };
}

/** A worker process: private receivers allowed, stranded deliveries taken back after 5 s. */
export function spawnWorker(dbUrl: string, env: Secrets, extra: Record<string, string> = {}) {
  return spawnServer("worker", dbUrl, env, {
    OUTBOUND_ALLOW_PRIVATE: "true",
    WORKER_STRANDED_AFTER_MS: "5000",
    ...extra,
  });
}

/** spawnWorker for a test file: every worker it started and that still runs is killed after the file. */
export function workerProcesses(dbUrl: string, env: Secrets) {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.exitCode === null && c.kill("SIGKILL")));
  return (extra: Record<string, string> = {}) => {
    const worker = spawnWorker(dbUrl, env, extra);
    children.push(worker.child);
    return worker;
  };
}

/** A port free on 127.0.0.1 just now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A second web process on a free port of 127.0.0.1, once it says it is running (30 s at the most). */
export async function startWebProcess(dbUrl: string, env: Secrets): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const { child, output } = spawnServer("web", dbUrl, env, { PORT: String(port) });
  const deadline = Date.now() + 30_000;
  while (!output().includes("is running at")) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`the second server did not start:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, child };
}
