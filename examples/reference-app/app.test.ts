import { describe, expect, it, afterAll } from "vitest";
import { createHmac } from "node:crypto";
import { startReferenceApp, verifySessionToken } from "./app";
import { signJwt } from "../../app/platform/core/crypto.server";

const app = await startReferenceApp({
  platformUrl: "http://127.0.0.1:9",
  clientId: "fbci_x",
  clientSecret: "fbcs_secret",
});
afterAll(() => app.close());
app.store.saveInstallation({
  businessId: "biz_1",
  installationId: "inst_1",
  accessToken: "fbat_x",
  webhookSecret: "whsec_test",
  scopes: ["read_orders"],
  installedAt: new Date().toISOString(),
});

function signed(body: object, secret = "whsec_test", ts = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  return {
    raw,
    headers: {
      "Content-Type": "application/json",
      "X-Webhook-Timestamp": String(ts),
      "X-Webhook-Signature": "sha256=" + createHmac("sha256", secret).update(`${ts}.${raw}`).digest("hex"),
    },
  };
}

const post = (path: string, body: object, opts: { secret?: string; ts?: number; event?: string; id?: string } = {}) => {
  const s = signed(body, opts.secret, opts.ts);
  const hookPoint = (body as { hookPoint?: string }).hookPoint;
  return fetch(app.url + path, {
    method: "POST",
    body: s.raw,
    headers: {
      ...s.headers,
      "X-Webhook-Event": opts.event ?? "order.created",
      "X-Service-Event-Id": opts.id ?? "dlv_1",
      ...(hookPoint ? { "X-Hook-Point": hookPoint } : {}),
    },
  });
};

describe("the reference app", () => {
  it("verifies webhooks, refuses bad or stale signatures, and deduplicates by delivery id", async () => {
    const body = { id: "dlv_1", event: "order.created", businessId: "biz_1", data: { orderId: "ord_1" } };
    expect((await post("/webhooks", body, { secret: "whsec_wrong" })).status).toBe(401);
    expect((await post("/webhooks", body, { ts: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    expect((await post("/webhooks", body)).status).toBe(200);
    expect((await post("/webhooks", body)).status).toBe(200);
    expect(app.store.events("biz_1")).toHaveLength(1);
    expect(app.log.filter((l) => l.name === "order.created" && l.duplicate)).toHaveLength(1);
  });

  it("answers its hooks and checks their signatures", async () => {
    const res = await post("/webhooks/hooks/discounts", {
      hookPoint: "order.calculate_discounts",
      businessId: "biz_1",
      apiVersion: "2026-11-27",
      data: { subtotal: { amount: 2500, currency: "USD" } },
    });
    expect(await res.json()).toEqual({
      discount: { amount: 100, currency: "USD" },
      reason: "Loyalty welcome discount",
    });
    const fee = await post("/webhooks/hooks/shipping-rates", {
      hookPoint: "checkout.shipping_rates",
      businessId: "biz_1",
      apiVersion: "2026-11-27",
      data: { subtotal: { amount: 6000, currency: "USD" }, builtInFee: { amount: 300, currency: "USD" } },
    });
    expect(await fee.json()).toEqual({ fee: { amount: 0, currency: "USD" } });
    expect(
      (
        await post(
          "/webhooks/hooks/validate",
          { hookPoint: "order.validate", businessId: "biz_1", data: {} },
          { secret: "whsec_wrong" },
        )
      ).status,
    ).toBe(401);
    // a hook call whose X-Hook-Point disagrees with the signed body, and one for a business the app does not know
    const s = signed({ hookPoint: "order.validate", businessId: "biz_1", data: { items: [] } });
    expect(
      (
        await fetch(app.url + "/webhooks/hooks/validate", {
          method: "POST",
          body: s.raw,
          headers: { ...s.headers, "X-Hook-Point": "order.calculate_discounts" },
        })
      ).status,
    ).toBe(401);
    expect(
      (await post("/webhooks/hooks/validate", { hookPoint: "order.validate", businessId: "biz_unknown", data: {} }))
        .status,
    ).toBe(401);
    expect(app.log.filter((l) => l.kind === "hook").map((l) => [l.name, l.verified])).toEqual([
      ["discounts", true],
      ["shipping-rates", true],
      ["validate", false],
      ["validate", false],
      ["validate", false],
    ]);
  });

  it("erases everything about a business on business.data_erasure", async () => {
    const res = await post(
      "/webhooks",
      {
        id: "dlv_9",
        event: "business.data_erasure",
        businessId: "biz_1",
        data: { appId: "app_1", businessId: "biz_1", uninstalledAt: new Date().toISOString() },
      },
      { event: "business.data_erasure", id: "dlv_9" },
    );
    expect(res.status).toBe(200);
    expect(app.store.installation("biz_1")).toBeNull();
    expect(app.store.events("biz_1")).toEqual([]);
  });

  it("accepts only session tokens signed with its client secret, for itself, unexpired", async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await signJwt({ aud: "fbci_x", sub: "acct_1", businessId: "biz_1" }, "fbcs_secret", 60, now);
    expect(await verifySessionToken(good, "fbcs_secret", "fbci_x")).toMatchObject({ businessId: "biz_1" });
    expect(await verifySessionToken(good, "fbcs_other", "fbci_x")).toBeNull();
    expect(await verifySessionToken(good, "fbcs_secret", "fbci_someone_else")).toBeNull();
    expect(
      await verifySessionToken(await signJwt({ aud: "fbci_x" }, "fbcs_secret", 60, now - 120), "fbcs_secret", "fbci_x"),
    ).toBeNull();
  });

  it("serves its block, widget, script and admin page", async () => {
    for (const [path, type] of [
      ["/block", "text/html"],
      ["/widget", "text/html"],
      ["/embed.js", "text/javascript"],
      ["/admin", "text/html"],
    ]) {
      const res = await fetch(app.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe(type);
    }
    // blocks and admin pages speak the protocol through the SDK's bridge, served by the platform at a stable URL
    for (const path of ["/block", "/widget", "/admin"])
      expect(await (await fetch(app.url + path)).text(), path).toContain(
        'import { createBridge } from "http://127.0.0.1:9/sdk/bridge.js"',
      );
    expect(await (await fetch(app.url + "/block")).text()).toContain(".ready()");
  });
});
