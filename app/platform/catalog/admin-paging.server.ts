/** The merchant admin's lists: their page size, the ?page= they read, and LIKE searches. */

export const ADMIN_PAGE_SIZE = 20;
const MAX_PAGE = 10_000;

/** ?page= as a positive integer; anything else is page 1 (pages never fail on a bad link). */
export function readPage(url: URL): number {
  const raw = url.searchParams.get("page");
  if (!raw || !/^\d{1,6}$/.test(raw)) return 1;
  const n = Number(raw);
  return n >= 1 ? Math.min(n, MAX_PAGE) : 1;
}

export const pageCount = (total: number, size = ADMIN_PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

/** Escapes LIKE wildcards so that a search for "50%" or "a_b" matches those characters literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
