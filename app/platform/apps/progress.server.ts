/**
 * How far a developer has come, for the portal's "Next steps" (issue 31): an app, a test install,
 * a delivered webhook, a saved manifest, a submission. Read from what the platform already records,
 * only the developer's own apps.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";

export type DeveloperProgress = {
  apps: number;
  /** The newest app, which the steps link to. */
  latestAppId: string | null;
  testInstalled: boolean;
  delivered: boolean;
  manifestSaved: boolean;
  submitted: boolean;
};

export async function developerProgress(db: Db, developerId: string): Promise<DeveloperProgress> {
  const [row] = await db.execute<{
    apps: number;
    latest_app_id: string | null;
    test_installed: boolean;
    delivered: boolean;
    manifest_saved: boolean;
    submitted: boolean;
  }>(sql`
    select
      (select count(*)::int from apps where developer_id = ${developerId}) as apps,
      (select id from apps where developer_id = ${developerId} order by created_at desc, id desc limit 1) as latest_app_id,
      exists (select 1 from installations i join apps a on a.id = i.app_id
              where a.developer_id = ${developerId} and i.is_test_install) as test_installed,
      exists (select 1 from webhook_deliveries d
              join webhooks w on w.id = d.webhook_id
              join installations i on i.id = w.installation_id
              join apps a on a.id = i.app_id
              where a.developer_id = ${developerId} and d.status = 'SUCCEEDED') as delivered,
      exists (select 1 from apps where developer_id = ${developerId} and manifest is not null) as manifest_saved,
      exists (select 1 from apps where developer_id = ${developerId}
              and (submitted_at is not null or status <> 'DRAFT')) as submitted
  `);
  return {
    apps: row.apps,
    latestAppId: row.latest_app_id,
    testInstalled: row.test_installed,
    delivered: row.delivered,
    manifestSaved: row.manifest_saved,
    submitted: row.submitted,
  };
}
