import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { appBody } from "./apps.test-helpers";
import { atOnce, expectOutcome } from "../testing/concurrency";
import { newId } from "../core/ids.server";
import { putReview } from "./app-reviews.server";
import { listMarketplaceCards, listChangelog, roundedInstalls, formatRating } from "./marketplace.server";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";

const p = await startPlatform();
const dev = await p.register("DEVELOPER");
/** A developer's reply to a review of its app, through the API. */
const postReply = (appId: string, reviewId: string, token: string, body: Record<string, unknown>) =>
  p.request("POST", `/developer/apps/${appId}/reviews/${reviewId}/reply`, { token, body });
const reviewer = await p.createUser("REVIEWER");
const HOUR = 3600 * 1000;

async function publishedApp(overrides: Record<string, unknown> = {}, releaseNotes?: string, developer = dev) {
  const created = await p.request("POST", "/developer/apps", { token: developer.token, body: appBody(overrides) });
  expect(created.status).toBe(201);
  const submitted = await p.request("POST", `/developer/apps/${created.json.id}/submit`, {
    token: developer.token,
    body: releaseNotes ? { releaseNotes } : undefined,
  });
  expect(submitted.status).toBe(200);
  const approved = await p.request("POST", `/review/apps/${created.json.id}/approve`, {
    token: reviewer.token,
    body: { criteria: REVIEW_CRITERIA_KEYS },
  });
  expect(approved.json.status).toBe("APPROVED");
  return approved.json as { id: string; slug: string; name: string; category: string };
}

/** An installation row as the install paths write it, at a chosen time and state. */
async function installation(
  appId: string,
  businessId: string,
  o: { test?: boolean; installedAgoMs?: number; uninstalledAfterMs?: number } = {},
) {
  const id = newId("inst");
  const installedAt = new Date(Date.now() - (o.installedAgoMs ?? 10 * 24 * HOUR));
  const uninstalledAt =
    o.uninstalledAfterMs === undefined ? null : new Date(installedAt.getTime() + o.uninstalledAfterMs);
  await p.sql`insert into installations (id, app_id, business_id, scopes, is_test_install, webhook_secret_enc, installed_at, status, uninstalled_at)
    values (${id}, ${appId}, ${businessId}, ${["read_products"]}, ${o.test ?? false}, 'x', ${installedAt.toISOString()}::timestamptz, ${uninstalledAt ? "UNINSTALLED" : "ACTIVE"}, ${uninstalledAt?.toISOString() ?? null}::timestamptz)`;
  return id;
}

const put = (token: string, inst: string, body: unknown) =>
  p.request("PUT", `/merchant/installations/${inst}/review`, { token, body });

async function figures(appId: string) {
  const [row] =
    await p.sql`select rating_sum::int as sum, rating_count as count, rating_avg::float as avg, active_installs as installs from apps where id = ${appId}`;
  const [truth] = await p.sql`select coalesce(sum(rating), 0)::int as sum, count(*)::int as count,
      (select count(*)::int from installations i join businesses b on b.id = i.business_id
        where i.app_id = ${appId} and i.status = 'ACTIVE' and not i.is_test_install and not b.is_sandbox) as installs
    from app_reviews where app_id = ${appId} and hidden_at is null`;
  // the kept figures always equal what a scan of the rows says
  expect({ sum: row.sum, count: row.count, installs: row.installs }).toEqual(truth);
  return row as { sum: number; count: number; avg: number | null; installs: number };
}

describe("who may review", () => {
  it("a business with an active production installation may; its review shows the business name and date", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const inst = await installation(app.id, m.businessId);
    const res = await put(m.token, inst, { rating: 4, body: "Does what it says." });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      appId: app.id,
      rating: 4,
      body: "Does what it says.",
      reply: null,
      hidden: false,
    });
    expect(res.json.businessName).toMatch(/^Shop /);
    expect(Date.parse(res.json.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const list = await p.request("GET", `/developer/apps/${app.id}/reviews`, { token: dev.token });
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ total: 1, page: 1, limit: 50 });
    expect(list.json.data[0]).toMatchObject({ id: res.json.id, rating: 4, businessName: res.json.businessName });
    expect(await figures(app.id)).toMatchObject({ sum: 4, count: 1, avg: 4, installs: 1 });
  });

  it("a business whose production installation was uninstalled after more than an hour may", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const inst = await installation(app.id, m.businessId, { uninstalledAfterMs: 3 * 24 * HOUR });
    expect((await put(m.token, inst, { rating: 2, body: "Stopped using it." })).status).toBe(200);
    expect(await figures(app.id)).toMatchObject({ count: 1, installs: 0 });
  });

  it("a test install, an install removed within the hour, another business's installation and the developer's sandbox may not", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const testInst = await installation(app.id, m.businessId, { test: true });
    const refused = await put(m.token, testInst, { rating: 5, body: "" });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      statusCode: 403,
      message: expect.stringMatching(/production installation/),
      error: "Forbidden",
    });

    const quick = await p.register("MERCHANT");
    const quickInst = await installation(app.id, quick.businessId, { uninstalledAfterMs: 10 * 60 * 1000 });
    expect((await put(quick.token, quickInst, { rating: 5, body: "" })).status).toBe(403);

    // another tenant's installation id is 404, as if it did not exist
    const other = await p.register("MERCHANT");
    const otherInst = await installation(app.id, other.businessId);
    const foreign = await put(m.token, otherInst, { rating: 1, body: "" });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ statusCode: 404, message: "Installation not found", error: "Not Found" });

    // the developer's sandbox: its test install became a production one at approval, still refused
    const draft = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    expect(
      (await p.request("POST", `/developer/apps/${draft.json.id}/test-install`, { token: dev.token })).status,
    ).toBe(201);
    await p.request("POST", `/developer/apps/${draft.json.id}/submit`, { token: dev.token });
    await p.request("POST", `/review/apps/${draft.json.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    const [sandbox] = await p.sql`select id, is_test_install from installations where app_id = ${draft.json.id}`;
    expect(sandbox.is_test_install).toBe(false);
    await expect(
      putReview(p.db, dev.businessId, sandbox.id, { rating: 5, body: "Best app ever" }),
    ).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/own developer/) });
    // and a developer account cannot use the merchant endpoint at all
    expect((await put(dev.token, sandbox.id, { rating: 5, body: "" })).status).toBe(403);

    expect(await figures(app.id)).toMatchObject({ count: 0 });
    // nor does a sandbox's installation count as a marketplace install (decision 054)
    expect(await figures(draft.json.id)).toMatchObject({ count: 0, installs: 0 });
  });

  it("an uninstall within the hour of installing takes the review back", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const inst = await installation(app.id, m.businessId, { installedAgoMs: 5 * 60 * 1000 });
    expect((await put(m.token, inst, { rating: 5, body: "Amazing" })).status).toBe(200);
    expect(await figures(app.id)).toMatchObject({ count: 1 });
    expect((await p.request("DELETE", `/merchant/installations/${inst}`, { token: m.token })).status).toBeLessThan(300);
    expect(await figures(app.id)).toMatchObject({ count: 0, installs: 0 });
    expect(await p.sql`select 1 from app_reviews where app_id = ${app.id}`).toHaveLength(0);
  });

  it("refuses bad input with a clear 400", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const inst = await installation(app.id, m.businessId);
    for (const body of [
      { rating: 0, body: "" },
      { rating: 6 },
      { rating: 3.5 },
      { rating: "5" },
      { rating: 3, body: "x".repeat(2001) },
      {},
    ]) {
      const res = await put(m.token, inst, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toBe("Bad Request");
    }
    expect((await put(m.token, inst, { rating: 3, body: "x".repeat(2000) })).status).toBe(200);
  });
});

describe("one review per business", () => {
  it("many identical PUTs at once end with exactly one review", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const inst = await installation(app.id, m.businessId);
    const answers = await atOnce(20, () => put(m.token, inst, { rating: 5, body: "Same words" }));
    expectOutcome(answers, { 200: 20 }, { what: "concurrent review PUTs" });
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(await p.sql`select id from app_reviews where app_id = ${app.id}`).toHaveLength(1);
    expect(await figures(app.id)).toMatchObject({ sum: 5, count: 1 });
    const notes = await p.sql`select type from developer_notifications where app_id = ${app.id}`;
    expect(notes.filter((n) => n.type === "app_review.created")).toHaveLength(1);
    expect(notes.filter((n) => n.type === "app_review.updated")).toHaveLength(19);
  });

  it("a second PUT replaces the review; DELETE removes it (204, then 404)", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const inst = await installation(app.id, m.businessId);
    const first = await put(m.token, inst, { rating: 5, body: "Great" });
    const second = await put(m.token, inst, { rating: 2, body: "Got worse" });
    expect(second.json).toMatchObject({ id: first.json.id, rating: 2, body: "Got worse" });
    expect(await figures(app.id)).toMatchObject({ sum: 2, count: 1, avg: 2 });
    const got = await p.request("GET", `/merchant/installations/${inst}/review`, { token: m.token });
    expect(got.json).toMatchObject({ rating: 2, body: "Got worse" });
    expect((await p.request("DELETE", `/merchant/installations/${inst}/review`, { token: m.token })).status).toBe(204);
    expect(await figures(app.id)).toMatchObject({ sum: 0, count: 0, avg: null });
    const again = await p.request("DELETE", `/merchant/installations/${inst}/review`, { token: m.token });
    expect(again.json).toEqual({ statusCode: 404, message: "Review not found", error: "Not Found" });
  });
});

describe("reply and hide", () => {
  it("the developer replies once; a second reply is 409; another developer's app is 404", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const review = await put(m.token, await installation(app.id, m.businessId), { rating: 3, body: "Fine" });
    const reply = await postReply(app.id, review.json.id, dev.token, { body: "Thanks, a fix is coming" });
    expect(reply.status).toBe(200);
    expect(reply.json.reply).toMatchObject({ body: "Thanks, a fix is coming" });
    const twice = await postReply(app.id, review.json.id, dev.token, { body: "Again" });
    expect(twice.status).toBe(409);
    expect(twice.json).toEqual({
      statusCode: 409,
      message: "The review already has a reply; a review is answered once",
      error: "Conflict",
    });
    // the first reply stands
    expect(
      (await p.request("GET", `/developer/apps/${app.id}/reviews`, { token: dev.token })).json.data[0].reply,
    ).toMatchObject({ body: "Thanks, a fix is coming" });
    const stranger = await p.register("DEVELOPER");
    expect((await postReply(app.id, review.json.id, stranger.token, { body: "Hi" })).status).toBe(404);
    expect((await p.request("GET", `/developer/apps/${app.id}/reviews`, { token: stranger.token })).status).toBe(404);
    expect((await postReply(app.id, review.json.id, dev.token, {})).status).toBe(400);
  });

  it("of two replies sent at once exactly one is published; the other is 409", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const review = await put(m.token, await installation(app.id, m.businessId), { rating: 5, body: "Great" });
    const answers = await atOnce(6, (i) => postReply(app.id, review.json.id, dev.token, { body: `Reply ${i}` }));
    expectOutcome(answers, { 200: 1, 409: 5 }, { what: "replies at once", messages: { 409: /answered once/ } });
    const winner = answers.find((a) => a.status === 200)!.json.reply.body;
    const [row] = await p.sql`select reply_body from app_reviews where id = ${review.json.id}`;
    expect(row.reply_body).toBe(winner);
  });

  it("the portal page shows the existing reply instead of the form, and a stale second reply is refused with that reply shown", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const review = await put(m.token, await installation(app.id, m.businessId), { rating: 2, body: "Slow support" });
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    const page = await browser.get(`/portal/apps/${app.id}/reviews`);
    expect(page.html).toContain("Publish reply");
    const fields = hiddenFields(page.html);
    // a teammate (or another tab) answers first
    expect(
      (await postReply(app.id, review.json.id, dev.token, { body: "Sorry, we have hired more people." })).status,
    ).toBe(200);
    const stale = await browser.post(`/portal/apps/${app.id}/reviews`, {
      ...fields,
      reviewId: review.json.id,
      body: "My own answer",
    });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain("was already answered");
    expect(stale.html).toContain("My own answer"); // the unsent text, not lost
    const again = await browser.get(`/portal/apps/${app.id}/reviews`);
    const text = again.html.replace(/<!-- -->/g, "");
    expect(text).toContain("Sorry, we have hired more people.");
    expect(text).not.toContain("Publish reply");
    const [row] = await p.sql`select reply_body from app_reviews where id = ${review.json.id}`;
    expect(row.reply_body).toBe("Sorry, we have hired more people.");
  });

  it("a reviewer hides a review with a reason: out of the figures and the public list, its author sees the reason", async () => {
    const app = await publishedApp();
    const m = await p.register("MERCHANT");
    const inst = await installation(app.id, m.businessId);
    const review = await put(m.token, inst, { rating: 1, body: "Buy my app instead at example.test" });
    expect(
      (await p.request("POST", `/review/app-reviews/${review.json.id}/hide`, { token: reviewer.token, body: {} }))
        .status,
    ).toBe(400);
    expect(
      (
        await p.request("POST", `/review/app-reviews/${review.json.id}/hide`, {
          token: dev.token,
          body: { reason: "x" },
        })
      ).status,
    ).toBe(403);
    const hidden = await p.request("POST", `/review/app-reviews/${review.json.id}/hide`, {
      token: reviewer.token,
      body: { reason: "Advertises another product" },
    });
    expect(hidden.status).toBe(200);
    expect(hidden.json).toMatchObject({ hidden: true, hiddenReason: "Advertises another product" });
    expect(await figures(app.id)).toMatchObject({ count: 0, sum: 0 });
    const own = await p.request("GET", `/merchant/installations/${inst}/review`, { token: m.token });
    expect(own.json).toMatchObject({ hidden: true, hiddenReason: "Advertises another product" });
    const page = await p.request("GET", `/marketplace/${app.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Buy my app instead");
    expect(
      (await p.request("POST", `/review/app-reviews/rvw_nope/hide`, { token: reviewer.token, body: { reason: "x" } }))
        .status,
    ).toBe(404);
  });
});

describe("marketplace figures", () => {
  it("average, count, install count and the sorts agree with the database", async () => {
    const category = "shipping";
    const tag = Math.random().toString(36).slice(2, 7);
    const a = await publishedApp({ category, name: `Labels ${tag}` }, "First release: labels for three carriers");
    const b = await publishedApp({ category, name: `Tracking ${tag}` });
    const c = await publishedApp({ category, name: `Returns ${tag}` });
    const ratings: Record<string, number[]> = { [a.id]: [5, 4, 4], [b.id]: [5], [c.id]: [] };
    for (const [appId, list] of Object.entries(ratings))
      for (const r of list) {
        const m = await p.register("MERCHANT");
        expect(
          (await put(m.token, await installation(appId, m.businessId), { rating: r, body: `${r} stars` })).status,
        ).toBe(200);
      }
    // installs: c the most, test installs not counted
    for (let i = 0; i < 5; i++) await installation(c.id, (await p.register("MERCHANT")).businessId);
    for (let i = 0; i < 3; i++) await installation(c.id, (await p.register("MERCHANT")).businessId, { test: true });

    expect(await figures(a.id)).toMatchObject({ sum: 13, count: 3, avg: 4.33, installs: 3 });
    expect(await figures(b.id)).toMatchObject({ count: 1, avg: 5, installs: 1 });
    expect(await figures(c.id)).toMatchObject({ count: 0, avg: null, installs: 5 });

    const ours = (cards: { id: string }[]) => cards.map((x) => x.id).filter((id) => [a.id, b.id, c.id].includes(id));
    const byRating = await listMarketplaceCards(p.db, { category, sort: "rating" });
    expect(ours(byRating.rows)).toEqual([b.id, a.id, c.id]);
    expect(byRating.rows.find((x) => x.id === a.id)).toMatchObject({ rating: 4.33, ratingCount: 3, activeInstalls: 3 });
    expect(formatRating(4.33)).toBe("4.3");
    expect(ours((await listMarketplaceCards(p.db, { category, sort: "popular" })).rows)).toEqual([c.id, a.id, b.id]);
    expect(ours((await listMarketplaceCards(p.db, { category, sort: "newest" })).rows)).toEqual([c.id, b.id, a.id]);

    // the pages show the same figures
    const detail = await p.request("GET", `/marketplace/${a.slug}`);
    detail.text = detail.text.replace(/<!-- -->/g, "");
    expect(detail.text).toContain("<strong>4.3</strong>");
    expect(detail.text).toContain("· 3 reviews");
    expect(detail.text).toContain("Installed by 3 businesses");
    expect(detail.text).toContain("First release: labels for three carriers");
    expect((await listChangelog(p.db, a.id))[0]).toMatchObject({
      releaseNotes: "First release: labels for three carriers",
    });
    const index = await p.request("GET", `/marketplace?category=${category}&sort=rating`);
    expect(index.text.indexOf(b.name)).toBeLessThan(index.text.indexOf(a.name));
  });

  it("rounds install counts for display", () => {
    expect([0, 7, 12, 99, 150, 1234, 12_345, 123_456].map(roundedInstalls)).toEqual([
      "0",
      "7",
      "10+",
      "90+",
      "100+",
      "1,200+",
      "12,000+",
      "120,000+",
    ]);
  });
});

describe("pages", () => {
  it("a reviewer picks an app for the Staff picks row and unpicks it; forms need the CSRF token", async () => {
    const app = await publishedApp({ name: `Pickable ${Math.random().toString(36).slice(2, 7)}` });
    const browser = await BrowserSession.signIn(p.url, reviewer.email, "correct horse battery");
    const page = await browser.get("/reviewer/marketplace");
    expect(page.status).toBe(200);
    const csrf = hiddenFields(page.html);
    expect(
      (await browser.post("/reviewer/marketplace", { csrf: "not-the-token", intent: "pick", appId: app.id })).status,
    ).toBe(403);
    const picked = await browser.post("/reviewer/marketplace", { ...csrf, intent: "pick", appId: app.id });
    expect(picked.status).toBe(302);
    const [row] = await p.sql`select staff_picked_at from apps where id = ${app.id}`;
    expect(row.staff_picked_at).not.toBeNull();
    const market = (await p.request("GET", "/marketplace")).text;
    expect(market).toContain("Staff picks");
    expect(market.indexOf(app.name)).toBeLessThan(market.indexOf("All apps"));
    await browser.post("/reviewer/marketplace", { ...csrf, intent: "unpick", appId: app.id });
    const [after] = await p.sql`select staff_picked_at from apps where id = ${app.id}`;
    expect(after.staff_picked_at).toBeNull();
  });

  it("lists apps the business used before under Previously installed, with the review form where it may review", async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const used = await publishedApp({ name: `Used ${tag}` });
    const brief = await publishedApp({ name: `Brief ${tag}` });
    const back = await publishedApp({ name: `Back ${tag}` });
    const m = await p.register("MERCHANT");
    const usedInst = await installation(used.id, m.businessId, {
      installedAgoMs: 30 * 24 * HOUR,
      uninstalledAfterMs: 20 * 24 * HOUR,
    });
    const briefInst = await installation(brief.id, m.businessId, {
      installedAgoMs: 5 * 24 * HOUR,
      uninstalledAfterMs: 10 * 60 * 1000,
    });
    await installation(back.id, m.businessId, { installedAgoMs: 30 * 24 * HOUR, uninstalledAfterMs: 2 * 24 * HOUR });
    await installation(back.id, m.businessId, { installedAgoMs: 24 * HOUR }); // installed again: not "previously"
    const browser = await BrowserSession.signIn(p.url, m.email, m.password);
    const page = await browser.get("/admin/apps");
    expect(page.status).toBe(200);
    const text = page.html.replace(/<!-- -->/g, "");
    const former = text.slice(text.indexOf("Previously installed"), text.indexOf("Removed apps"));
    expect(former).toContain(used.name);
    expect(former).toContain(`aria-label="Review ${used.name}"`);
    // removed within the hour: not a former app it can review (the Removed apps record still lists it)
    expect(former).not.toContain(brief.name);
    expect(text.slice(text.indexOf("Removed apps"))).toContain(brief.name);
    expect(former).not.toContain(back.name);

    const csrf = hiddenFields(page.html);
    const review = (installationId: string, fields: Record<string, string>) =>
      browser.post("/admin/apps", { ...csrf, intent: "review", installationId, ...fields });
    expect((await review(usedInst, { rating: "9", body: "x" })).status).toBe(400);
    expect((await review(usedInst, { body: "no stars" })).status).toBe(400);
    const refused = await review(briefInst, { rating: "5", body: "stuffing" });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("installations removed within an hour do not count");
    const other = await p.register("MERCHANT");
    const stranger = await installation(used.id, other.businessId, {
      installedAgoMs: 30 * 24 * HOUR,
      uninstalledAfterMs: 20 * 24 * HOUR,
    });
    expect((await review(stranger, { rating: "1", body: "not mine" })).status).toBe(404);
    expect(
      (
        await browser.post("/admin/apps", {
          csrf: "not-the-token",
          intent: "review",
          installationId: usedInst,
          rating: "5",
          body: "x",
        })
      ).status,
    ).toBe(403);

    const saved = await review(usedInst, { rating: "4", body: "We used it for a season; solid." });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`/admin/apps?done=reviewed#former-${usedInst}`);
    const [row] =
      await p.sql`select rating, body, installation_id from app_reviews where app_id = ${used.id} and business_id = ${m.businessId}`;
    expect(row).toEqual({ rating: 4, body: "We used it for a season; solid.", installation_id: usedInst });
    expect(await figures(used.id)).toMatchObject({ count: 1, sum: 4 });
    const after = (await browser.get("/admin/apps?done=reviewed")).html.replace(/<!-- -->/g, "");
    expect(after).toContain("Your review is saved.");
    expect(after).toContain('aria-label="4 out of 5 stars"');
    expect(after).toContain("Update review");
    expect((await p.request("GET", `/marketplace/${used.slug}`)).text).toContain("We used it for a season; solid.");

    expect(
      (await browser.post("/admin/apps", { ...csrf, intent: "delete-review", installationId: usedInst })).status,
    ).toBe(302);
    expect(await figures(used.id)).toMatchObject({ count: 0 });
  });

  it("the invitation to review shows after 7 days of production use and stays dismissed", async () => {
    const app = await publishedApp({ name: `Invite ${Math.random().toString(36).slice(2, 7)}` });
    const m = await p.register("MERCHANT");
    const fresh = await publishedApp({ name: `Fresh ${Math.random().toString(36).slice(2, 7)}` });
    const inst = await installation(app.id, m.businessId, { installedAgoMs: 8 * 24 * HOUR });
    await installation(fresh.id, m.businessId, { installedAgoMs: 2 * 24 * HOUR });
    const browser = await BrowserSession.signIn(p.url, m.email, m.password);
    const page = await browser.get("/admin/apps");
    const text = page.html.replace(/<!-- -->/g, "");
    expect(text).toContain(`Review ${app.name}`);
    expect(text).toContain(`>${fresh.name}<`);
    expect(text).not.toContain(`Review ${fresh.name}`);
    const dismissed = await browser.post("/admin/apps", {
      ...hiddenFields(page.html),
      intent: "dismiss-review-invite",
      installationId: inst,
    });
    expect(dismissed.status).toBe(302);
    expect((await browser.get("/admin/apps")).html.replace(/<!-- -->/g, "")).not.toContain(`Review ${app.name}`);
    const [row] = await p.sql`select review_prompt_dismissed_at from installations where id = ${inst}`;
    expect(row.review_prompt_dismissed_at).not.toBeNull();
  });
});
