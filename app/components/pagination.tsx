import { Link } from "@remix-run/react";

/** Link to one page of an admin list: the list's other query parameters (set ones, in order), then `page` from page 2 on. */
export function pageHref(path: string, query: Record<string, string | null | undefined>, page = 1) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  if (page > 1) params.set("page", String(page));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** Previous / "Page n of m" / Next bar under an admin list; hidden when there is a single first page. */
export function Pagination({
  page,
  pages,
  path,
  query = {},
  prevHref,
  nextHref,
  more = false,
}: {
  page: number;
  pages: number;
  path: string;
  query?: Record<string, string | null | undefined>;
  /** A list paged by cursor (the orders): its Previous / Next links, null at an end; absent: by page number. */
  prevHref?: string | null;
  nextHref?: string | null;
  /** `pages` is a lower bound (a capped count): "Page 3 of 500+". */
  more?: boolean;
}) {
  const byCursor = prevHref !== undefined || nextHref !== undefined;
  if (byCursor ? !prevHref && !nextHref && page <= 1 : pages <= 1 && page <= 1) return null;
  const href = (n: number) => pageHref(path, query, n);
  const prev = byCursor ? prevHref : page > 1 ? href(Math.min(page - 1, pages)) : null;
  const next = byCursor ? nextHref : page < pages ? href(page + 1) : null;
  return (
    <nav className="pagination" aria-label="Pages">
      {prev ? (
        <Link to={prev} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="muted">← Previous</span>
      )}
      <span>
        Page {page} of {pages}
        {more ? "+" : ""}
      </span>
      {next ? (
        <Link to={next} rel="next">
          Next →
        </Link>
      ) : (
        <span className="muted">Next →</span>
      )}
    </nav>
  );
}
