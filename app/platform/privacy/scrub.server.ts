/**
 * Erasing a shopper from everything the platform stores (contract 15, decision 040): their orders and
 * reviews, and every copy of what those held: event data (platform_events), webhook bodies as stored
 * for retries (webhook_deliveries), what receivers answered (webhook_attempts), relayed calls
 * (relay_calls), hook call errors (hook_calls) and idempotency records (idempotency_keys). Amounts,
 * statuses, items and ids stay. Runs inside the erasure's transaction.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rawQuery } from "../../../db/sql";
import { COMPLIANCE_EVENTS } from "../shapes/app-catalog";

import { ERASED_NAME, ERASED_TEXT, escapeForRegExp } from "../core/erased";
export { ERASED_NAME, ERASED_TEXT };

/** The shopper's values as stored in their orders and reviews: what is looked for in every copy. */
export type ShopperValues = {
  /** normalised: trimmed, lower case */
  email: string;
  names: string[];
  phones: string[];
  addresses: string[];
  notes: string[];
};

/** The stored value `s`, with the shopper's e-mail replaced wherever it appears (any case). */
function withoutEmail(s: string, email: string): string {
  if (!email) return s;
  const lower = s.toLowerCase();
  let at = lower.indexOf(email);
  if (at < 0) return s;
  let out = "";
  let from = 0;
  while (at >= 0) {
    out += s.slice(from, at) + ERASED_TEXT;
    from = at + email.length;
    at = lower.indexOf(email, from);
  }
  return out + s.slice(from);
}

/**
 * Free text (a review's comment, what a receiver answered, an error) with the e-mail replaced wherever it
 * appears and every name, phone, address and note where it stands as a whole (not inside a longer word:
 * "Sam" is not cut out of "Sample").
 */
export function scrubText(text: string, v: ShopperValues): string {
  let out = withoutEmail(text, v.email);
  const all = [
    ...v.names.map((n) => [n, ERASED_NAME] as const),
    ...[...v.phones, ...v.addresses, ...v.notes].map((n) => [n, ERASED_TEXT] as const),
  ];
  // longest first, so that a name inside an address is not cut out of it first
  for (const [value, by] of all.sort((a, b) => b[0].length - a[0].length))
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeForRegExp(value)}(?![\\p{L}\\p{N}])`, "gu"), by);
  return out;
}

/** A JSON value with the shopper's values replaced: a whole string equal to the e-mail or a note becomes null, any other string is scrubbed as text. */
export function scrubJson(value: unknown, v: ShopperValues): unknown {
  if (typeof value === "string") {
    const t = value.trim();
    if (t.toLowerCase() === v.email || v.notes.includes(t)) return null;
    return scrubText(value, v);
  }
  if (Array.isArray(value)) return value.map((x) => scrubJson(x, v));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, scrubJson(x, v)]));
  return value;
}

/**
 * The data of an event (or the `data` of a delivery body) with the values replaced. customer.data_request
 * and customer.redact declare `customerEmail` a string: it becomes "[erased]" (not null), so that a
 * redelivery still matches the event's schema.
 */
export function scrubEventData(event: string, data: unknown, v: ShopperValues): unknown {
  const out = scrubJson(data, v);
  if (
    (COMPLIANCE_EVENTS as readonly string[]).includes(event) &&
    out &&
    typeof out === "object" &&
    "customerEmail" in out
  )
    return { ...out, customerEmail: ERASED_TEXT };
  return out;
}

/** A stored body (text that is usually JSON: a delivery's envelope, a relayed call) with the values replaced. */
export function scrubBody(body: string, v: ShopperValues): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return scrubText(body, v);
  }
  const out = scrubJson(parsed, v) as Record<string, unknown> | null;
  const envelope = parsed as { event?: unknown; data?: unknown } | null;
  if (out && typeof out === "object" && !Array.isArray(out) && typeof envelope?.event === "string" && "data" in out)
    out.data = scrubEventData(envelope.event, envelope.data, v);
  return JSON.stringify(out);
}

/** The lengths below which a name, phone or address alone does not single a record out (decision 048). */
export const DISTINCT_MIN_LENGTH = 6;

/**
 * What a copy is searched for: the shopper's order and review ids (as written), and in lower case their
 * e-mail and every name, phone and address long enough to single them out. A record that holds any of
 * them is about the shopper (a hook call of checkout.shipping_rates carries their address but no order
 * id: the order does not exist yet).
 */
function needlesOf(ids: string[], v: ShopperValues) {
  const values = [v.email, ...v.names, ...v.phones, ...v.addresses]
    .map((x) => x.trim().toLowerCase())
    .filter((x) => x.length >= DISTINCT_MIN_LENGTH || x === v.email);
  return { ids, values: [...new Set(values)].filter((x) => x !== "") };
}

/** The SQL condition "`column` mentions the shopper": ids as $1 (text[], as written), values as $2 (text[], lower case). */
const mentions = (column: string) =>
  `(exists (select 1 from unnest($1::text[]) m(id) where strpos(${column}, m.id) > 0)
    or exists (select 1 from unnest($2::text[]) w(v) where strpos(lower(${column}), w.v) > 0))`;

/**
 * Replaces the shopper's values in every stored copy of the business's records that mention their
 * orders, reviews, e-mail, name, phone or address. Returns the number of rows changed per table.
 */
export async function scrubCopies(
  tx: Db,
  businessId: string,
  ids: string[],
  v: ShopperValues,
): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  const n = needlesOf(ids, v);
  const params = [n.ids, n.values, businessId];

  const events = await rawQuery<{ id: string; type: string; data: unknown }>(
    tx,
    `select id, type, data from platform_events where business_id = $3 and ${mentions("data::text")} for update`,
    params,
  );
  changed.platform_events = 0;
  for (const e of events) {
    const data = JSON.stringify(scrubEventData(e.type, e.data, v));
    if (data === JSON.stringify(e.data)) continue;
    await tx.execute(sql`update platform_events set data = ${data}::jsonb where id = ${e.id}`);
    changed.platform_events++;
  }

  const deliveries = await rawQuery<{ id: string; body: string }>(
    tx,
    `select id, body from webhook_deliveries where business_id = $3 and ${mentions("body")} for update`,
    params,
  );
  changed.webhook_deliveries = 0;
  for (const d of deliveries) {
    const body = scrubBody(d.body, v);
    if (body === d.body) continue;
    await tx.execute(sql`update webhook_deliveries set body = ${body} where id = ${d.id}`);
    changed.webhook_deliveries++;
  }

  // what receivers answered to those deliveries, and any answer of the business's apps naming the shopper
  const attempts = await rawQuery<{ id: string; response_excerpt: string | null; error: string | null }>(
    tx,
    `select a.id, a.response_excerpt, a.error from webhook_attempts a
      where a.delivery_id = any($4::text[])
         or (a.app_id in (select app_id from installations where business_id = $3)
             and ${mentions("(coalesce(a.response_excerpt, '') || ' ' || coalesce(a.error, ''))")})
      for update`,
    [...params, deliveries.map((d) => d.id)],
  );
  changed.webhook_attempts = 0;
  for (const a of attempts) {
    const excerpt = a.response_excerpt === null ? null : scrubText(a.response_excerpt, v);
    const error = a.error === null ? null : scrubText(a.error, v);
    if (excerpt === a.response_excerpt && error === a.error) continue;
    await tx.execute(
      sql`update webhook_attempts set response_excerpt = ${excerpt}, error = ${error} where id = ${a.id}`,
    );
    changed.webhook_attempts++;
  }

  // calls waiting for (or answered by) a developer's CLI, of the apps installed here
  const relayed = await rawQuery<{ id: string; body: string; answer_body: string | null }>(
    tx,
    `select id, body, answer_body from relay_calls
      where app_id in (select app_id from installations where business_id = $3)
        and ${mentions("(body || ' ' || coalesce(answer_body, ''))")}
      for update`,
    params,
  );
  for (const r of relayed)
    await tx.execute(sql`update relay_calls set body = ${scrubBody(r.body, v)},
      answer_body = ${r.answer_body === null ? null : scrubText(r.answer_body, v)} where id = ${r.id}`);
  changed.relay_calls = relayed.length;

  // hook call logs keep no bodies; an error text may still quote an answer (a redirect's address, say)
  const hookCalls = await rawQuery<{ id: string; error: string }>(
    tx,
    `select id, error from hook_calls where business_id = $3 and error is not null and ${mentions("error")} for update`,
    params,
  );
  changed.hook_calls = 0;
  for (const h of hookCalls) {
    const error = scrubText(h.error, v);
    if (error === h.error) continue;
    await tx.execute(sql`update hook_calls set error = ${error} where id = ${h.id}`);
    changed.hook_calls++;
  }

  // an Idempotency-Key record keeps a digest of the request body (the shopper's details in it) and the
  // order's id: the digest goes, so a retry with that key is refused as a different body (422)
  const keys = await rawQuery(
    tx,
    `update idempotency_keys set request_hash = 'erased' where business_id = $2 and order_id = any($1::text[]) returning key`,
    [ids, businessId],
  );
  changed.idempotency_keys = keys.length;
  return changed;
}

/** Every string of a JSON value with its path. */
