/**
 * E-mail in the browser (contract 16): a sign-up's verification link and a forgotten password's reset
 * link, read in the development mailbox like a person would, and a look at each message's HTML part.
 */
import type { Page } from "@playwright/test";
import { expect, signOut, signUp, test, uniqueEmail } from "./helpers";

/** Opens the newest message to `email` with this subject in /dev/mailbox and returns the first link to `path` in its text. */
async function linkFromMailbox(page: Page, email: string, subject: string, path: string): Promise<string> {
  await expect(async () => {
    await page.goto("/dev/mailbox");
    await expect(page.getByRole("row", { name: new RegExp(`${email}.*${subject}`) }).first()).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 20_000 });
  await page
    .getByRole("row", { name: new RegExp(`${email}.*${subject}`) })
    .first()
    .getByRole("link")
    .click();
  await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
  await expect(page.frameLocator("iframe").getByRole("heading", { name: subject })).toBeVisible();
  await page.getByRole("link", { name: "Text", exact: true }).click();
  const text = (await page.getByTestId("mail-text").textContent()) ?? "";
  const link = new RegExp(`http://localhost:\\d+${path.replace("?", "\\?")}\\S+`).exec(text)?.[0];
  expect(link, text).toBeTruthy();
  return link!;
}

test("sign up, confirm the address from the mailbox; forget the password, reset it from the mailbox, signed in", async ({
  page,
}) => {
  const email = uniqueEmail("mail");
  await signUp(page, { role: "Build apps", name: "Mia Mailer", email, password: "first passphrase 1" });
  await expect(page).toHaveURL(/\/portal/);
  await expect(page.getByTestId("verify-banner")).toContainText("Confirm your e-mail address");

  const verify = await linkFromMailbox(page, email, "Confirm your e-mail address", "/verify-email?token=");
  await page.goto(verify);
  await expect(page.getByRole("status")).toContainText(`${email} is confirmed`);
  await page.goto("/portal");
  await expect(page.getByTestId("verify-banner")).toHaveCount(0);
  await signOut(page);

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("a link to reset its password is on its way");

  const reset = await linkFromMailbox(page, email, "Reset your password", "/reset-password?token=");
  await page.goto(reset);
  await page.getByLabel("New password", { exact: true }).fill("second passphrase 2");
  await page.getByLabel("New password again").fill("second passphrase 2");
  await page.getByRole("button", { name: "Save and sign in" }).click();
  await expect(page).toHaveURL(/\/portal/);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  // the link worked once
  await page.goto(reset);
  await expect(page.getByRole("alert")).toContainText("invalid, expired or already used");
});

test("each kind of message the demo sent reads in the mailbox as HTML, text and source", async ({ page }) => {
  await page.goto("/dev/mailbox");
  for (const subject of [
    /^Loyalty Stars was approved$/,
    /^Demo Bistro: order #\d+ received$/,
    /^New order #\d+ at Demo Bistro/,
  ]) {
    await expect(async () => {
      await page.goto("/dev/mailbox");
      await expect(page.getByRole("link", { name: subject }).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await page.getByRole("link", { name: subject }).first().click();
    const frame = page.frameLocator("iframe");
    await expect(frame.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(frame.getByRole("link").first()).toHaveAttribute("href", /^http:\/\/(localhost|127\.0\.0\.1):\d+\//);
    await page.screenshot({
      path: `.data/e2e-results/mail-${String(subject).replace(/\W+/g, "-")}.png`,
      fullPage: true,
    });
    await page.getByRole("link", { name: "Source", exact: true }).click();
    await expect(page.getByTestId("mail-raw")).toContainText("Message-ID: <mail_");
  }
});
