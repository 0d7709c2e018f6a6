/**
 * The Activity page's body, for the admin (a business's log, in the shop's time zone) and the
 * portal (an app's log, in UTC): the filters kept in the URL, the table, the pages and the CSV link
 * (contract 18; decision 084).
 */
import type { FormEvent } from "react";
import { Form, Link, useNavigate } from "@remix-run/react";
import { DataTable, PageHeader } from "~/components/page-parts";
import { EmptyState } from "~/components/area-layout";
import { Pagination, pageHref } from "~/components/pagination";
import { useShopFormat } from "~/components/shop-format";
import type { ActivityView } from "~/platform/activity/activity-pages.server";

type Entry = ActivityView;

export type ActivityLogProps = {
  /** the page's own path: the filters' form and the pages go there */
  path: string;
  /** the CSV download's path */
  csvPath: string;
  title: string;
  lead: string;
  /** the header's back link (the portal's app) */
  header?: React.ReactNode;
  form: { who: string; what: string; from: string; to: string };
  notices: string[];
  actions: { value: string; label: string }[];
  actors: string[];
  rows: Entry[];
  total: number;
  page: number;
  pages: number;
};

export function ActivityLog(p: ActivityLogProps) {
  const { dates, timeZone } = useShopFormat();
  const navigate = useNavigate();
  const query = { who: p.form.who, what: p.form.what, from: p.form.from, to: p.form.to };
  const filtered = Object.values(query).some(Boolean);
  const csvHref = pageHref(p.csvPath, query);
  // the address keeps only the filters that are set (without JavaScript the form sends them all, which reads the same)
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? "").trim() || null;
    navigate(pageHref(p.path, { who: value("who"), what: value("what"), from: value("from"), to: value("to") }));
  };
  return (
    <div className="stack-lg activity-page">
      {p.header}
      <PageHeader
        title={p.title}
        className="page-head"
        action={
          <a href={csvHref} className="button" download data-testid="activity-csv">
            Download CSV{filtered ? " of these entries" : ""}
          </a>
        }
      >
        {p.lead} Times are in {timeZone}.
      </PageHeader>
      {p.notices.map((n) => (
        <p key={n} className="alert warning" role="alert">
          {n}
        </p>
      ))}
      <Form
        method="get"
        action={p.path}
        className="card order-filters"
        role="search"
        aria-label="Filter the activity"
        onSubmit={apply}
      >
        <label>
          Who
          <input
            name="who"
            defaultValue={p.form.who}
            key={`who-${p.form.who}`}
            maxLength={254}
            list="activity-actors"
            placeholder="E-mail, id or “system”"
          />
          <datalist id="activity-actors">
            {p.actors.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </label>
        <label>
          What
          <select name="what" defaultValue={p.form.what} key={`what-${p.form.what}`}>
            <option value="">Every action</option>
            {p.actions.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" name="from" defaultValue={p.form.from} key={`from-${p.form.from}`} />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={p.form.to} key={`to-${p.form.to}`} />
        </label>
        <div className="order-filter-actions">
          <button type="submit" className="button primary">
            Apply filters
          </button>
          {filtered ? (
            <Link to={p.path} className="button subtle">
              Clear filters
            </Link>
          ) : null}
        </div>
        <p className="muted small order-filter-help">From and To include the whole day.</p>
      </Form>

      {p.rows.length === 0 ? (
        <EmptyState
          title={
            filtered ? "No entries match these filters" : p.total > 0 ? "No entries on this page" : "No activity yet"
          }
        >
          <p>
            {filtered ? (
              <Link to={p.path}>Clear filters</Link>
            ) : p.total > 0 ? (
              <Link to={p.path}>Go to the first page</Link>
            ) : (
              "Sign-ins, installs, changes of settings and members appear here as they happen."
            )}
          </p>
        </EmptyState>
      ) : (
        <>
          <p className="muted small" data-testid="activity-total">
            {p.total} {p.total === 1 ? "entry" : "entries"}, newest first
          </p>
          <DataTable
            rows={p.rows}
            rowKey={(r) => r.id}
            rowProps={(r) => ({ "data-testid": "activity-row", "data-action": r.action }) as never}
            className="table activity-table"
            columns={[
              { head: "When", className: "nowrap", cell: (r) => dates.dateTime(r.at, { seconds: true }) },
              { head: "Who", className: "break", cell: (r) => r.actor.label },
              { head: "Action", cell: (r) => r.actionLabel },
              { head: "Target", className: "break", cell: (r) => <code>{r.target}</code> },
              { head: "IP", className: "nowrap", cell: (r) => r.ip ?? "—" },
              {
                head: "Details",
                className: "break",
                cell: (r) =>
                  r.details.length ? (
                    <dl className="activity-details">
                      {r.details.map(([k, v]) => (
                        <div key={k}>
                          <dt>{k}</dt>
                          <dd>{v}</dd>
                        </div>
                      ))}
                    </dl>
                  ) : (
                    <span className="muted">—</span>
                  ),
              },
            ]}
          />
        </>
      )}
      <Pagination page={p.page} pages={p.pages} path={p.path} query={query} />
    </div>
  );
}
