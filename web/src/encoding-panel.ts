// The Encodings panel: color nodes or edges by any column, size nodes or widen edges by a numeric one, edge arrows.
// The dataset's bindings are the defaults; Reset returns to them. Choices are kept for this session in the browser.
import { ENCODING_KEYS, type EncodingChoices, type EncodingKey, isNumericDtype, parseChoices, withEncodings } from "./encoding-choices.ts";
import type { VizSession } from "./session-query.ts";
import "./encoding-panel.css";

export type EncodingPanel = {
  /** The session as the page draws it: the dataset's bindings with the viewer's choices over them. */
  apply(session: VizSession): VizSession;
  /** Whether edges are drawn with arrows. */
  readonly arrows: boolean;
  /** Lists the columns of this session's tables (again after a change of tables). */
  setSession(session: VizSession): void;
  /** Takes choices another viewer made (session-shared.ts): kept, shown and drawn, not sent back. */
  setChoices(choices: EncodingChoices): void;
};

const LABELS: Record<EncodingKey, string> = {
  nodeColor: "Node color",
  nodeSize: "Node size",
  edgeColor: "Edge color",
  edgeWidth: "Edge width",
};

function storageKey(sessionId: string): string {
  return `graph-encodings:${sessionId}`;
}

function load(sessionId: string): EncodingChoices {
  try {
    return parseChoices(JSON.parse(localStorage.getItem(storageKey(sessionId)) ?? "null"));
  } catch {
    return { columns: {} };
  }
}

function save(sessionId: string, choices: EncodingChoices): void {
  try {
    localStorage.setItem(storageKey(sessionId), JSON.stringify(choices));
  } catch {
    // Storage refused (private mode, quota): the choice holds until the page is left.
  }
}

/**
 * Adds an "Encodings" button to `tools` and its panel to the page. `changed` runs after every choice: the page then
 * draws the session `apply` gives (only the changed axis's columns are fetched) and the arrows.
 */
export function createEncodingPanel(
  sessionId: string,
  tools: HTMLElement | null,
  changed: () => void,
  /** Called with this viewer's own choices, to share them with the session. */
  shared?: (choices: EncodingChoices) => void,
): EncodingPanel {
  let choices = load(sessionId);
  let session: VizSession | undefined;

  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.id = "encodings-toggle";
  toggle.className = "button";
  toggle.textContent = "Encodings";
  toggle.title = "Color, size and width by a column; edge arrows";
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", "encodings-panel");
  tools?.append(toggle);

  const panel = document.createElement("section");
  panel.id = "encodings-panel";
  panel.className = "encodings-panel";
  panel.setAttribute("aria-label", "Encodings");
  panel.hidden = true;
  document.body.append(panel);

  const selects = {} as Record<EncodingKey, HTMLSelectElement>;
  for (const key of Object.keys(ENCODING_KEYS) as EncodingKey[]) {
    const label = document.createElement("label");
    label.textContent = LABELS[key];
    const select = document.createElement("select");
    select.id = `encoding-${key}`;
    select.addEventListener("change", () => {
      choices = { ...choices, columns: { ...choices.columns, [key]: select.value } };
      commit();
    });
    label.append(select);
    panel.append(label);
    selects[key] = select;
  }
  const arrowsLabel = document.createElement("label");
  arrowsLabel.className = "check";
  const arrows = document.createElement("input");
  arrows.type = "checkbox";
  arrows.id = "encoding-arrows";
  arrows.addEventListener("change", () => {
    choices = { ...choices, arrows: arrows.checked };
    commit();
  });
  arrowsLabel.append(arrows, " Edge arrows");
  panel.append(arrowsLabel);
  const reset = document.createElement("button");
  reset.type = "button";
  reset.id = "encodings-reset";
  reset.className = "button";
  reset.textContent = "Reset";
  reset.title = "Back to the dataset's bindings";
  reset.addEventListener("click", () => {
    choices = { columns: {} };
    commit();
  });
  panel.append(reset);

  toggle.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute("aria-expanded", String(!panel.hidden));
  });

  function commit(): void {
    save(sessionId, choices);
    render();
    changed();
    shared?.(choices);
  }

  function render(): void {
    if (!session) return;
    const shown = withEncodings(session, choices);
    for (const key of Object.keys(ENCODING_KEYS) as EncodingKey[]) {
      const { axis, binding, numeric } = ENCODING_KEYS[key];
      const table = axis === "node" ? session.dataset.tables.nodes : session.dataset.tables.edges;
      const dtypes = table?.dtypes ?? {};
      const names = Object.keys(dtypes).filter((name) => !numeric || isNumericDtype(dtypes[name] ?? ""));
      const current = (axis === "node" ? shown.dataset.nodeEncodings : shown.dataset.edgeEncodings).bindings[binding] ?? "";
      const select = selects[key];
      const none = new Option("None", "");
      select.replaceChildren(none, ...names.map((name) => new Option(name, name)));
      select.value = names.includes(current) ? current : "";
      select.disabled = !table;
    }
    arrows.checked = choices.arrows ?? false;
  }

  return {
    apply(next) {
      return withEncodings(next, choices);
    },
    get arrows() {
      return choices.arrows ?? false;
    },
    setSession(next) {
      session = next;
      render();
    },
    setChoices(next) {
      choices = next;
      save(sessionId, choices);
      render();
      changed();
    },
  };
}
