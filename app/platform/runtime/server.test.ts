/**
 * The two commands a newcomer runs: the real entry point as a child process, on its own
 * embedded database, killed with SIGKILL and started again.
 */
import * as OTPAuth from "otpauth";
import { DEMO_REVIEWER_TOTP_SECRET } from "../demo/demo-logins";
import { describe, expect, it, afterAll } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { testDatabase } from "../../../db/testing/database";

const dataDir = path.resolve(".data", `server-test-${process.pid}`);
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function startServer(port: number, extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts", "all"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: "development",
      DATABASE_URL: "",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes("is running at")) {
        clearInterval(timer);
        resolve(output);
      }
    }, 100);
    child.on("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { child, ready, output: () => output };
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  // stop a server orphaned by the SIGKILL test and remove the cluster
  const real = fs.existsSync(dataDir) ? fs.realpathSync(path.join(dataDir, "postgres")) : null;
  if (real && fs.existsSync(path.join(real, "postmaster.pid"))) {
    const pid = Number(fs.readFileSync(path.join(real, "postmaster.pid"), "utf8").split("\n")[0]);
    try {
      process.kill(pid, "SIGQUIT");
    } catch {
      /* gone */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (real) fs.rmSync(real, { recursive: true, force: true });
});

describe("npm start", () => {
  it("serves the landing page with demo data, and comes back after kill -9", async () => {
    const port = await freePort();
    const first = startServer(port);
    const banner = await first.ready;
    expect(banner).toContain("merchant@demo.test");
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Apps for every storefront");
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "merchant@demo.test", password: "demo-merchant-1" }),
    });
    expect(login.status).toBe(200);

    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.on("exit", r));

    const second = startServer(port);
    await second.ready;
    const again = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      // the demo reviewer signs in with the demo's known authenticator secret (decision 072)
      body: JSON.stringify({
        email: "reviewer@demo.test",
        password: "demo-reviewer-1",
        otp: new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(DEMO_REVIEWER_TOTP_SECRET) }).generate(),
      }),
    });
    expect(again.status).toBe(200);
    expect((await again.json()).account.role).toBe("REVIEWER");
    // the demo data was loaded once, not again on the second start
    expect(second.output()).not.toContain("creating a new cluster");

    second.child.kill("SIGTERM");
    const code = await new Promise((r) => second.child.on("exit", r));
    expect(code, second.output()).toBe(0);
  }, 120_000);

  it("stops cleanly on a SIGTERM that arrives while it is still loading", async () => {
    const s = startServer(await freePort());
    s.ready.catch(() => {});
    // "Starting…" is printed once the signal handlers are in place, before the platform's modules load
    const deadline = Date.now() + 20_000;
    while (!s.output().includes("Starting…") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(s.output()).not.toContain("is running at");
    s.child.kill("SIGTERM");
    const code = await new Promise((r) => s.child.on("exit", r));
    expect(code, s.output()).toBe(0);
    expect(s.output()).toContain("SIGTERM: shutting down");
  }, 120_000);

  it("refuses to start with an invalid setting, naming it", () => {
    const res = spawnSync(process.execPath, ["--import", "tsx", "server.ts", "all"], {
      env: { ...process.env, PORT: "not-a-port", APP_API_RATE_LIMIT: "-3", DATA_DIR: dataDir },
      encoding: "utf8",
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("PORT");
    expect(res.stderr).toContain("APP_API_RATE_LIMIT");
  });
});

describe("npm run reviewer:create", () => {
  it("creates a reviewer who can sign in to the review endpoints", async () => {
    const database = await testDatabase();
    const run = (args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", "server.ts", "reviewer:create", ...args], {
        env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir },
        encoding: "utf8",
      });
    const ok = run(["staff@example.test", "staff-password-1"]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("Reviewer staff@example.test created");
    const [row] = await database.sql`select role from accounts where email = 'staff@example.test'`;
    expect(row.role).toBe("REVIEWER");
    const dup = run(["staff@example.test", "staff-password-1"]);
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain("already exists");
    const usage = run([]);
    expect(usage.status).toBe(2);
  }, 60_000);
});
