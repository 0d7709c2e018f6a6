/**
 * `storefront-apps init` (contract 19) as a developer meets it: the CLI writes the app into an empty
 * folder; the SDK is compiled into that folder's node_modules (as `npm install` would put the
 * published package there); the app's own tests (`node --test`) pass against the real platform;
 * and its configuration document is one the platform takes as a release.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startPlatform } from "../../../app/platform/testing/platform";
import { appBody } from "../../../app/platform/apps/apps.test-helpers";
import { installSdk } from "./install-sdk";

const run = promisify(execFile);
const p = await startPlatform();
const BIN = new URL("../bin/storefront-apps.js", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "sdk-init-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")),
) as NodeJS.ProcessEnv;

describe("storefront-apps init", () => {
  it("writes an app whose own tests pass against the platform, and whose configuration deploys as a release", async () => {
    const dir = join(work, "hello-app");
    const { stdout } = await run(process.execPath, [BIN, "init", dir], { env });
    expect(stdout).toContain("Wrote Hello App into");
    for (const file of ["package.json", "server.js", "storefront-apps.json", "test/app.test.js", "README.md"])
      expect(stdout).toContain(file);

    // a folder with files is refused, and nothing in it is touched
    const again = await run(process.execPath, [BIN, "init", dir], { env }).catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect((again as { code: number }).code).not.toBe(0);
    expect((again as { stderr: string }).stderr).toContain("is not empty");

    await installSdk(dir);
    const tested = await run(process.execPath, ["--test"], {
      cwd: dir,
      env: { ...env, PLATFORM_URL: p.url },
    });
    expect(tested.stdout).toMatch(/# pass 4\b/);
    expect(tested.stdout).toMatch(/# fail 0\b/);

    // the document is a release the platform takes as it is
    const dev = await p.register("DEVELOPER");
    const config = JSON.parse(readFileSync(join(dir, "storefront-apps.json"), "utf8"));
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: { ...appBody(), name: config.name },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const released = await p.request("POST", `/developer/apps/${created.json.id}/releases`, {
      token: dev.token,
      body: { config, message: "from init" },
    });
    expect(released.status, JSON.stringify(released.json)).toBe(201);
    const app = await p.request("GET", `/developer/apps/${created.json.id}`, { token: dev.token });
    expect(app.json.manifest.blocks[0]).toMatchObject({
      blockType: "hello",
      renderUrl: "http://localhost:4000/blocks/hello",
    });
  }, 180_000);
});
