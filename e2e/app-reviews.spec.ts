import {
  test,
  expect,
  signIn,
  signOut,
  DEMO,
  startAppServer,
  uniqueEmail,
  publishTestApp,
  installApp,
} from "./helpers";

const shot = (name: string) => `.data/e2e-results/reviews-${name}.png`;

test("the demo merchant reviews an app, the developer replies, and a signed-out visitor sees both in the marketplace", async ({
  page,
}) => {
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

test("a merchant reviews an app they used before from the Apps page's Previously installed list", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const words = `Good templates; we moved to a newsletter service ${Date.now().toString(36)}`;

  // before: Mailroom Campaigns has two reviews (4 and 3 stars)
  await page.goto("/marketplace?q=Mailroom");
  const market = page.locator(".app-card").filter({ hasText: "Mailroom Campaigns" });
  await expect(market).toContainText("3.5");
  await expect(market).toContainText("2 reviews");

  // Demo Bistro used it for four weeks and removed it: the Apps page lists it with the review form
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/admin/apps");
  await expect(page.getByRole("heading", { name: "Previously installed" })).toBeVisible();
  const former = page.getByTestId("former-app").filter({ hasText: "Mailroom Campaigns" });
  await expect(former).toContainText(/Used \w+ \d+, \d{4} – \w+ \d+, \d{4}/);
  await expect(page.getByTestId("installed-app").filter({ hasText: "Mailroom Campaigns" })).toHaveCount(0);
  const form = former.getByRole("form", { name: "Review Mailroom Campaigns" });
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("former-form") });
  // no stars chosen: the browser refuses the form and nothing is saved
  await form.getByRole("textbox").fill(words);
  await form.getByRole("button", { name: "Publish review" }).click();
  await expect(form.getByRole("radio", { name: "5 stars" })).not.toBeChecked();
  await expect(page.getByRole("status")).toHaveCount(0);
  await form.locator("label", { hasText: "5 stars" }).click();
  await form.getByRole("button", { name: "Publish review" }).click();
  await expect(page.getByRole("status")).toContainText("Your review is saved.");
  await expect(former.getByRole("img", { name: "5 out of 5 stars" })).toBeVisible();
  await expect(former.getByRole("form", { name: "Review Mailroom Campaigns" })).toHaveCount(0);
  await page.screenshot({ path: shot("former-reviewed"), fullPage: true });

  // edit it: the same form, behind "Edit your review"
  await former.getByText("Edit your review of Mailroom Campaigns…").click();
  const edit = former.getByRole("form", { name: "Your review of Mailroom Campaigns" });
  await expect(edit.getByRole("textbox")).toHaveValue(words);
  await expect(edit.getByRole("radio", { name: "5 stars" })).toBeChecked();
  await edit.locator("label", { hasText: "4 stars" }).click();
  await edit.getByRole("button", { name: "Update review" }).click();
  await expect(page.getByRole("status")).toContainText("Your review is saved.");
  await expect(former.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();

  // a phone loads the page at its own width (a resize would catch the menu drawer mid-transition)
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await former.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("former-phone") });
  await page.screenshot({ path: shot("former-phone-full"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signOut(page);

  // a visitor sees it in the marketplace, with the business name; the figures count it
  await page.goto("/marketplace?q=Mailroom");
  await expect(market).toContainText("3.7");
  await expect(market).toContainText("3 reviews");
  await page.goto("/marketplace/mailroom-campaigns");
  const review = page.locator(".review-item").filter({ hasText: words });
  await expect(review).toContainText("Demo Bistro");
  await expect(review.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
});

test("a reviewer hides a review with a reason: the author sees why, the marketplace drops it from the list and the figures", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const backend = await startAppServer();
  const app = await publishTestApp(request, "Promo Banner", backend.url, {
    description: "A banner for this week's offer on every storefront page.",
    category: "marketing",
    scopes: ["read_business"],
  });
  const { suffix } = app;
  const praise = `The banner doubled our lunch orders ${suffix}`;
  const spam = `Buy Better Banners instead at banners.example ${suffix}`;

  // two merchants install the app through the consent screen and review it
  const merchants = [uniqueEmail("fan"), uniqueEmail("spammer")];
  for (const [i, email] of merchants.entries()) {
    const registered = await request.post("/auth/register", {
      data: {
        email,
        password: "correct horse battery",
        name: `Merchant ${i}`,
        role: "MERCHANT",
        businessName: i === 0 ? `Fan Diner ${suffix}` : `Spam Shop ${suffix}`,
      },
    });
    expect(registered.status()).toBe(201);
    await signIn(page, email, "correct horse battery");
    await installApp(page, app.slug);
    await page.goto("/admin/apps");
    await page
      .getByTestId("installed-app")
      .filter({ hasText: app.name })
      .getByRole("link", { name: app.name, exact: true })
      .click();
    const section = page.locator("#review");
    await section.locator("label", { hasText: i === 0 ? "5 stars" : "1 star" }).click();
    await section.getByRole("textbox").fill(i === 0 ? praise : spam);
    await section.getByRole("button", { name: "Publish review" }).click();
    await expect(page.getByRole("status")).toContainText("Your review is saved.");
    await signOut(page);
  }
  await page.goto(`/marketplace?q=${encodeURIComponent(app.name)}`);
  const card = page.locator(".app-card").filter({ hasText: app.name });
  await expect(card).toContainText("3.0");
  await expect(card).toContainText("2 reviews");
  await page.goto(`/marketplace/${app.slug}`);
  await expect(page.locator(".review-item").filter({ hasText: spam })).toBeVisible();

  // the reviewer hides the advertisement; a reason is required
  await signIn(page, DEMO.reviewer.email, DEMO.reviewer.password);
  await page.goto("/reviewer/marketplace");
  const item = page.getByTestId("curation-review").filter({ hasText: spam });
  await item.getByText("Hide this review…").click();
  await item.getByRole("button", { name: "Hide review" }).click();
  await expect(page.getByRole("status")).toHaveCount(0); // the empty reason is refused by the browser
  await item.getByRole("textbox", { name: "Reason (the author sees it)" }).fill("Advertises another product");
  await item.getByRole("button", { name: "Hide review" }).click();
  await expect(page.getByRole("status")).toContainText("The review is hidden; its author sees your reason.");
  await expect(item).toContainText("hidden: Advertises another product");
  await expect(item.getByRole("button", { name: "Show again" })).toBeVisible();
  await item.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("curation-hidden") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await item.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("curation-hidden-phone") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signOut(page);

  // the author sees that it is hidden, and why
  await signIn(page, merchants[1], "correct horse battery");
  await page.goto("/admin/apps");
  const own = page.getByTestId("installed-app").filter({ hasText: app.name });
  await expect(own).toContainText("hidden by our reviewers");
  await own.getByRole("link", { name: "Edit your review" }).click();
  await expect(page.locator("#review").getByRole("status")).toContainText(
    "Our reviewers hid this review from the marketplace: Advertises another product.",
  );
  await page.screenshot({ path: shot("author-hidden"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.locator("#review").scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("author-hidden-phone") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signOut(page);

  // a visitor: only the praise is left, and the figures are the praise's alone
  await page.goto(`/marketplace/${app.slug}`);
  await expect(page.locator(".review-item").filter({ hasText: praise })).toBeVisible();
  await expect(page.locator(".review-item").filter({ hasText: spam })).toHaveCount(0);
  await expect(page.locator("main")).toContainText("5.0");
  await expect(page.locator("main")).toContainText("1 review");
  await page.goto(`/marketplace?q=${encodeURIComponent(app.name)}`);
  await expect(card).toContainText("5.0");
  await expect(card).toContainText("1 review");
  await expect(card).not.toContainText("2 reviews");
  await backend.close();
});

test("a review is answered once: a reply sent from a second tab after the first is refused, and the page shows the reply that stands", async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await page.goto("/portal/apps");
  await page.getByRole("link", { name: "Mailroom Campaigns" }).first().click();
  await page.getByRole("link", { name: "Reviews", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Reviews" })).toBeVisible();
  const reviewsUrl = page.url();
  const target = page.getByTestId("portal-review").filter({ hasText: "sending to a segment takes too many clicks" });
  await expect(target.getByRole("button", { name: "Publish reply" })).toBeVisible();

  // a second tab answers first
  const other = await context.newPage();
  await other.setViewportSize({ width: 1280, height: 800 });
  await other.goto(reviewsUrl);
  const there = other.getByTestId("portal-review").filter({ hasText: "sending to a segment takes too many clicks" });
  await there.getByRole("textbox").fill("Segments in two clicks are coming in 2.1.");
  await there.getByRole("button", { name: "Publish reply" }).click();
  await expect(other.getByRole("status")).toContainText("Your reply is published.");
  await other.close();

  // the first tab still shows the form; its reply is refused and the standing reply shown instead
  await target.getByRole("textbox").fill("Thanks! We are on it.");
  await target.getByRole("button", { name: "Publish reply" }).click();
  await expect(target.getByRole("alert")).toContainText("This review was already answered");
  await expect(target.getByTestId("portal-reply")).toContainText("Segments in two clicks are coming in 2.1.");
  await expect(target.getByRole("button", { name: "Publish reply" })).toHaveCount(0);
  await target.getByText("Your text that was not published").click();
  await expect(target).toContainText("Thanks! We are on it.");
  await target.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("portal-reply-conflict") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(600); // the menu drawer slides out of view after the resize (this state cannot be reloaded)
  await target.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("portal-reply-conflict-phone") });

  // a visitor sees the one reply
  await page.setViewportSize({ width: 1280, height: 800 });
  await signOut(page);
  await page.goto("/marketplace/mailroom-campaigns");
  const review = page.locator(".review-item").filter({ hasText: "sending to a segment takes too many clicks" });
  await expect(review).toContainText("Segments in two clicks are coming in 2.1.");
  await expect(review).not.toContainText("Thanks! We are on it.");
});
