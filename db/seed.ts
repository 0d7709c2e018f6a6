/**
 * Demo data, loaded on the first start of an empty database: a merchant "Demo Bistro" with a full
 * catalogue, a developer with a sandbox business, and a reviewer.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client";
import { createAccount } from "../app/platform/accounts/accounts.server";

export const DEMO_LOGINS = [
  { role: "MERCHANT", email: "merchant@demo.test", password: "demo-merchant-1", name: "Maria Rossi", businessName: "Demo Bistro" },
  { role: "DEVELOPER", email: "developer@demo.test", password: "demo-developer-1", name: "Dev Demo" },
  { role: "REVIEWER", email: "reviewer@demo.test", password: "demo-reviewer-1", name: "Rita Reviewer" },
] as const;

/** Loads the demo data when the database has no accounts. Returns whether it did. */
export async function seedDemoData(db: Database): Promise<boolean> {
  const [{ count }] = await db.execute<{ count: number }>(sql`select count(*)::int as count from accounts`);
  if (count > 0) return false;
  for (const login of DEMO_LOGINS) {
    await createAccount(db, { ...login, withDemoData: true });
  }
  return true;
}
