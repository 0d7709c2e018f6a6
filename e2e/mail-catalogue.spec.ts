/**
 * Every message of the catalogue (contract 16), as a reader's mail client shows it: the development
 * mailbox sends a sample of each kind through the outbox, the worker and SMTP; each arrives once, is
 * opened, reads as HTML (in its sandboxed frame) and as text, and its picture is the one
 * docs/email.md shows.
 */
import { mkdirSync } from "node:fs";
import { expect, test } from "./helpers";
import { MAIL_KINDS, type MailKind } from "../app/platform/mail/kinds";
import { SAMPLE_OF_KIND, SAMPLES } from "../app/platform/mail/samples";

test("a sample of every message arrives in the mailbox and reads as HTML and as text", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/dev/mailbox");
  await page.getByRole("button", { name: "Send a sample of every message" }).click();
  const kinds = Object.keys(MAIL_KINDS) as MailKind[];
  await expect(page.getByRole("status")).toHaveText(
    `${kinds.length} samples queued: they arrive in a few seconds (reload).`,
  );
  mkdirSync("docs/images/mail", { recursive: true });
  for (const kind of kinds) {
    const subject = `[Sample] ${SAMPLES[SAMPLE_OF_KIND[kind]].subject}`;
    const row = page.getByRole("row").filter({ hasText: "samples@example.test" }).filter({ hasText: subject });
    await expect(async () => {
      await page.goto("/dev/mailbox");
      await expect(row.first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await row.first().getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
    const frame = page.frameLocator("iframe");
    await expect(frame.getByRole("heading").first()).toBeVisible();
    await page.locator("iframe").screenshot({ path: `docs/images/mail/${kind}.png` });
    await page.getByRole("link", { name: "Text", exact: true }).click();
    await expect(page.getByTestId("mail-text")).not.toBeEmpty();
  }
});
