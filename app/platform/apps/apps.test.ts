import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform, startProductionPlatform } from "../testing/platform";
import { appBody } from "./apps.test-helpers";
import { verifyClientCredentials } from "./apps.server";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";
import { BrowserSession } from "../testing/browser";
import { tamper } from "../testing/tamper";

const p = await startPlatform();
const dev = await p.register("DEVELOPER");
const otherDev = await p.register("DEVELOPER");
const reviewer = await p.createUser("REVIEWER");
/** The reviewer approves the app of this id with every criterion met. */
const approveApp = (appId: string) =>
  p.request("POST", `/review/apps/${appId}/approve`, {
    token: reviewer.token,
    body: { criteria: REVIEW_CRITERIA_KEYS },
  });

async function createApp(overrides: Record<string, unknown> = {}, token = dev.token) {
  const res = await p.request("POST", "/developer/apps", { token, body: appBody(overrides) });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

describe("creating an app", () => {
  it("issues a fixed client id and a client secret shown once", async () => {
    const body = appBody({
      iconUrl: "https://loyalty.example/icon.png",
      screenshots: ["https://loyalty.example/1.png"],
      version: "2.1.0",
    });
    const res = await p.request("POST", "/developer/apps", { token: dev.token, body });
    expect(res.status).toBe(201);
    const app = res.json;
    expect(app).toMatchObject({
      id: expect.stringMatching(/^app_/),
      clientId: expect.stringMatching(/^fbci_[0-9a-z]{24}$/),
      clientSecret: expect.stringMatching(/^fbcs_[A-Za-z0-9_-]{43}$/),
      name: body.name,
      slug: body.slug,
      description: body.description,
      category: "loyalty",
      scopes: ["read_orders", "read_products"],
      approvedScopes: [],
      redirectUrl: body.redirectUrl,
      webhookUrl: body.webhookUrl,
      webhookEvents: ["order.created"],
      iconUrl: "https://loyalty.example/icon.png",
      screenshots: ["https://loyalty.example/1.png"],
      version: "2.1.0",
      status: "DRAFT",
      updateInReview: false,
      reviewNotes: null,
      manifest: null,
      publishedAt: null,
    });
    // the contract's fields, plus releaseNotes (the version in review's, issue 20; decision 028)
    expect(Object.keys(app).sort()).toEqual(
      [
        "id",
        "clientId",
        "clientSecret",
        "name",
        "slug",
        "description",
        "category",
        "scopes",
        "approvedScopes",
        "pricing",
        "approvedPricing",
        "redirectUrl",
        "webhookUrl",
        "webhookEvents",
        "iconUrl",
        "screenshots",
        "version",
        "apiVersion",
        "status",
        "updateInReview",
        "reviewNotes",
        "releaseNotes",
        "manifest",
        "createdAt",
        "updatedAt",
        "publishedAt",
      ].sort(),
    );
    const fetched = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(fetched.json.clientSecret).toBeUndefined();
    expect(fetched.json.clientId).toBe(app.clientId);
    // stored only as a hash
    const [row] = await p.db.execute<{ client_secret_hash: string }>(
      sql`select client_secret_hash from apps where id = ${app.id}`,
    );
    expect(row.client_secret_hash).not.toContain(app.clientSecret);
    expect(row.client_secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("defaults version to 1.0.0", async () => {
    const app = await createApp();
    expect(app.version).toBe("1.0.0");
  });

  it("refuses every invalid field with 400 naming it", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ slug: "Bad Slug" }, /slug/],
      [{ slug: "ab" }, /slug/],
      [{ slug: "a".repeat(51) }, /slug/],
      [{ slug: "double--hyphen" }, /slug/],
      [{ slug: "-lead" }, /slug/],
      [{ category: "games" }, /category/],
      [{ scopes: [] }, /scopes/],
      [{ scopes: ["read_everything"] }, /scopes/],
      [{ redirectUrl: "not a url" }, /redirectUrl/],
      [{ redirectUrl: "javascript:alert(1)" }, /redirectUrl/],
      [{ webhookUrl: "data:text/html,hi" }, /webhookUrl/],
      [{ iconUrl: "ftp://x.example/icon.png" }, /iconUrl/],
      [{ screenshots: Array.from({ length: 6 }, (_, i) => `https://x.example/${i}.png`) }, /screenshots/],
      [{ version: "one" }, /version/],
      [{ webhookEvents: ["order.exploded"] }, /webhookEvents/],
      [{ name: "" }, /name/],
      [{ description: undefined }, /description/],
    ];
    for (const [overrides, message] of cases) {
      const res = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.json.message, JSON.stringify(overrides)).toMatch(message);
      expect(res.json.error).toBe("Bad Request");
    }
  });

  it("requires https URLs in production", async () => {
    const prod = await startProductionPlatform(p.dbUrl);
    const d = await prod.register("DEVELOPER");
    const res = await prod.request("POST", "/developer/apps", {
      token: d.token,
      body: appBody({ redirectUrl: "http://loyalty.example/cb" }),
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/redirectUrl: must be an absolute https URL/);
  });

  it("refuses a taken slug with 409", async () => {
    const app = await createApp();
    const res = await p.request("POST", "/developer/apps", {
      token: otherDev.token,
      body: appBody({ slug: app.slug }),
    });
    expect(res.status).toBe(409);
  });

  it("lists only the developer's own apps, paginated", async () => {
    const mine = await p.request("GET", "/developer/apps?limit=2", { token: dev.token });
    expect(mine.status).toBe(200);
    expect(mine.json).toMatchObject({ page: 1, limit: 2, total: expect.any(Number) });
    expect(mine.json.data).toHaveLength(2);
    const theirs = await p.request("GET", "/developer/apps", { token: otherDev.token });
    expect(theirs.json.total).toBe(0);
    expect(theirs.json.data).toEqual([]);
    const bad = await p.request("GET", "/developer/apps?limit=0", { token: dev.token });
    expect(bad.status).toBe(400);
  });
});

describe("guards", () => {
  it("answers 401 without a valid token and 403 for another role", async () => {
    expect((await p.request("GET", "/developer/apps")).status).toBe(401);
    expect((await p.request("GET", "/developer/apps", { token: "garbage" })).status).toBe(401);
    expect((await p.request("GET", "/developer/apps", { token: tamper(dev.token) })).status).toBe(401);
    const merchant = await p.register("MERCHANT");
    expect((await p.request("GET", "/developer/apps", { token: merchant.token })).status).toBe(403);
    expect((await p.request("GET", "/review/apps", { token: dev.token })).status).toBe(403);
    const app = await createApp();
    const approve = await p.request("POST", `/review/apps/${app.id}/approve`, {
      token: dev.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    expect(approve.status).toBe(403);
  });

  it("answers 404 for another developer's app on every endpoint and changes nothing", async () => {
    const app = await createApp();
    const other = otherDev.token;
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: other })).status).toBe(404);
    expect(
      (await p.request("PATCH", `/developer/apps/${app.id}`, { token: other, body: { name: "Hijacked" } })).status,
    ).toBe(404);
    expect((await p.request("PUT", `/developer/apps/${app.id}/manifest`, { token: other, body: {} })).status).toBe(404);
    expect((await p.request("POST", `/developer/apps/${app.id}/submit`, { token: other })).status).toBe(404);
    expect((await p.request("POST", `/developer/apps/${app.id}/client-secret`, { token: other })).status).toBe(404);
    const after = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(after.json).toMatchObject({ name: app.name, status: "DRAFT", manifest: null });
    expect(await verifyClientCredentials(p.db, app.clientId, app.clientSecret)).not.toBeNull();
  });
});

describe("editing", () => {
  it("updates fields but never the slug, client id or status", async () => {
    const app = await createApp();
    const res = await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: { name: "Loyalty Stars Pro", screenshots: [], webhookUrl: null },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: "Loyalty Stars Pro", screenshots: [], webhookUrl: null, slug: app.slug });
    const slug = await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: { slug: "new-slug" },
    });
    expect(slug.status).toBe(400);
    expect(slug.json.message).toBe("slug is immutable");
    expect(
      (await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { status: "APPROVED" } }))
        .status,
    ).toBe(400);
    expect(
      (await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { clientId: "fbci_mine" } }))
        .status,
    ).toBe(400);
    expect(
      (await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { category: "games" } })).status,
    ).toBe(400);
  });

  it("regenerates the client secret; the old one fails at once", async () => {
    const app = await createApp();
    const res = await p.request("POST", `/developer/apps/${app.id}/client-secret`, { token: dev.token });
    expect(res.status).toBe(200);
    expect(res.json.clientSecret).toMatch(/^fbcs_/);
    expect(res.json.clientSecret).not.toBe(app.clientSecret);
    expect(await verifyClientCredentials(p.db, app.clientId, app.clientSecret)).toBeNull();
    expect((await verifyClientCredentials(p.db, app.clientId, res.json.clientSecret))?.id).toBe(app.id);
    const again = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(again.json.clientId).toBe(app.clientId);
  });

  it("stores a manifest document", async () => {
    const app = await createApp();
    const manifest = { blocks: [] };
    const res = await p.request("PUT", `/developer/apps/${app.id}/manifest`, { token: dev.token, body: manifest });
    expect(res.status).toBe(200);
    expect(res.json.manifest).toEqual(manifest);
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token })).json.manifest).toEqual(manifest);
    expect((await p.request("PUT", `/developer/apps/${app.id}/manifest`, { token: dev.token, body: [1] })).status).toBe(
      400,
    );
  });
});

describe("review lifecycle", () => {
  it("DRAFT -> PENDING_REVIEW (locked) -> rejected with notes -> DRAFT -> resubmitted -> APPROVED", async () => {
    const app = await createApp();
    const submitted = await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    expect(submitted.json.status).toBe("PENDING_REVIEW");

    // locked while in review
    expect(
      (await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { name: "Sneaky" } })).status,
    ).toBe(409);
    expect((await p.request("PUT", `/developer/apps/${app.id}/manifest`, { token: dev.token, body: {} })).status).toBe(
      409,
    );
    expect((await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token })).status).toBe(409);

    const queue = await p.request("GET", "/review/apps", { token: reviewer.token });
    expect(queue.json.data.map((a: { id: string }) => a.id)).toContain(app.id);

    const noNotes = await p.request("POST", `/review/apps/${app.id}/reject`, {
      token: reviewer.token,
      body: { notes: "  " },
    });
    expect(noNotes.status).toBe(400);
    expect(noNotes.json.message).toMatch(/notes/);
    expect((await p.request("POST", `/review/apps/${app.id}/reject`, { token: reviewer.token })).status).toBe(400);

    const rejected = await p.request("POST", `/review/apps/${app.id}/reject`, {
      token: reviewer.token,
      body: { notes: "Add screenshots." },
    });
    expect(rejected.json).toMatchObject({ status: "DRAFT", reviewNotes: "Add screenshots." });
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token })).json.reviewNotes).toBe(
      "Add screenshots.",
    );

    // a DRAFT app cannot be approved or rejected
    expect((await approveApp(app.id)).status).toBe(409);

    await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: { screenshots: ["https://loyalty.example/s1.png"] },
    });
    await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    const approved = await approveApp(app.id);
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({
      status: "APPROVED",
      approvedScopes: app.scopes,
      updateInReview: false,
      reviewNotes: null,
    });
    expect(approved.json.publishedAt).not.toBeNull();

    const [version] = await p.db.execute<{ version: string; scopes: string[] }>(
      sql`select version, scopes from app_versions where app_id = ${app.id}`,
    );
    expect(version).toEqual({ version: "1.0.0", scopes: app.scopes });
    expect((await approveApp(app.id)).status).toBe(409);
  });

  it("approves only with all five review criteria checked: 400 naming the missing ones, nothing approved", async () => {
    const app = await createApp();
    await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    const approve = (body?: unknown) =>
      p.request("POST", `/review/apps/${app.id}/approve`, { token: reviewer.token, body });
    const row = async () =>
      (await p.db.execute<{ status: string }>(sql`select status, published_at from apps where id = ${app.id}`))[0];
    const before = await row();

    const none = await approve();
    expect(none.status).toBe(400);
    expect(none.json).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message:
        "Approve only with every review criterion checked; not checked: functionality, security, scopes, quality, policy",
    });
    const some = await approve({ criteria: ["functionality", "scopes", "quality"] });
    expect(some.status).toBe(400);
    expect(some.json.message).toBe("Approve only with every review criterion checked; not checked: security, policy");
    expect((await approve({ criteria: [...REVIEW_CRITERIA_KEYS.slice(1), "fun"] })).status).toBe(400);
    expect((await approve({ criteria: "functionality" })).status).toBe(400);
    expect(await row()).toEqual(before);

    // the reviewer page's form: the same refusal, shown on the page
    const browser = await BrowserSession.signIn(p.url, reviewer.email, "correct horse battery");
    await browser.get(`/reviewer/apps/${app.id}`);
    const form = await browser.post(`/reviewer/apps/${app.id}`, {
      intent: "approve",
      criteria: ["functionality", "security"],
    });
    expect(form.status).toBe(400);
    expect(form.html).toContain("not checked: scopes, quality, policy");
    expect(await row()).toEqual(before);

    const done = await browser.post(`/reviewer/apps/${app.id}`, {
      intent: "approve",
      criteria: [...REVIEW_CRITERIA_KEYS],
    });
    expect(done).toMatchObject({ status: 302, location: "/reviewer?done=approved" });
    expect((await row()).status).toBe("APPROVED");
  });

  it("keeps an approved app installable while an update is in review; scopes change only on approval", async () => {
    const app = await createApp();
    await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    const first = await approveApp(app.id);
    const publishedAt = first.json.publishedAt;

    // listing fields take effect at once, scopes wait for approval
    const edited = await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: {
        description: "Now with tiers.",
        version: "1.1.0",
        scopes: ["read_orders", "read_products", "read_reviews"],
      },
    });
    expect(edited.json).toMatchObject({
      status: "APPROVED",
      description: "Now with tiers.",
      approvedScopes: ["read_orders", "read_products"],
    });

    const submitted = await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    expect(submitted.json).toMatchObject({ status: "APPROVED", updateInReview: true });
    expect(
      (await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { name: "x" } })).status,
    ).toBe(409);

    // an active installation of the approved app (made directly; installs are their own issue)
    const merchant = await p.register("MERCHANT");
    await p.db.execute(sql`insert into installations (id, app_id, business_id, scopes, webhook_secret_enc, installed_at)
      values ('inst_reconsent', ${app.id}, ${merchant.businessId}, '{read_orders,read_products}'::text[], 'x', now())`);

    const rejectedUpdate = await p.request("POST", `/review/apps/${app.id}/reject`, {
      token: reviewer.token,
      body: { notes: "Explain why reviews are needed." },
    });
    expect(rejectedUpdate.json).toMatchObject({
      status: "APPROVED",
      updateInReview: false,
      reviewNotes: "Explain why reviews are needed.",
    });

    await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    const approved = await approveApp(app.id);
    expect(approved.json).toMatchObject({
      status: "APPROVED",
      approvedScopes: ["read_orders", "read_products", "read_reviews"],
      publishedAt,
    });
    const [inst] = await p.db.execute<{ needs_re_consent: boolean }>(
      sql`select needs_re_consent from installations where id = 'inst_reconsent'`,
    );
    expect(inst.needs_re_consent).toBe(true);
    const versions = await p.db.execute<{ version: string }>(
      sql`select version from app_versions where app_id = ${app.id} order by approved_at`,
    );
    expect(versions.map((v) => v.version)).toEqual(["1.0.0", "1.1.0"]);
  });

  it("shows the submitted version's release notes, and every approved version with its notes, in the developer JSON", async () => {
    const app = await createApp({ version: "1.0.0" });
    expect(app.releaseNotes).toBeNull();
    const fresh = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(fresh.json).toMatchObject({ releaseNotes: null, versions: [] });

    // submitted with notes: the app record carries them while the version is in review, the reviewer sees them too
    const tooLong = await p.request("POST", `/developer/apps/${app.id}/submit`, {
      token: dev.token,
      body: { releaseNotes: "x".repeat(5001) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.message).toMatch(/releaseNotes/);
    const submitted = await p.request("POST", `/developer/apps/${app.id}/submit`, {
      token: dev.token,
      body: { releaseNotes: "  First release: stamp cards.  " },
    });
    expect(submitted.json).toMatchObject({ status: "PENDING_REVIEW", releaseNotes: "First release: stamp cards." });
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token })).json).toMatchObject({
      releaseNotes: "First release: stamp cards.",
      versions: [],
    });
    const queue = await p.request("GET", "/review/apps?limit=100", { token: reviewer.token });
    expect(queue.json.data.find((a: { id: string }) => a.id === app.id)).toMatchObject({
      releaseNotes: "First release: stamp cards.",
    });

    // approved: the notes move onto the version record
    const approved = await approveApp(app.id);
    expect(approved.json).toMatchObject({ status: "APPROVED", releaseNotes: null });
    const one = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(one.json.releaseNotes).toBeNull();
    expect(one.json.versions).toEqual([
      {
        id: expect.stringMatching(/^ver_/),
        version: "1.0.0",
        scopes: app.scopes,
        releaseNotes: "First release: stamp cards.",
        approvedAt: approved.json.updatedAt,
      },
    ]);

    // an update submitted without notes, then one with: newest version first, each with its own notes
    await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { version: "1.1.0" } });
    expect((await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token })).json).toMatchObject({
      updateInReview: true,
      releaseNotes: null,
    });
    await approveApp(app.id);
    await p.request("PATCH", `/developer/apps/${app.id}`, { token: dev.token, body: { version: "1.2.0" } });
    const update = await p.request("POST", `/developer/apps/${app.id}/submit`, {
      token: dev.token,
      body: { releaseNotes: "Double points on quiet days." },
    });
    expect(update.json).toMatchObject({ updateInReview: true, releaseNotes: "Double points on quiet days." });
    const during = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(
      during.json.versions.map((v: { version: string; releaseNotes: string | null }) => [v.version, v.releaseNotes]),
    ).toEqual([
      ["1.1.0", null],
      ["1.0.0", "First release: stamp cards."],
    ]);
    await approveApp(app.id);
    const after = await p.request("GET", `/developer/apps/${app.id}`, { token: dev.token });
    expect(after.json.releaseNotes).toBeNull();
    expect(
      after.json.versions.map((v: { version: string; releaseNotes: string | null }) => [v.version, v.releaseNotes]),
    ).toEqual([
      ["1.2.0", "Double points on quiet days."],
      ["1.1.0", null],
      ["1.0.0", "First release: stamp cards."],
    ]);
    // another developer sees none of it
    expect((await p.request("GET", `/developer/apps/${app.id}`, { token: otherDev.token })).status).toBe(404);
  });

  it("lists the queue oldest first", async () => {
    const a = await createApp();
    const b = await createApp();
    await p.request("POST", `/developer/apps/${b.id}/submit`, { token: dev.token });
    await p.request("POST", `/developer/apps/${a.id}/submit`, { token: dev.token });
    const queue = await p.request("GET", "/review/apps", { token: reviewer.token });
    const ids = queue.json.data.map((x: { id: string }) => x.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(queue.json).toMatchObject({ page: 1, limit: 50 });
  });
});
