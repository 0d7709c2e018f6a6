import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { testDatabase } from "../../../db/testing/database";
import { DEMO_LOGINS, seedDemoData } from "../demo/seed.server";
import { accounts, apps } from "../../../db/schema";
import { testEnv } from "../testing/platform";
import type { PlatformContext } from "../core/context";
import { createAccount } from "./accounts.server";
import { signIn } from "./session.server";
import { requireDeveloper, requireMerchant, requireReviewer } from "./guards.server";
import { requireDeveloperApp } from "../apps/guard.server";

const { db } = await testDatabase();
const env = testEnv({ PUBLIC_URL: "http://localhost", STOREFRONT_URL: "http://127.0.0.1" });
const context = { db, env } as PlatformContext;
await seedDemoData(db, env);

const byEmail = async (email: string) => (await db.select().from(accounts).where(eq(accounts.email, email)))[0];
const demo = (role: string) => byEmail(DEMO_LOGINS.find((l) => l.role === role)!.email);

/** A page request of a browser signed in as the account (the real session cookie and row). */
async function pageRequest(
  account: Awaited<ReturnType<typeof byEmail>> | null,
  path = "/admin/orders?page=2",
): Promise<Request> {
  const headers = new Headers();
  if (account) {
    const started = await signIn(new Request(`${env.publicUrl}/login`), context, account, "/");
    headers.set("Cookie", started.headers.get("Set-Cookie")!.split(";")[0]);
  }
  return new Request(`${env.publicUrl}${path}`, { headers });
}

/** The Response a guard threw. */
async function refusal(p: Promise<unknown>): Promise<Response> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
  throw new Error("expected the guard to refuse");
}

describe("page guards", () => {
  it("send a visitor without a session to sign in, and back to the page afterwards", async () => {
    const r = await refusal(requireMerchant(await pageRequest(null), context, null));
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/login?redirectTo=%2Fadmin%2Forders%3Fpage%3D2");
  });

  it("requireMerchant: the merchant and their business, a developer in their own sandbox; a reviewer, a developer pointed at a real shop or a merchant without a business is 403", async () => {
    const merchant = await demo("MERCHANT");
    const { account, business, sandbox } = await requireMerchant(await pageRequest(merchant), context, null);
    expect(account.id).toBe(merchant.id);
    expect(business.id).toBe(merchant.businessId);
    expect(business.name).toBe("Demo Bistro");
    expect(sandbox).toBe(false);

    // a developer has their sandbox's admin (decision 036), that business and no other
    const developer = await demo("DEVELOPER");
    const asDeveloper = await requireMerchant(await pageRequest(developer), context, null);
    expect(asDeveloper.sandbox).toBe(true);
    expect(asDeveloper.business.id).toBe(developer.businessId);
    expect(asDeveloper.business.isSandbox).toBe(true);

    const asReviewer = await refusal(requireMerchant(await pageRequest(await demo("REVIEWER")), context, null));
    expect(asReviewer.status).toBe(403);
    expect(await asReviewer.text()).toBe("This area is for merchant accounts.");

    const { account: stray } = await createAccount(db, {
      email: "stray@guards.test",
      password: "a-long-passphrase-3",
      name: "Stray",
      role: "DEVELOPER",
    });
    await db.update(accounts).set({ businessId: merchant.businessId }).where(eq(accounts.id, stray.id));
    const pointedAtShop = await refusal(
      requireMerchant(await pageRequest(await byEmail("stray@guards.test")), context, null),
    );
    expect(pointedAtShop.status).toBe(403);

    const { account: lone } = await createAccount(db, {
      email: "lone@guards.test",
      password: "a-long-passphrase-1",
      name: "Lone",
      role: "MERCHANT",
      businessName: "Lone shop",
    });
    await db.update(accounts).set({ businessId: null }).where(eq(accounts.id, lone.id));
    const noBusiness = await refusal(
      requireMerchant(await pageRequest(await byEmail("lone@guards.test")), context, null),
    );
    expect(noBusiness.status).toBe(403);
    expect(await noBusiness.text()).toBe("This account has no business.");
  });

  it("requireDeveloperApp: the developer's own app; another developer's app and a made-up id are the same 404", async () => {
    const developer = await demo("DEVELOPER");
    const [own] = await db.select().from(apps).where(eq(apps.developerId, developer.id)).limit(1);
    const got = await requireDeveloperApp(
      await pageRequest(developer, `/portal/apps/${own.id}`),
      context,
      own.id,
      "OWNER",
    );
    expect(got.role).toBe("OWNER");
    expect(got.app.id).toBe(own.id);
    expect(got.account.id).toBe(developer.id);
    expect((await requireDeveloper(await pageRequest(developer), context)).business?.id).toBe(developer.businessId);

    const { account: other } = await createAccount(db, {
      email: "other@guards.test",
      password: "a-long-passphrase-2",
      name: "Other",
      role: "DEVELOPER",
    });
    const foreign = await refusal(
      requireDeveloperApp(await pageRequest(other, `/portal/apps/${own.id}`), context, own.id, "VIEWER"),
    );
    const madeUp = await refusal(
      requireDeveloperApp(await pageRequest(other, "/portal/apps/app_nothing"), context, "app_nothing", "VIEWER"),
    );
    const missing = await refusal(
      requireDeveloperApp(await pageRequest(other, "/portal/apps/"), context, undefined, "VIEWER"),
    );
    for (const r of [foreign, madeUp, missing]) {
      expect(r.status).toBe(404);
      expect(await r.text()).toBe("App not found");
    }
    // the foreign app is untouched and still its developer's
    const [still] = await db
      .select()
      .from(apps)
      .where(and(eq(apps.id, own.id), eq(apps.developerId, developer.id)));
    expect(still).toBeTruthy();
  });

  it("requireReviewer: reviewers only", async () => {
    const reviewer = await demo("REVIEWER");
    expect((await requireReviewer(await pageRequest(reviewer, "/reviewer"), context)).account.id).toBe(reviewer.id);
    const asMerchant = await refusal(requireReviewer(await pageRequest(await demo("MERCHANT"), "/reviewer"), context));
    expect(asMerchant.status).toBe(403);
    expect(await asMerchant.text()).toBe("This area is for reviewer accounts.");
  });
});
