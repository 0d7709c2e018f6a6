/**
 * Releases (contract 19, decision 077): the app's whole configuration as one document, applied as
 * a numbered release with its diff, listed newest first, restored as a new release; an approved
 * app's changes that need review become its update in review; every edit of the configuration in
 * the portal or the JSON API is a release too. Another developer's app is 404.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { appBody, PRO_PLAN, releaseConfig } from "./apps.test-helpers";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";
import { diffConfigs } from "./releases.server";
import { starsBlock } from "../testing/manifests";

const p = await startPlatform();
const dev = await p.register("DEVELOPER");
const other = await p.register("DEVELOPER");
const reviewer = await p.createUser("REVIEWER");

const MANIFEST = { blocks: [starsBlock()] };

async function newApp(developer = dev) {
  const created = await p.request("POST", "/developer/apps", { token: developer.token, body: appBody() });
  expect(created.status).toBe(201);
  return created.json as { id: string; apiVersion: string };
}

const configFor = (app: { apiVersion: string }, overrides: Record<string, unknown> = {}) =>
  releaseConfig(app.apiVersion, overrides);

const release = (appId: string, body: unknown, token = dev.token, query = "") =>
  p.request("POST", `/developer/apps/${appId}/releases${query}`, { token, body });
const releases = (appId: string, token = dev.token) => p.request("GET", `/developer/apps/${appId}/releases`, { token });

describe("releases", () => {
  it("applies two releases with a diff between them, lists them newest first, and restoring the first makes a third equal to it", async () => {
    const app = await newApp();
    const first = await release(app.id, { config: configFor(app), message: "first" });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ version: 1, status: "APPLIED" });

    const second = await release(app.id, {
      config: configFor(app, {
        name: "Loyalty Stars Plus",
        scopes: ["read_orders", "read_products", "read_reviews"],
        webhookEvents: ["order.created", "product.updated"],
        pricing: [PRO_PLAN],
        manifest: MANIFEST,
      }),
      message: "second",
    });
    expect(second.status, second.text).toBe(201);
    expect(second.json.version).toBe(2);
    const paths = Object.fromEntries((second.json.diff as { path: string; op: string }[]).map((d) => [d.path, d.op]));
    expect(paths).toEqual({
      name: "changed",
      scopes: "changed",
      webhookEvents: "changed",
      "pricing.0": "added",
      manifest: "added",
    });
    const applied = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(applied.json).toMatchObject({ name: "Loyalty Stars Plus", manifest: MANIFEST });
    expect(applied.json.pricing).toEqual([PRO_PLAN]);
    // the manifest went through the same sync as PUT manifest: its block exists
    const dryRun = await p.request("PUT", `/developer/apps/${app.id}/manifest?dryRun=true`, {
      token: dev.token,
      body: MANIFEST,
    });
    expect(dryRun.json.sync.created).toEqual([]);

    const listed = await releases(app.id);
    expect(listed.status).toBe(200);
    expect(listed.json.total).toBe(2);
    expect(listed.json.data.map((r: { version: number }) => r.version)).toEqual([2, 1]);
    expect(listed.json.data[0]).toMatchObject({ message: "second", source: "api", status: "APPLIED" });

    const restored = await p.request("POST", `/developer/apps/${app.id}/releases/1/restore`, { token: dev.token });
    expect(restored.status, restored.text).toBe(201);
    expect(restored.json.version).toBe(3);
    const back = Object.fromEntries((restored.json.diff as { path: string; op: string }[]).map((d) => [d.path, d.op]));
    expect(back).toMatchObject({ name: "changed", "pricing.0": "removed", manifest: "removed" });
    const after = (await releases(app.id)).json.data;
    expect(after[0]).toMatchObject({ version: 3, restoredFrom: 1 });
    expect(after[0].config).toEqual(after[2].config);
    const now = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(now.json).toMatchObject({ name: "Loyalty Stars", manifest: null, pricing: [] });

    expect(
      (await p.request("POST", `/developer/apps/${app.id}/releases/99/restore`, { token: dev.token })).status,
    ).toBe(404);
  });

  it("refuses an invalid document with 400 naming the field, and applies nothing", async () => {
    const app = await newApp();
    const cases: [unknown, string][] = [
      [configFor(app, { scopes: ["read_everything"] }), "config.scopes.0"],
      [configFor(app, { redirectUrl: "not a url" }), "config.redirectUrl"],
      [configFor(app, { pricing: [{ id: "pro", name: "Pro", kind: "RECURRING" }] }), "config.pricing.0.price"],
      [configFor(app, { apiVersion: "1999-01-01" }), "apiVersion"],
      [configFor(app, { manifest: { blocks: [{ blockType: "x" }] } }), "blocks"],
      [configFor(app, { slug: "new-slug" }), "config"],
      [{ ...configFor(app), name: undefined }, "config.name"],
    ];
    for (const [config, field] of cases) {
      const res = await release(app.id, { config, message: "bad" });
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(res.json.message).toContain(field);
      expect(res.json.error).toBe("Bad Request");
    }
    expect((await releases(app.id)).json.total).toBe(0);
    const unchanged = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(unchanged.json.scopes).toEqual(["read_orders", "read_products"]);
  });

  it("answers the diff only with dryRun", async () => {
    const app = await newApp();
    const res = await release(app.id, { config: configFor(app, { name: "Renamed" }) }, dev.token, "?dryRun=true");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ version: 1, status: "APPLIED", dryRun: true });
    expect(res.json.diff).toEqual([{ path: "name", op: "changed", before: "Loyalty Stars", after: "Renamed" }]);
    expect((await releases(app.id)).json.total).toBe(0);
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token })).json.name).toBe("Loyalty Stars");
  });

  it("puts an approved app's scope change into review as its update, the listing changing at once", async () => {
    const app = await newApp();
    expect((await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token })).status).toBe(200);
    const approved = await p.request("POST", `/review/apps/${app.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    expect(approved.json.status).toBe("APPROVED");

    const listing = await release(app.id, { config: configFor(app, { description: "Points for every order." }) });
    expect(listing.json).toMatchObject({ version: 1, status: "APPLIED" });

    const res = await release(app.id, {
      config: configFor(app, {
        description: "Points for every order.",
        scopes: ["read_orders", "read_products", "read_reviews"],
      }),
      message: "Birthday rewards need customers",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ version: 2, status: "IN_REVIEW" });
    const got = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(got.json).toMatchObject({
      status: "APPROVED",
      updateInReview: true,
      approvedScopes: ["read_orders", "read_products"],
      releaseNotes: "Birthday rewards need customers",
      description: "Points for every order.",
    });
    // in review: no release (as no edit) until the review ends
    expect((await release(app.id, { config: configFor(app) })).status).toBe(409);
    expect(
      (await p.request("GET", "/review/apps", { token: reviewer.token })).json.data.map((a: { id: string }) => a.id),
    ).toContain(app.id);
  });

  it("records a release for each edit of the configuration through PATCH, PUT manifest and the portal", async () => {
    const app = await newApp();
    await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { name: "Patched" } });
    // an edit outside the configuration (the icon) is no release
    await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: { iconUrl: "https://loyalty.example/icon.png" },
    });
    await p.request("PUT", `/developer/apps/${app.id}/manifest`, { token: dev.token, body: MANIFEST });
    let list = (await releases(app.id)).json.data;
    expect(list.map((r: { version: number; source: string }) => [r.version, r.source])).toEqual([
      [2, "api"],
      [1, "api"],
    ]);
    expect(list[1].diff).toEqual([{ path: "name", op: "changed", before: "Loyalty Stars", after: "Patched" }]);
    expect(list[0].diff.map((d: { path: string }) => d.path)).toEqual(["manifest"]);

    // the portal's manifest editor, with its CSRF token
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    const page = await browser.get(`/portal/apps/${app.id}/manifest`);
    const edited = { blocks: [{ ...MANIFEST.blocks[0], name: "Gold stars" }] };
    const refused = await browser.post(`/portal/apps/${app.id}/manifest`, {
      csrf: "not-the-token",
      intent: "save",
      manifest: JSON.stringify(edited),
    });
    expect(refused.status).toBe(403);
    const saved = await browser.post(`/portal/apps/${app.id}/manifest`, {
      ...hiddenFields(page.html),
      intent: "save",
      manifest: JSON.stringify(edited),
    });
    expect(saved.status).toBe(200);
    list = (await releases(app.id)).json.data;
    expect(list[0]).toMatchObject({ version: 3, source: "portal" });
    expect(list[0].diff).toEqual([
      { path: "manifest.blocks.0.name", op: "changed", before: "Stars", after: "Gold stars" },
    ]);

    // the Releases page lists them and restores one (CSRF)
    const releasesPage = await browser.get(`/portal/apps/${app.id}/releases`);
    releasesPage.html = releasesPage.html.replace(/<!-- -->/g, "");
    expect(releasesPage.status).toBe(200);
    expect(releasesPage.html).toContain("manifest.blocks.0.name");
    expect(releasesPage.html).toContain("Restore release 1");
    const bad = await browser.post(`/portal/apps/${app.id}/releases`, { csrf: "not-the-token", version: "1" });
    expect(bad.status).toBe(403);
    const ok = await browser.post(`/portal/apps/${app.id}/releases`, {
      ...hiddenFields(releasesPage.html),
      version: "1",
    });
    expect(ok.status).toBe(302);
    list = (await releases(app.id)).json.data;
    expect(list[0]).toMatchObject({ version: 4, restoredFrom: 1 });
    expect(list[0].config).toEqual(list[3].config);
  });

  it("answers 404 for another developer's app, on every releases route and page", async () => {
    const app = await newApp();
    await release(app.id, { config: configFor(app) });
    expect((await releases(app.id, other.token)).status).toBe(404);
    const post = await release(app.id, { config: configFor(app, { name: "Hijacked" }) }, other.token);
    expect(post.status).toBe(404);
    const restore = await p.request("POST", `/developer/apps/${app.id}/releases/1/restore`, { token: other.token });
    expect(restore.status).toBe(404);
    const browser = await BrowserSession.signIn(p.url, other.email, other.password);
    expect((await browser.get(`/portal/apps/${app.id}/releases`)).status).toBe(404);
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token })).json.name).toBe("Loyalty Stars");
  });
});

describe("diffConfigs", () => {
  it("names added, removed and changed paths, lists of plain values as one value", () => {
    expect(
      diffConfigs(
        { a: 1, s: ["x"], m: { blocks: [{ n: "a" }, { n: "b" }] }, gone: true },
        { a: 2, s: ["x", "y"], m: { blocks: [{ n: "a" }] }, added: null, fresh: "yes" },
      ),
    ).toEqual([
      { path: "a", op: "changed", before: 1, after: 2 },
      { path: "s", op: "changed", before: ["x"], after: ["x", "y"] },
      { path: "m.blocks.1", op: "removed", before: { n: "b" } },
      { path: "gone", op: "removed", before: true },
      { path: "fresh", op: "added", after: "yes" },
    ]);
  });
});
