/**
 * The admin's setup guide (decision 061): five first steps of a new shop, each ticked from what the
 * shop really holds, read in one statement; dismissed per business (`setup_guide_dismissed_at`).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { businesses } from "../../../db/schema";
import { rawQuery } from "../../../db/sql";
import { now } from "../core/clock.server";

export const SETUP_STEPS = [
  {
    key: "product",
    title: "Add a product",
    description: "Give it a name, a price and a picture.",
    href: "/admin/products/new",
    action: "Add a product",
  },
  {
    key: "homePage",
    title: "Shape your home page",
    description: "Change the welcome words, add a picture, save it in the site builder.",
    href: "/admin/pages/home",
    action: "Open the site builder",
  },
  {
    key: "paymentDelivery",
    title: "Choose payment and delivery",
    description:
      "Cash and card on delivery work from the start; install an app that takes payments online or sets your delivery fees.",
    href: "/marketplace",
    action: "Find payment and delivery apps",
  },
  {
    key: "app",
    title: "Install an app",
    description: "Reviews, loyalty, chat: the marketplace adds what your shop needs.",
    href: "/marketplace",
    action: "Browse the marketplace",
  },
  {
    key: "testOrder",
    title: "Place a test order",
    description: "Order from your own storefront to see what your customers will see.",
    href: "",
    action: "Open your storefront",
  },
] as const;
export type SetupStepKey = (typeof SETUP_STEPS)[number]["key"];
export type SetupGuide = {
  dismissed: boolean;
  steps: ((typeof SETUP_STEPS)[number] & { done: boolean })[];
  doneCount: number;
};

/**
 * The guide of one business: a step is done when the shop has a product; a home page saved by the
 * merchant (changed after it was made, or another page); an active app that may take payments or
 * set delivery fees (write_payments or write_shipping); any active app; any order.
 */
export async function setupGuide(db: Db, businessId: string): Promise<SetupGuide> {
  const [row] = await rawQuery<Record<SetupStepKey, boolean> & { dismissed: boolean }>(
    db,
    `select
       (select setup_guide_dismissed_at is not null from businesses where id = $1) as "dismissed",
       exists (select 1 from products where business_id = $1) as "product",
       exists (select 1 from pages where business_id = $1 and (updated_at > created_at or slug <> 'home')) as "homePage",
       exists (select 1 from installations where business_id = $1 and status = 'ACTIVE'
                 and scopes && array['write_payments', 'write_shipping']) as "paymentDelivery",
       exists (select 1 from installations where business_id = $1 and status = 'ACTIVE') as "app",
       exists (select 1 from orders where business_id = $1) as "testOrder"`,
    [businessId],
  );
  const steps = SETUP_STEPS.map((s) => ({ ...s, done: Boolean(row?.[s.key]) }));
  return { dismissed: Boolean(row?.dismissed), steps, doneCount: steps.filter((s) => s.done).length };
}

/** Closes the guide for the business (it stays closed for every account of the business). */
export async function dismissSetupGuide(db: Db, businessId: string): Promise<void> {
  await db
    .update(businesses)
    .set({ setupGuideDismissedAt: now() })
    .where(and(eq(businesses.id, businessId), isNull(businesses.setupGuideDismissedAt)));
}
