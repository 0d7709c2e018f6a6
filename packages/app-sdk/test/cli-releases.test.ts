/**
 * `storefront-apps deploy` and `storefront-apps logs` against the real platform (contract 19):
 * deploy prints the diff against the current release first and makes the release with --yes;
 * logs prints the app's App API requests.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startPlatform } from "../../../app/platform/testing/platform";
import { appBody, releaseConfig } from "../../../app/platform/apps/apps.test-helpers";

const p = await startPlatform();
const BIN = new URL("../bin/storefront-apps.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "storefront-apps-deploy-"));
const env = { ...process.env, STOREFRONT_APPS_CONFIG_DIR: dir, STOREFRONT_APPS_URL: "" };

async function cli(...args: string[]) {
  try {
    return (await promisify(execFile)(process.execPath, [BIN, ...args], { env, cwd: dir })).stdout;
  } catch (e) {
    const err = e as { stdout: string; stderr: string; code: number };
    throw new Error(`storefront-apps ${args.join(" ")} exited ${err.code}: ${err.stderr}${err.stdout}`);
  }
}

describe("storefront-apps deploy and logs", () => {
  it("prints the diff, then makes the release; logs shows the app's requests", async () => {
    const dev = await p.register("DEVELOPER");
    await cli("login", "--email", dev.email, "--password", dev.password, "--platform", p.url);
    const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const document = { appId: app.json.id, ...releaseConfig(app.json.apiVersion) };
    writeFileSync(join(dir, "storefront-apps.json"), JSON.stringify({ ...document, name: "Loyalty Stars Deluxe" }));
    const first = await cli("deploy", "--yes", "--message", "Renamed");
    expect(first).toContain('~ name: "Loyalty Stars" -> "Loyalty Stars Deluxe"');
    expect(first).toContain("Release 1 created and live.");
    expect(await cli("deploy", "--yes")).toContain("nothing to deploy");
    const listed = await p.request("GET", `/developer/apps/${app.json.id}/releases`, { token: dev.token });
    expect(listed.json.data[0]).toMatchObject({ version: 1, message: "Renamed" });

    // without --yes and without a terminal: refused, nothing made
    writeFileSync(join(dir, "storefront-apps.json"), JSON.stringify(document));
    await expect(cli("deploy")).rejects.toThrow(/pass --yes/);
    // an invalid document: the platform's 400 naming the field
    writeFileSync(join(dir, "storefront-apps.json"), JSON.stringify({ ...document, scopes: ["nope"] }));
    await expect(cli("deploy", "--yes")).rejects.toThrow(/config\.scopes\.0/);

    const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
    await p.request("GET", "/app-api/products?limit=1", { token: inst.json.accessToken });
    await new Promise((r) => setTimeout(r, 400));
    const logs = await cli("logs", "--app", app.json.id, "--since", "5m");
    expect(logs).toMatch(/200\s+API\s+GET \/app-api\/products\?limit=1/);
  });
});
