/**
 * What each demo app does (decision 062), as its listing says: the view its admin page shows, the
 * actions its admin page offers, and its answers to webhooks and hook calls. Every read and write of
 * the shop goes through the App API with the installation's token, in API version 2026-11-27 (money
 * as `{amount, currency}` in minor units), as an outside app's would.
 *
 * Each app's behaviour is a file of its own (behaviour-<app>.server.ts), made of behaviour-kit.server.ts.
 */
import type { DemoAppSlug } from "./demo-apps";
import type { Behaviour } from "./behaviour-kit.server";
import { loyaltyStars } from "./behaviour-loyalty-stars.server";
import { parcelPilot } from "./behaviour-parcel-pilot.server";
import { mailroom } from "./behaviour-mailroom-campaigns.server";
import { salesPulse } from "./behaviour-sales-pulse.server";
import { counterSync } from "./behaviour-counter-sync.server";
import { readyText } from "./behaviour-ready-text.server";

export { formatMoney, type AppContext, type View } from "./behaviour-kit.server";
export { readyTextMessage } from "./behaviour-ready-text.server";

export const BEHAVIOURS: Record<DemoAppSlug, Behaviour> = {
  "loyalty-stars": loyaltyStars,
  "parcel-pilot": parcelPilot,
  "mailroom-campaigns": mailroom,
  "sales-pulse": salesPulse,
  "counter-sync": counterSync,
  "ready-text": readyText,
};
