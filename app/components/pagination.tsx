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
}: {
  page: number;
  pages: number;
  path: string;
  query?: Record<string, string | null | undefined>;
}) {
  if (pages <= 1 && page <= 1) return null;
  const href = (n: number) => pageHref(path, query, n);
  return (
    <nav className="pagination" aria-label="Pages">
      {page > 1 ? (
        <Link to={href(Math.min(page - 1, pages))} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="muted">← Previous</span>
      )}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span className="muted">Next →</span>
      )}
    </nav>
  );
}
