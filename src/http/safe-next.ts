// Where a browser may be sent back to after signing in: a path of this site only. The value is read the way the
// browser's URL parser reads a Location header (which drops tabs and line ends and takes `\` for `/`), so
// "/\t/evil.example" cannot become "//evil.example"; control characters and backslashes are refused outright.

const BASE = new URL("http://this-site.invalid/");

/** `value` when it names a path of this site, else "/". */
export function safeNext(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/")) return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE.origin) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
