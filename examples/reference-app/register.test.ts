/**
 * `npm run example` registers the reference app with its plans (issue 40): created with them, and
 * an update of an existing registration sends them again, so the app can ask merchants to subscribe.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../../app/platform/testing/platform";
import { registerReferenceApp } from "./register";
import { REFERENCE_PLAN, REFERENCE_PRICING } from "./manifest";

const p = await startPlatform();

describe("registering the reference app", () => {
  it("sends its pricing plans, on creation and on update", async () => {
    const dev = await p.register("DEVELOPER");
    const first = await registerReferenceApp(p.url, dev, "http://127.0.0.1:4555");
    const created = await p.request("GET", `/developer/apps/${first.id}`, { token: dev.token });
    expect(created.json.pricing).toEqual(
      REFERENCE_PRICING.map((plan) => expect.objectContaining({ id: plan.id, name: plan.name, kind: plan.kind })),
    );
    expect(created.json.pricing.find((plan: { id: string }) => plan.id === REFERENCE_PLAN)).toMatchObject({
      price: { amount: 999, currency: "USD" },
      interval: "EVERY_30_DAYS",
      trialDays: 7,
      usageCap: { amount: 2000, currency: "USD" },
    });
    // a registration of an app whose plans were removed puts them back, and issues a working secret
    await p.request("PATCH", `/developer/apps/${first.id}`, { token: dev.token, body: { pricing: [] } });
    const again = await registerReferenceApp(p.url, dev, "http://127.0.0.1:4556");
    expect(again.id).toBe(first.id);
    expect(again.clientSecret).not.toBe(first.clientSecret);
    const updated = await p.request("GET", `/developer/apps/${first.id}`, { token: dev.token });
    expect(updated.json.pricing.map((plan: { id: string }) => plan.id)).toEqual(
      REFERENCE_PRICING.map((plan) => plan.id),
    );
    expect(updated.json.redirectUrl).toBe("http://127.0.0.1:4556/oauth/callback");
  });
});
