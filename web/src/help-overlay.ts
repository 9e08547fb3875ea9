// The help overlay: the page's keyboard shortcuts (and pointer gestures) in a modal dialog. `?` or the top bar's `?`
// button opens it; Escape, the Close button or `?` again close it; focus moves into it and back where it was.
import "./help-overlay.css";

/** Every shortcut the page has: graph-page.ts's onKey, the search box's keys (search-box.ts), and this overlay. */
export const SHORTCUTS: ReadonlyArray<{ keys: string[]; what: string }> = [
  { keys: ["?"], what: "Show or hide this help" },
  { keys: ["/"], what: "Search nodes (focuses the search box)" },
  { keys: ["↑", "↓"], what: "In the search box: move through the matches" },
  { keys: ["PgUp", "PgDn"], what: "In the search box: previous or next page of matches" },
  { keys: ["Enter"], what: "In the search box: go to the chosen match and inspect it" },
  { keys: ["f"], what: "Fit the graph to the window" },
  { keys: ["p"], what: "Pause, resume or run again the server layout" },
  { keys: ["Esc"], what: "Clear the selection and close the inspector (or the search list, or this help)" },
  { keys: ["←", "→"], what: "On the timebar's histogram: slide the time window a step back or forth (Esc: all times)" },
];

const GESTURES: ReadonlyArray<{ keys: string[]; what: string }> = [
  { keys: ["Drag"], what: "Pan" },
  { keys: ["Wheel"], what: "Zoom" },
  { keys: ["Click"], what: "Inspect a node or an edge; on the background, clear the selection" },
  { keys: ["Drag"], what: "On a histogram or the timebar: keep that range" },
];

export type HelpOverlay = {
  readonly dialog: HTMLDialogElement;
  open(): void;
  close(): void;
  readonly isOpen: boolean;
};

function typingIn(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return (
    !!element &&
    (element.tagName === "INPUT" || element.tagName === "TEXTAREA" || element.tagName === "SELECT" || element.isContentEditable)
  );
}

function table(rows: ReadonlyArray<{ keys: string[]; what: string }>): HTMLDListElement {
  const list = document.createElement("dl");
  list.className = "help-list";
  for (const row of rows) {
    const term = document.createElement("dt");
    row.keys.forEach((key, k) => {
      if (k > 0) term.append(" ");
      const kbd = document.createElement("kbd");
      kbd.textContent = key;
      term.append(kbd);
    });
    const detail = document.createElement("dd");
    detail.textContent = row.what;
    list.append(term, detail);
  }
  return list;
}

/** Builds the overlay (a modal <dialog> in <body>) and its `?` button in `toolbar`, and listens for the `?` key. */
export function createHelpOverlay(toolbar: HTMLElement | null): HelpOverlay {
  const dialog = document.createElement("dialog");
  dialog.id = "help-overlay";
  dialog.className = "help-overlay";
  dialog.setAttribute("aria-labelledby", "help-title");
  const head = document.createElement("div");
  head.className = "help-head";
  const title = document.createElement("h2");
  title.id = "help-title";
  title.textContent = "Keyboard shortcuts";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "button";
  close.textContent = "Close";
  head.append(title, close);
  const mouse = document.createElement("h3");
  mouse.textContent = "Pointer";
  dialog.append(head, table(SHORTCUTS), mouse, table(GESTURES));
  document.body.append(dialog);

  let button: HTMLButtonElement | undefined;
  if (toolbar) {
    button = document.createElement("button");
    button.type = "button";
    button.id = "help-button";
    button.className = "button help-button";
    button.textContent = "?";
    button.title = "Keyboard shortcuts (?)";
    button.setAttribute("aria-label", "Keyboard shortcuts");
    button.setAttribute("aria-haspopup", "dialog");
    button.addEventListener("click", () => overlay.open());
    toolbar.append(button);
  }

  /** Where focus was before the overlay opened: it goes back there. */
  let returnTo: HTMLElement | null = null;
  const overlay: HelpOverlay = {
    dialog,
    get isOpen() {
      return dialog.open;
    },
    open() {
      if (dialog.open) return;
      returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      close.focus();
    },
    close() {
      if (!dialog.open) return;
      dialog.close();
    },
  };
  dialog.addEventListener("close", () => {
    const target = returnTo && returnTo !== document.body && returnTo.isConnected ? returnTo : null;
    returnTo = null;
    target?.focus();
  });
  close.addEventListener("click", () => overlay.close());
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) overlay.close();
  });
  // Keys pressed in the overlay are its own: the page's shortcuts (Escape clearing the selection) do not see them.
  dialog.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Escape" || event.key === "?") {
      event.preventDefault();
      overlay.close();
    }
  });
  window.addEventListener("keydown", (event) => {
    if (event.key !== "?" || event.metaKey || event.ctrlKey || event.altKey || typingIn(event.target)) return;
    event.preventDefault();
    overlay.open();
  });
  return overlay;
}
