/**
 * The orders list as CSV (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or
 * line break in double quotes), for spreadsheets, in the merchant's words (statuses, payment and
 * delivery methods as the admin shows them) with each time in ISO 8601 with the shop's offset
 * ("2025-01-09T19:30:00-05:00"). Customer-supplied text is made safe against formula injection
 * (OWASP "CSV injection", decision 059): a cell that a spreadsheet would run as a formula (starting
 * with = or @, or with + or - followed by anything but a number, or with a tab or carriage return)
 * gets a leading apostrophe. A phone number or a plain number (+45 12 34 56 78, -5) cannot run
 * anything (no letters, no function, no DDE) and is written as it is, so it reads as typed.
 */
import type { Db } from "../../../db/client";
import { ordersForExport, type OrderFilter } from "../catalog/admin-queries.server";
import { toMajorText } from "../core/money";
import { dateFormatter } from "../core/dates";
import { deliveryMethodLabel, orderStatusLabel, paymentMethodLabel, paymentStatusLabel } from "./labels";

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
  if (isFormula(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A phone number or a number: a sign, then digits with spaces, dots, dashes, slashes and brackets only. */
const PHONE_OR_NUMBER = /^[+-][\d\s()./-]*\d[\d\s()./-]*$/;

/** Whether a spreadsheet would read the cell as a formula that could do harm. */
function isFormula(s: string): boolean {
  if (/^[=@\t\r]/.test(s)) return true;
  return /^[+-]/.test(s) && !PHONE_OR_NUMBER.test(s);
}

export const csvLine = (cells: (string | number | null | undefined)[]) => cells.map(csvCell).join(",") + "\r\n";

/**
 * The CSV of every order matching the filter, as a stream of text chunks (one per batch of
 * orders), starting with a UTF-8 byte order mark so that spreadsheets read accented names right.
 */
export async function* ordersCsv(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  batchSize?: number,
): AsyncGenerator<string> {
  for await (const chunk of ordersCsvChunks(db, businessId, filter, batchSize)) yield chunk.text;
}

/**
 * The same CSV as ordersCsv, each chunk with the number of orders it holds (the header's chunk: 0):
 * the export job (orders/exports.server.ts) records its progress by them. One query of at most
 * `batchSize` orders per chunk (keyset, ordersForExport), so memory holds one batch whatever the shop's size.
 */
export async function* ordersCsvChunks(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  batchSize?: number,
): AsyncGenerator<{ text: string; rows: number }> {
  yield { text: "\uFEFF" + csvLine(CSV_HEADER), rows: 0 };
  const dates = dateFormatter("en-US", filter.timeZone);
  for await (const batch of ordersForExport(db, businessId, filter, batchSize)) {
    let chunk = "";
    for (const o of batch)
      chunk += csvLine([
        o.orderNumber,
        dates.iso(o.createdAt),
        filter.timeZone,
        orderStatusLabel(o.status, o.deliveryMethod),
        paymentStatusLabel(o.paymentStatus),
        paymentMethodLabel(o.paymentMethod, o.paymentMethodName),
        deliveryMethodLabel(o.deliveryMethod),
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
    yield { text: chunk, rows: batch.length };
  }
}
