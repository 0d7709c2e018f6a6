/**
 * A list of privacy requests, a row per request: the merchant's (admin.privacy.tsx) and those an
 * app was sent (portal.apps.$appId.privacy-requests.tsx), each with its own columns.
 */
import { DataTable, type Column } from "./page-parts";

export function PrivacyRequestTable<T extends { id: string }>({
  rows,
  columns,
}: {
  rows: readonly T[];
  columns: Column<T>[];
}) {
  return (
    <DataTable
      rows={rows}
      rowKey={(r) => r.id}
      rowProps={() => ({ "data-testid": "privacy-request" })}
      columns={columns}
    />
  );
}
