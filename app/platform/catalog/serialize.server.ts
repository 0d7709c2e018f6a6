/** The App API's JSON shapes of catalogue records (contract section 6). Money in major units. */
import type { Business } from "../../../db/schema";

export const toMajor = (minor: number) => Math.round(minor) / 100;

export function serializeBusiness(b: Business) {
  return { id: b.id, name: b.name, slug: b.slug, type: b.type, address: b.address, phone: b.phone, email: b.email, currency: b.currency, locale: b.locale, timezone: b.timezone };
}
