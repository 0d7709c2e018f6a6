import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import { startPlatform } from "../testing/platform";
import { appBody } from "../apps/apps.test-helpers";
import { adminSessionToken, renderableBlocks, businessEmbeds } from "./merchant.server";
import { chatEmbed, starsBlock } from "../testing/manifests";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";
import { PERMISSIONS } from "../accounts/permissions";

const p = await startPlatform();
const dev = await p.register("DEVELOPER");

const block = (over: Record<string, unknown> = {}) =>
  starsBlock({
    name: "Star rating",
    description: "Shows stars",
    iconName: "star",
    category: "Reviews",
    settingsSchema: {
      type: "object",
      properties: { color: { type: "string", format: "color" }, title: { type: "string" } },
    },
    defaultConfig: { color: "#ff8800" },
    ...over,
  });
const embed = chatEmbed;
const script = (over: Record<string, unknown> = {}) => ({
  embedType: "pixel",
  name: "Pixel",
  kind: "GLOBAL_SCRIPT",
  position: "head",
  scriptUrl: "https://app.example/pixel.js",
  ...over,
});

async function newApp(manifest?: unknown) {
  const res = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({ scopes: ["read_business"] }),
  });
  if (manifest !== undefined) {
    const put = await p.request("PUT", `/developer/apps/${res.json.id}/manifest`, { token: dev.token, body: manifest });
    expect(put.status, put.text).toBe(200);
  }
  return res.json;
}

const put = async (appId: string, manifest: unknown, query = "") =>
  p.request("PUT", `/developer/apps/${appId}/manifest${query}`, { token: dev.token, body: manifest });

describe("manifest validation (one failing case per rule)", () => {
  it("refuses each violation with 400 naming the field", async () => {
    const app = await newApp();
    const many = (n: number, make: (i: number) => unknown) => Array.from({ length: n }, (_, i) => make(i));
    const cases: [unknown, RegExp][] = [
      [{ widgets: [] }, /widgets: is not allowed/],
      [{ blocks: [block({ blockType: "Bad Type" })] }, /blocks\[0\]\.blockType/],
      [{ blocks: [block(), block()] }, /blocks\[1\]\.blockType: "stars" is used twice/],
      [{ embeds: [embed(), embed({ name: "Again" })] }, /embeds\[1\]\.embedType/],
      [
        {
          adminPages: [
            { pageId: "home", title: "A", renderUrl: "https://a.example" },
            { pageId: "home", title: "B", renderUrl: "https://a.example" },
          ],
        },
        /adminPages\[1\]\.pageId/,
      ],
      [
        {
          hooks: [
            { hookPoint: "order.validate", url: "/a" },
            { hookPoint: "order.validate", url: "/b" },
          ],
        },
        /hooks\[1\]\.hookPoint/,
      ],
      [{ hooks: [{ hookPoint: "order.teleport", url: "/a" }] }, /hooks\[0\]\.hookPoint: must be one of/],
      [{ hooks: [{ hookPoint: "order.validate", url: "https://elsewhere.example/v" }] }, /hooks\[0\]\.url/],
      [{ hooks: [{ hookPoint: "order.validate", url: "/v", timeout: 50 }] }, /hooks\[0\]\.timeout/],
      [{ hooks: [{ hookPoint: "order.validate", url: "/v", timeout: 20000 }] }, /hooks\[0\]\.timeout/],
      [{ hooks: [{ hookPoint: "order.validate", url: "/v", priority: 1001 }] }, /hooks\[0\]\.priority/],
      [{ blocks: [block({ renderUrl: "javascript:alert(1)" })] }, /blocks\[0\]\.renderUrl/],
      [{ embeds: [script({ scriptUrl: "/relative.js" })] }, /embeds\[0\]\.scriptUrl/],
      [{ embeds: [script({ position: "bottom_right" })] }, /embeds\[0\]\.position/],
      [{ embeds: [embed({ position: "head" })] }, /embeds\[0\]\.position/],
      [{ embeds: [script({ scriptUrl: undefined })] }, /embeds\[0\]\.scriptUrl/],
      [{ embeds: [embed({ renderUrl: undefined })] }, /embeds\[0\]\.renderUrl/],
      [{ blocks: [block({ settingsSchema: { type: "nope" } })] }, /blocks\[0\]\.settingsSchema: does not compile/],
      [{ blocks: [block({ defaultConfig: { color: "orange" } })] }, /blocks\[0\]\.defaultConfig: does not match/],
      [{ settingsSchema: { type: 12 } }, /manifest\.settingsSchema: does not compile/],
      [{ blocks: many(21, (i) => block({ blockType: `b${i}` })) }, /blocks: must NOT have more than 20 items/],
      [{ embeds: many(11, (i) => embed({ embedType: `e${i}` })) }, /embeds: must NOT have more than 10 items/],
      [
        { adminPages: many(11, (i) => ({ pageId: `p${i}`, title: "P", renderUrl: "https://a.example" })) },
        /adminPages: must NOT have more than 10 items/,
      ],
      [
        {
          blocks: [block({ description: "x".repeat(400) })],
          settingsSchema: { type: "object", description: "y".repeat(70_000) },
        },
        /exceeds 65536 bytes/,
      ],
      [{ blocks: [block({ name: undefined })] }, /blocks\[0\]\.name/],
      [
        { embeds: [{ embedType: "x", name: "X", position: "head", scriptUrl: "https://a.example/x.js" }] },
        /embeds\[0\]\.kind/,
      ],
      [{ adminPages: [{ pageId: "x", renderUrl: "https://a.example" }] }, /adminPages\[0\]\.title/],
      [[], /manifest: must be a JSON object/],
    ];
    for (const [manifest, message] of cases) {
      const res = await put(app.id, manifest);
      expect(res.status, JSON.stringify(manifest).slice(0, 100)).toBe(400);
      expect(res.json.message, JSON.stringify(manifest).slice(0, 100)).toMatch(message);
    }
    // nothing was stored
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token })).json.manifest).toBeNull();
  });

  it("accepts a full manifest and applies the defaults of hooks", async () => {
    const app = await newApp();
    const manifest = {
      settingsSchema: { type: "object", properties: { apiKey: { type: "string" } } },
      blocks: [block()],
      embeds: [embed(), script()],
      hooks: [{ hookPoint: "order.validate", url: "/hooks/validate" }],
      adminPages: [{ pageId: "dashboard", title: "Stars", renderUrl: "https://app.example/admin" }],
    };
    const res = await put(app.id, manifest);
    expect(res.status).toBe(200);
    expect(res.json.sync).toEqual({
      created: ["block:stars", "embed:chat", "embed:pixel", "hook:order.validate", "adminPage:dashboard"],
      updated: [],
      deactivated: [],
    });
    const [hook] = await p.db.execute<{ definition: any }>(
      sql`select definition from extensions where app_id = ${app.id} and kind = 'hook'`,
    );
    expect(hook.definition).toMatchObject({ timeout: 5000, priority: 100 });
  });
});

describe("manifest syncing", () => {
  it("creates, updates in place and deactivates; dryRun only plans", async () => {
    const app = await newApp({ blocks: [block(), block({ blockType: "badge", name: "Badge" })], embeds: [embed()] });
    const next = {
      blocks: [block({ name: "Stars v2" })],
      embeds: [embed()],
      adminPages: [{ pageId: "home", title: "Home", renderUrl: "https://app.example/a" }],
    };
    const dry = await put(app.id, next, "?dryRun=true");
    expect(dry.json.sync).toEqual({
      created: ["adminPage:home"],
      updated: ["block:stars"],
      deactivated: ["block:badge"],
    });
    const before = await p.db.execute<{ key: string; is_active: boolean }>(
      sql`select key, is_active from extensions where app_id = ${app.id} order by key`,
    );
    expect(before).toEqual([
      { key: "badge", is_active: true },
      { key: "chat", is_active: true },
      { key: "stars", is_active: true },
    ]);
    expect(
      (await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token })).json.manifest.blocks,
    ).toHaveLength(2);

    const applied = await put(app.id, next);
    expect(applied.json.sync).toEqual(dry.json.sync);
    const after = await p.db.execute<{ key: string; is_active: boolean; name: string }>(
      sql`select key, is_active, definition->>'name' as name from extensions where app_id = ${app.id} order by key`,
    );
    expect(after).toEqual([
      { key: "badge", is_active: false, name: "Badge" },
      { key: "chat", is_active: true, name: "Chat" },
      { key: "home", is_active: true, name: null },
      { key: "stars", is_active: true, name: "Stars v2" },
    ]);
    // the same manifest again changes nothing
    expect((await put(app.id, next)).json.sync).toEqual({ created: [], updated: [], deactivated: [] });
  });

  it("keeps merchants' placed blocks and embed settings while deactivated and brings them back", async () => {
    const app = await newApp({
      blocks: [block()],
      embeds: [embed({ settingsSchema: { type: "object", properties: { greeting: { type: "string" } } } })],
    });
    const inst = await p.request("POST", `/developer/apps/${app.id}/test-install`, { token: dev.token });
    const installationId = inst.json.installationId;
    const merchantToken = dev.token; // the sandbox belongs to the developer; use the merchant API through a real merchant below
    void merchantToken;
    // place the block on the sandbox home page and set the embed (domain functions, the sandbox has no merchant account)
    const { savePage, setEmbed } = await import("./merchant.server");
    await savePage(p.db, dev.businessId, "home", {
      title: "Home",
      isPublished: true,
      blocks: [{ kind: "app", type: "stars", appId: app.id, settings: { color: "#123456", title: "Rate us" } }],
    });
    await setEmbed(p.db, dev.businessId, installationId, "chat", { enabled: false, settings: { greeting: "Hi!" } });

    await put(app.id, {});
    const [page] = await p.db.execute<{ blocks: any[] }>(
      sql`select blocks from pages where business_id = ${dev.businessId} and slug = 'home'`,
    );
    expect(page.blocks).toHaveLength(1);
    expect(await renderableBlocks(p.db, { id: dev.businessId }, page.blocks)).toHaveLength(0);
    expect(await businessEmbeds(p.db, dev.businessId)).toHaveLength(0);
    // saving the page keeps the stored block of the deactivated extension
    await savePage(p.db, dev.businessId, "home", { title: "Home", isPublished: true, blocks: page.blocks });

    await put(app.id, {
      blocks: [block()],
      embeds: [embed({ settingsSchema: { type: "object", properties: { greeting: { type: "string" } } } })],
    });
    const [again] = await p.db.execute<{ blocks: any[] }>(
      sql`select blocks from pages where business_id = ${dev.businessId} and slug = 'home'`,
    );
    const rendered = await renderableBlocks(p.db, { id: dev.businessId }, again.blocks);
    expect(rendered.map((b) => b.settings)).toEqual([{ color: "#123456", title: "Rate us" }]);
    const embeds = await businessEmbeds(p.db, dev.businessId);
    expect(embeds).toMatchObject([{ embedType: "chat", enabled: false, settings: { greeting: "Hi!" } }]);
  });
});

describe("merchant endpoints for settings, embeds and pages", () => {
  it("validates app settings, embed settings and app blocks against their schemas", async () => {
    const merchant = await p.register("MERCHANT");
    const reviewer = await p.createUser("REVIEWER");
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({
        scopes: ["read_business"],
        manifest: {
          settingsSchema: { type: "object", properties: { plan: { enum: ["free", "pro"] } }, required: ["plan"] },
          blocks: [block()],
          embeds: [
            embed({ settingsSchema: { type: "object", properties: { greeting: { type: "string", maxLength: 20 } } } }),
          ],
        },
      }),
    });
    await p.request("POST", `/developer/apps/${created.json.id}/submit`, { token: dev.token });
    await p.request("POST", `/review/apps/${created.json.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    // install directly through the domain (the OAuth flow has its own tests)
    const { createInstallation, issueAccessToken } = await import("../installs/installs.server");
    const [appRow] = await p.db.execute<any>(sql`select * from apps where id = ${created.json.id}`);
    const installationId = await p.db.transaction(async (tx) => {
      const { installation } = await createInstallation(tx, p.env, {
        app: { ...appRow, id: appRow.id, webhookUrl: null, webhookEvents: [] } as never,
        businessId: merchant.businessId,
        scopes: ["read_business"],
        isTestInstall: false,
        installedBy: merchant.account.id,
      });
      await issueAccessToken(tx, installation);
      return installation.id;
    });
    const t = merchant.token;
    expect(
      (
        await p.request("PUT", `/merchant/installations/${installationId}/settings`, {
          token: t,
          body: { plan: "gold" },
        })
      ).status,
    ).toBe(400);
    expect(
      (await p.request("PUT", `/merchant/installations/${installationId}/settings`, { token: t, body: {} })).json
        .message,
    ).toMatch(/plan/);
    const ok = await p.request("PUT", `/merchant/installations/${installationId}/settings`, {
      token: t,
      body: { plan: "pro" },
    });
    expect(ok.json).toEqual({ installationId, settings: { plan: "pro" } });

    expect(
      (
        await p.request("PUT", `/merchant/installations/${installationId}/embeds/chat`, {
          token: t,
          body: { enabled: true, settings: { greeting: "x".repeat(30) } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await p.request("PUT", `/merchant/installations/${installationId}/embeds/nope`, {
          token: t,
          body: { enabled: true },
        })
      ).status,
    ).toBe(404);
    const off = await p.request("PUT", `/merchant/installations/${installationId}/embeds/chat`, {
      token: t,
      body: { enabled: false },
    });
    expect(off.json).toEqual({
      installationId,
      embedType: "chat",
      enabled: false,
      settings: {},
      placement: { corner: "bottom_right", offset: 0, showOnPhones: true },
    });

    const pagePut = (blocks: unknown[]) =>
      p.request("PUT", "/merchant/pages/landing", { token: t, body: { title: "Landing", isPublished: true, blocks } });
    expect((await pagePut([{ kind: "app", type: "stars", appId: "app_unknown", settings: {} }])).status).toBe(400);
    expect(
      (await pagePut([{ kind: "app", type: "stars", appId: created.json.id, settings: { color: "red" } }])).json
        .message,
    ).toMatch(/color/);
    expect((await pagePut([{ kind: "builtin", type: "marquee", settings: {} }])).status).toBe(400);
    const saved = await pagePut([
      { kind: "builtin", type: "heading", settings: { text: "Hello" } },
      { kind: "app", type: "stars", appId: created.json.id, settings: { color: "#00aa00" } },
    ]);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({
      slug: "landing",
      title: "Landing",
      isPublished: true,
      blocks: [
        { kind: "builtin", type: "heading" },
        { kind: "app", type: "stars", appId: created.json.id, settings: { color: "#00aa00" } },
      ],
    });
    const list = await p.request("GET", "/merchant/pages", { token: t });
    expect(list.json.data.map((x: { slug: string }) => x.slug).sort()).toEqual(["home", "landing"]);
    expect(
      (
        await p.request("PUT", "/merchant/pages/Bad Slug", {
          token: t,
          body: { title: "x", isPublished: true, blocks: [] },
        })
      ).status,
    ).toBe(400);

    // another merchant cannot touch this installation
    const other = await p.register("MERCHANT");
    expect(
      (
        await p.request("PUT", `/merchant/installations/${installationId}/settings`, {
          token: other.token,
          body: { plan: "free" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await p.request("PUT", `/merchant/installations/${installationId}/embeds/chat`, {
          token: other.token,
          body: { enabled: true },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await p.request("PUT", "/merchant/pages/landing", {
          token: other.token,
          body: {
            title: "L",
            isPublished: true,
            blocks: [{ kind: "app", type: "stars", appId: created.json.id, settings: {} }],
          },
        })
      ).status,
    ).toBe(400);

    // the admin page session token verifies with the client secret (independent JWT library)
    const token = (await adminSessionToken(
      p.env,
      appRow.client_secret_enc
        ? { clientId: appRow.client_id, clientSecretEnc: appRow.client_secret_enc }
        : { clientId: "", clientSecretEnc: null },
      { accountId: merchant.account.id, owner: true, permissions: [...PERMISSIONS], name: merchant.account.name },
      merchant.businessId,
    ))!;
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(created.json.clientSecret), {
      audience: created.json.clientId,
    });
    expect(protectedHeader.alg).toBe("HS256");
    expect(payload).toMatchObject({
      sub: merchant.account.id,
      businessId: merchant.businessId,
      aud: created.json.clientId,
      owner: true,
      permissions: [...PERMISSIONS],
    });
    expect(payload.exp! - payload.iat!).toBe(60);
  });
});
