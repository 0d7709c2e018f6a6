/**
 * Contract 19's "done when" for `init` and `dev`, as a developer meets it against the real platform:
 * `storefront-apps init` in an empty folder, `npm install` (the SDK compiled into node_modules as the
 * published package), `npm test` passing against the platform; then `storefront-apps dev` in that
 * folder: it test-installs the app, deploys storefront-apps.json as release 1, puts the template's
 * block on the sandbox's home page, starts the app's own server (`npm start`) with the platform's
 * address, the client id, the port of the document's URLs and the .env's secrets, and relays the
 * sandbox's webhooks to it. The storefront shows the block's iframe and the block's URL is answered
 * by that server. A save of storefront-apps.json is deployed as release 2 with its diff; a file that
 * is not JSON and one the platform refuses are reported and dev keeps running. The server is started
 * again when it crashes and when its source changes; Ctrl-C stops dev and the server's whole process
 * group with it.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startPlatform } from "../../../app/platform/testing/platform";
import { until } from "../../../app/platform/testing/until";
import { installSdk } from "./install-sdk";

const run = promisify(execFile);
const p = await startPlatform();
const BIN = new URL("../bin/storefront-apps.js", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "sdk-dev-app-"));
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))),
  STOREFRONT_APPS_CONFIG_DIR: join(work, "config"),
  STOREFRONT_APPS_URL: "",
  // npm and node of this test's Node first
  PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
} as unknown as NodeJS.ProcessEnv;
const running: ChildProcess[] = [];
afterAll(async () => {
  // a failed run: Ctrl-C first, so that dev stops the app's server it started (SIGKILL would orphan it)
  for (const c of running.filter((c) => c.exitCode === null && c.signalCode === null)) {
    const gone = new Promise((r) => c.once("exit", r));
    c.kill("SIGINT");
    await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
    c.kill("SIGKILL");
  }
  rmSync(work, { recursive: true, force: true });
});

const cli = async (cwd: string, ...args: string[]) =>
  (await run(process.execPath, [BIN, ...args], { env, cwd })).stdout;

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

/** The pid of the process listening on the port (ss), if any. */
function listener(port: number): number | undefined {
  const line = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
  const m = /pid=(\d+)/.exec(line);
  return m ? Number(m[1]) : undefined;
}
/** The processes still running (zombies waiting for a reaper are not) with their process group. */
const processes = () =>
  execFileSync("ps", ["-eo", "pid=,pgid=,stat="], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, , stat]) => pid && !stat.startsWith("Z"))
    .map(([pid, pgid]) => ({ pid: Number(pid), pgid: Number(pgid) }));
const alive = (pid: number) => processes().some((p) => p.pid === pid);
const groupAlive = (pgid: number) => processes().some((p) => p.pgid === pgid);

describe("storefront-apps dev with the app init made", () => {
  it("runs the app's server, serves its block on the sandbox storefront, deploys each save, stops the server with it", async () => {
    // init, npm install, npm test
    const dir = join(work, "hello-dev");
    await cli(work, "init", dir);
    await installSdk(dir);
    const tested = await run("npm", ["test"], { cwd: dir, env: { ...env, PLATFORM_URL: p.url } });
    expect(tested.stdout).toMatch(/# pass 4\b/);
    expect(tested.stdout).toMatch(/# fail 0\b/);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain(".env");

    // the developer's app, its secret in .env, the document's URLs on a port free here
    const dev = await p.register("DEVELOPER");
    await cli(dir, "login", "--email", dev.email, "--password", dev.password, "--platform", p.url);
    const created = await cli(dir, "apps", "create", "--name", "Hello Dev", "--scopes", "read_orders");
    const appId = /app id:\s+(\S+)/.exec(created)![1];
    const clientSecret = /client secret:\s+(\S+)/.exec(created)![1];
    writeFileSync(join(dir, ".env"), `CLIENT_SECRET=${clientSecret}\n`);
    const port = await freePort();
    const configFile = join(dir, "storefront-apps.json");
    writeFileSync(configFile, readFileSync(configFile, "utf8").replaceAll("localhost:4000", `localhost:${port}`));

    const lines: string[] = [];
    const child = spawn(process.execPath, [BIN, "dev"], { cwd: dir, env });
    running.push(child);
    child.stdout!.on("data", (d: Buffer) => lines.push(...d.toString().split("\n").filter(Boolean)));
    child.stderr!.on("data", (d: Buffer) => lines.push("stderr: " + d.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    const waitFor = (pattern: RegExp, after = 0) =>
      until(
        () => `${pattern} in:\n${lines.join("\n")}`,
        () => {
          const i = lines.findIndex((l, n) => n >= after && pattern.test(l));
          return i >= 0 ? i + 1 : undefined;
        },
        30_000,
      );

    let at = await waitFor(/^Listening for Hello Dev: .* go to http:\/\/localhost:\d+\/webhooks/);
    expect(lines.join("\n")).toContain(`go to http://localhost:${port}/webhooks`);
    at = await waitFor(/App server up: http:\/\/localhost:\d+ \(npm start/);
    const printed = lines.join("\n");
    expect(printed).toMatch(/Test-installed on your sandbox business/);
    expect(printed).toContain("Kept in .env (ignored by git) as ACCESS_TOKEN and WEBHOOK_SECRET");
    expect(printed).toMatch(/storefront-apps\.json deployed: release 1, live:/);
    expect(printed).toMatch(/\+ manifest: .*"blockType":"hello"/);
    expect(printed).toContain("Put Hello block on your sandbox's home page");
    expect(printed).toContain(`Starting the app server: npm start in ${dir} (PORT=${port})`);
    expect(printed).not.toContain("CLIENT_SECRET is not set");
    const accessToken = /access token:\s+(\S+)/.exec(printed)![1];
    expect(readFileSync(join(dir, ".env"), "utf8")).toContain(`ACCESS_TOKEN=${accessToken}`);

    // the app's server answers: its block, and its admin page with the app's name
    const blockUrl = `http://localhost:${port}/blocks/hello`;
    const block = await fetch(blockUrl);
    expect(block.status).toBe(200);
    expect(await block.text()).toContain('id="greeting">Welcome!<');

    // the sandbox's storefront shows the template's block, whose URL that server answers
    const [{ slug }] = await p.sql`select slug from businesses where id = ${dev.businessId}`;
    const storefront = await (await fetch(`${p.storefrontUrl}/s/${slug}`)).text();
    expect(storefront).toContain(blockUrl);

    // the sandbox's webhooks reach the server through the relay, verified with the secret dev handed it
    const regs = await p.request("GET", "/webhooks", { token: accessToken });
    const sent = await p.request("POST", `/webhooks/${regs.json.data[0].id}/test`, { token: accessToken });
    expect(sent.json).toMatchObject({ success: true, statusCode: 200 });
    at = await waitFor(new RegExp(`webhook webhook\\.test\\s+-> http://localhost:${port}/webhooks  200 `), at);

    // a save of storefront-apps.json: release 2 with its diff (the server restarts to read it)
    const doc = JSON.parse(readFileSync(configFile, "utf8"));
    doc.manifest.blocks[0].name = "Hello there block";
    writeFileSync(configFile, JSON.stringify(doc, null, 2));
    at = await waitFor(/storefront-apps\.json deployed: release 2, live:/, at);
    await waitFor(/~ manifest\.blocks\.0\.name: "Hello block" -> "Hello there block"/, at);
    const releases = await p.request("GET", `/developer/apps/${appId}/releases`, { token: dev.token });
    expect(releases.json.data.map((r: { version: number }) => r.version)).toEqual([2, 1]);
    at = await waitFor(/App server up/, at);

    // not JSON, then refused by the platform: reported, dev goes on, no release made
    writeFileSync(configFile, "{ not json");
    at = await waitFor(/storefront-apps\.json is not JSON/, at);
    writeFileSync(configFile, JSON.stringify({ ...doc, scopes: ["read_everything"] }, null, 2));
    at = await waitFor(/storefront-apps\.json refused: POST .* answered 400: .*scopes/, at);
    const still = await p.request("GET", `/developer/apps/${appId}/releases`, { token: dev.token });
    expect(still.json.data).toHaveLength(2);
    expect(child.exitCode).toBeNull();

    // a change of the server's source restarts it, and the new code answers
    await until(
      () => "the app server again",
      async () => (await fetch(blockUrl).catch(() => null))?.ok,
    );
    const serverJs = join(dir, "server.js");
    writeFileSync(
      serverJs,
      readFileSync(serverJs, "utf8").replace('id="greeting">Welcome!<', 'id="greeting">Hi again!<'),
    );
    at = await waitFor(/server\.js changed: restarting the app server/, at);
    await until(
      () => "the new greeting",
      async () => (await (await fetch(blockUrl).catch(() => null))?.text())?.includes("Hi again!"),
    );

    // a crash: started again
    const crashed = listener(port)!;
    process.kill(crashed, "SIGKILL");
    at = await waitFor(/App server \(npm start\) exited \((code \d+|SIG[A-Z]+)\); starting it again in 1 s/, at);
    at = await waitFor(/App server up/, at);
    const pid = listener(port)!;
    expect(pid).not.toBe(crashed);
    const pgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", String(pid)], { encoding: "utf8" }).trim());
    expect(groupAlive(pgid)).toBe(true);

    // Ctrl-C: dev stops, and the server's whole process group with it
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(lines.join("\n")).toContain("App server stopped.");
    expect(alive(pid)).toBe(false);
    expect(groupAlive(pgid)).toBe(false);
    await expect(fetch(blockUrl)).rejects.toThrow();
  }, 240_000);
});
