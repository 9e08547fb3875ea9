// Small screens (at most 600 px wide): the top bar's buttons fold behind a "Menu" toggle under a full-width search,
// and the floating panels (inspector, layout, legend, collections) become drawers over a bottom bar of toggles, one
// drawer open at a time, so no two panels overlap and none leaves the window. Wider windows are left as they were.
import "./responsive.css";

/** The panels that become drawers, by element id, with the bottom bar's label for each. */
const DRAWERS: readonly { id: string; label: string }[] = [
  { id: "inspector", label: "Details" },
  { id: "layout-panel", label: "Layout" },
  { id: "legend", label: "Legend" },
  { id: "collections", label: "Collections" },
  { id: "selection-table", label: "Table" },
  { id: "filter-panel", label: "Filters" },
  { id: "encodings-panel", label: "Encodings" },
  { id: "filter-table", label: "Rows" },
  { id: "timebar", label: "Time" },
];
/** Drawers that open themselves when they appear (each on the viewer's own action: a selection, a toolbar button). */
const OPEN_ON_SHOW = new Set(["inspector", "selection-table", "filter-panel", "encodings-panel", "filter-table"]);

export const NARROW_QUERY = "(max-width: 600px)";

export type ResponsiveLayout = {
  /** The drawer shown on a small screen ("" for none). */
  readonly drawer: string;
  open(id: string): void;
};

/** Adds the menu toggle to `topbar` and the drawer bar to <body>, and keeps both in step with the panels. */
export function createResponsiveLayout(topbar: HTMLElement, doc: Document = document): ResponsiveLayout {
  const root = doc.documentElement;
  const menu = doc.createElement("button");
  menu.type = "button";
  menu.id = "tools-toggle";
  menu.className = "button tools-toggle";
  menu.textContent = "Menu";
  menu.setAttribute("aria-expanded", "false");
  menu.setAttribute("aria-label", "Show the toolbar's buttons");
  menu.addEventListener("click", () => setMenu(root.dataset.toolsOpen !== "true"));
  topbar.append(menu);

  function setMenu(open: boolean): void {
    root.dataset.toolsOpen = String(open);
    menu.setAttribute("aria-expanded", String(open));
  }
  // A tool pressed from the menu closes it (the search box stays, it is not in the menu).
  topbar.querySelector(".tools")?.addEventListener("click", (event) => {
    const target = event.target as HTMLElement;
    if (target.closest("button") && !target.closest(".search")) setMenu(false);
  });

  const bar = doc.createElement("nav");
  bar.id = "drawer-bar";
  bar.className = "drawer-bar";
  bar.setAttribute("aria-label", "Panels");
  const buttons = new Map<string, HTMLButtonElement>();
  for (const { id, label } of DRAWERS) {
    const button = doc.createElement("button");
    button.type = "button";
    button.className = "button";
    button.dataset.drawer = id;
    button.textContent = label;
    button.setAttribute("aria-controls", id);
    button.addEventListener("click", () => open(root.dataset.drawer === id ? "" : id));
    bar.append(button);
    buttons.set(id, button);
  }
  doc.body.append(bar);

  const wasShown = new Map<string, boolean>();
  function open(id: string): void {
    root.dataset.drawer = id;
    for (const [drawer, button] of buttons) button.setAttribute("aria-pressed", String(drawer === id));
    // Setting an attribute, even to its value, is a mutation: sync() changes only what differs, or it would loop.
  }

  /** Shows a toggle per panel that has something to show; a panel that appears (the inspector on a selection) opens. */
  function sync(): void {
    let any = false;
    for (const { id } of DRAWERS) {
      const panel = doc.getElementById(id);
      const shown = panel !== null && !panel.hidden;
      const button = buttons.get(id) as HTMLButtonElement;
      if (button.hidden === shown) button.hidden = !shown;
      any ||= shown;
      if (shown && !wasShown.get(id) && OPEN_ON_SHOW.has(id)) open(id);
      if (!shown && root.dataset.drawer === id) open("");
      wasShown.set(id, shown);
    }
    if (bar.hidden === any) bar.hidden = !any;
  }
  open("");
  sync();
  new MutationObserver(sync).observe(doc.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });

  // Panels under the top bar start where it ends (it grows to two or three rows on a small screen).
  const place = () => root.style.setProperty("--topbar-bottom", `${Math.ceil(topbar.getBoundingClientRect().bottom)}px`);
  new ResizeObserver(place).observe(topbar);
  place();

  return {
    get drawer() {
      return root.dataset.drawer ?? "";
    },
    open,
  };
}
