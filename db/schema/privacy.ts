import { pgTable, text, index, integer } from "drizzle-orm/pg-core";
import { createdAt, id, refersTo, textList } from "./columns";
import { accounts, ofBusiness } from "./accounts";

/**
 * A shopper's privacy request made by a merchant (contract 15, decision 040): an export or an
 * erasure, who asked and when, and what it covered. The shopper's e-mail is not kept: only a keyed
 * digest of it (per business), so that an erasure leaves no copy of the address it erased, while a
 * repeated request for the same address is still recognised (concurrent identical erasures answer the
 * first one).
 */
export const privacyRequests = pgTable(
  "privacy_requests",
  {
    id: id(),
    businessId: ofBusiness(),
    /** the merchant account that asked */
    requestedBy: refersTo("requested_by", () => accounts.id),
    kind: text("kind", { enum: ["EXPORT", "ERASE"] }).notNull(),
    /** HMAC-SHA256 of businessId + the normalised e-mail (trimmed, lower case) */
    emailDigest: text("email_digest").notNull(),
    orderIds: textList("order_ids"),
    reviewIds: textList("review_ids"),
    orderCount: integer("order_count").notNull().default(0),
    reviewCount: integer("review_count").notNull().default(0),
    /** installations told (customer.data_request / customer.redact deliveries written) */
    appsNotified: integer("apps_notified").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("privacy_requests_business_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("privacy_requests_digest_idx").on(t.businessId, t.emailDigest, t.kind),
  ],
);

export type PrivacyRequest = typeof privacyRequests.$inferSelect;
