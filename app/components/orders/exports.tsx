/**
 * The Orders page's CSV exports (issue 45, decision 081): the Export button (the list's current
 * filter, posted with the form's CSRF token), and the business's latest exports, each with its
 * progress while the job prepares it (polled every second from /admin/orders/exports/<id>), then
 * its Download link until it expires.
 */
import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { OrderExportView } from "~/platform/orders/exports.server";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { useShopFormat } from "~/components/shop-format";
import { describeFilter, type ListFilter } from "./order-filters";

/** Export: a form posting the list's filter to the page's action (intent "export"). */
export function ExportButton({ filter, filtered }: { filter: ListFilter; filtered: boolean }) {
  return (
    <Form method="post" className="export-form">
      <CsrfInput />
      <input type="hidden" name="intent" value="export" />
      {filter.q ? <input type="hidden" name="q" value={filter.q} /> : null}
      {filter.status ? <input type="hidden" name="status" value={filter.status} /> : null}
      {filter.from ? <input type="hidden" name="from" value={filter.from} /> : null}
      {filter.to ? <input type="hidden" name="to" value={filter.to} /> : null}
      {filter.sort !== "newest" ? <input type="hidden" name="sort" value={filter.sort} /> : null}
      <SubmitButton className="button" busyLabel="Starting the export…" data-testid="export-csv">
        Export CSV{filtered ? " of these orders" : ""}
      </SubmitButton>
    </Form>
  );
}

const STAGE: Record<OrderExportView["status"], number> = { QUEUED: 0, RUNNING: 1, READY: 2, FAILED: 2 };
const inProgress = (e: OrderExportView) => (e.status === "QUEUED" || e.status === "RUNNING") && !e.stalled;

/** The later of two readings of one export (the page's, the last poll's). */
function latest(a: OrderExportView, b: OrderExportView | undefined): OrderExportView {
  if (!b || b.id !== a.id) return a;
  if (STAGE[b.status] !== STAGE[a.status]) return STAGE[b.status] > STAGE[a.status] ? b : a;
  return b.rows >= a.rows ? b : a;
}

const sizeOf = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What an export's filter was, in words. */
function exportTitle(query: string) {
  const q = new URLSearchParams(query);
  const words = describeFilter({ q: q.get("q") ?? "", status: q.get("status"), from: q.get("from"), to: q.get("to") });
  return words ? `Orders matching ${words}` : "All orders";
}

function ExportItem({ initial }: { initial: OrderExportView }) {
  const fetcher = useFetcher<OrderExportView>();
  const polled = fetcher.data && "id" in fetcher.data ? fetcher.data : undefined;
  const e = latest(initial, polled);
  const running = inProgress(e);
  const { dates, count } = useShopFormat();
  // while it is prepared: a poll a second (the first sooner, so that a small export shows at once)
  useEffect(() => {
    if (!running || fetcher.state !== "idle") return;
    const timer = setTimeout(() => fetcher.load(`/admin/orders/exports/${e.id}`), polled ? 1000 : 300);
    return () => clearTimeout(timer);
  }, [running, fetcher.state, polled, e.id]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <li className="export-item" data-testid="order-export" data-status={e.status}>
      <div className="export-head">
        <strong>{exportTitle(e.query)}</strong>
        <span className="muted small">
          {" "}
          · requested {dates.dateTime(e.createdAt)}
          {e.timeZone !== "UTC" ? ` · times in ${e.timeZone}` : ""}
        </span>
      </div>
      {e.stalled ? (
        <p className="alert warning small" role="alert">
          This export stopped making progress. Export the orders again.
        </p>
      ) : e.status === "FAILED" ? (
        <p className="alert error small" role="alert">
          {e.error ?? "The export could not be prepared. Please export again."}
        </p>
      ) : e.status === "READY" ? (
        <div className="export-ready">
          <a
            href={`/admin/orders/exports/${e.id}/download`}
            className="button primary"
            download
            data-testid="export-download"
          >
            Download CSV
          </a>
          <span className="muted small" role="status">
            {count(e.rows)} {e.rows === 1 ? "order" : "orders"} · {sizeOf(e.bytes)} · available until{" "}
            {dates.dateTime(e.expiresAt)}
          </span>
        </div>
      ) : (
        <div className="export-progress">
          <progress
            max={e.expected || undefined}
            value={e.status === "RUNNING" && e.expected ? e.rows : undefined}
            aria-label={`Preparing the export: ${e.percent}%`}
          />
          <span className="muted small" role="status" aria-live="polite">
            {e.status === "QUEUED"
              ? "Waiting to start…"
              : e.expected
                ? `Preparing… ${count(e.rows)} of ${count(e.expected)} orders (${e.percent}%)`
                : "Preparing…"}
          </span>
        </div>
      )}
    </li>
  );
}

/** The business's latest exports (the page's loader gives them); nothing when there are none. */
export function OrderExports({ exports }: { exports: OrderExportView[] }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const location = useLocation();
  if (!exports.length) return null;
  return (
    <section className="card stack export-list" id="exports" aria-labelledby="exports-head">
      <h2 id="exports-head" className="section-title">
        Exports
      </h2>
      <ul className="stack">
        {exports.map((e) => (
          <ExportItem key={e.id} initial={e} />
        ))}
      </ul>
      <p className="muted small">
        Each file can be downloaded for 7 days.
        {!hydrated && exports.some(inProgress) ? (
          <>
            {" "}
            <Link to={`${location.pathname}${location.search}`} reloadDocument>
              Reload the page
            </Link>{" "}
            to see the progress.
          </>
        ) : null}
      </p>
    </section>
  );
}
