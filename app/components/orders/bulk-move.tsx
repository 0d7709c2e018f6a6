/**
 * The Orders page's bulk moves (issue 41 split of routes/admin.orders._index.tsx): the question
 * before a move that cannot be undone, and the outcome per order.
 */
import { Form, Link } from "@remix-run/react";
import type { BulkMoveResult, BulkTarget } from "~/platform/orders/bulk-moves.server";
import { orderStatusLabel } from "~/platform/orders/labels";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { SuccessNotice } from "~/components/page-parts";

/** Bulk moves that cannot be undone (an order delivered or cancelled is closed): asked first, naming the count. */
export const FINAL_TARGETS: readonly BulkTarget[] = ["CANCELLED", "DELIVERED", "FULFILLED"];

/** What the merchant is asked before a bulk move that cannot be undone. */
export type BulkConfirm = { to: BulkTarget; orderIds: string[] };

/** A bulk target in words, for sentences ("moved to confirmed", "marked as fulfilled"). */
const targetWords = (to: BulkTarget) => (to === "FULFILLED" ? "fulfilled" : orderStatusLabel(to).toLowerCase());

const plural = (n: number) => (n === 1 ? "1 order" : `${n} orders`);

/** The question before a bulk move that cannot be undone: how many orders, what happens, and the way out. */
export function ConfirmBulk({ confirm }: { confirm: BulkConfirm }) {
  const n = confirm.orderIds.length;
  const cancel = confirm.to === "CANCELLED";
  const question = cancel
    ? `Cancel ${plural(n)}?`
    : confirm.to === "FULFILLED"
      ? `Mark ${plural(n)} as fulfilled?`
      : `Mark ${plural(n)} as delivered?`;
  return (
    <section
      className="card confirm-bulk stack"
      role="alertdialog"
      aria-labelledby="confirm-bulk-head"
      aria-describedby="confirm-bulk-text"
      data-testid="confirm-bulk"
    >
      <h2 id="confirm-bulk-head">{question}</h2>
      <p id="confirm-bulk-text">
        {cancel
          ? `The ${n === 1 ? "order is" : `${n} orders are`} cancelled and no longer count as revenue; your apps are told. This cannot be undone.`
          : confirm.to === "FULFILLED"
            ? `Each order is moved through its remaining steps to picked up or delivered, by its delivery method. Closed orders cannot be reopened.`
            : `Delivered orders are closed and cannot be reopened.`}
      </p>
      <div className="row">
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="bulk-move" />
          <input type="hidden" name="status" value={confirm.to} />
          <input type="hidden" name="confirmed" value="yes" />
          {confirm.orderIds.map((id) => (
            <input key={id} type="hidden" name="orderIds" value={id} />
          ))}
          <SubmitButton className={cancel ? "button danger" : "button primary"} busyLabel="Moving orders…">
            {cancel
              ? `Cancel ${plural(n)}`
              : confirm.to === "FULFILLED"
                ? `Mark ${plural(n)} as fulfilled`
                : `Mark ${plural(n)} as delivered`}
          </SubmitButton>
        </Form>
        <Link to="." className="button subtle">
          {cancel ? "Keep them" : "Not now"}
        </Link>
      </div>
    </section>
  );
}

export function BulkResults({ results, to }: { results: BulkMoveResult[]; to: BulkTarget }) {
  const moved = results.filter((r) => r.ok);
  const refused = results.filter((r): r is Extract<BulkMoveResult, { ok: false }> => !r.ok);
  return (
    <div className="stack bulk-results" data-testid="bulk-results">
      <SuccessNotice show={moved.length}>
        {plural(moved.length)} {to === "FULFILLED" ? "marked as" : "moved to"} {targetWords(to)}:{" "}
        {moved.map((r) => `#${r.orderNumber}`).join(", ")}.
      </SuccessNotice>
      {refused.length ? (
        <div className="alert warning" role="alert">
          <strong>{refused.length === 1 ? "1 order was not moved" : `${refused.length} orders were not moved`}</strong>
          <ul>
            {refused.map((r) => (
              <li key={r.orderId}>
                {r.orderNumber ? `#${r.orderNumber}` : r.orderId}: {r.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
