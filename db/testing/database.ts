import { inject } from "vitest";
import { afterAll } from "vitest";
import { randomBytes } from "node:crypto";
import { createDb, type DbHandle } from "../client";
import { cloneTemplate, dropDatabase } from "./cluster";

/** A fresh migrated database for this test file, dropped after it. */
export async function testDatabase(): Promise<DbHandle & { name: string; adminUrl: string }> {
  const adminUrl = inject("pgAdminUrl");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const url = await cloneTemplate(adminUrl, inject("pgTemplate"), name);
  const handle = createDb(url);
  afterAll(async () => {
    await handle.close();
    await dropDatabase(adminUrl, name);
  });
  return { ...handle, name, adminUrl };
}
