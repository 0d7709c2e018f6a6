/**
 * The delivery log's "Send a test" (portal, decision 027): a signed webhook.test to the developer's
 * own registration, CSRF-protected, another developer's registration is 404, and it is not a delivery.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { verifyWebhook } from "../outbound/verify";

const p = await startPlatform();

describe("Send a test from the portal's delivery log", () => {
  it("sends webhook.test to the developer's own registration and shows the answer", async () => {
    const received: { raw: string; headers: Record<string, string> }[] = [];
    let status = 200;
    const receiver = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        received.push({ raw, headers: req.headers as Record<string, string> });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

    const owner = await p.register("DEVELOPER");
    const app = await p.request("POST", "/developer/apps", { token: owner.token, body: appBody({ webhookUrl: url }) });
    const installed = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: owner.token });
    const [registration] = (await p.request("GET", "/webhooks", { token: installed.json.accessToken })).json.data;

    const browser = await BrowserSession.signIn(p.url, owner.email, owner.password);
    const page = await browser.get(`/portal/apps/${app.json.id}/webhooks`);
    expect(page.html).toContain("Send a test");
    expect(page.html).not.toContain("is connected");
    const path = `/portal/apps/${app.json.id}/webhooks`;
    const sent = await browser.post(path, { intent: "test", webhookId: registration.id });
    expect(sent.status).toBe(200);
    expect(sent.html.replace(/<!-- -->/g, "")).toMatch(/Test delivered: HTTP 200 in \d+ ms/);
    expect(received).toHaveLength(1);
    const envelope = JSON.parse(received[0].raw);
    expect(envelope).toMatchObject({
      event: "webhook.test",
      webhookId: registration.id,
      data: { webhookId: registration.id },
    });
    expect(verifyWebhook(received[0].raw, new Headers(received[0].headers), installed.json.webhookSecret)).toBe(true);

    status = 503;
    const failed = await browser.post(path, { intent: "test", webhookId: registration.id });
    expect(failed.html.replace(/<!-- -->/g, "")).toMatch(/Test failed: HTTP 503/);
    // a test is not a delivery
    expect(
      (await p.request("GET", `/webhooks/${registration.id}/deliveries`, { token: installed.json.accessToken })).json
        .data,
    ).toEqual([]);

    // with a wrong form token, or signed out: refused, nothing sent
    expect(
      (await browser.post(path, { csrf: "not-the-token", intent: "test", webhookId: registration.id })).status,
    ).toBe(403);
    const signedOut = await fetch(p.url + path, {
      method: "POST",
      body: new URLSearchParams({ intent: "test", webhookId: registration.id }),
      redirect: "manual",
    });
    expect(signedOut.status).toBe(302);

    // another developer: not their app, and not their registration through their own app's page
    const other = await p.register("DEVELOPER");
    const theirs = await p.request("POST", "/developer/apps", { token: other.token, body: appBody() });
    const stranger = await BrowserSession.signIn(p.url, other.email, other.password);
    await stranger.get(`/portal/apps/${theirs.json.id}/webhooks`);
    expect((await stranger.post(path, { intent: "test", webhookId: registration.id })).status).toBe(404);
    expect(
      (await stranger.post(`/portal/apps/${theirs.json.id}/webhooks`, { intent: "test", webhookId: registration.id }))
        .status,
    ).toBe(404);
    expect((await browser.post(path, { intent: "test", webhookId: "wh_nope" })).status).toBe(404);
    expect(received).toHaveLength(2);
    receiver.close();
  });
});
