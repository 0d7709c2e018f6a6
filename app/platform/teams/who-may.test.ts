/**
 * Who may (contract 17; issue 43): every merchant JSON route and every admin page, walked with a
 * member holding each single permission (and one holding none), answers exactly as the table
 * below says: the routes of that permission (and those for every member) are let through, every
 * other one answers 403 naming its permission. The list of routes is read from app/routes, so a
 * new /merchant route or admin page without an entry here fails the first test, and one whose
 * declared permission differs from the table fails the second.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { accounts } from "../../../db/schema";
import { createAccount } from "../accounts/accounts.server";
import { tokenForNewSession } from "../accounts/second-step.server";
import { PERMISSIONS, type Permission } from "../accounts/permissions";
import type { DeclaredRoute, Method } from "../core/operations.server";

const ROUTES_DIR = path.resolve(import.meta.dirname, "../../routes");

/** What each route needs: a permission, or null for every member of the business. */
const EXPECTED: Record<string, Permission | null> = {
  // the admin's pages
  "admin.tsx": null,
  "admin._index.tsx": null,
  "admin.ext.$installationId.$pageId.tsx": null,
  "admin.orders._index.tsx": "orders",
  "admin.orders.$orderId.tsx": "orders",
  "admin.orders.export[.]csv.ts": "orders",
  "admin.orders.exports.$exportId.ts": "orders",
  "admin.orders.exports.$exportId.download.ts": "orders",
  "admin.products._index.tsx": "products",
  "admin.products.$productId.tsx": "products",
  "admin.products.new.tsx": "products",
  "admin.reviews.tsx": "products",
  "admin.pages._index.tsx": "pages",
  "admin.pages.$slug.tsx": "pages",
  "admin.apps.tsx": "apps",
  "admin.apps_.$installationId.tsx": "apps",
  "admin.billing.tsx": "billing",
  "admin.privacy.tsx": "privacy",
  "admin.privacy.export[.]json.ts": "privacy",
  "admin.settings.tsx": "settings",
  "admin.emails.tsx": "settings",
  "admin.emails.preview.$kind.ts": "settings",
  "admin.staff.tsx": "staff",
  "admin.activity._index.tsx": "staff",
  "admin.activity.export[.]csv.ts": "staff",
  "admin.files.ts": "pages",
  "admin.setup-guide.tsx": null,
  // the merchant's JSON routes
  "merchant.billing.invoices.ts": "billing",
  "merchant.billing.subscriptions.$id.approve.ts": "apps",
  "merchant.billing.subscriptions.$id.decline.ts": "apps",
  "merchant.billing.subscriptions.$id.cancel.ts": "billing",
  "merchant.billing.subscriptions.$id.cap.ts": "billing",
  "merchant.installations._index.ts": "apps",
  "merchant.installations.$installationId.ts": "apps",
  "merchant.installations.$installationId.consent.ts": "apps",
  "merchant.installations.$installationId.embeds.$embedType.ts": "apps",
  "merchant.installations.$installationId.review.ts": "apps",
  "merchant.installations.$installationId.settings.ts": "apps",
  "merchant.pages._index.ts": "pages",
  "merchant.pages.$slug.ts": "pages",
  "merchant.privacy.requests.ts": "privacy",
  "merchant.activity.ts": "staff",
  "merchant.security.ts": "settings",
  "merchant.staff._index.ts": "staff",
  "merchant.staff.$id._index.ts": "staff",
  "merchant.staff.$id.ownership.ts": "staff",
  "merchant.files.ts": "products",
  "merchant.files.$fileId.ts": "products",
  "merchant.reviews.$reviewId.reply.ts": "products",
};

/** The route files of the admin and of /merchant (the splat route's 404 aside). */
const routeFiles = readdirSync(ROUTES_DIR).filter(
  (f) => /^(admin|merchant)[._]/.test(f) && /\.tsx?$/.test(f) && f !== "merchant.$.ts" && !f.includes(".test."),
);

/** The URL of a page route file, with a made-up value for each parameter. */
function pagePath(file: string): string {
  const segments = file
    .replace(/\.tsx?$/, "")
    .replace(/\[\.\]/g, "\u0000")
    .split(".")
    .filter((s) => s !== "_index")
    .map((s) => s.replace(/\u0000/g, ".").replace(/_$/, ""))
    .map((s) => (s.startsWith("$") ? "made-up" : s));
  return "/" + segments.join("/");
}

const p = await startPlatform();
const owner = await p.register("MERCHANT");
const PASSWORD = "correct horse battery";

/** A member of the owner's business holding exactly `permissions` (the account as acceptance makes it). */
async function member(permissions: Permission[]) {
  const email = `m-${permissions.join("-") || "none"}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const { account } = await createAccount(p.db, {
    email,
    password: PASSWORD,
    name: "M",
    role: "MERCHANT",
    businessName: "x",
  });
  const [row] = await p.db
    .update(accounts)
    .set({ businessId: owner.businessId, staffPermissions: permissions })
    .where(eq(accounts.id, account.id))
    .returning();
  return {
    permissions,
    token: await tokenForNewSession(p.db, p.env, row, { ip: "127.0.0.1", userAgent: "test" }, "test"),
    browser: await BrowserSession.signIn(p.url, email, PASSWORD),
  };
}

const names = (permission: Permission) => new RegExp(`needs the (&quot;|")${permission}(&quot;|") permission`);
const namesAny = /needs the (&quot;|")[a-z]+(&quot;|") permission/;

describe("who may: every merchant route and admin page, by permission", () => {
  it("every admin page and /merchant route file has its expected permission here", () => {
    expect(routeFiles.length).toBeGreaterThan(30);
    expect([...routeFiles].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("each /merchant route declares the permission the table expects", async () => {
    for (const file of routeFiles.filter((f) => f.startsWith("merchant."))) {
      const mod = (await import(path.join(ROUTES_DIR, file))) as { declared: DeclaredRoute };
      expect(mod.declared.caller, file).toBe("MERCHANT");
      expect(mod.declared.permission, file).toBe(EXPECTED[file]);
    }
  });

  it("a member with each single permission (and one with none) reaches exactly the routes of it", async () => {
    const members = await Promise.all([[], ...PERMISSIONS.map((x) => [x])].map((ps) => member(ps as Permission[])));
    const json = await Promise.all(
      routeFiles
        .filter((f) => f.startsWith("merchant."))
        .map(async (file) => ({
          file,
          declared: ((await import(path.join(ROUTES_DIR, file))) as { declared: DeclaredRoute }).declared,
        })),
    );
    const problems: string[] = [];
    for (const m of members) {
      // the JSON routes: every declared method, made-up ids (an allowed call then answers 404 or 400, never the 403)
      for (const { file, declared } of json) {
        const url = declared.path.replace(/\{[^}]+\}/g, "made-up");
        for (const method of Object.keys(declared.operations) as Method[]) {
          const res = await p.request(method, url, {
            token: m.token,
            body: method === "GET" || method === "DELETE" ? undefined : {},
          });
          const needed = EXPECTED[file];
          const allowed = needed === null || m.permissions.includes(needed);
          if (allowed && res.status === 403 && namesAny.test(res.text))
            problems.push(`${m.permissions} ${method} ${url}: refused ${res.text}`);
          if (!allowed && !(res.status === 403 && names(needed!).test(res.json?.message ?? "")))
            problems.push(`${m.permissions} ${method} ${url}: ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
      // the pages: their loader (GET) and, where there is one, their action (POST, with the form's token)
      for (const file of routeFiles.filter((f) => f.startsWith("admin"))) {
        const url = pagePath(file);
        const text = readFileSync(path.join(ROUTES_DIR, file), "utf8");
        const hasAction = /export (async )?function action/.test(text);
        const hasLoader = /export (async )?function loader|export default/.test(text);
        const needed = EXPECTED[file];
        const allowed = needed === null || m.permissions.includes(needed);
        const answers = [
          ...(hasLoader ? [await m.browser.get(url)] : []),
          ...(hasAction ? [await m.browser.post(url, {})] : []),
        ];
        for (const res of answers) {
          if (allowed && namesAny.test(res.html)) problems.push(`${m.permissions} ${url}: refused`);
          if (!allowed && !(res.status === 403 && names(needed!).test(res.html)))
            problems.push(`${m.permissions} ${url}: ${res.status}, not the 403 naming "${needed}"`);
        }
      }
    }
    expect(problems.join("\n")).toBe("");
  }, 240_000);

  it("the admin's navigation shows only what the member may use", async () => {
    const m = await member(["pages"]);
    const html = (await m.browser.get("/admin")).html;
    expect(html).toContain('href="/admin/pages"');
    for (const hidden of [
      "/admin/orders",
      "/admin/products",
      "/admin/apps",
      "/admin/billing",
      "/admin/privacy",
      "/admin/staff",
      "/admin/settings",
    ])
      expect(html, hidden).not.toContain(`href="${hidden}"`);
    const ownerHtml = (await (await BrowserSession.signIn(p.url, owner.email, owner.password)).get("/admin")).html;
    expect(ownerHtml).toContain('href="/admin/staff"');
    // a direct URL outside them: the 403 page saying which permission is missing
    const direct = await m.browser.get("/admin/orders");
    expect(direct.status).toBe(403);
    expect(direct.html).toMatch(names("orders"));
    expect(direct.html).toContain("Not allowed");
  });
});
