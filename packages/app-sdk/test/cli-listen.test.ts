/**
 * `storefront-apps listen` tells the truth (issue 39 point 6, decision 054), driven through the CLI
 * against the real platform and real local servers:
 * - the local server receives every header the platform sends with a webhook or a hook call,
 *   Api-Version included, as the app's own URL receives them;
 * - once review approval has turned the sandbox's test installation into a production one, the
 *   CLI says so and goes on relaying what the sandbox sends; merchants' installations never come.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { startPlatform } from "../../../app/platform/testing/platform";
import { until } from "../../../app/platform/testing/until";
import { startReceiver, type Received } from "../../../app/platform/testing/receiver";
import { BrowserSession, hiddenFields } from "../../../app/platform/testing/browser";
import { REVIEW_CRITERIA_KEYS } from "../../../app/platform/shapes/app-catalog";
import { createProduct, productSchema } from "../../../app/platform/catalog/products.server";
import { verifyHookCall, verifyWebhook } from "../src/index";

const p = await startPlatform({ worker: true });
const BIN = new URL("../bin/storefront-apps.js", import.meta.url).pathname;

function cliIn(configDir: string) {
  const env = { ...process.env, STOREFRONT_APPS_CONFIG_DIR: configDir, STOREFRONT_APPS_URL: "" };
  return {
    async run(...args: string[]) {
      try {
        return (await promisify(execFile)(process.execPath, [BIN, ...args], { env, cwd: configDir })).stdout;
      } catch (e) {
        const err = e as { stdout: string; stderr: string; code: number };
        throw new Error(`storefront-apps ${args.join(" ")} exited ${err.code}: ${err.stderr}${err.stdout}`);
      }
    },
    spawn(...args: string[]) {
      const lines: string[] = [];
      const child = spawn(process.execPath, [BIN, ...args], { env, cwd: configDir });
      child.stdout!.on("data", (d: Buffer) => lines.push(...d.toString().split("\n").filter(Boolean)));
      child.stderr!.on("data", (d: Buffer) => lines.push("stderr: " + d.toString()));
      running.push(child);
      return { child, lines };
    },
  };
}
const running: ChildProcess[] = [];
afterAll(() => running.forEach((c) => c.kill("SIGKILL")));

/** A real local server answering hook calls as an app would (order.validate: valid), anything else 200 {}. */
const appServer = () =>
  startReceiver((r) => ({
    status: 200,
    body: JSON.stringify(r.json?.hookPoint === "order.validate" ? { valid: true } : {}),
  }));

/** A developer logged in with the CLI, with an app (order.created, an order.validate hook) test-installed on their sandbox. */
async function developerWithApp(appUrl: string, slug: string) {
  const dev = await p.register("DEVELOPER");
  const cli = cliIn(mkdtempSync(join(tmpdir(), "storefront-apps-")));
  await cli.run("login", "--email", dev.email, "--password", dev.password, "--platform", p.url);
  const created = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: {
      name: `Relay ${slug}`,
      slug,
      description: "Tests the relay",
      category: "other",
      scopes: ["read_orders", "write_orders", "write_checkout"],
      redirectUrl: "https://relay.example/cb",
      webhookUrl: appUrl + "/webhooks",
      webhookEvents: ["order.created"],
      manifest: { hooks: [{ hookPoint: "order.validate", url: "/hooks/validate" }] },
    },
  });
  expect(created.status, created.text).toBe(201);
  await cli.run("apps", "use", "--app", created.json.id);
  const installed = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
  expect(installed.status).toBe(201);
  return {
    dev,
    cli,
    app: created.json,
    token: installed.json.accessToken as string,
    secret: installed.json.webhookSecret as string,
    installationId: installed.json.installationId as string,
  };
}

const isHook = (r: Received) => !!r.headers["x-hook-point"];
const isWebhook = (r: Received) => r.headers["x-webhook-event"] === "order.created";
/** Headers about the connection, which each HTTP client writes its own way. */
const TRANSPORT = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

async function orderOnSandbox(token: string, businessId: string) {
  const [product] = await p.db.execute<{ id: string }>(
    sql`select id from products where business_id = ${businessId} and stock is null and is_available and status = 'ACTIVE' limit 1`,
  );
  return p.request("POST", "/app-api/orders", {
    token,
    body: {
      customer: { name: "Ada", phone: "555" },
      items: [{ productId: product.id, quantity: 1 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    },
  });
}

describe("storefront-apps listen", () => {
  it("forwards every header the platform sends, Api-Version included, for webhooks and hook calls", async () => {
    const direct = await appServer();
    const local = await appServer();
    const { dev, cli, app, secret } = await developerWithApp(direct.url, "relay-headers");

    // not listening: the platform POSTs to the app's own URLs
    expect(await cli.run("trigger", "order.created")).toContain("Triggered order.created");
    await direct.waitFor(2);
    const sent = { hook: direct.received.find(isHook)!, webhook: direct.received.find(isWebhook)! };
    expect(sent.hook.headers["api-version"]).toBe(app.apiVersion);
    expect(sent.webhook.headers["api-version"]).toBe(app.apiVersion);

    // listening: the same calls reach the local server through the CLI
    const { child, lines } = cli.spawn("listen", "--forward-to", local.url);
    await until(
      () => "listening: " + lines.join("\n"),
      () => lines.some((l) => l.startsWith(`Listening for ${app.name}`)),
    );
    expect(await cli.run("trigger", "order.created")).toContain("Triggered order.created");
    await local.waitFor(2);
    const relayed = { hook: local.received.find(isHook)!, webhook: local.received.find(isWebhook)! };
    expect(relayed.hook.path).toBe("/hooks/validate");
    for (const kind of ["hook", "webhook"] as const) {
      const theirs = sent[kind].headers;
      const ours = relayed[kind].headers;
      for (const name of Object.keys(theirs).filter((n) => !TRANSPORT.has(n)))
        expect(ours[name], `${kind}: ${name}`).toBeDefined();
      for (const name of ["api-version", "user-agent", "content-type", "x-hook-point", "x-webhook-event"])
        expect(ours[name], `${kind}: ${name}`).toBe(theirs[name]);
    }
    expect(relayed.webhook.headers["api-version"]).toBe(app.apiVersion);
    // the bytes and their signature are the platform's: the SDK verifies them on the laptop
    expect(verifyWebhook(relayed.webhook.raw, relayed.webhook.headers, secret).event).toBe("order.created");
    expect(verifyHookCall(relayed.hook.raw, relayed.hook.headers, secret).hookPoint).toBe("order.validate");
    expect(direct.received).toHaveLength(2);
    // each forwarded call is printed once its answer is back (under load, a moment after the local server had it)
    await until(
      () => "the printed lines: " + lines.join("\n"),
      () => lines.filter((l) => l.includes(`-> ${local.url}`)).length === 2 || undefined,
    );

    const exited = new Promise((r) => child.on("exit", r));
    child.kill("SIGINT");
    await exited;
    void dev;
  }, 60_000);

  it("says so when review approval makes the sandbox's installation a production one, and goes on relaying the sandbox's calls only", async () => {
    const direct = await appServer();
    const local = await appServer();
    const { dev, cli, app, token, installationId } = await developerWithApp(direct.url, "relay-approved");
    const { child, lines } = cli.spawn("listen", "--forward-to", local.url);
    await until(
      () => "listening: " + lines.join("\n"),
      () =>
        lines.some((l) => l.startsWith(`Listening for ${app.name}: webhooks and hook calls of its test installation`)),
    );

    // a reviewer approves the app: its test installation becomes a production one (contract 3)
    const reviewer = await p.createUser("REVIEWER");
    expect((await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token })).status).toBe(200);
    const approved = await p.request("POST", `/review/apps/${app.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    expect(approved.json.status).toBe("APPROVED");
    const [row] = await p.db.execute<{ is_test_install: boolean }>(
      sql`select is_test_install from installations where id = ${installationId}`,
    );
    expect(row.is_test_install).toBe(false);
    const notice = await until(
      () => "the approval notice: " + lines.join("\n"),
      () => lines.find((l) => l.includes("was approved")),
      12_000,
    );
    expect(notice).toContain(`production installation`);
    expect(notice).toContain(installationId);

    // the sandbox goes on sending: a trigger and a real order on the sandbox, both relayed to the local server
    expect(await cli.run("trigger", "order.created")).toContain("Triggered order.created");
    const order = await orderOnSandbox(token, dev.businessId);
    expect(order.status, order.text).toBe(201);
    await local.waitFor(4);
    expect(local.received.filter(isHook)).toHaveLength(2);
    expect(local.received.filter(isWebhook).map((r) => r.json.data.orderId)).toContain(order.json.id);
    expect(direct.received).toEqual([]);

    // a merchant's installation of the approved app is never relayed: it goes to the app's URLs
    const merchant = await p.register("MERCHANT");
    await createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Oat Cookie", price: 250 }));
    const session = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const consent = await session.get(
      `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl, state: "s" })}`,
    );
    const redirected = await session.post("/oauth/authorize", { ...hiddenFields(consent.html), decision: "approve" });
    const code = new URL(redirected.location!).searchParams.get("code")!;
    const client = await p.request("POST", "/developer/apps/" + app.id + "/client-secret", { token: dev.token });
    const exchanged = await fetch(`${p.url}/oauth/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${app.clientId}:${client.json.clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUrl }),
    }).then((r) => r.json());
    const shopOrder = await orderOnSandbox(exchanged.access_token, merchant.businessId);
    expect(shopOrder.status, shopOrder.text).toBe(201);
    await direct.waitFor(2);
    expect(direct.received.filter(isHook)).toHaveLength(1);
    expect(direct.received.find(isWebhook)?.json.data.orderId).toBe(shopOrder.json.id);
    expect(local.received).toHaveLength(4);
    // each forwarded call is printed once its answer is back (under load, a moment after the local server had it)
    await until(
      () => "the printed lines: " + lines.join("\n"),
      () => lines.filter((l) => l.includes(`-> ${local.url}`)).length === 4 || undefined,
    );

    const exited = new Promise((r) => child.on("exit", r));
    child.kill("SIGINT");
    await exited;
  }, 60_000);
});
