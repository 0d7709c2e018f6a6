import { customType, integer, timestamp, text, type AnyPgColumn, type ReferenceConfig } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/** Timestamps are stored with time zone and always written from the platform clock. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => ts("created_at").notNull().defaultNow();
export const updatedAt = () => ts("updated_at").notNull().defaultNow();
/** The created_at / updated_at pair of a row that changes after it is written. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
export const id = () => text("id").primaryKey();

/** A required text column holding another row's id, with its foreign key (`() => apps.id`). */
export const refersTo = (name: string, target: () => AnyPgColumn, actions?: ReferenceConfig["actions"]) =>
  text(name).notNull().references(target, actions);

/** A count kept on the row (attempts, failures, installs): never null, starts at 0. */
export const counter = (name: string) => integer(name).notNull().default(0);

/** A text[] column that is never null and starts empty. */
export const textList = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

/** The installation a row belongs to, with its app and business beside it (plain text columns, no foreign keys). */
export const installationOwner = () => ({
  installationId: text("installation_id").notNull(),
  appId: text("app_id").notNull(),
  businessId: text("business_id").notNull(),
});

/** Bytes (Postgres bytea), read and written as a Buffer: uploaded files (db/schema/files.ts). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });
