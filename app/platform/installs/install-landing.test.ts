import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { apps } from "../../../db/schema";
import { createInstallation } from "./installs.server";

const p = await startPlatform();

describe("the landing page after an OAuth install: /admin/apps/<installation_id>?installed=1", () => {
  it("welcomes the merchant of the installation, is 404 for another merchant, signs a visitor in first and sends a developer to the portal", async () => {
    const dev = await p.register("DEVELOPER");
    const merchant = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: {
        name: "Landing Test",
        slug: `landing-${Date.now()}`,
        description: "d",
        category: "other",
        scopes: ["read_orders"],
        redirectUrl: "https://landing.example/cb",
      },
    });
    expect(created.status).toBe(201);
    const [app] = await p.db.select().from(apps).where(eq(apps.id, created.json.id));
    const { installation } = await p.db.transaction((tx) =>
      createInstallation(tx, p.env, {
        app,
        businessId: merchant.businessId,
        scopes: ["read_orders"],
        isTestInstall: false,
        installedBy: merchant.account.id,
      }),
    );
    const path = `/admin/apps/${installation.id}?installed=1`;

    const mine = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const page = await mine.get(path);
    expect(page.status).toBe(200);
    expect(page.html.replace(/<!-- -->/g, "")).toContain("Landing Test is installed.");
    const list = await mine.get("/admin/apps");
    expect(list.html).toContain(`href="/admin/apps/${installation.id}"`);

    const theirs = await BrowserSession.signIn(p.url, other.email, other.password);
    expect((await theirs.get(path)).status).toBe(404);

    const visitor = await new BrowserSession(p.url).get(path);
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);

    const developer = await BrowserSession.signIn(p.url, dev.email, dev.password);
    const sent = await developer.get(path);
    expect(sent.status).toBe(302);
    expect(sent.location).toBe("/portal");
    // without the flag the page is the business's own: a developer's admin is their sandbox's, where
    // this installation is not (decision 036)
    expect((await developer.get(`/admin/apps/${installation.id}`)).status).toBe(404);
  });
});
