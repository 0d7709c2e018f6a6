import { test, expect, signIn, signOut, DEMO } from "./helpers";

const shot = (name: string) => `.data/e2e-results/reviews-${name}.png`;

test("the demo merchant reviews an app, the developer replies, and a signed-out visitor sees both in the marketplace", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const words = `Our regulars collect stamps every week ${Date.now().toString(36)}`;

  // the merchant has used Loyalty Stars for weeks: the Apps page invites a review
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/admin/apps");
  const card = page.getByTestId("installed-app").filter({ hasText: "Loyalty Stars" });
  const invite = card.getByTestId("review-invite");
  await expect(invite).toContainText("You have used Loyalty Stars for a week.");
  await page.screenshot({ path: shot("admin-invite"), fullPage: true });
  await invite.getByRole("link", { name: "Review Loyalty Stars" }).click();

  // the review form: no stars chosen is refused by the browser; four stars and a text are published
  const section = page.locator("#review");
  await expect(section.getByRole("heading", { name: "Review Loyalty Stars" })).toBeVisible();
  await section.locator("label", { hasText: "4 stars" }).click();
  await expect(section.getByRole("radio", { name: "4 stars" })).toBeChecked();
  await section.getByRole("textbox").fill(words);
  await section.getByRole("button", { name: "Publish review" }).click();
  await expect(page.getByRole("status")).toContainText("Your review is saved.");
  await expect(section.getByRole("heading", { name: "Your review" })).toBeVisible();
  await expect(section.getByRole("textbox")).toHaveValue(words);
  await page.screenshot({ path: shot("admin-review"), fullPage: true });

  // back on the Apps page: no invitation any more, the merchant's own rating instead
  await page.goto("/admin/apps");
  await expect(card.getByTestId("review-invite")).toHaveCount(0);
  await expect(card.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
  await signOut(page);

  // the developer is told, and answers once
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await page.goto("/portal");
  await expect(page.getByTestId("notification").first()).toContainText("New review of Loyalty Stars · 4 stars");
  await page.getByTestId("notification").first().getByRole("link", { name: "Loyalty Stars" }).click();
  await expect(page.getByRole("heading", { name: "Reviews" })).toBeVisible();
  const mine = page.getByTestId("portal-review").filter({ hasText: words });
  await mine.getByRole("textbox").fill("Thank you, Demo Bistro! Double-points days come next month.");
  await mine.getByRole("button", { name: "Publish reply" }).click();
  await expect(page.getByRole("status")).toContainText("Your reply is published.");
  await expect(mine.getByRole("button", { name: "Publish reply" })).toHaveCount(0);
  await page.screenshot({ path: shot("portal-reviews"), fullPage: true });
  await signOut(page);

  // a signed-out visitor: the card shows the rating, the app page shows the review with the business name and the reply
  await page.goto("/marketplace?category=loyalty");
  const market = page.locator(".app-card").filter({ hasText: "Loyalty Stars" });
  await expect(market).toContainText(/\d\.\d/);
  await expect(market).toContainText("4 reviews");
  await expect(market).toContainText("Installed by 4 businesses");
  await page.goto("/marketplace");
  await expect(page.getByRole("heading", { name: "Staff picks" })).toBeVisible();
  await page.screenshot({ path: shot("marketplace") });
  await page.goto("/marketplace/loyalty-stars");
  const review = page.locator(".review-item").filter({ hasText: words });
  await expect(review).toContainText("Demo Bistro");
  await expect(review.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
  await expect(review).toContainText("Reply from Dev Demo");
  await expect(review).toContainText("Double-points days come next month.");
  await expect(page.getByRole("heading", { name: "Changelog" })).toBeVisible();
  await review.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("app-page") });
  await page.screenshot({ path: shot("app-page-full"), fullPage: true });

  // filter by stars: the four-star filter keeps it, the one-star filter does not
  await page.getByRole("link", { name: /^4 ★/ }).click();
  await expect(page.locator(".review-item").filter({ hasText: words })).toBeVisible();
  await page.getByRole("link", { name: /^1 ★/ }).click();
  await expect(page.locator(".review-item").filter({ hasText: words })).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/marketplace/loyalty-stars");
  await page.screenshot({ path: shot("app-page-phone"), fullPage: true });
});
