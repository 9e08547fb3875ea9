// Shared pieces of the server-rendered pages (sign-in, account): HTML escaping and the page frame with its styles.

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLES = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f6fa; color: #1d2330; margin: 0; }
  main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
  header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
  h1 { font-size: 1.4rem; margin: 0; }
  h2 { font-size: 1.1rem; margin: 0 0 .75rem; }
  section { background: #fff; padding: 1.25rem 1.5rem; border-radius: 10px; box-shadow: 0 6px 24px rgba(20, 30, 60, .08); margin-top: 1.25rem; }
  label { display: block; font-size: .85rem; margin: .5rem 0 .25rem; color: #4a5468; }
  input { box-sizing: border-box; padding: .45rem .6rem; border: 1px solid #cfd5e1; border-radius: 6px; font: inherit; min-width: 14rem; }
  button { padding: .45rem .9rem; border: 0; border-radius: 6px; background: #2f5bd3; color: #fff; font: inherit; cursor: pointer; }
  button.secondary { background: #e6eaf3; color: #1d2330; }
  button.danger { background: #b3261e; }
  table { border-collapse: collapse; width: 100%; font-size: .92rem; }
  th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #e6eaf3; vertical-align: middle; }
  td form { margin: 0; }
  code, output { font-family: ui-monospace, monospace; word-break: break-all; }
  .row { display: flex; gap: .75rem; align-items: end; flex-wrap: wrap; }
  .error { color: #b3261e; }
  .notice { color: #1b6b2f; }
  .secret { background: #fff8e1; border: 1px solid #f0d58a; padding: .75rem 1rem; border-radius: 8px; }
  .muted { color: #5f6b82; font-size: .9rem; }
  nav a { margin-left: .75rem; }
`;

/** A complete page: the title, the shared styles, and the body's markup (already escaped by the caller). */
export function pageFrame(title: string, body: string, extraStyles = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Graph visualization service</title>
<style>${STYLES}${extraStyles}</style>
</head>
<body>
${body}
</body>
</html>`;
}
