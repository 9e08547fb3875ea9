// The layout panel: the server layout's progress and state, pause/resume, and ForceAtlas2's live settings.
import type { LayoutJobState } from "./layout-frames.ts";
import { DEFAULT_SETTINGS, type LayoutSettings } from "./layout-job.ts";

export type LayoutPanelElements = {
  panel: HTMLElement;
  state: HTMLElement;
  progress: HTMLProgressElement;
  iteration: HTMLElement;
  toggle: HTMLButtonElement;
  settingsToggle: HTMLButtonElement;
  settings: HTMLFormElement;
  gravity: HTMLInputElement;
  scaling: HTMLInputElement;
  linLog: HTMLInputElement;
  overlap: HTMLInputElement;
  error: HTMLElement;
};

export type LayoutPanelActions = {
  pause(): void;
  resume(): void;
  /** Runs the layout again (after it finished, stopped or failed), with the panel's settings. */
  restart(settings: LayoutSettings): void;
  /** One changed setting, as SET_PARAMS sends it. */
  setParams(params: Partial<LayoutSettings>): void;
};

export type PanelState = LayoutJobState | "none";

export type LayoutPanel = {
  /** The state and progress (from a frame or the job); both are written to the page's data attributes. */
  showProgress(state: PanelState, iteration: number, maxIter: number): void;
  /** The job's settings, unless the person is editing that field right now. */
  showSettings(settings: LayoutSettings): void;
  showError(message: string | null): void;
  /** Pause when running, else resume or run again: the button's (and the `p` key's) action. */
  toggle(): void;
};

const STATE_TEXT: Record<PanelState, string> = {
  none: "Layout: not started",
  running: "Layout running",
  paused: "Layout paused",
  done: "Layout done",
  stopped: "Layout stopped",
  failed: "Layout failed",
};

const TOGGLE_TEXT: Record<PanelState, string> = {
  none: "Run layout",
  running: "Pause",
  paused: "Resume",
  done: "Run again",
  stopped: "Run again",
  failed: "Run again",
};

const TOGGLE_LABEL: Record<PanelState, string> = {
  none: "Run the server layout",
  running: "Pause the layout (p)",
  paused: "Resume the layout (p)",
  done: "Run the layout again",
  stopped: "Run the layout again",
  failed: "Run the layout again",
};

/** How long a sent setting wins over what the server answers, at most (its answer normally comes much sooner). */
const PENDING_MS = 5_000;

export function createLayoutPanel(elements: LayoutPanelElements, actions: LayoutPanelActions): LayoutPanel {
  const root = document.documentElement;
  let state: PanelState = "none";
  /** Settings this page sent and has not seen answered yet: a refetch in between must not undo them. */
  const pending = new Map<keyof LayoutSettings, { value: number | boolean; until: number }>();
  /** Number fields with typed, not yet committed text (a change event or leaving the field commits it). */
  const typing = new Set<HTMLInputElement>();

  const current = (): LayoutSettings => ({
    gravity: numberOf(elements.gravity, DEFAULT_SETTINGS.gravity),
    scaling_ratio: numberOf(elements.scaling, DEFAULT_SETTINGS.scaling_ratio),
    lin_log_mode: elements.linLog.checked,
    prevent_overlapping: elements.overlap.checked,
  });

  const panel: LayoutPanel = {
    showProgress(next, iteration, maxIter) {
      if (next !== state) {
        state = next;
        // Only state changes are announced (the iteration changes many times a second).
        elements.state.textContent = STATE_TEXT[next];
        root.dataset.layoutState = next;
        elements.toggle.textContent = TOGGLE_TEXT[next];
        elements.toggle.setAttribute("aria-label", TOGGLE_LABEL[next]);
        elements.toggle.disabled = false;
        if (next !== "failed") panel.showError(null);
      }
      elements.panel.hidden = false;
      if (maxIter > 0) {
        elements.progress.max = maxIter;
        elements.progress.value = Math.min(iteration, maxIter);
        elements.iteration.textContent = `${iteration.toLocaleString("en-US")} / ${maxIter.toLocaleString("en-US")}`;
      } else {
        // Open-ended: an indeterminate bar while running, the count of iterations done.
        if (next === "running") elements.progress.removeAttribute("value");
        else elements.progress.value = elements.progress.max;
        elements.iteration.textContent = iteration > 0 ? `${iteration.toLocaleString("en-US")} iterations` : "";
      }
      root.dataset.layoutIteration = String(iteration);
    },
    showSettings(settings) {
      // A field the person is typing in, or changed a moment ago and the answer does not show yet, keeps its value.
      const keep = (key: keyof LayoutSettings, input: HTMLInputElement) => {
        if (typing.has(input)) return true;
        const sent = pending.get(key);
        if (!sent) return false;
        if (sent.value === settings[key] || performance.now() > sent.until) {
          pending.delete(key);
          return false;
        }
        return true;
      };
      if (!keep("gravity", elements.gravity)) elements.gravity.value = String(settings.gravity);
      if (!keep("scaling_ratio", elements.scaling)) elements.scaling.value = String(settings.scaling_ratio);
      if (!keep("lin_log_mode", elements.linLog)) elements.linLog.checked = settings.lin_log_mode;
      if (!keep("prevent_overlapping", elements.overlap)) elements.overlap.checked = settings.prevent_overlapping;
    },
    showError(message) {
      elements.error.textContent = message ?? "";
      elements.error.hidden = !message;
    },
    toggle() {
      if (state === "running") actions.pause();
      else if (state === "paused") actions.resume();
      else actions.restart(current());
    },
  };

  elements.toggle.addEventListener("click", () => panel.toggle());
  elements.settingsToggle.addEventListener("click", () => {
    const open = elements.settings.hidden;
    elements.settings.hidden = !open;
    elements.settingsToggle.setAttribute("aria-expanded", String(open));
    if (open) elements.gravity.focus();
  });
  elements.settings.addEventListener("submit", (event) => event.preventDefault());
  const send = (input: HTMLInputElement, key: keyof LayoutSettings) => {
    input.addEventListener("input", () => typing.add(input));
    input.addEventListener("blur", () => typing.delete(input));
    input.addEventListener("change", () => {
      typing.delete(input);
      if (input.type !== "checkbox" && !input.checkValidity()) return;
      const value = current()[key];
      pending.set(key, { value, until: performance.now() + PENDING_MS });
      actions.setParams({ [key]: value });
    });
  };
  send(elements.gravity, "gravity");
  send(elements.scaling, "scaling_ratio");
  send(elements.linLog, "lin_log_mode");
  send(elements.overlap, "prevent_overlapping");
  panel.showSettings(DEFAULT_SETTINGS);
  root.dataset.layoutState = "none";
  return panel;
}

function numberOf(input: HTMLInputElement, fallback: number): number {
  const value = input.valueAsNumber;
  return Number.isFinite(value) ? value : fallback;
}
