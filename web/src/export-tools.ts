// The toolbar's share and export buttons: copy the session's link, download the view as graph.png, and the selection
// (or the graph, less what the filters hide) as graph.csv. Each says what it did, or why it failed, in #export-message.
import type { CsvSource } from "./export-csv.ts";
import { csvOf, exportRows } from "./export-csv.ts";
import { renderViewPng } from "./export-png.ts";

export type ExportContext = {
  sessionId: string;
  datasetId(): string;
  /** The WebGL canvas, once the graph is drawn. */
  canvas(): HTMLCanvasElement | null;
  labels: HTMLElement;
  /** Draws a frame of the graph at once (the canvas is copied right after). */
  drawNow(): void;
  /** What to export as CSV, once the graph is loaded. */
  csvSource(): CsvSource | undefined;
};

export type ExportElements = { share: HTMLButtonElement; png: HTMLButtonElement; csv: HTMLButtonElement; message: HTMLElement };

/** The page's own address for this session: graph.html?dataset=…&session=… (no other parameter, no fragment). */
export function shareLink(datasetId: string, sessionId: string, where: Location = location): string {
  const query = new URLSearchParams();
  if (datasetId) query.set("dataset", datasetId);
  query.set("session", sessionId);
  return `${where.origin}${where.pathname}?${query.toString()}`;
}

/** Finds the buttons in graph.html (absent: nothing to wire) and wires them. */
export function attachExportTools(context: ExportContext, root: Document = document): void {
  const find = <T extends HTMLElement>(id: string) => root.getElementById(id) as T | null;
  const share = find<HTMLButtonElement>("share-link");
  const png = find<HTMLButtonElement>("export-png");
  const csv = find<HTMLButtonElement>("export-csv");
  const message = find<HTMLElement>("export-message");
  if (!share || !png || !csv || !message) return;
  createExportTools({ share, png, csv, message }, context);
}

export function createExportTools(elements: ExportElements, context: ExportContext): void {
  let hide = 0;
  const say = (text: string, failed = false) => {
    window.clearTimeout(hide);
    elements.message.textContent = text;
    elements.message.classList.toggle("is-error", failed);
    // A failure is announced at once; progress and success politely.
    elements.message.setAttribute("role", failed ? "alert" : "status");
    elements.message.hidden = false;
    if (!failed) hide = window.setTimeout(() => (elements.message.hidden = true), 6_000);
  };
  const run = (button: HTMLButtonElement, what: string, action: () => Promise<string>) => {
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-busy") === "true") return;
      button.setAttribute("aria-busy", "true");
      action()
        .then((done) => say(done))
        .catch((error: unknown) => say(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, true))
        .finally(() => button.removeAttribute("aria-busy"));
    });
  };

  run(elements.share, "Copying the link", async () => {
    const link = shareLink(context.datasetId(), context.sessionId);
    elements.share.dataset.link = link;
    await copyText(link);
    return "Link copied: anyone with access to this graph who opens it joins this session.";
  });

  run(elements.png, "Export PNG", async () => {
    const canvas = context.canvas();
    if (!canvas) throw new Error("the graph is not drawn yet");
    download(await renderViewPng(canvas, context.labels, context.drawNow), "graph.png");
    return "Saved graph.png.";
  });

  run(elements.csv, "Export CSV", async () => {
    const source = context.csvSource();
    if (!source) throw new Error("the graph is not loaded yet");
    const filtered = !source.selection && !!source.hidden && source.hidden.nodeCount + source.hidden.edgeCount > 0;
    say(
      source.selection ? "Preparing graph.csv…" : `Preparing graph.csv: reading every node and edge${filtered ? " the filters keep" : ""}…`,
    );
    const rows = await exportRows(source);
    downloadCsv(csvOf(rows, source.session), "graph.csv");
    const nodes = rows.filter((row) => row.kind === "node").length;
    const what = source.selection ? "the selection" : filtered ? "the filtered graph" : "the graph";
    return `Saved graph.csv: ${what}, ${nodes.toLocaleString("en-US")} nodes and ${(rows.length - nodes).toLocaleString("en-US")} edges.`;
  });
}

/**
 * Copies text: the Clipboard API where the page may use it (a secure context: HTTPS or localhost), else the older
 * copy command on a hidden text field (a gateway served over plain HTTP). Fails with the text in the message.
 */
async function copyText(text: string): Promise<void> {
  let reason = "this page may not use the clipboard";
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
  }
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.position = "fixed";
  field.style.opacity = "0";
  const focused = document.activeElement as HTMLElement | null;
  document.body.append(field);
  field.select();
  // execCommand is deprecated but is the only way to copy outside a secure context.
  const copied = document.execCommand("copy");
  field.remove();
  focused?.focus();
  if (!copied) throw new Error(`${reason}; copy the link by hand: ${text}`);
}

/** Downloads CSV text as a file. */
export function downloadCsv(text: string, name: string): void {
  download(new Blob([text], { type: "text/csv;charset=utf-8" }), name);
}

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
