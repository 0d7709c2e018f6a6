/**
 * The Orders page's search and filters (issue 41 split of routes/admin.orders._index.tsx): the
 * search form (its address keeps only the filters that are set), the status pills with their
 * counts, and a filter in words.
 */
import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import type { FormEvent } from "react";
import { MIN_TEXT_SEARCH, ORDER_SORTS, ORDER_SORT_LABELS, type OrderSort } from "~/platform/catalog/order-filter";
import { pageHref } from "~/components/pagination";
import { statusLabel } from "~/components/status-badge";
import { FilterPill } from "~/components/page-parts";

/** The filter as the page's loader gives it. */
export type ListFilter = { q: string; status: string | null; from: string | null; to: string | null; sort: OrderSort };

export function OrderFilters({
  filter,
  filtered,
  shortSearch,
}: {
  filter: ListFilter;
  filtered: boolean;
  shortSearch: boolean;
}) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const searching =
    navigation.state === "loading" && navigation.location?.pathname === "/admin/orders" && !navigation.formMethod;
  // the address keeps only the filters that are set (without JavaScript the form sends them all, which reads the same)
  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? "").trim() || null;
    const sort = value("sort");
    navigate(
      pageHref("/admin/orders", {
        q: value("q"),
        status: value("status"),
        from: value("from"),
        to: value("to"),
        sort: sort === "newest" ? null : sort,
      }),
    );
  };
  return (
    <Form
      method="get"
      className="card order-filters"
      role="search"
      aria-label="Search and filter orders"
      onSubmit={applyFilters}
    >
      {filter.status ? <input type="hidden" name="status" value={filter.status} /> : null}
      <label className="order-filter-q">
        Search
        <input
          type="search"
          name="q"
          defaultValue={filter.q}
          key={filter.q}
          maxLength={100}
          placeholder="Order number, customer name, phone or e-mail"
          aria-describedby="order-search-help"
        />
      </label>
      <label>
        From
        <input type="date" name="from" defaultValue={filter.from ?? ""} key={`from-${filter.from}`} />
      </label>
      <label>
        To
        <input type="date" name="to" defaultValue={filter.to ?? ""} key={`to-${filter.to}`} />
      </label>
      <label>
        Sort
        <select name="sort" defaultValue={filter.sort} key={`sort-${filter.sort}`}>
          {ORDER_SORTS.map((s) => (
            <option key={s} value={s}>
              {ORDER_SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <div className="order-filter-actions">
        <button type="submit" className="button primary" aria-busy={searching || undefined}>
          {searching ? "Searching…" : "Apply filters"}
        </button>
        {filtered || filter.sort !== "newest" ? (
          <Link to="/admin/orders" className="button subtle">
            Clear filters
          </Link>
        ) : null}
      </div>
      <p id="order-search-help" className="muted small order-filter-help">
        {shortSearch
          ? `Searches shorter than ${MIN_TEXT_SEARCH} characters match order numbers only.`
          : "From and To include the whole day."}
      </p>
    </Form>
  );
}

export function StatusPills({
  statuses,
  active,
  counts,
  href,
}: {
  statuses: string[];
  active: string | null;
  counts: { all: number; byStatus: Record<string, number> };
  href: (change: Record<string, string | null>) => string;
}) {
  return (
    <nav className="pills" aria-label="Filter by status">
      <FilterPill to={href({ status: null })} active={!active}>
        All <span className="pill-count">{counts.all}</span>
      </FilterPill>
      {statuses.map((s) => (
        <FilterPill key={s} to={href({ status: s })} active={active === s}>
          {statusLabel(s)} <span className="pill-count">{counts.byStatus[s]}</span>
        </FilterPill>
      ))}
    </nav>
  );
}

/** A filter in words: `"ana", status Pending, 2025-01-01 to 2025-01-31` ("" for none). */
export function describeFilter(f: { q: string; status: string | null; from: string | null; to: string | null }) {
  const parts: string[] = [];
  if (f.q) parts.push(`"${f.q}"`);
  if (f.status) parts.push(`status ${statusLabel(f.status)}`);
  if (f.from && f.to) parts.push(`${f.from} to ${f.to}`);
  else if (f.from) parts.push(`from ${f.from}`);
  else if (f.to) parts.push(`until ${f.to}`);
  return parts.join(", ");
}
