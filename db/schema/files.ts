import { pgTable, text, integer, index } from "drizzle-orm/pg-core";
import { bytea, createdAt, id } from "./columns";
import { ofBusiness } from "./accounts";

/**
 * Images a merchant uploaded (contract 20, decision 060): the bytes in the database, the one store
 * every web process reads (no shared disk between replicas). Served at `/files/<id>` on the
 * storefront origin, immutable: a new picture is a new row with a new id.
 */
export const files = pgTable(
  "files",
  {
    id: id(),
    businessId: ofBusiness(),
    /** image/png, image/jpeg, image/webp or image/gif, as read from the bytes (never from the name) */
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** the name the merchant's file had, for the admin only (never used to serve it) */
    filename: text("filename").notNull().default(""),
    data: bytea("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("files_business_created_idx").on(t.businessId, t.createdAt)],
);

export type StoredFile = typeof files.$inferSelect;
