import { createServer, type Server } from "node:http";
import { listenLocally } from "../../../app/platform/testing/listen";
import express from "express";
import {
  signPayload,
  verifyHookCall,
  verifyWebhook,
  WebhookVerificationError,
  nodeWebhookHandler,
  nodeHookHandler,
  expressWebhook,
  expressHookCall,
} from "../src/index";
// the platform's own signing, to prove the SDK accepts exactly what the platform sends
import { signWebhook } from "../../../app/platform/outbound/verify";

const secret = "whsec_test_abc";
const body = JSON.stringify({
  id: "whd_1",
  event: "order.created",
  businessId: "biz_1",
  timestamp: "2026-01-01T00:00:00Z",
  data: { orderId: "o1" },
});
const now = Math.floor(Date.now() / 1000);
/** The time when a check about the tolerance runs (`now` is the file's load time: a slow start must not move the window). */
const current = () => Math.floor(Date.now() / 1000);
const headers = (ts = now, sig = signWebhook(secret, ts, body)) => ({
  "x-webhook-signature": sig,
  "x-webhook-timestamp": String(ts),
});

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
  return "accepted";
}

describe("verifyWebhook", () => {
  it("accepts what the platform signs and returns the envelope", () => {
    expect(signPayload(secret, now, body)).toBe(signWebhook(secret, now, body));
    const envelope = verifyWebhook(body, headers(), secret);
    expect(envelope).toMatchObject({ id: "whd_1", event: "order.created", data: { orderId: "o1" } });
    // Buffer bodies and fetch Headers too
    expect(verifyWebhook(Buffer.from(body), new Headers(headers()), secret).event).toBe("order.created");
  });

  it("names the cause of a refusal", () => {
    expect(codeOf(() => verifyWebhook(body, headers(now, signWebhook("whsec_other", now, body)), secret))).toBe(
      "bad_signature",
    );
    expect(codeOf(() => verifyWebhook(body + " ", headers(), secret))).toBe("bad_signature");
    expect(codeOf(() => verifyWebhook(body, headers(now, "sha256=short"), secret))).toBe("bad_signature");
    expect(codeOf(() => verifyWebhook(body, headers(current() - 301), secret))).toBe("stale_timestamp");
    expect(codeOf(() => verifyWebhook(body, headers(current() + 301), secret))).toBe("stale_timestamp");
    expect(codeOf(() => verifyWebhook(body, headers(now - 301), secret, { toleranceSeconds: 600 }))).toBe("accepted");
    expect(codeOf(() => verifyWebhook(body, { "x-webhook-timestamp": String(now) }, secret))).toBe("missing_header");
    expect(codeOf(() => verifyWebhook(body, { "x-webhook-signature": signWebhook(secret, now, body) }, secret))).toBe(
      "missing_header",
    );
  });

  it("verifies hook calls and their X-Hook-Point", () => {
    const hookBody = JSON.stringify({
      hookPoint: "order.validate",
      businessId: "biz_1",
      timestamp: "t",
      data: { items: [] },
    });
    const h = { ...headers(now, signWebhook(secret, now, hookBody)), "x-hook-point": "order.validate" };
    expect(verifyHookCall(hookBody, h, secret).hookPoint).toBe("order.validate");
    expect(codeOf(() => verifyHookCall(hookBody, { ...h, "x-hook-point": "checkout.shipping_rates" }, secret))).toBe(
      "bad_signature",
    );
    expect(codeOf(() => verifyHookCall(hookBody, { ...h, "x-hook-point": undefined }, secret))).toBe("missing_header");
  });
});

describe("adapters keep the raw body", () => {
  const received: unknown[] = [];
  let nodeUrl: string;
  let expressUrl: string;
  const servers: Server[] = [];
  beforeAll(async () => {
    const webhook = nodeWebhookHandler(secret, (e) => void received.push(e));
    const hook = nodeHookHandler(secret, (e) => ({ valid: false, reason: `no ${e.hookPoint}` }));
    const node = createServer((req, res) => (req.url === "/hooks/validate" ? hook(req, res) : webhook(req, res)));
    servers.push(node);
    nodeUrl = await listenLocally(node);
    const app = express();
    app.post("/webhooks", expressWebhook(secret), (req, res) => res.json({ got: (req as any).webhook.event }));
    // after express.raw the body is a Buffer: still verified on the exact bytes
    app.post("/hooks/validate", express.raw({ type: "*/*" }), expressHookCall(secret), (req, res) =>
      res.json({ valid: true, point: (req as any).hookCall.hookPoint }),
    );
    const server = createServer(app);
    servers.push(server);
    expressUrl = await listenLocally(server);
  });
  afterAll(() => servers.forEach((s) => s.close()));

  const post = (url: string, b: string, h: Record<string, string>) =>
    fetch(url, { method: "POST", body: b, headers: { "content-type": "application/json", ...h } });
  const hookBody = JSON.stringify({ hookPoint: "order.validate", businessId: "b", timestamp: "t", data: {} });
  /** An order.validate hook call, signed, to the server at `base`. */
  const postValidateHook = (base: string) =>
    post(base + "/hooks/validate", hookBody, {
      ...headers(now, signWebhook(secret, now, hookBody)),
      "x-hook-point": "order.validate",
    });

  it("node:http", async () => {
    const ok = await post(nodeUrl + "/webhooks", body, headers());
    expect(ok.status).toBe(200);
    expect(received).toHaveLength(1);
    const bad = await post(nodeUrl + "/webhooks", body, headers(now - 1000));
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: "stale_timestamp" });
    const hook = await postValidateHook(nodeUrl);
    expect(await hook.json()).toEqual({ valid: false, reason: "no order.validate" });
  });

  it("picks each business's secret for an app installed on many", async () => {
    const secrets: Record<string, string> = { biz_1: secret, biz_2: "whsec_test_other" };
    const seen: string[] = [];
    const multi = createServer(
      nodeWebhookHandler(
        ({ businessId }) => secrets[businessId ?? ""],
        (e) => void seen.push(e.businessId),
      ),
    );
    servers.push(multi);
    const url = await listenLocally(multi);
    expect((await post(url, body, headers())).status).toBe(200);
    const other = body.replace("biz_1", "biz_2");
    expect((await post(url, other, headers(now, signWebhook("whsec_test_other", now, other)))).status).toBe(200);
    // signed with another business's secret, or naming a business the app does not know: refused
    const forged = await post(url, other, headers());
    expect([forged.status, await forged.json()]).toEqual([401, { error: "bad_signature" }]);
    const unknown = body.replace("biz_1", "biz_9");
    const stranger = await post(url, unknown, headers(now, signWebhook(secret, now, unknown)));
    expect([stranger.status, await stranger.json()]).toEqual([401, { error: "bad_signature" }]);
    expect(seen).toEqual(["biz_1", "biz_2"]);
  });

  it("Express", async () => {
    const ok = await post(expressUrl + "/webhooks", body, headers());
    expect(await ok.json()).toEqual({ got: "order.created" });
    const bad = await post(expressUrl + "/webhooks", body, headers(now, "sha256=" + "0".repeat(64)));
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: "bad_signature" });
    const hook = await postValidateHook(expressUrl);
    expect(await hook.json()).toEqual({ valid: true, point: "order.validate" });
    const missing = await post(expressUrl + "/hooks/validate", hookBody, {});
    expect(await missing.json()).toEqual({ error: "missing_header" });
  });
});
