// Entry point of graph.html: finds the page's elements, reads its URL and starts the graph page.

import { attachAssistantToken } from "./assistant-token.ts";
import { type PageElements, startGraphPage } from "./graph-page.ts";
import { createHelpOverlay } from "./help-overlay.ts";
import { readPageParams } from "./page-params.ts";
import { RequestError } from "./request-error.ts";
import { createResponsiveLayout } from "./responsive.ts";
import { createThemeToggle, initTheme } from "./theme.ts";

initTheme();

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`graph.html lacks #${id}`);
  return found as T;
}

function elements(): PageElements {
  return {
    graph: element("graph"),
    labels: element("labels"),
    name: element("dataset-name"),
    status: element("status"),
    message: element("message"),
    search: element("search"),
    searchResults: element("search-results"),
    fit: element("fit"),
    legend: element("legend"),
    inspector: {
      panel: element("inspector"),
      kind: element("inspector-kind"),
      title: element("inspector-title"),
      fields: element("inspector-fields"),
      close: element("inspector-close"),
    },
    layout: {
      panel: element("layout-panel"),
      state: element("layout-state"),
      progress: element("layout-progress"),
      iteration: element("layout-iteration"),
      toggle: element("layout-toggle"),
      settingsToggle: element("layout-settings-toggle"),
      settings: element("layout-settings"),
      gravity: element("layout-gravity"),
      scaling: element("layout-scaling"),
      linLog: element("layout-linlog"),
      overlap: element("layout-overlap"),
      error: element("layout-error"),
    },
  };
}

function explain(error: unknown): string {
  if (error instanceof RequestError) {
    if (error.code === "UNAUTHENTICATED") return "Sign in to see this graph, then reload the page.";
    if (error.code === "FORBIDDEN") return "You do not have access to this graph.";
    if (error.code === "NOT_FOUND") return "This graph session does not exist (any more).";
  }
  return `The graph could not be shown: ${error instanceof Error ? error.message : String(error)}`;
}

function fail(message: string): void {
  document.documentElement.dataset.graphState = "error";
  const box = element("message");
  box.textContent = message;
  box.hidden = false;
  element("dataset-name").textContent = "Graph";
}

const tools = document.querySelector<HTMLElement>(".topbar .tools");
if (tools) createThemeToggle(tools);
createHelpOverlay(tools);
// Only for a single-use link's session (its caller has a grant): the read-only token for an assistant.
void attachAssistantToken(tools);
const topbar = document.querySelector<HTMLElement>(".topbar");
if (topbar) createResponsiveLayout(topbar);

const params = readPageParams();
if (!params.session) {
  fail(
    params.dataset
      ? "This link has no session. Open the graph from its link (graph.html?dataset=…) so the server can start one."
      : "This page needs a dataset: open it as graph.html?dataset=<dataset_id>.",
  );
} else {
  startGraphPage(params.session, elements()).catch((error: unknown) => {
    console.error(error);
    fail(explain(error));
  });
}
