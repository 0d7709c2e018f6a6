/**
 * The admin's Activity page and the portal's per-app Activity page, and their CSV downloads
 * (contract 18; decision 084), through HTTP as a browser uses them: who may read them, that another
 * business's or app's entries never show, the filters in the URL, the pages, and CSV cells that a
 * spreadsheet would run as formulas.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { recordActivity } from "./activity.server";
import { parseActivityFilter, zonedMidnight } from "./activity-pages.server";

const p = await startPlatform();

/** A staff member of the business made directly (the invitation flow has its own tests), signed in. */
async function member(businessId: string, permissions: string[]) {
  const u = await p.createUser("MERCHANT");
  await p.sql`update accounts set business_id = ${businessId}, staff_permissions = ${permissions} where id = ${u.account.id}`;
  return { ...u, browser: await BrowserSession.signIn(p.url, u.email, "correct horse battery") };
}

/** The raw answer to a page or download, with its headers. */
async function fetchAs(b: BrowserSession, path: string) {
  const url = b.urlOf(path);
  const res = await fetch(url, { headers: { Cookie: b.cookieHeader(url) }, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The CSV's rows as arrays of cells (quotes undone). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

describe("the admin's Activity page", () => {
  it("shows the business's own entries to the owner and `staff` members, never another business's; others get 403", async () => {
    const owner = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    // an entry of each business, made by real actions: invitations
    for (const [o, email] of [
      [owner, `mine-${Date.now()}@example.test`],
      [other, `theirs-${Date.now()}@example.test`],
    ] as const)
      expect(
        (await p.request("POST", "/merchant/staff", { token: o.token, body: { email, permissions: ["orders"] } }))
          .status,
      ).toBe(201);

    const b = await BrowserSession.signIn(p.url, owner.email, owner.password);
    const page = await b.get("/admin/activity");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Staff member invited");
    expect(page.html).toContain("Signed in");
    expect(page.html).toContain(owner.email);
    expect(page.html).toContain("mine-");
    expect(page.html).not.toContain("theirs-");
    expect(page.html).not.toContain(other.email);
    // the nav offers it to the owner
    expect(page.html).toContain('href="/admin/activity"');

    const staff = await member(owner.businessId, ["staff"]);
    const seen = await staff.browser.get("/admin/activity");
    expect(seen.status).toBe(200);
    expect(seen.html).toContain("mine-");

    const clerk = await member(owner.businessId, ["orders"]);
    const refused = await clerk.browser.get("/admin/activity");
    expect(refused.status).toBe(403);
    expect(refused.html).toMatch(/staff/);
    expect((await fetchAs(clerk.browser, "/admin/activity/export.csv")).status).toBe(403);
    // and the nav does not offer it
    expect((await clerk.browser.get("/admin/orders")).html).not.toContain('href="/admin/activity"');
  });

  it("keeps the filters in the URL, pages, says what it left out, and shows an empty state", async () => {
    const owner = await p.register("MERCHANT");
    for (let i = 0; i < 27; i++)
      await p.request("POST", "/merchant/staff", {
        token: owner.token,
        body: { email: `page-${i}-${Date.now()}@example.test`, permissions: ["orders"] },
      });
    const b = await BrowserSession.signIn(p.url, owner.email, owner.password);
    const invited = await b.get("/admin/activity?what=staff.invited");
    invited.html = invited.html.replace(/<!-- -->/g, "");
    expect(invited.html).toContain("27 entries");
    expect(invited.html).not.toContain(`data-action="account.signed_in"`);
    expect(invited.html).toContain("Page 1 of 2");
    // the next page and the CSV link keep the filter
    expect(invited.html).toContain('href="/admin/activity?what=staff.invited&amp;page=2"');
    expect(invited.html).toContain('href="/admin/activity/export.csv?what=staff.invited"');
    const second = await b.get("/admin/activity?what=staff.invited&page=2");
    second.html = second.html.replace(/<!-- -->/g, "");
    expect(second.html).toContain("Page 2 of 2");
    expect((second.html.match(/data-testid="activity-row"/g) ?? []).length).toBe(2);

    const byWho = await b.get(
      `/admin/activity?who=${encodeURIComponent(owner.email.toUpperCase())}&what=account.signed_in`,
    );
    expect((byWho.html.match(/data-testid="activity-row"/g) ?? []).length).toBeGreaterThanOrEqual(1);
    const nobody = await b.get("/admin/activity?who=nobody%40example.test");
    expect(nobody.html).toContain("No entries match these filters");

    const bad = await b.get("/admin/activity?what=nope&from=yesterday");
    expect(bad.status).toBe(200);
    expect(bad.html).toContain("There is no action &quot;nope&quot;");
    expect(bad.html).toContain("&quot;yesterday&quot; is not a date");
    const future = await b.get("/admin/activity?from=2999-01-01");
    expect(future.html).toContain("No entries match these filters");
  });

  it("reads From and To as whole days in the shop's time zone", async () => {
    // midnight in Tokyo is 15:00 UTC the day before; in New York, 05:00 UTC (04:00 in summer)
    expect(zonedMidnight("2026-03-10", "Asia/Tokyo").toISOString()).toBe("2026-03-09T15:00:00.000Z");
    expect(zonedMidnight("2026-01-10", "America/New_York").toISOString()).toBe("2026-01-10T05:00:00.000Z");
    expect(zonedMidnight("2026-07-10", "America/New_York").toISOString()).toBe("2026-07-10T04:00:00.000Z");
    // the day summer time starts there, at 02:00 local: midnight is still 05:00 UTC
    expect(zonedMidnight("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    const { filter } = parseActivityFilter(new URLSearchParams({ from: "2026-03-12", to: "2026-03-10" }), "Asia/Tokyo");
    // swapped, and `to` includes its whole day
    expect(filter.from?.toISOString()).toBe("2026-03-09T15:00:00.000Z");
    expect(filter.to?.toISOString()).toBe("2026-03-12T15:00:00.000Z");
  });

  it("downloads the filtered entries as a private CSV whose cells never run as formulas", async () => {
    const owner = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    // what an attacker controls ends up in an entry: an address typed at sign-in, a name
    await recordActivity(p.db, {
      businessId: owner.businessId,
      actor: { type: "SYSTEM" },
      action: "settings.changed",
      target: { type: "business", id: owner.businessId },
      ip: "203.0.113.9",
      details: { name: '=HYPERLINK("http://evil.example","x")' },
    });
    await recordActivity(p.db, {
      businessId: other.businessId,
      actor: { type: "SYSTEM" },
      action: "settings.changed",
      target: { type: "business", id: other.businessId },
      details: { name: "theirs" },
    });
    const b = await BrowserSession.signIn(p.url, owner.email, owner.password);
    const all = await fetchAs(b, "/admin/activity/export.csv");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(all.headers.get("content-disposition")).toMatch(
      /^attachment; filename="activity-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(all.headers.get("cache-control")).toBe("private, no-store");
    const rows = parseCsv(all.text);
    expect(rows[0]).toEqual([
      "at",
      "actor_type",
      "actor_id",
      "actor_email",
      "action",
      "target_type",
      "target_id",
      "ip",
      "details",
    ]);
    expect(rows.length).toBeGreaterThanOrEqual(3); // registration's sign-in, the page's sign-in, the entry
    expect(all.text).not.toContain("theirs");
    const settings = rows.find((r) => r[4] === "settings.changed")!;
    expect(settings[1]).toBe("SYSTEM");
    expect(settings[7]).toBe("203.0.113.9");
    // the details cell is JSON, which starts with "{": harmless; a cell that starts with "=" gets an apostrophe
    expect(settings[8]).toContain("=HYPERLINK");
    expect(settings[8].startsWith("{")).toBe(true);

    await recordActivity(p.db, {
      businessId: owner.businessId,
      actor: { type: "ACCOUNT", id: "acc_x", email: "=cmd|' /C calc'!A0" },
      action: "account.sign_in_failed",
      target: { type: "account", id: "@SUM(1+1)" },
      details: {},
    });
    const filtered = parseCsv((await fetchAs(b, "/admin/activity/export.csv?what=account.sign_in_failed")).text);
    expect(filtered.slice(1).every((r) => r[4] === "account.sign_in_failed")).toBe(true);
    const hostile = filtered.find((r) => r[2] === "acc_x")!;
    expect(hostile[3]).toBe("'=cmd|' /C calc'!A0");
    expect(hostile[6]).toBe("'@SUM(1+1)");
  });
});

describe("the portal's per-app Activity page", () => {
  it("shows the app's own entries to its members (as every portal page of the app, VIEWER and up); another app's never; a developer who is not a member gets 404", async () => {
    const dev = await p.register("DEVELOPER");
    const mk = async (token: string, name: string) => {
      const res = await p.request("POST", "/developer/apps", {
        token,
        body: {
          name,
          slug: `${name.toLowerCase()}-${Date.now()}`,
          redirectUrl: "https://example.com/cb",
          description: "Logs.",
          category: "other",
          scopes: ["read_business"],
        },
      });
      expect(res.status, res.text).toBe(201);
      return res.json as { id: string };
    };
    const app = await mk(dev.token, "Logged");
    const otherApp = await mk(dev.token, "Elsewhere");
    const viewer = await p.register("DEVELOPER");
    const stranger = await p.register("DEVELOPER");
    expect(
      (
        await p.request("POST", `/developer/apps/${app.id}/members`, {
          token: dev.token,
          body: { email: viewer.email, role: "VIEWER" },
        })
      ).status,
    ).toBe(201);
    await p.request("POST", `/developer/apps/${otherApp.id}/members`, {
      token: dev.token,
      body: { email: "elsewhere-member@example.test", role: "DEVELOPER" },
    });
    const owner = await BrowserSession.signIn(p.url, dev.email, dev.password);
    const page = await owner.get(`/portal/apps/${app.id}/activity`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("App member invited");
    expect(page.html).toContain(viewer.email);
    expect(page.html).not.toContain("elsewhere-member");
    const csv = await fetchAs(owner, `/portal/apps/${app.id}/activity.csv?what=app_member.invited`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="activity-logged-/);
    expect(csv.text).toContain(viewer.email);
    expect(csv.text).not.toContain("elsewhere-member");
    // the app's page links to it
    expect((await owner.get(`/portal/apps/${app.id}`)).html).toContain(`href="/portal/apps/${app.id}/activity"`);

    const outsider = await BrowserSession.signIn(p.url, stranger.email, stranger.password);
    expect((await outsider.get(`/portal/apps/${app.id}/activity`)).status).toBe(404);
    expect((await fetchAs(outsider, `/portal/apps/${app.id}/activity.csv`)).status).toBe(404);
  });
});
