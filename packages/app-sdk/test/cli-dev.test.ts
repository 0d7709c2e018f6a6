/**
 * `storefront-apps dev` against the real platform, as a developer runs it in a terminal: it
 * test-installs the app, pushes manifest.json on start and on every save (a plan that changes
 * nothing is not pushed; a refused or broken file is reported and the last good manifest stays),
 * prints the sandbox's storefront and site builder, and listens; a block it pushed is placed on the
 * sandbox's home page and shown by the storefront, with no review.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { startPlatform } from "../../../app/platform/testing/platform";
import { until } from "../../../app/platform/testing/until";
import { listenLocally } from "../../../app/platform/testing/listen";
import { extensions, installations } from "../../../db/schema";
import { nodeWebhookHandler, type WebhookEnvelope } from "../src/index";

const p = await startPlatform();
const BIN = new URL("../bin/storefront-apps.js", import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), "storefront-apps-dev-"));
const env = { ...process.env, STOREFRONT_APPS_CONFIG_DIR: configDir, STOREFRONT_APPS_URL: "" };
const manifestFile = join(configDir, "manifest.json");

async function cli(...args: string[]) {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], { env, cwd: configDir });
  return stdout;
}

/** A `dev` process and the lines it printed. */
function startDev(...args: string[]) {
  const lines: string[] = [];
  const child = spawn(process.execPath, [BIN, "dev", ...args], { env, cwd: configDir });
  child.stdout!.on("data", (d: Buffer) => lines.push(...d.toString().split("\n").filter(Boolean)));
  child.stderr!.on("data", (d: Buffer) => lines.push("stderr: " + d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  /** Waits for a line matching `pattern` printed after the first `after` lines; answers its index. */
  const waitFor = (pattern: RegExp, after = 0) =>
    until(
      () => `${pattern} in:\n${lines.join("\n")}`,
      () => {
        const i = lines.findIndex((l, n) => n >= after && pattern.test(l));
        return i >= 0 ? i + 1 : undefined;
      },
    );
  return { child, lines, waitFor, exited };
}

const block = (name: string) => ({ blockType: "stars", name, renderUrl: "https://app.example/blocks/stars" });

describe("storefront-apps dev against the real platform", () => {
  const running: ChildProcess[] = [];
  afterAll(() => running.forEach((c) => c.kill("SIGKILL")));

  it("test-installs, pushes the manifest on each save, prints the sandbox's addresses, listens", async () => {
    const webhooks: WebhookEnvelope[] = [];
    let secret = "";
    const onWebhook = nodeWebhookHandler(
      () => secret,
      (e) => void webhooks.push(e),
    );
    const local = await listenLocally(createServer((req, res) => onWebhook(req, res)));

    const dev = await p.register("DEVELOPER");
    await cli("login", "--email", dev.email, "--password", dev.password, "--platform", p.url);
    const created = await cli(
      "apps",
      "create",
      "--name",
      "Stars Dev",
      "--scopes",
      "read_business",
      "--webhook-url",
      "https://stars.example.test/webhooks",
      "--webhook-events",
      "order.created",
    );
    const appId = /app id:\s+(\S+)/.exec(created)![1];
    writeFileSync(manifestFile, JSON.stringify({ blocks: [block("Stars")] }));

    const run = startDev("--forward-to", local);
    running.push(run.child);
    let at = await run.waitFor(/^Listening for Stars Dev/);
    const printed = run.lines.join("\n");
    expect(printed).toContain("Stars Dev (DRAFT)");
    expect(printed).toMatch(/Test-installed on your sandbox business/);
    secret = /webhook secret:\s+(\S+)/.exec(printed)![1];
    const accessToken = /access token:\s+(\S+)/.exec(printed)![1];
    expect(printed).toMatch(/pushed:\n\s+create\s+block:stars/);
    const [{ slug }] = await p.sql`select slug from businesses where id = ${dev.businessId}`;
    expect(printed).toContain(`storefront:    ${p.storefrontUrl}/s/${slug}`);
    expect(printed).toContain(`site builder:  ${p.url}/admin/pages/home`);
    expect(printed).toContain(`admin:         ${p.url}/admin`);
    const [inst] = await p.db
      .select()
      .from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, dev.businessId)));
    expect(inst).toMatchObject({ status: "ACTIVE", isTestInstall: true });

    // a save with a change: planned, pushed, the sync printed
    writeFileSync(manifestFile, JSON.stringify({ blocks: [block("Shiny stars")] }, null, 2));
    at = await run.waitFor(/^\s+update\s+block:stars/, at);
    const [ext] = await p.db
      .select()
      .from(extensions)
      .where(and(eq(extensions.appId, appId), eq(extensions.key, "stars")));
    expect(ext.definition).toMatchObject({ name: "Shiny stars" });

    // not JSON, then refused by the platform: reported, the last good manifest stays
    writeFileSync(manifestFile, "{ not json");
    at = await run.waitFor(/is not JSON/, at);
    writeFileSync(manifestFile, JSON.stringify({ blocks: [{ ...block("Bad"), blockType: "Bad Type" }] }));
    at = await run.waitFor(/refused: PUT .* answered 400: .*blockType/, at);
    const [still] = await p.db.select().from(extensions).where(eq(extensions.id, ext.id));
    expect(still).toMatchObject({ isActive: true, definition: { name: "Shiny stars" } });

    // the same manifest again (reformatted): planned, nothing to sync, not pushed
    writeFileSync(manifestFile, JSON.stringify({ blocks: [block("Shiny stars")] }));
    at = await run.waitFor(/up to date, nothing to sync/, at);
    const [same] = await p.db.select().from(extensions).where(eq(extensions.id, ext.id));
    expect(same.updatedAt).toEqual(still.updatedAt);

    // listen relays the test installation's webhooks to the local server
    const regs = await p.request("GET", "/webhooks", { token: accessToken });
    const tested = await p.request("POST", `/webhooks/${regs.json.data[0].id}/test`, { token: accessToken });
    expect(tested.json).toMatchObject({ success: true, statusCode: 200 });
    expect(webhooks.map((w) => w.event)).toEqual(["webhook.test"]);
    await run.waitFor(/webhook webhook\.test\s+-> .* 200 /, at);

    // the pushed block, placed on the sandbox's home page with the developer's token, is on the storefront
    const put = await p.request("PUT", "/merchant/pages/home", {
      token: dev.token,
      body: { title: "Home", isPublished: true, blocks: [{ kind: "app", type: "stars", appId, settings: {} }] },
    });
    expect(put.status, put.text).toBe(200);
    const storefront = await fetch(`${p.storefrontUrl}/s/${slug}`);
    expect(await storefront.text()).toContain("https://app.example/blocks/stars");

    // Ctrl-C stops it cleanly
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);

    // a second run: already installed, manifest up to date; without --forward-to it only watches
    const again = startDev();
    running.push(again.child);
    await again.waitFor(/Ctrl-C to stop/);
    const second = again.lines.join("\n");
    expect(second).toContain("already installed");
    expect(second).toContain("up to date, nothing to sync");
    expect(second).not.toContain("access token");
    again.child.kill("SIGINT");
    expect(await again.exited).toBe(0);
  }, 180_000);
});
