/** A business's choice of the messages it sends its shoppers (contract 16: per kind, on by default). */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { businesses } from "../../../db/schema";
import type { MailKind } from "./kinds";

export async function setShopperMail(db: Db, businessId: string, kind: MailKind, on: boolean) {
  await db
    .update(businesses)
    .set({
      shopperMailOff: on
        ? sql`array_remove(${businesses.shopperMailOff}, ${kind})`
        : sql`array_append(array_remove(${businesses.shopperMailOff}, ${kind}), ${kind})`,
    })
    .where(eq(businesses.id, businessId));
}
