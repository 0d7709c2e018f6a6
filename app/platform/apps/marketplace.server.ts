/**
 * The marketplace's reads (issue 20): cards with rating and install figures, sorted by
 * popularity, rating or newest, staff picks, and an app's changelog. Every figure is a column of
 * the apps row (kept by triggers, migration 0016), so a page of cards is one indexed walk of
 * apps_market_*_idx plus the developers' names: no scan of reviews or installations per view.
 */
import { pricingSummary, type StoredPlan } from "../shapes/pricing";
import { and, asc, desc, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accounts, apps, appVersions } from "../../../db/schema";

import { MARKET_PAGE_SIZE, type MarketSort } from "./marketplace-shared";
import { pageWithTotal } from "../core/paging.server";
export { MARKET_SORTS, MARKET_PAGE_SIZE, roundedInstalls, formatRating, type MarketSort } from "./marketplace-shared";

/** What every marketplace listing shows of an app (joined with its developer's account). */
export const listingColumns = {
  id: apps.id,
  name: apps.name,
  slug: apps.slug,
  description: apps.description,
  category: apps.category,
  iconUrl: apps.iconUrl,
  developerName: accounts.name,
};

const cardColumns = {
  ...listingColumns,
  ratingAvg: apps.ratingAvg,
  ratingCount: apps.ratingCount,
  activeInstalls: apps.activeInstalls,
  publishedAt: apps.publishedAt,
  approvedPricing: apps.approvedPricing,
};

function orderFor(sort: MarketSort): SQL[] {
  switch (sort) {
    case "rating":
      return [sql`${apps.ratingAvg} desc nulls last`, desc(apps.ratingCount), asc(apps.id)];
    case "popular":
      return [desc(apps.activeInstalls), asc(apps.id)];
    case "newest":
      return [sql`${apps.publishedAt} desc nulls last`, asc(apps.id)];
    default:
      return [asc(apps.name), asc(apps.id)];
  }
}

/** Approved apps, of one category when given, whose name contains `q` when given. */
export function approvedAppsWhere(filter: { category?: string; q?: string }) {
  const conditions = [eq(apps.status, "APPROVED")];
  if (filter.category) conditions.push(eq(apps.category, filter.category));
  if (filter.q) conditions.push(sql`${apps.name} ilike ${"%" + filter.q.replace(/[\\%_]/g, (c) => "\\" + c) + "%"}`);
  return and(...conditions);
}

/** A page of approved apps for the marketplace: filter by category, search by name, sorted. */
export async function listMarketplaceCards(
  db: Db,
  filter: { category?: string; q?: string; sort?: MarketSort; limit?: number; offset?: number },
) {
  const where = approvedAppsWhere(filter);
  const sorted = db.select(cardColumns).from(apps).innerJoin(accounts, eq(accounts.id, apps.developerId));
  const page = { limit: filter.limit ?? MARKET_PAGE_SIZE, offset: filter.offset ?? 0 };
  const { rows, total } = await pageWithTotal(
    db,
    sorted,
    { from: apps, where, order: orderFor(filter.sort ?? "popular") },
    page,
  );
  return { rows: rows.map(card), total };
}

export type MarketCard = ReturnType<typeof card>;

function card({
  approvedPricing,
  ...r
}: { ratingAvg: string | null; ratingCount: number; activeInstalls: number; publishedAt: Date | null } & {
  approvedPricing: StoredPlan[];
} & Record<string, unknown>) {
  return {
    // the card's price words: "Free", "From $9.99/month", "14-day trial" (contract 13)
    pricing: pricingSummary(approvedPricing),
    ...(r as typeof r & {
      id: string;
      name: string;
      slug: string;
      description: string;
      category: string;
      iconUrl: string | null;
      developerName: string;
    }),
    rating: r.ratingAvg === null ? null : Number(r.ratingAvg),
    publishedAt: r.publishedAt?.toISOString() ?? null,
  };
}

/** The staff picks row: apps a reviewer picked, most recently picked first. */
export async function listStaffPicks(db: Db, limit = 8) {
  const rows = await db
    .select(cardColumns)
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.developerId))
    .where(and(eq(apps.status, "APPROVED"), isNotNull(apps.staffPickedAt)))
    .orderBy(desc(apps.staffPickedAt), asc(apps.id))
    .limit(limit);
  return rows.map(card);
}

/** Each approved version with its release notes, newest first. */
export async function listChangelog(db: Db, appId: string, limit = 20) {
  return db
    .select({
      version: appVersions.version,
      releaseNotes: appVersions.releaseNotes,
      approvedAt: appVersions.approvedAt,
    })
    .from(appVersions)
    .where(eq(appVersions.appId, appId))
    .orderBy(desc(appVersions.approvedAt), desc(appVersions.id))
    .limit(limit);
}
