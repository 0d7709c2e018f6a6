import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { signWebhook, verifyWebhook, verifyWebhookDetailed } from "./verify";

const secret = "whsec_test_secret";
const body = JSON.stringify({ id: "dlv_1", event: "order.created", data: { amount: 12.5 } });
const now = 1_800_000_000;
const sign = (ts: number, raw = body, key = secret) =>
  "sha256=" + createHmac("sha256", key).update(`${ts}.${raw}`).digest("hex");

describe("verifyWebhook", () => {
  it("accepts an authentic, fresh delivery (plain object or Headers)", () => {
    const headers = { "x-webhook-signature": sign(now), "x-webhook-timestamp": String(now) };
    expect(verifyWebhook(body, headers, secret, { nowSeconds: now + 10 })).toBe(true);
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret, { nowSeconds: now })).toBe(true);
    expect(signWebhook(secret, now, body)).toBe(sign(now));
  });

  it("refuses a changed body, another secret, a changed timestamp and missing headers", () => {
    const headers = { "X-Webhook-Signature": sign(now), "X-Webhook-Timestamp": String(now) };
    expect(verifyWebhookDetailed(body.replace("12.5", "1250"), headers, secret, { nowSeconds: now })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(verifyWebhookDetailed(body, headers, "whsec_other", { nowSeconds: now })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(
      verifyWebhookDetailed(body, { ...headers, "X-Webhook-Timestamp": String(now + 1) }, secret, { nowSeconds: now }),
    ).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhookDetailed(body, { "X-Webhook-Timestamp": String(now) }, secret, { nowSeconds: now })).toEqual({
      ok: false,
      reason: "missing_header",
    });
    expect(
      verifyWebhookDetailed(body, { "X-Webhook-Signature": sign(now), "X-Webhook-Timestamp": "yesterday" }, secret),
    ).toEqual({ ok: false, reason: "missing_header" });
    expect(verifyWebhook(body, { ...headers, "X-Webhook-Signature": "sha256=00" }, secret, { nowSeconds: now })).toBe(
      false,
    );
  });

  it("refuses a timestamp outside the freshness window (default 5 minutes)", () => {
    const old = now - 301;
    const headers = { "X-Webhook-Signature": sign(old), "X-Webhook-Timestamp": String(old) };
    expect(verifyWebhookDetailed(body, headers, secret, { nowSeconds: now })).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    expect(verifyWebhook(body, headers, secret, { nowSeconds: now, toleranceSeconds: 600 })).toBe(true);
  });
});
