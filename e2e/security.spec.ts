/**
 * Strong sign-in in the browser (contract 18; decisions 072, 074): an authenticator app enrolled
 * from the Security page's QR page and used as the second step, a passkey made with Chromium's
 * virtual authenticator and used to sign in with no password, and a session ended from another.
 */
import type { Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { test, expect, uniqueEmail, signUp, signOut, shots, expectAccessible } from "./helpers";

const PASSWORD = "quiet-harbour-lantern-42";

/** A fresh merchant, signed up through the form and left signed in on its admin. */
async function newMerchant(page: Page, prefix: string) {
  const email = uniqueEmail(prefix);
  await signUp(page, {
    role: "Run a shop",
    name: "Sam Shield",
    email,
    password: PASSWORD,
    business: `Shield ${prefix}`,
  });
  await expect(page).toHaveURL(/\/admin$/);
  return email;
}

/** Fills the code step (or the Security page's code field) with a fresh code, trying the next step's when one was used. */
async function enterCode(page: Page, secret: string, button: string, done: () => Promise<unknown>) {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  for (const at of [Date.now(), Date.now() + 30_000]) {
    await page.locator('input[name="code"]').fill(totp.generate({ timestamp: at }));
    await page.getByRole("button", { name: button }).click();
    if (
      await Promise.resolve(done()).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error("no code was accepted");
}

test("an authenticator app is set up from the QR page and asked for at the next sign-in", async ({ page }) => {
  const email = await newMerchant(page, "totp");
  await page.getByRole("link", { name: "Security" }).first().click();
  await expect(page).toHaveURL(/\/account\/security$/);
  await expect(page.getByRole("heading", { name: "Security", level: 1 })).toBeVisible();
  await shots(page, "account-security");

  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code of the authenticator secret" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await shots(page, "account-security-qr");
  await enterCode(page, secret, "Confirm", () =>
    expect(page.getByTestId("recovery-codes")).toBeVisible({ timeout: 3000 }),
  );
  await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await expectAccessible(page);
  await page.getByRole("link", { name: "I have saved them" }).click();
  await expect(page.getByText(/Set up .*10 recovery codes left/)).toBeVisible();

  await signOut(page);
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // the password alone is not enough: the code step, and no page behind it yet
  await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();
  await page.locator('input[name="code"]').fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await enterCode(page, secret, "Verify", () =>
    expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 3000 }),
  );
  await expect(page).toHaveURL(/\/admin$/);
});

test("a passkey made with the virtual authenticator signs in with no password", async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const email = await newMerchant(page, "passkey");
  await page.goto("/account/security");
  await page.getByLabel("Passkey name").fill("Test laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
  await expect(page.locator('input[name="name"][value="Test laptop"]')).toBeVisible();
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].isResidentCredential).toBe(true);

  await signOut(page);
  // no e-mail, no password: the passkey names the account. Chromium offers the page's passkeys in
  // the e-mail field's autofill (conditional mediation), which the virtual authenticator answers at
  // once; where it does not, the "Use a passkey" button asks.
  await page.goto("/login");
  const alone = await page
    .waitForURL(/\/admin$/, { timeout: 5000 })
    .then(() => true)
    .catch(() => false);
  if (!alone) await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/account/security");
  await expect(page.getByText(/last used/)).toBeVisible();
  await expect(page.locator("strong").filter({ hasText: email })).toBeVisible();
});

test("a session is ended from another browser, which then finds itself signed out", async ({ page, browser }) => {
  const email = await newMerchant(page, "sessions");
  const other = await browser.newContext({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/130.0" });
  const laptop = await other.newPage();
  await laptop.goto("/login");
  await laptop.locator('input[name="email"]').fill(email);
  await laptop.locator('input[name="password"]').fill(PASSWORD);
  await laptop.getByRole("button", { name: "Sign in" }).click();
  await expect(laptop).toHaveURL(/\/admin$/);

  await page.goto("/account/security");
  const rows = page.locator("tr[data-session]");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "this session" })).toHaveCount(1);
  const firefox = rows.filter({ hasText: /Firefox/ });
  await expect(firefox).toHaveCount(1);
  await shots(page, "account-security-sessions");
  // on a phone the End button is a finger's target, 44 px at least
  await page.setViewportSize({ width: 390, height: 844 });
  const end = await firefox.getByRole("button", { name: /^End the session of/ }).boundingBox();
  expect(end!.height).toBeGreaterThanOrEqual(44);
  expect(end!.width).toBeGreaterThanOrEqual(44);
  await page.setViewportSize({ width: 1280, height: 800 });
  await firefox.getByRole("button", { name: /^End the session of/ }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(rows).toHaveCount(1);

  // the other browser's next page load is the sign-in page
  await laptop.goto("/admin/orders");
  await expect(laptop).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Forders/);
  await expect(laptop.getByRole("heading", { name: "Sign in" })).toBeVisible();
  // and this one is still signed in
  await page.goto("/admin");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await other.close();
});

test("the admin's Activity page filters by who and what, keeps them in the address, and downloads them", async ({
  page,
}) => {
  const email = await newMerchant(page, "activity");
  // something to see: an invitation and a failed sign-in
  await page.goto("/admin/staff");
  await page.getByTestId("invite-email").fill(uniqueEmail("clerk"));
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page).toHaveURL(/saved=invited/);
  await expect(page.getByText(/Invited · until/)).toBeVisible();

  await page.getByRole("navigation").getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(/\/admin\/activity$/);
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  const rows = page.getByTestId("activity-row");
  await expect(rows.filter({ hasText: "Staff member invited" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Signed in" }).first()).toContainText(email);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "docs/images/admin-activity.png", fullPage: true });

  await page.getByLabel("What").selectOption({ label: "Staff member invited" });
  await page.getByLabel("Who").fill(email);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/admin\/activity\?who=[^&]+&what=staff\.invited$/);
  await expect(rows).toHaveCount(1);
  await shots(page, "admin-activity-filtered");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV of these entries" }).click(),
  ]);
  const text = await (await import("node:fs/promises")).readFile((await download.path())!, "utf8");
  const lines = text.trim().split("\r\n");
  expect(lines[0]).toBe("at,actor_type,actor_id,actor_email,action,target_type,target_id,ip,details");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain("staff.invited");

  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/admin\/activity$/);
  await page.getByLabel("From").fill("2999-01-01");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No entries match these filters")).toBeVisible();
});
