import { timestamp, text } from "drizzle-orm/pg-core";

/** Timestamps are stored with time zone and always written from the platform clock. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => ts("created_at").notNull().defaultNow();
export const updatedAt = () => ts("updated_at").notNull().defaultNow();
export const id = () => text("id").primaryKey();
