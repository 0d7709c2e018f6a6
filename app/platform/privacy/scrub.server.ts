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

import { ERASED_NAME, ERASED_TEXT } from "./erased";
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

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(value)}(?![\\p{L}\\p{N}])`, "gu"), by);
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

/** A stored body (text that is usually JSON) with the values replaced. */
function scrubBody(body: string, v: ShopperValues): string {
  try {
    return JSON.stringify(scrubJson(JSON.parse(body), v));
  } catch {
    return scrubText(body, v);
  }
}

/**
 * The rows of `table` whose `column` mentions one of the ids or the e-mail: the SQL condition, with the
 * ids as $1 (text[]) and the e-mail as $2.
 */
const mentions = (column: string) =>
  `(exists (select 1 from unnest($1::text[]) m(id) where strpos(${column}, m.id) > 0) or strpos(lower(${column}), $2) > 0)`;

/**
 * Replaces the shopper's values in every stored copy of the business's records that mention their
 * orders, reviews or e-mail. Returns the number of rows changed per table.
 */
export async function scrubCopies(
  tx: Db,
  businessId: string,
  ids: string[],
  v: ShopperValues,
): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  const params = [ids, v.email, businessId];

  const events = await rawQuery<{ id: string; data: unknown }>(
    tx,
    `select id, data from platform_events where business_id = $3 and ${mentions("data::text")} for update`,
    params,
  );
  for (const e of events)
    await tx.execute(
      sql`update platform_events set data = ${JSON.stringify(scrubJson(e.data, v))}::jsonb where id = ${e.id}`,
    );
  changed.platform_events = events.length;

  const deliveries = await rawQuery<{ id: string; body: string }>(
    tx,
    `select id, body from webhook_deliveries where business_id = $3 and ${mentions("body")} for update`,
    params,
  );
  for (const d of deliveries)
    await tx.execute(sql`update webhook_deliveries set body = ${scrubBody(d.body, v)} where id = ${d.id}`);
  changed.webhook_deliveries = deliveries.length;

  // what receivers answered to those deliveries (and any answer naming the e-mail)
  const attempts = await rawQuery<{ id: string; response_excerpt: string | null; error: string | null }>(
    tx,
    `select a.id, a.response_excerpt, a.error from webhook_attempts a
      where a.delivery_id = any($3::text[])
         or (a.app_id in (select app_id from installations where business_id = $2)
             and strpos(lower(coalesce(a.response_excerpt, '') || ' ' || coalesce(a.error, '')), $1) > 0)
      for update`,
    [v.email, businessId, deliveries.map((d) => d.id)],
  );
  for (const a of attempts)
    await tx.execute(sql`update webhook_attempts set
      response_excerpt = ${a.response_excerpt === null ? null : scrubText(a.response_excerpt, v)},
      error = ${a.error === null ? null : scrubText(a.error, v)} where id = ${a.id}`);
  changed.webhook_attempts = attempts.length;

  // calls waiting for (or answered by) a developer's CLI, of the apps installed here
  const relayed = await rawQuery<{ id: string; body: string; answer_body: string | null }>(
    tx,
    `select id, body, answer_body from relay_calls
      where app_id in (select app_id from installations where business_id = $3)
        and (${mentions("body")} or strpos(lower(coalesce(answer_body, '')), $2) > 0)
      for update`,
    params,
  );
  for (const r of relayed)
    await tx.execute(sql`update relay_calls set body = ${scrubBody(r.body, v)},
      answer_body = ${r.answer_body === null ? null : scrubText(r.answer_body, v)} where id = ${r.id}`);
  changed.relay_calls = relayed.length;

  // hook call logs keep no bodies; an error text may still quote an answer
  const hookCalls = await rawQuery<{ id: string; error: string }>(
    tx,
    `select id, error from hook_calls where business_id = $3 and error is not null and ${mentions("error")} for update`,
    params,
  );
  for (const h of hookCalls)
    await tx.execute(sql`update hook_calls set error = ${scrubText(h.error, v)} where id = ${h.id}`);
  changed.hook_calls = hookCalls.length;

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
