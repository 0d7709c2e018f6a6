import { describe, expect, it } from "vitest";
import { testDatabase } from "../../../db/testing/database";
import { testEnv } from "../testing/platform";
import { seedDemoData } from "./seed.server";
import { listMarketplaceCards, listStaffPicks } from "../apps/marketplace.server";
import { previouslyInstalledApps } from "../apps/app-reviews.server";

describe("demo marketplace", () => {
  it("a new user sees several apps in several categories, rated and installed, with replies and staff picks", async () => {
    const { db, sql } = await testDatabase();
    expect(await seedDemoData(db, testEnv())).toBe(true);
    const { rows } = await listMarketplaceCards(db, { sort: "rating" });
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(new Set(rows.map((r) => r.category)).size).toBeGreaterThanOrEqual(5);
    expect(rows.filter((r) => r.ratingCount > 0).length).toBeGreaterThanOrEqual(6);
    expect(rows.every((r) => r.activeInstalls > 0)).toBe(true);
    expect((await listStaffPicks(db)).length).toBeGreaterThanOrEqual(3);
    const [{ replies }] = await sql`select count(*)::int as replies from app_reviews where reply_body is not null`;
    expect(replies).toBeGreaterThanOrEqual(4);
    // the demo merchant has Loyalty Stars installed for weeks and has not reviewed it: it is invited to
    const [bistro] =
      await sql`select i.id from installations i join businesses b on b.id = i.business_id join apps a on a.id = i.app_id
      where b.name = 'Demo Bistro' and a.slug = 'loyalty-stars' and i.status = 'ACTIVE'`;
    expect(bistro).toBeTruthy();
    expect(
      await sql`select 1 from app_reviews r join businesses b on b.id = r.business_id where b.name = 'Demo Bistro'`,
    ).toHaveLength(0);
    // and used Mailroom Campaigns for four weeks before removing it: "Previously installed", reviewable
    const [bistroId] = await sql`select id from businesses where name = 'Demo Bistro'`;
    const former = await previouslyInstalledApps(db, bistroId.id);
    expect(former.map((f) => [f.appName, f.review, f.reviewBlocked])).toEqual([["Mailroom Campaigns", null, null]]);
    // changelog: versions with notes
    const [{ notes }] = await sql`select count(*)::int as notes from app_versions where release_notes is not null`;
    expect(notes).toBeGreaterThanOrEqual(7);
  });
});
