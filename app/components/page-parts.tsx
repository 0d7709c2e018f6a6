import { Fragment, type HTMLAttributes, type ReactNode } from "react";
import { Form, Link } from "@remix-run/react";
import { EmptyState } from "./area-layout";
import { UTC_DATES } from "~/platform/core/dates";

/** The "← Orders" line above a page's title: a link back to the list or page it belongs to. */
export function BackLink({ to, label, className }: { to: string; label: string; className?: string }) {
  return (
    <p className={className}>
      <Link to={to}>← {label}</Link>
    </p>
  );
}

/** An action's error, announced: nothing when there is none. */
export function ErrorAlert({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p className="alert error" role="alert">
      {error}
    </p>
  );
}

/** A success message, announced politely: shown only when `show` holds. */
export function SuccessNotice({ show, children }: { show: unknown; children: ReactNode }) {
  if (!show) return null;
  return (
    <p className="alert success" role="status">
      {children}
    </p>
  );
}

/** The GET search box above a list: one `q` field (kept when the list reloads with a new query) and a button. */
export function SearchForm({
  q,
  maxLength,
  placeholder,
  label,
  resetOnQuery = true,
  buttonClass = "button",
  children,
}: {
  q: string;
  maxLength: number;
  placeholder: string;
  label: string;
  /** remount the field when the query changes, so that it shows the query of the page */
  resetOnQuery?: boolean;
  buttonClass?: string;
  /** hidden fields that the search keeps (a chosen category) */
  children?: ReactNode;
}) {
  return (
    <Form method="get" className="search-form" role="search">
      {children}
      <input
        type="search"
        name="q"
        defaultValue={q}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-label={label}
        key={resetOnQuery ? q : undefined}
      />
      <button type="submit" className={buttonClass}>
        Search
      </button>
    </Form>
  );
}

export type Column<T> = {
  /** what the header cell shows */
  head: ReactNode;
  /**
   * The body cells' data-label, which names the column when a row becomes a card on a phone (see
   * styles.css). By default the head's text for every column but the first (the card's title);
   * "" for a full-width cell without a caption, null for none.
   */
  label?: string | null;
  /** class of the body cells */
  className?: string;
  /** class of the header cell */
  headClass?: string;
  /** a column of amounts: header and cells right-aligned (`.num`) */
  num?: boolean;
  cell: (row: T) => ReactNode;
};

/**
 * A list as a `.table`: a header row of columns, a row per item. On phones (below 640px) each row
 * is a card unless `className` has `keep` (such a table has no data-label captions);
 * `labels={false}` leaves the cells of a card table without them too.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  className = "table",
  labels = !/\bkeep\b/.test(className),
  foot,
  ...rest
}: {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & { "data-testid"?: string };
  className?: string;
  labels?: boolean;
  foot?: ReactNode;
  "data-testid"?: string;
}) {
  const label = (c: Column<T>, i: number) => {
    if (!labels || c.label === null) return undefined;
    if (c.label !== undefined) return c.label;
    return i > 0 && typeof c.head === "string" ? c.head : undefined;
  };
  return (
    <table className={className} {...rest}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col" className={c.num ? "num" : c.headClass}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((c, i) => (
              <td key={i} data-label={label(c, i)} className={c.num ? "num" : c.className}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {foot ? <tfoot>{foot}</tfoot> : null}
    </table>
  );
}

/**
 * A date and time in UTC for the platform's own pages (portal, review console), "Mar 4, 2026, 2:05 PM UTC"
 * (`seconds` adds them); "—" for none. Merchant pages use the shop's zone instead (`useShopFormat`).
 */
export function utcDateTime(iso: string | null, seconds = false) {
  return UTC_DATES.dateTime(iso, { seconds, zone: true });
}

/** A day in UTC for the platform's own pages, "Mar 4, 2026". */
export function utcDay(iso: string) {
  return UTC_DATES.day(iso);
}

/** A fact of a definition list: its name, its value, and the value cell's class. */
export type Fact = [term: string, value: ReactNode, className?: string];

/** Name–value pairs as a `<dl>` (`.kv` lays them out in two columns); a null fact is left out. */
export function Facts({ facts, className = "kv" }: { facts: (Fact | null | false)[]; className?: string }) {
  return (
    <dl className={className}>
      {facts.map((f) =>
        f ? (
          <Fragment key={f[0]}>
            <dt>{f[0]}</dt>
            <dd className={f[2]}>{f[1]}</dd>
          </Fragment>
        ) : null,
      )}
    </dl>
  );
}

/**
 * A `.card` section under a second-level heading; with `id` the heading has it and names the
 * section for assistive technology.
 */
export function Card({
  title,
  id,
  className = "card stack",
  aside,
  children,
}: {
  title: ReactNode;
  id?: string;
  className?: string;
  /** shown beside the heading (a link, a badge, a note) */
  aside?: ReactNode;
  children: ReactNode;
}) {
  const heading = <h2 id={id}>{title}</h2>;
  return (
    <section className={className} aria-labelledby={id}>
      {aside ? (
        <div className="section-title">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

/** The head of a page of one app in the developer portal: back to the app, the page's title, a lead paragraph. */
export function AppPageHeader({
  app,
  title,
  className,
  extra,
  children,
}: {
  app: { id: string; name: string };
  title: string;
  className?: string;
  /** shown under the lead (a rating) */
  extra?: ReactNode;
  /** the lead paragraph */
  children?: ReactNode;
}) {
  return (
    <header className={className}>
      <BackLink to={`/portal/apps/${app.id}`} label={app.name} />
      <h1>{title}</h1>
      {children ? <p className="lead">{children}</p> : null}
      {extra}
    </header>
  );
}

/**
 * The head of a page: its title and lead paragraph, with an action (a button-link) beside them
 * when there is one. `className` is the header's class without an action, the title block's with one.
 */
export function PageHeader({
  title,
  action,
  className,
  children,
}: {
  title: ReactNode;
  action?: ReactNode;
  className?: string;
  /** the lead paragraph */
  children?: ReactNode;
}) {
  const lead = children ? <p className="lead">{children}</p> : null;
  if (!action)
    return (
      <header className={className}>
        <h1>{title}</h1>
        {lead}
      </header>
    );
  return (
    <header className="section-title">
      <div className={className}>
        <h1>{title}</h1>
        {lead}
      </div>
      {action}
    </header>
  );
}

/**
 * What an admin list shows without rows: past its last page, a link back to the first; with
 * nothing at all, "No {noun} yet" and `children` (what will appear, or how to add the first).
 */
export function EmptyList({
  noun,
  total,
  firstPage,
  children,
}: {
  noun: string;
  total: number;
  firstPage: string;
  children: ReactNode;
}) {
  return total > 0 ? (
    <EmptyState title={`No ${noun} on this page`}>
      <p>
        <Link to={firstPage}>Go to the first page</Link>
      </p>
    </EmptyState>
  ) : (
    <EmptyState title={`No ${noun} yet`}>{children}</EmptyState>
  );
}

/**
 * One link of a row of filter pills (`<nav className="pills">`): the active one is marked `pill active`
 * and carries aria-current, `page` where the pill chooses what the page lists, `true` where it only
 * sorts or narrows a list inside a page.
 */
export function FilterPill({
  to,
  active,
  current = "page",
  children,
}: {
  to: string;
  active: boolean;
  current?: "page" | "true";
  children: ReactNode;
}) {
  return (
    <Link to={to} className={active ? "pill active" : "pill"} aria-current={active ? current : undefined}>
      {children}
    </Link>
  );
}
