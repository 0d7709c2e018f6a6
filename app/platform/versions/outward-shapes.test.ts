/**
 * Every shape the platform shows an app follows the app's API version, from one mechanism
 * (decision 046): App API answers, webhook payloads and hook calls are all taken down by the walk
 * over their declared schemas (versions/transform.ts), so no event, hook point, operation or field
 * can be left out.
 *
 * - The walk finds every named schema the documents refer to, in every answer, body, event and hook.
 * - Two test installations on one sandbox, one pinned to 2026-11-21 and one on the current version,
 *   receive every event of the catalogue (the devtools trigger, billing's included) and every hook
 *   call (the hook trigger); each request names its version and validates against the `webhooks`
 *   section of that version's document as `/app-api/openapi.json?version=` serves it.
 * - The billing POSTs answer through the wrapper's rendering, and a handler that gives a ready
 *   Response does not compile and is refused.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { startPlatform } from "../testing/platform";
import { startReceiver, type Received } from "../testing/receiver";
import { responseChecker } from "../testing/openapi-check";
import { BrowserSession } from "../testing/browser";
import { installThroughOAuth } from "../testing/install";
import { appBody } from "../apps/apps.test-helpers";
import { EVENT_NAMES, SCOPE_NAMES, SUBSCRIBABLE_EVENTS } from "../shapes/app-catalog";
import { HOOK_POINTS } from "../shapes/manifest";
import { EVENT_DATA } from "../shapes/events";
import { HOOK_CALLS } from "../shapes/hooks";
import { namedSchemasIn } from "./transform";
import { APP_API_ROUTES } from "../../operations.server";
import { appApiRoute, operation } from "../app-api/wrapper.server";
import { json } from "../core/http.server";
import { METHODS } from "../core/operations.server";

const OLD = "2026-11-21";
const p = await startPlatform({ worker: true, env: { APP_API_RATE_LIMIT: "100000" } });
const dev = await p.register("DEVELOPER");
const CURRENT = (await p.request("GET", "/app-api/versions")).json.current as string;
const VERSIONS = [OLD, CURRENT];

/** The names a schema's JSON Schema refers to (its `$defs`), but for the schema's own. */
function referred(schema: z.ZodType): string[] {
  const out = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as { $defs?: object; $ref?: string };
  const own = out.$ref?.replace("#/$defs/", "");
  return Object.keys(out.$defs ?? {}).filter((n) => n !== own);
}

describe("the walk", () => {
  it("finds every named schema the documents refer to, in every App API answer and body, event and hook", () => {
    const schemas: [string, z.ZodType][] = [
      ...Object.entries(EVENT_DATA).map(([name, e]) => [`event ${name}`, e.data] as [string, z.ZodType]),
      ...Object.entries(HOOK_CALLS).flatMap(([point, h]) => [
        [`hook call ${point}`, h.data] as [string, z.ZodType],
        [`hook answer ${point}`, h.answer] as [string, z.ZodType],
      ]),
      ...APP_API_ROUTES.flatMap((r) =>
        METHODS.flatMap((m) => {
          const op = r.operations[m];
          return [
            ...(op?.answer.schema ? [[`${m} ${r.path} answer`, op.answer.schema] as [string, z.ZodType]] : []),
            ...(op?.body ? [[`${m} ${r.path} body`, op.body] as [string, z.ZodType]] : []),
          ];
        }),
      ),
    ];
    const missed = schemas.flatMap(([where, schema]) => {
      const found = new Set(namedSchemasIn(schema).map((l) => l.name));
      return referred(schema)
        .filter((name) => !found.has(name))
        .map((name) => `${where}: ${name}`);
    });
    expect(missed).toEqual([]);
    // the money of every event that carries it, described or not
    const money = (s: z.ZodType) =>
      namedSchemasIn(s)
        .filter((l) => l.name === "Money")
        .map((l) => l.path.join("."));
    expect(money(EVENT_DATA["order.created"].data)).toEqual(["amount", "deliveryFee"]);
    expect(money(EVENT_DATA["payment.completed"].data)).toEqual(["amount"]);
    expect(money(EVENT_DATA["app_subscription.updated"].data)).toEqual(["usageCap", "usageBalance"]);
  });

  it("gives every App API operation with an answer body a schema to render it by", () => {
    const bodiless = APP_API_ROUTES.flatMap((r) =>
      METHODS.filter((m) => r.operations[m] && !r.operations[m]!.answer.schema).map((m) => [
        `${m} ${r.path}`,
        r.operations[m]!.answer.status,
      ]),
    );
    // only answers without a body have none: the wrapper renders every answer from its schema
    expect(bodiless.filter(([, status]) => status !== 204)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Every event and hook call, in both versions, against the version's document

/** The money a hook answers, in the shape of the app's version (the call says which: its subtotal). */
const receiver = await startReceiver((r: Received) => {
  const subtotal = r.json?.data?.subtotal;
  const money = (n: number) => (typeof subtotal === "object" ? { amount: n, currency: subtotal.currency } : n);
  const answer = (body: unknown) => ({ status: 200, body: JSON.stringify(body) });
  switch (r.json?.hookPoint) {
    case "checkout.payment_methods":
      return answer({ methods: [{ id: "card", name: "Sample Pay" }] });
    case "checkout.create_payment":
      return answer({ paymentUrl: "https://pay.example/i/1", invoiceId: "inv_1" });
    case "checkout.shipping_rates":
      return answer({ fee: money(450) });
    case "order.validate":
      return answer({ valid: true });
    case "order.calculate_discounts":
      return answer({ discount: money(125), reason: "Welcome" });
    default:
      return { status: 200 };
  }
});

const METERED = {
  id: "metered",
  name: "Metered",
  kind: "RECURRING",
  price: { amount: 999, currency: "USD" },
  interval: "EVERY_30_DAYS",
  usageCap: { amount: 10000, currency: "USD" },
  usageTerms: "10 cents per message",
};

/** A test installation on the developer's sandbox, pinned to `version`, subscribed to every event with a hook on every point. */
async function testInstalled(version: string) {
  const app = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({
      scopes: SCOPE_NAMES,
      webhookUrl: `${receiver.url}/${version}/`,
      webhookEvents: SUBSCRIBABLE_EVENTS,
      pricing: [METERED],
      manifest: { hooks: HOOK_POINTS.map((hookPoint) => ({ hookPoint, url: `/hooks/${hookPoint}` })) },
    }),
  });
  expect(app.status, app.text).toBe(201);
  const pinned = await p.request("PATCH", `/developer/apps/${app.json.id}`, {
    token: dev.token,
    body: { apiVersion: version },
  });
  expect(pinned.json.apiVersion).toBe(version);
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
  expect(inst.status, inst.text).toBe(201);
  return { id: app.json.id as string, token: inst.json.accessToken as string };
}

/** The document of a version as served, and a check of a request the platform sent against its `webhooks` section. */
async function documentCheck(version: string) {
  const doc = (await p.request("GET", `/app-api/openapi.json?version=${version}`)).json;
  expect(doc.info.version).toBe(version);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  const validate = (schema: { $ref: string }, value: unknown) => {
    const v = ajv.compile({ $ref: `doc${schema.$ref}` });
    return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message}`);
  };
  return {
    /** What is wrong with a delivery or hook call by the document: its headers and its body. */
    request(r: Received): string[] {
      const point = r.headers["x-hook-point"] as string | undefined;
      const name = point ? `hook:${point}` : (r.headers["x-webhook-event"] as string);
      const entry = doc.webhooks[name]?.post;
      if (!entry) return [`${name}: not in the ${version} document`];
      const missing = entry.parameters
        .filter((h: { name: string }) => r.headers[h.name.toLowerCase()] === undefined)
        .map((h: { name: string }) => `${name}: no ${h.name} header`);
      const body = validate(entry.requestBody.content["application/json"].schema, r.json).map((e) => `${name}: ${e}`);
      return [...missing, ...body];
    },
    /** What is wrong with the answer the receiver gave a hook call, by the document. */
    answer(point: string, answer: unknown): string[] {
      return validate(doc.webhooks[`hook:${point}`].post.responses["200"].content["application/json"].schema, answer);
    },
  };
}

describe("every webhook and hook call in the app's version", () => {
  const appsP = Promise.all(VERSIONS.map((v) => testInstalled(v)));

  it("sends every event of the catalogue, billing's included, as the version's document describes it", async () => {
    const apps = await appsP;
    for (const [i, version] of VERSIONS.entries()) {
      const app = apps[i];
      // app_subscription.updated tells of the installation's latest subscription: billing exists from 2026-11-27 on
      const sub = await p.request("POST", "/app-api/billing/subscriptions", {
        token: app.token,
        headers: { "Api-Version": "2026-11-27" },
        body: { planId: "metered", returnUrl: `${receiver.url}/billing/return` },
      });
      expect(sub.status, sub.text).toBe(201);
      const from = receiver.received.length;
      for (const event of EVENT_NAMES) {
        const res = await p.request("POST", `/developer/apps/${app.id}/trigger`, { token: dev.token, body: { event } });
        expect(res.status, `${event}: ${res.text}`).toBe(202);
      }
      // the webhooks (a triggered order also calls the app's own hooks first, decision 054)
      const webhooksSince = () =>
        receiver.received
          .slice(from)
          .filter((r) => r.path.startsWith(`/${version}/`) && r.headers["x-webhook-event"] !== undefined);
      const end = Date.now() + 30_000;
      while (webhooksSince().length < EVENT_NAMES.length && Date.now() < end)
        await new Promise((r) => setTimeout(r, 100));
      const got = webhooksSince();
      expect(got.map((r) => r.headers["x-webhook-event"])).toEqual([...EVENT_NAMES]);
      const check = await documentCheck(version);
      for (const r of got) {
        const event = r.headers["x-webhook-event"];
        expect(r.headers["api-version"], `${event}`).toBe(version);
        expect(r.json.apiVersion, `${event}`).toBe(version);
        expect(check.request(r), `${event} in ${version}`).toEqual([]);
      }
      const data = (event: string) => got.find((r) => r.headers["x-webhook-event"] === event)!.json.data;
      const usd = (amount: number) => (version === OLD ? amount / 100 : { amount, currency: "USD" });
      // billing's event: the cap and the balance of the installation's metered subscription
      expect(data("app_subscription.updated")).toMatchObject({
        subscriptionId: sub.json.id,
        usageCap: usd(10000),
        usageBalance: usd(0),
      });
      const isNumber = (v: unknown) => typeof v === "number";
      const isObject = (v: unknown) => typeof v === "object" && v !== null && "currency" in v;
      const shaped = version === OLD ? isNumber : isObject;
      for (const [event, fields] of [
        ["order.created", ["amount", "deliveryFee"]],
        ["payment.completed", ["amount"]],
        ["payment.expired", ["amount"]],
        ["product.created", ["price"]],
        ["product.updated", ["price"]],
        ["app_subscription.updated", ["usageCap", "usageBalance"]],
      ] as const)
        for (const f of fields) expect(shaped(data(event)[f]), `${event}.${f} in ${version}`).toBe(true);
    }
  }, 180_000);

  it("calls every hook point as the version's document describes it, and reads the app's answer in it", async () => {
    const apps = await appsP;
    const outcomes: Record<string, unknown>[] = [];
    for (const [i, version] of VERSIONS.entries()) {
      const app = apps[i];
      const check = await documentCheck(version);
      const from = receiver.received.length;
      const outcome: Record<string, unknown> = {};
      for (const hookPoint of HOOK_POINTS) {
        const res = await p.request("POST", `/developer/apps/${app.id}/trigger-hook`, {
          token: dev.token,
          body: { hookPoint },
        });
        expect(res.status, `${hookPoint}: ${res.text}`).toBe(200);
        expect(
          res.json.calls.map((c: { ok: boolean }) => c.ok),
          `${hookPoint} in ${version}: ${res.text}`,
        ).not.toContain(false);
        outcome[hookPoint] = res.json.outcome;
      }
      const calls = receiver.received.slice(from).filter((r) => r.path.startsWith(`/${version}/`));
      expect(new Set(calls.map((r) => r.headers["x-hook-point"]))).toEqual(new Set(HOOK_POINTS));
      for (const r of calls) {
        const point = r.headers["x-hook-point"] as string;
        expect(r.headers["api-version"], point).toBe(version);
        expect(r.json.apiVersion, point).toBe(version);
        expect(check.request(r), `${point} in ${version}`).toEqual([]);
      }
      const call = (point: string) => calls.find((r) => r.headers["x-hook-point"] === point)!.json.data;
      if (version === OLD) {
        expect(typeof call("checkout.shipping_rates").subtotal).toBe("number");
        expect(typeof call("checkout.create_payment").amount).toBe("string");
      } else {
        expect(call("checkout.shipping_rates").subtotal).toMatchObject({ currency: "USD" });
        expect(call("checkout.create_payment").amount).toMatchObject({ currency: "USD" });
      }
      // the receiver's answers are what the version's document accepts
      const money = (n: number) => (version === OLD ? n : { amount: n, currency: "USD" });
      expect(check.answer("checkout.shipping_rates", { fee: money(450) })).toEqual([]);
      expect(check.answer("order.calculate_discounts", { discount: money(125), reason: "Welcome" })).toEqual([]);
      outcomes.push(outcome);
    }
    // the same answers, each in its version, make the same checkout
    const quote = (o: Record<string, unknown>, point: string) => (o[point] as { quote?: unknown }).quote;
    for (const point of ["checkout.shipping_rates", "order.calculate_discounts"]) {
      expect(quote(outcomes[0], point), point).toBeTruthy();
      expect(quote(outcomes[0], point), point).toEqual(quote(outcomes[1], point));
    }
    expect((outcomes[0]["order.calculate_discounts"] as { quote: { discountReason: string } }).quote).toMatchObject({
      discountReason: "Welcome",
    });
  }, 180_000);
});

// ---------------------------------------------------------------------------------------------
// The billing POSTs, rendered like every answer

describe("the billing App API POSTs", () => {
  it("answer through the wrapper's rendering: the current version's {amount, currency}, valid against its document", async () => {
    const reviewer = await p.createUser("REVIEWER");
    const merchant = await p.register("MERCHANT");
    const browser = await BrowserSession.signIn(p.url, merchant.email, "correct horse battery");
    const { app, token } = await installThroughOAuth(
      p,
      { developer: dev, reviewer, merchant: browser },
      appBody({ webhookUrl: `${receiver.url}/billing-app/`, pricing: [METERED] }),
    );
    expect(app.apiVersion).toBe(CURRENT);
    const check = responseChecker((await p.request("GET", `/app-api/openapi.json?version=${CURRENT}`)).json);
    const returnUrl = "https://loyalty.example/billing/done";

    const sub = await p.request("POST", "/app-api/billing/subscriptions", {
      token,
      body: { planId: "metered", returnUrl },
    });
    expect(sub.status, sub.text).toBe(201);
    expect(sub.headers.get("api-version")).toBe(CURRENT);
    expect(sub.json).toMatchObject({
      price: { amount: 999, currency: "USD" },
      usageCap: { amount: 10000, currency: "USD" },
      usageBalance: { amount: 0, currency: "USD" },
    });
    check("/app-api/billing/subscriptions", "POST", 201, sub.json);
    const approved = await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, {
      token: merchant.token,
    });
    expect(approved.status, approved.text).toBe(200);

    const usage = await p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
      token,
      body: { description: "10 messages", amount: { amount: 100, currency: "USD" } },
    });
    expect(usage.status, usage.text).toBe(201);
    expect(usage.headers.get("api-version")).toBe(CURRENT);
    expect(usage.json).toMatchObject({
      amount: { amount: 100, currency: "USD" },
      usageBalance: { amount: 100, currency: "USD" },
      usageCap: { amount: 10000, currency: "USD" },
    });
    check("/app-api/billing/subscriptions/{id}/usage", "POST", 201, usage.json);

    const charge = await p.request("POST", "/app-api/billing/charges", {
      token,
      body: { name: "Setup", price: { amount: 4900, currency: "USD" }, returnUrl },
    });
    expect(charge.status, charge.text).toBe(201);
    expect(charge.json.price).toEqual({ amount: 4900, currency: "USD" });
    check("/app-api/billing/charges", "POST", 201, charge.json);

    // 2026-11-21 has no billing (decision 043's addendum): 404 naming the version it needs, not another shape
    const old = await p.request("POST", "/app-api/billing/charges", {
      token,
      headers: { "Api-Version": OLD },
      body: { name: "Setup", price: { amount: 4900, currency: "USD" }, returnUrl },
    });
    expect(old.status).toBe(404);
    expect(old.headers.get("api-version")).toBe(OLD);
    expect(old.json.message).toContain("exists from API version 2026-11-27 on");
  });

  it("refuses a handler that gives a ready Response (it does not type-check either)", async () => {
    const route = appApiRoute("/app-api/raw-response-test", {
      POST: operation({
        summary: "A handler that skips the rendering",
        answer: { status: 201, schema: z.object({ price: z.number() }) },
        errors: [],
        // @ts-expect-error a handler gives the answer's value, never a Response (decision 046)
        handler: async () => json({ price: 6.5 }, 201),
      }),
    });
    const installed = await testInstalled(CURRENT);
    const res = (await route.action({
      request: new Request(`${p.url}/app-api/raw-response-test`, {
        method: "POST",
        headers: { Authorization: `Bearer ${installed.token}` },
      }),
      params: {},
      context: { db: p.db, env: p.env },
    } as never)) as Response;
    expect(res.status).toBe(500);
    expect(res.headers.get("api-version")).toBe(CURRENT);
  });
});
