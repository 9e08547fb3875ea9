// Tells people (the status line) and scripts (data attributes on <html>) what the page is doing.

export type GraphState = "loading" | "laying-out" | "ready" | "error";

export type PageStatus = {
  set(state: GraphState, text: string): void;
  layout(source: string): void;
  fail(message: string): void;
};

export function createPageStatus(line: HTMLElement, message: HTMLElement): PageStatus {
  const root = document.documentElement;
  return {
    set(state, text) {
      root.dataset.graphState = state;
      line.textContent = text;
    },
    layout(source) {
      root.dataset.layout = source;
    },
    fail(text) {
      root.dataset.graphState = "error";
      line.textContent = "";
      message.textContent = text;
      message.hidden = false;
    },
  };
}
