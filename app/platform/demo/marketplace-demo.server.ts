/**
 * Demo marketplace (issue 20): approved apps in several categories, installed on demo shops, with
 * reviews, developer replies, a changelog and staff picks, so that a new user sees a living
 * marketplace. Called by demo/seed.server.ts on the first start of an empty database. Everything goes
 * through the domain functions (install, review, reply), so the figures are the real ones.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { appReviews, installations, type App, type Business } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { now } from "../core/clock.server";
import { createApp, submitApp, updateApp } from "../apps/apps.server";
import { approveApp } from "../apps/review.server";
import { createInstallation, uninstall } from "../installs/installs.server";
import { putReview, replyToReview, setStaffPick } from "../apps/app-reviews.server";
import { createBusiness } from "../accounts/accounts.server";
import { REVIEW_CRITERIA_KEYS, type Category } from "../shapes/app-catalog";
import { demoAppListing } from "./demo-app-listing.server";
import type { DemoAppSlug } from "./demo-apps";

const DAY = 24 * 3600 * 1000;

/**
 * Uninstalls an installation (its real uninstall: tokens revoked, erasure scheduled), then dates it
 * back: uninstalled at `uninstalledAt`, its erasure scheduled and delivered at `erasedAt`.
 */
export async function uninstallAsOf(db: Database, installationId: string, uninstalledAt: Date, erasedAt: Date) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(installations).where(eq(installations.id, installationId));
    await uninstall(tx, row);
  });
  await db
    .update(installations)
    .set({ uninstalledAt, erasureScheduledAt: erasedAt, erasureDeliveredAt: erasedAt })
    .where(eq(installations.id, installationId));
}

type DemoApp = {
  name: string;
  slug: string;
  category: Category;
  description: string;
  scopes: string[];
  versions: [version: string, notes: string][];
  reviews: [rating: number, body: string, reply?: string][];
  extraInstalls: number;
  staffPick?: boolean;
};

export const DEMO_APPS: DemoApp[] = [
  {
    name: "Parcel Pilot",
    slug: "parcel-pilot",
    category: "shipping",
    description: "Delivery fees by distance and weight at checkout, and printable labels for your couriers.",
    scopes: ["read_orders", "write_shipping"],
    versions: [
      ["1.0.0", "First release: delivery fees by distance for up to three zones."],
      ["1.1.0", "Weight-based fees, and a free-delivery threshold you choose."],
    ],
    reviews: [
      [
        5,
        "Set up our delivery zones in ten minutes. Customers finally see the right fee before paying.",
        "Thank you! Zones by postcode are coming next.",
      ],
      [4, "Works well. I would like a per-zone minimum order."],
      [5, "The free delivery threshold raised our average basket."],
    ],
    extraInstalls: 9,
    staffPick: true,
  },
  {
    name: "Mailroom Campaigns",
    slug: "mailroom-campaigns",
    category: "marketing",
    description: "Email your customers about new dishes and offers, with templates that match your storefront.",
    scopes: ["read_orders", "read_products", "read_business"],
    versions: [["2.0.0", "New template editor and a preview on phones."]],
    reviews: [
      [4, "Nice templates, easy to use on a busy evening.", "Glad it helps! Scheduling is in the next version."],
      [3, "Good, but sending to a segment takes too many clicks."],
    ],
    extraInstalls: 4,
  },
  {
    name: "Sales Pulse",
    slug: "sales-pulse",
    category: "analytics",
    description: "Which dishes sell, when, and to whom: a daily digest and a dashboard for your team.",
    scopes: ["read_orders", "read_products", "read_analytics"],
    versions: [
      ["1.0.0", "Dashboard with the best sellers of the week."],
      ["1.2.0", "A daily digest email at the time you choose."],
    ],
    reviews: [
      [
        5,
        "The daily digest is the first thing I read in the morning.",
        "That is exactly what we built it for. Thanks!",
      ],
      [5, "Showed us that Tuesday lunch was worth opening for."],
      [4, "Clear figures. An export to CSV would be welcome."],
      [2, "The numbers took a day to appear after installing."],
    ],
    extraInstalls: 14,
    staffPick: true,
  },
  {
    name: "Counter Sync",
    slug: "counter-sync",
    category: "pos",
    description: "Keep your till and your online menu in step: prices, availability and orders in one place.",
    scopes: ["read_products", "read_orders", "write_orders"],
    versions: [["1.0.0", "Two-way sync of prices and availability."]],
    reviews: [[4, "Saved us retyping prices every week."]],
    extraInstalls: 2,
  },
  {
    name: "Ready Text",
    slug: "ready-text",
    category: "communication",
    description: "Tell customers by text message when their order is ready or out for delivery.",
    scopes: ["read_orders", "read_business"],
    versions: [["1.0.0", "Texts when an order is ready or out for delivery."]],
    reviews: [
      [5, "Fewer phone calls asking where the order is.", "Thanks for the kind words!"],
      [1, "Messages arrived late on the weekend."],
    ],
    extraInstalls: 5,
    staffPick: true,
  },
];

const SHOPS = [
  "Bakery Bloom",
  "Taco Stand",
  "Sushi Corner",
  "Soup Kitchen",
  "Juice Lab",
  "Curry House",
  "Bagel Bros",
  "Falafel Friends",
  "Ramen Republic",
  "Crêpe Corner",
  "Deli Deluxe",
];

/** Installs `app` on `shop` as a production installation made `daysAgo` days ago. */
async function installOn(db: Database, env: Env, app: App, shop: Business, installedBy: string, daysAgo: number) {
  const installation = await db.transaction(
    async (tx) =>
      (
        await createInstallation(tx, env, {
          app,
          businessId: shop.id,
          scopes: app.approvedScopes,
          isTestInstall: false,
          installedBy,
        })
      ).installation,
  );
  await db
    .update(installations)
    .set({ installedAt: new Date(now().getTime() - daysAgo * DAY) })
    .where(eq(installations.id, installation.id));
  return installation;
}

export async function seedMarketplaceDemo(
  db: Database,
  env: Env,
  input: { developerId: string; reviewerId: string; loyaltyStars: App; loyaltyShops: Business[] },
) {
  const t = now().getTime();
  const shops: Business[] = [...input.loyaltyShops.filter((s) => s.name !== "Demo Bistro")];
  for (const name of SHOPS)
    if (!shops.some((s) => s.name === name)) shops.push(await createBusiness(db, { name, isSandbox: false }));

  // Loyalty Stars (installed by the seed on five shops): reviews from three of them, not from Demo Bistro
  const loyaltyInstalls = await db.select().from(installations).where(eq(installations.appId, input.loyaltyStars.id));
  const byShop = new Map(loyaltyInstalls.map((i) => [i.businessId, i]));
  const loyaltyReviews: [string, number, string, string?][] = [
    [
      "Corner Café",
      5,
      "Our regulars love the stamp card. Setup took five minutes.",
      "Thank you! Custom stamp designs are on the way.",
    ],
    ["Green Grocer", 4, "Simple and it works. I would like to give double points on quiet days."],
    ["Noodle Bar", 3, "Good idea, but we went back to paper cards."],
  ];
  for (const [k, [shopName, rating, body, reply]] of loyaltyReviews.entries()) {
    const shop = input.loyaltyShops.find((s) => s.name === shopName);
    const inst = shop && byShop.get(shop.id);
    if (!shop || !inst) continue;
    const review = await putReview(db, shop.id, inst.id, { rating, body });
    const at = new Date(t - (3 + k * 5) * DAY);
    await db.update(appReviews).set({ createdAt: at, updatedAt: at }).where(eq(appReviews.id, review.id));
    if (reply) await replyToReview(db, input.developerId, input.loyaltyStars.id, review.id, reply);
  }

  const published = new Map<string, App>();
  for (const [n, demo] of DEMO_APPS.entries()) {
    const [first, ...later] = demo.versions;
    const { app } = await createApp(db, env, input.developerId, {
      name: demo.name,
      slug: demo.slug,
      description: demo.description,
      category: demo.category,
      scopes: demo.scopes,
      ...demoAppListing(env, demo.slug as DemoAppSlug),
      version: first[0],
    });
    await submitApp(db, input.developerId, app.id, { releaseNotes: first[1] });
    let approved = await approveApp(db, input.reviewerId, app.id, REVIEW_CRITERIA_KEYS);
    for (const [version, notes] of later) {
      await updateApp(db, input.developerId, app.id, { version });
      await submitApp(db, input.developerId, app.id, { releaseNotes: notes });
      approved = await approveApp(db, input.reviewerId, app.id, REVIEW_CRITERIA_KEYS);
    }
    // installs: one per review (on its own shop), then more for popularity
    const total = Math.min(shops.length, demo.reviews.length + demo.extraInstalls);
    for (let i = 0; i < total; i++) {
      const shop = shops[(i + n) % shops.length];
      const installation = await installOn(db, env, approved, shop, input.developerId, 10 + ((i * 7 + n * 3) % 50));
      const r = demo.reviews[i];
      if (!r) continue;
      const review = await putReview(db, shop.id, installation.id, { rating: r[0], body: r[1] });
      const at = new Date(t - (2 + i * 4 + n) * DAY);
      await db.update(appReviews).set({ createdAt: at, updatedAt: at }).where(eq(appReviews.id, review.id));
      if (r[2]) await replyToReview(db, input.developerId, app.id, review.id, r[2]);
    }
    if (demo.staffPick) await setStaffPick(db, app.id, true);
    published.set(demo.slug, approved);
  }

  // the demo merchant used Mailroom Campaigns for four weeks and removed it: the Apps page lists it
  // under "Previously installed", where Demo Bistro can still review it (decision 028)
  const bistro = input.loyaltyShops.find((s) => s.name === "Demo Bistro");
  const mailroom = published.get("mailroom-campaigns");
  if (bistro && mailroom) {
    const { id } = await installOn(db, env, mailroom, bistro, input.developerId, 40);
    await uninstallAsOf(db, id, new Date(t - 12 * DAY), new Date(t - 10 * DAY));
  }
  return published;
}
