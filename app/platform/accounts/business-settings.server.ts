/**
 * The merchant's business settings: contact details and the currency, locale and time zone the
 * storefront and admin show money and dates in.
 */
import { eq } from "drizzle-orm";
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";
import { z } from "zod";
import type { Database } from "../../../db/client";
import { BUSINESS_TYPES, businesses, type Business } from "../../../db/schema";
import { ApiError, parseWith } from "../core/http.server";
import { now } from "../core/clock.server";

let timeZones: Set<string> | null = null;

/** True for an IANA time zone this runtime knows ("Europe/Paris", "UTC"). */
export function isValidTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  if (typeof supported === "function") {
    timeZones ??= new Set(supported("timeZone"));
    // supportedValuesOf lists canonical zones only: "UTC" and some aliases are valid but absent
    if (timeZones.has(tz)) return true;
  }
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** True for an ISO 4217 code this runtime can format ("USD", "EUR"). */
function isKnownCurrency(code: string): boolean {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  if (typeof supported === "function" && supported("currency").includes(code)) return true;
  try {
    // a well-formed but unknown code formats too: only the supported list can reject it
    new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    return typeof supported !== "function";
  } catch {
    return false;
  }
}

function isValidLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

export const businessSettingsSchema = z.object({
  name: z.string().trim().min(1, "is required").max(100),
  address: z.string().trim().max(300).default(""),
  phone: z
    .string()
    .trim()
    .max(40)
    .regex(/^[0-9+()\-.\s]*$/, "may contain only digits, spaces and + ( ) - .")
    .default(""),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .refine((v) => v === "" || z.email().safeParse(v).success, "must be an e-mail address")
    .default(""),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "must be a 3-letter ISO 4217 code such as USD")
    .refine(isKnownCurrency, "is not a known currency code"),
  locale: z
    .string()
    .trim()
    .regex(/^[a-zA-Z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|\d{3}))?$/, "must be a language tag such as en-US")
    .refine(isValidLocale, "must be a language tag such as en-US")
    .transform((v) => Intl.getCanonicalLocales(v)[0]),
  timezone: z.string().trim().refine(isValidTimeZone, "must be an IANA time zone such as Europe/Paris"),
  /** the kind of shop, which words the storefront uses (decision 061); absent: unchanged */
  type: z.enum(BUSINESS_TYPES, { error: "must be a shop or a restaurant" }).optional(),
  /** the storefront's `<meta name="description">`; empty: one made from the name; absent: unchanged */
  metaDescription: z.string().trim().max(300, "must be at most 300 characters").optional(),
});
export type BusinessSettingsInput = z.input<typeof businessSettingsSchema>;

/** Validates (400 ApiError naming the fields) and saves the settings; 404 for an unknown business. */
export async function updateBusinessSettings(
  db: Database,
  businessId: string,
  input: unknown,
  by?: ActivityBy,
): Promise<Business> {
  const values = parseWith(businessSettingsSchema, input);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(businesses).where(eq(businesses.id, businessId)).for("update");
    if (!before) throw new ApiError(404, "Business not found");
    const [row] = await tx
      .update(businesses)
      .set({ ...values, updatedAt: now() })
      .where(eq(businesses.id, businessId))
      .returning();
    // the log names what changed, from what to what (contract 18); a save that changed nothing is no entry
    const changed = Object.fromEntries(
      Object.entries(values)
        .filter(([k, v]) => v !== undefined && before[k as keyof Business] !== v)
        .map(([k, v]) => [k, { from: before[k as keyof Business], to: v }]),
    );
    if (Object.keys(changed).length)
      await recordActivity(tx, {
        businessId,
        ...byOf(by),
        action: "settings.changed",
        target: { type: "business", id: businessId },
        details: changed,
      });
    return row;
  });
}
