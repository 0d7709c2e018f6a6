/**
 * The developer's loop, driven through the CLI as a developer would, against the real platform
 * (web server and worker): login, apps create, manifest push, test-install, listen --forward-to a
 * local receiver built on the SDK, trigger order.created and a real guest order, an order.validate
 * hook answered locally.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { startPlatform } from "../../../app/platform/testing/platform";
import { listenLocally } from "../../../app/platform/testing/listen";
import {
  nodeHookHandler,
  nodeWebhookHandler,
  signPayload,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEnvelope,
} from "../src/index";

const p = await startPlatform({ worker: true });
const BIN = new URL("../bin/storefront-apps.js", import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), "storefront-apps-"));
const env = { ...process.env, STOREFRONT_APPS_CONFIG_DIR: configDir, STOREFRONT_APPS_URL: "" };

async function cli(...args: string[]) {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], { env, cwd: configDir });
    return stdout;
  } catch (e) {
    const err = e as { stdout: string; stderr: string; code: number };
    throw new Error(`storefront-apps ${args.join(" ")} exited ${err.code}: ${err.stderr}${err.stdout}`);
  }
}

async function until<T>(
  what: string | (() => string),
  fn: () => T | undefined | Promise<T | undefined>,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("storefront-apps CLI against the real platform", () => {
  let listener: ChildProcess | null = null;
  afterAll(() => listener?.kill("SIGKILL"));

  it("create, test-install, listen, trigger, a real order, a local hook", async () => {
    // the developer's local server, written with the SDK
    let secret = "";
    let verdict: { valid: boolean; reason?: string } = { valid: true };
    const webhooks: WebhookEnvelope[] = [];
    const hookCalls: unknown[] = [];
    const onWebhook = nodeWebhookHandler(
      () => secret,
      (e) => void webhooks.push(e),
    );
    const onHook = nodeHookHandler(
      () => secret,
      (e) => {
        hookCalls.push(e);
        return verdict;
      },
    );
    const receiver = createServer(async (req, res) => {
      return req.url?.startsWith("/local/hooks/") ? onHook(req, res) : onWebhook(req, res);
    });
    const local = `${await listenLocally(receiver)}/local`;

    // sign up (the portal or the API), then log in with the CLI
    const dev = await p.register("DEVELOPER");
    expect(await cli("login", "--email", dev.email, "--password", dev.password, "--platform", p.url)).toContain(
      `as ${dev.email}`,
    );
    expect(statSync(join(configDir, "config.json")).mode & 0o777).toBe(0o600);
    await expect(
      cli("login", "--email", dev.email, "--password", "wrong password", "--platform", p.url),
    ).rejects.toThrow(/Login failed \(401\)/);

    const created = await cli(
      "apps",
      "create",
      "--name",
      "Loyalty Dev",
      "--slug",
      "loyalty-dev",
      "--scopes",
      "read_orders,write_orders,write_checkout",
      "--webhook-url",
      "https://loyalty.example.test/webhooks",
      "--webhook-events",
      "order.created",
      "--category",
      "marketing",
    );
    const appId = /app id:\s+(\S+)/.exec(created)![1];
    expect(created).toMatch(/client secret:\s+fbcs_/);
    expect(await cli("apps", "list")).toContain("loyalty-dev");

    writeFileSync(
      join(configDir, "manifest.json"),
      JSON.stringify({ hooks: [{ hookPoint: "order.validate", url: "/hooks/validate", timeout: 5000 }] }),
    );
    const dry = await cli("manifest", "push", "--dry-run");
    expect(dry).toContain("Dry run");
    expect(dry).toMatch(/create\s+hook:order\.validate/);
    expect(await cli("manifest", "push")).toMatch(/create\s+hook:order\.validate/);

    const installed = await cli("test-install");
    secret = /webhook secret:\s+(\S+)/.exec(installed)![1];
    const accessToken = /access token:\s+(\S+)/.exec(installed)![1];
    expect(secret).toMatch(/^whsec_test_/);

    // listen: a long-running process, like a developer's terminal
    const lines: string[] = [];
    listener = spawn(process.execPath, [BIN, "listen", "--forward-to", local], { env, cwd: configDir });
    listener.stdout!.on("data", (d: Buffer) => lines.push(...d.toString().split("\n").filter(Boolean)));
    listener.stderr!.on("data", (d: Buffer) => lines.push("stderr: " + d.toString()));
    await until(
      () => "listening: " + lines.join("\n"),
      () => lines.some((l) => l.startsWith("Listening for Loyalty Dev")),
    );

    // an event made for real on the sandbox (an order through the checkout, with the app's own hooks), for this app only
    expect(await cli("trigger", "order.created")).toContain("Triggered order.created");
    expect(hookCalls).toHaveLength(1); // the trigger's order asked the app's order.validate hook, as a shopper's would
    const sample = await until("the triggered webhook", () => webhooks.find((w) => w.event === "order.created"));
    // the app is on the current API version: money as {amount, currency}
    expect(sample.data).toMatchObject({
      paymentMethod: "CASH",
      isGuest: true,
      amount: { amount: expect.any(Number), currency: expect.any(String) },
    });
    const list = await cli("trigger");
    for (const event of ["order.created", "business.data_erasure", "app.uninstalled", "webhook.test"])
      expect(list).toContain(event);

    // a real guest order through the checkout pipeline: order.validate is answered locally, then order.created
    const [product] = await p.db.execute<{ id: string }>(
      sql`select id from products where business_id = ${dev.businessId} and stock is null and is_available order by created_at limit 1`,
    );
    const orderBody = {
      customer: { name: "Ada", phone: "555" },
      items: [{ productId: product.id, quantity: 1 }],
      deliveryMethod: "DELIVERY",
      address: "1 Main St",
      paymentMethod: "CASH",
    };
    const order = await p.request("POST", "/app-api/orders", { token: accessToken, body: orderBody });
    expect(order.status, order.text).toBe(201);
    expect(hookCalls).toHaveLength(2);
    const real = await until("the order's webhook", () => webhooks.find((w) => w.data.orderId === order.json.id));
    expect(real.event).toBe("order.created");

    // the local hook rejects a checkout with its reason
    verdict = { valid: false, reason: "Loyalty Dev: no orders on test day" };
    const refused = await p.request("POST", "/app-api/orders", { token: accessToken, body: orderBody });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("Loyalty Dev: no orders on test day");
    expect(hookCalls).toHaveLength(3);

    // printed lines for each forwarded call
    await until("printed lines", () => lines.filter((l) => l.includes("-> " + local)).length >= 5 || undefined);
    expect(lines.filter((l) => /webhook order\.created\s+-> .* 200 /.test(l))).toHaveLength(2);
    expect(lines.filter((l) => /hook order\.validate\s+-> .*\/local\/hooks\/validate\s+200 /.test(l))).toHaveLength(3);

    // the delivery log shows both SUCCEEDED
    const regs = await p.request("GET", "/webhooks", { token: accessToken });
    const reg = regs.json.data[0];
    const deliveries = await until("both SUCCEEDED", async () => {
      const d = await p.request("GET", `/webhooks/${reg.id}/deliveries`, { token: accessToken });
      return d.json.data.length === 2 && d.json.data.every((x: { status: string }) => x.status === "SUCCEEDED")
        ? d.json.data
        : undefined;
    });
    expect(deliveries.map((d: { id: string }) => d.id).sort()).toEqual([sample.id, real.id].sort());
    const logged = await p.db.execute<{ success: boolean; status_code: number }>(
      sql`select success, status_code from hook_calls where business_id = ${dev.businessId} order by created_at`,
    );
    expect(logged.map((r) => [r.success, r.status_code])).toEqual([
      [true, 200],
      [true, 200],
      [true, 200],
    ]);

    // the delivery log's "send test" (POST /webhooks/<id>/test) is relayed too: the local server answers it
    const tested = await p.request("POST", `/webhooks/${reg.id}/test`, { token: accessToken });
    expect(tested.json).toEqual({ success: true, statusCode: 200, durationMs: expect.any(Number) });
    const testEvent = webhooks.find((w) => w.event === "webhook.test");
    expect(testEvent?.data).toEqual({ message: expect.any(String), webhookId: reg.id });
    await until(
      "the test's printed line",
      () => lines.some((l) => /webhook webhook\.test\s+-> .* 200 /.test(l)) || undefined,
    );
    // as always, a test send is not a delivery: the log still holds the two
    expect((await p.request("GET", `/webhooks/${reg.id}/deliveries`, { token: accessToken })).json.data).toHaveLength(
      2,
    );

    // forged and replayed requests are refused with their causes
    const body = JSON.stringify(sample);
    const now = Math.floor(Date.now() / 1000);
    const forged = await fetch(local + "/webhooks", {
      method: "POST",
      body,
      headers: { "X-Webhook-Timestamp": String(now), "X-Webhook-Signature": "sha256=" + "ab".repeat(32) },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: "bad_signature" });
    // the sample's signed bytes, replayed ten minutes later or altered
    const code = (fn: () => unknown) => {
      try {
        fn();
        return "accepted";
      } catch (e) {
        return (e as WebhookVerificationError).code;
      }
    };
    const signed = { "X-Webhook-Timestamp": String(now), "X-Webhook-Signature": signPayload(secret, now, body) };
    expect(code(() => verifyWebhook(body, signed, secret))).toBe("accepted");
    expect(code(() => verifyWebhook(body, signed, secret, { nowSeconds: now + 600 }))).toBe("stale_timestamp");
    expect(code(() => verifyWebhook(body.replace("order.created", "order.cancelled"), signed, secret))).toBe(
      "bad_signature",
    );

    // Ctrl-C stops cleanly; deliveries go to the app's URL again
    const exited = new Promise<number | null>((r) => listener!.on("exit", (c) => r(c)));
    listener.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(lines.some((l) => l.startsWith("Stopping"))).toBe(true);
    listener = null;
    // the platform notices the closed stream and stops relaying
    await until(
      "the listener gone",
      async () => (await p.db.execute(sql`select 1 from app_listeners where app_id = ${appId}`)).length === 0,
      5_000,
    );
    await new Promise((r) => receiver.close(r));

    // a local server that is not running: the test send fails with the cause, and listen says what to check
    const down: string[] = [];
    listener = spawn(process.execPath, [BIN, "listen", "--forward-to", local], { env, cwd: configDir });
    listener.stdout!.on("data", (d: Buffer) => down.push(...d.toString().split("\n").filter(Boolean)));
    await until(
      () => "listening again: " + down.join("\n"),
      () => down.some((l) => l.startsWith("Listening for Loyalty Dev")),
    );
    const failed = await p.request("POST", `/webhooks/${reg.id}/test`, { token: accessToken });
    expect(failed.json).toMatchObject({
      success: false,
      statusCode: null,
      error: "relayed: the local server could not be reached",
    });
    await until(
      () => "the unreachable lines: " + down.join("\n"),
      () =>
        down.some((l) => /webhook webhook\.test\s+-> .* unreachable /.test(l)) &&
        down.some((l) => l.includes("ECONNREFUSED: is your local server running at")),
    );
    const stopped = new Promise((r) => listener!.on("exit", r));
    listener.kill("SIGINT");
    await stopped;
    listener = null;
  }, 90_000);

  it("keeps listen, answers and trigger to the developer's own apps, and refuses bad input with a 4xx", async () => {
    const owner = await p.register("DEVELOPER");
    const other = await p.register("DEVELOPER");
    const app = await p.request("POST", "/developer/apps", {
      token: owner.token,
      body: {
        name: "Mine",
        slug: "mine-app",
        description: "d",
        category: "other",
        scopes: ["read_orders"],
        redirectUrl: "https://mine.example/cb",
      },
    });
    expect(app.status).toBe(201);
    const id = app.json.id;
    const sse = { Accept: "text/event-stream" };
    const answer = `/developer/apps/${id}/listen/rly_nope/answer`;
    const cases: [string, string, Parameters<typeof p.request>[2], number][] = [
      ["GET", `/developer/apps/${id}/listen`, { token: other.token, headers: sse }, 404],
      ["GET", `/developer/apps/${id}/listen`, { headers: sse }, 401],
      ["POST", `/developer/apps/${id}/trigger`, { token: other.token, body: { event: "order.created" } }, 404],
      ["POST", answer, { token: other.token, body: { status: 200, body: "" } }, 404],
      ["POST", answer, { token: owner.token, body: { status: 200, body: "" } }, 404],
      ["POST", answer, { token: owner.token, body: { status: "x" } }, 400],
    ];
    for (const [method, path, init, status] of cases)
      expect((await p.request(method, path, init)).status, `${method} ${path} ${JSON.stringify(init)}`).toBe(status);
    const bad = await p.request("POST", `/developer/apps/${id}/trigger`, {
      token: owner.token,
      body: { event: "business.exploded" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("order.created");
    expect(
      (
        await p.request("POST", `/developer/apps/${id}/trigger`, {
          token: owner.token,
          raw: "{nope",
          headers: { "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(400);
  });

  it("works for every member of an app with their own login, as far as their role goes (contract 17)", async () => {
    const owner = await p.register("DEVELOPER");
    const created = await p.request("POST", "/developer/apps", {
      token: owner.token,
      body: {
        name: "Team app",
        slug: `team-app-${Date.now().toString(36)}`,
        description: "d",
        category: "other",
        scopes: ["read_orders"],
        redirectUrl: "https://team.example/cb",
        webhookUrl: "https://team.example/webhooks",
      },
    });
    expect(created.status, created.text).toBe(201);
    const appId: string = created.json.id;
    // two developers of their own, made members as an accepted invitation makes them (teams.test.ts
    // walks the invitation itself): each runs the CLI with their own login and configuration
    const member = async (role: "DEVELOPER" | "VIEWER") => {
      const dev = await p.register("DEVELOPER");
      await p.db.execute(
        sql`insert into app_members (app_id, account_id, role) values (${appId}, ${dev.account.id}, ${role})`,
      );
      const dir = mkdtempSync(join(tmpdir(), "storefront-apps-member-"));
      const run = (...args: string[]) =>
        promisify(execFile)(process.execPath, [BIN, ...args], {
          env: { ...process.env, STOREFRONT_APPS_CONFIG_DIR: dir, STOREFRONT_APPS_URL: "" },
          cwd: dir,
        }).then((r) => r.stdout);
      expect(await run("login", "--email", dev.email, "--password", dev.password, "--platform", p.url)).toContain(
        `as ${dev.email}`,
      );
      return { run, dir };
    };
    const developer = await member("DEVELOPER");
    expect(await developer.run("apps", "list")).toContain(created.json.slug);
    writeFileSync(
      join(developer.dir, "manifest.json"),
      JSON.stringify({ hooks: [{ hookPoint: "order.validate", url: "/hooks/validate" }] }),
    );
    expect(await developer.run("manifest", "push", "--app", appId)).toMatch(/create\s+hook:order\.validate/);
    expect(await developer.run("test-install", "--app", appId)).toMatch(/webhook secret:\s+whsec_test_/);

    const viewer = await member("VIEWER");
    expect(await viewer.run("apps", "list")).toContain(created.json.slug);
    // a viewer never sees a secret: the test install (which shows the token and secret) is refused
    await expect(viewer.run("test-install", "--app", appId)).rejects.toThrow(/403|role/);

    // another developer's CLI does not find the app at all
    const stranger = await p.register("DEVELOPER");
    const dir = mkdtempSync(join(tmpdir(), "storefront-apps-stranger-"));
    const strangerRun = (...args: string[]) =>
      promisify(execFile)(process.execPath, [BIN, ...args], {
        env: { ...process.env, STOREFRONT_APPS_CONFIG_DIR: dir, STOREFRONT_APPS_URL: "" },
        cwd: dir,
      }).then((r) => r.stdout);
    await strangerRun("login", "--email", stranger.email, "--password", stranger.password, "--platform", p.url);
    expect(await strangerRun("apps", "list")).not.toContain(created.json.slug);
    await expect(strangerRun("test-install", "--app", appId)).rejects.toThrow(/404|not found/i);
  });

  it("serves the browser bridge as an ES module at a stable URL", async () => {
    const res = await p.request("GET", "/sdk/bridge.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.text).toContain("export function createBridge");
  });
});
