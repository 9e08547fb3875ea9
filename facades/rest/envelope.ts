// The list envelope {count, next, previous, results} with absolute next/previous URLs.
export type Page = { limit: number; offset: number };

export type ListEnvelope<T> = { count: number; next: string | null; previous: string | null; results: T[] };

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** Reads `limit` and `offset` from a query string; invalid values are the caller's error. */
export function readPage(url: URL): { ok: true; page: Page } | { ok: false; message: string; field: string } {
  const parse = (name: string, fallback: number, min: number, max: number) => {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === "") return fallback;
    const value = Number(raw);
    return Number.isInteger(value) && value >= min && value <= max ? value : Number.NaN;
  };
  const limit = parse("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
  if (Number.isNaN(limit)) return { ok: false, message: `limit must be an integer between 1 and ${MAX_LIMIT}`, field: "limit" };
  const offset = parse("offset", 0, 0, Number.MAX_SAFE_INTEGER);
  if (Number.isNaN(offset)) return { ok: false, message: "offset must be a non-negative integer", field: "offset" };
  return { ok: true, page: { limit, offset } };
}

export function listEnvelope<T>(results: T[], count: number, page: Page, absoluteUrl: URL): ListEnvelope<T> {
  const link = (offset: number) => {
    const url = new URL(absoluteUrl);
    url.searchParams.set("limit", String(page.limit));
    if (offset > 0) url.searchParams.set("offset", String(offset));
    else url.searchParams.delete("offset");
    return url.toString();
  };
  const next = page.offset + page.limit < count ? link(page.offset + page.limit) : null;
  const previous = page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : null;
  return { count, next, previous, results };
}
