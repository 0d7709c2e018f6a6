/**
 * The orders list as CSV (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or
 * line break in double quotes), for spreadsheets. Customer-supplied text is made safe against
 * formula injection (OWASP "CSV injection"): a cell starting with = + - @ (or a tab or carriage
 * return, which some spreadsheets skip before reading a formula) gets a leading apostrophe, so a
 * spreadsheet shows it as text instead of running it.
 */
import type { Db } from "../../../db/client";
import { ordersForExport, type OrderFilter } from "./admin-queries.server";
import { toMajorText } from "../core/money";

export const CSV_HEADER = [
  "Order",
  "Date",
  "Time zone",
  "Status",
  "Payment status",
  "Payment method",
  "Delivery method",
  "Customer",
  "Phone",
  "Email",
  "Address",
  "Items",
  "Item count",
  "Subtotal",
  "Discount",
  "Delivery fee",
  "Total",
  "Currency",
  "Notes",
];

/** One cell: neutralised when a spreadsheet would read it as a formula, quoted when it must be. */
export function csvCell(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: (string | number | null | undefined)[]) => cells.map(csvCell).join(",") + "\r\n";

/**
 * The CSV of every order matching the filter, as a stream of text chunks (one per batch of
 * orders), starting with a UTF-8 byte order mark so that spreadsheets read accented names right.
 */
export async function* ordersCsv(db: Db, businessId: string, filter: OrderFilter): AsyncGenerator<string> {
  yield "\uFEFF" + csvLine(CSV_HEADER);
  for await (const batch of ordersForExport(db, businessId, filter)) {
    let chunk = "";
    for (const o of batch)
      chunk += csvLine([
        o.orderNumber,
        o.localTime,
        filter.timeZone,
        o.status,
        o.paymentStatus,
        o.paymentMethod,
        o.deliveryMethod,
        o.customerName,
        o.customerPhone,
        o.customerEmail,
        o.address,
        o.items,
        o.itemCount,
        toMajorText(o.subtotal, o.currency),
        toMajorText(o.discount, o.currency),
        toMajorText(o.deliveryFee, o.currency),
        toMajorText(o.amount, o.currency),
        o.currency,
        o.notes,
      ]);
    yield chunk;
  }
}
