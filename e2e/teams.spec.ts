import { test, expect, signIn, signOut, publishTestApp, installApp, uniqueEmail } from "./helpers";
import { startAppServer } from "./app-server";

/**
 * Teams (contract 17): the owner invites a member with `pages` only; the invitation arrives in the
 * development mailbox; the member accepts it, signs in, sees only their part of the admin (a direct
 * URL outside it is the 403 page naming the permission), and an app's admin page shows the member's
 * name and permissions from its session token.
 */
test("an owner invites a member who sees only their part of the admin", async ({ page, request }) => {
  test.setTimeout(120_000);
  const appServer = await startAppServer();
  const app = await publishTestApp(request, "Team Stats", appServer.url, (suffix) => ({
    description: "An admin page that knows who is looking.",
    category: "analytics",
    scopes: ["read_business"],
    manifest: { adminPages: [{ pageId: "stats", title: `Team stats ${suffix}`, renderUrl: `${appServer.url}/admin` }] },
  }));

  // the owner registers a shop and installs the app
  const owner = { email: uniqueEmail("owner"), password: "correct horse battery" };
  const registered = await request.post("/auth/register", {
    data: { ...owner, name: "Olive Owner", role: "MERCHANT", businessName: `Team shop ${app.suffix}` },
  });
  expect(registered.status()).toBe(201);
  await signIn(page, owner.email, owner.password);
  await installApp(page, app.slug);

  // Staff: invite with `pages` only
  await page.goto("/admin/staff");
  const memberEmail = uniqueEmail("pat");
  await page.getByTestId("invite-email").fill(memberEmail);
  await page.getByTestId("invite-pages").check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText("Invitation sent.")).toBeVisible();
  await expect(page.getByTestId(`staff-${memberEmail}`)).toContainText("Invited");
  await signOut(page);

  // the invitation arrives in the mailbox (the worker sends it)
  await expect(async () => {
    await page.goto("/dev/mailbox");
    await page
      .getByRole("link", { name: /invited you to/ })
      .first()
      .click();
    await expect(page.locator("dd").filter({ hasText: memberEmail })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole("link", { name: "Text" }).click();
  const text = await page.getByTestId("mail-text").innerText();
  const link = /http:\/\/\S+\/invitations\/\S+/.exec(text)![0];

  // the member accepts with a name and a password, and is signed in
  await page.goto(new URL(link).pathname);
  await expect(page.getByTestId("invitation-grants")).toContainText("Site pages");
  await page.getByLabel("Your name").fill("Pat Pages");
  await page.getByLabel("Choose a password").fill("another horse battery");
  await page.getByRole("button", { name: "Accept and join" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  // only their part of the admin
  const nav = page.getByRole("navigation").filter({ has: page.getByRole("link", { name: "Dashboard" }) });
  await expect(nav.getByRole("link", { name: "Site pages" })).toBeVisible();
  for (const hidden of ["Orders", "Products", "Apps", "Billing", "Customer privacy", "Staff", "Settings"])
    await expect(nav.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  await page.goto("/admin/orders");
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByText('This needs the "orders" permission')).toBeVisible();

  // sign out and in again, as a member does
  await page.goto("/admin");
  await signOut(page);
  await signIn(page, memberEmail, "another horse battery");

  // the app's admin page knows the person from its session token
  await page.goto("/admin");
  await page.getByRole("link", { name: `Team stats ${app.suffix}` }).click();
  const frame = page.frameLocator("iframe.app-page-frame");
  await expect(frame.locator("#person")).toHaveText("Pat Pages: pages");

  // the owner's Staff page lists the member as active, with a last sign-in
  await signOut(page);
  await signIn(page, owner.email, owner.password);
  await page.goto("/admin/staff");
  const row = page.getByTestId(`staff-${memberEmail}`);
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Pat Pages");
  await expect(row).toContainText("Site pages");
  await expect(row).not.toContainText("—");
  await appServer.close();
});
