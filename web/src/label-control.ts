// The labels control in the top bar: labels off, or the column whose text they show (the bound label, else the id,
// or any text column of the node table, fetched with the search's text columns the first time it is chosen).
import type { GraphModel } from "./graph-model.ts";
import type { LabelLayer } from "./label-layer.ts";
import { type SearchFields, textColumns } from "./search-columns.ts";
import type { VizSession } from "./session-query.ts";

const OFF = "\u0000off";
const BOUND = "\u0000bound";

export type LabelControl = {
  readonly select: HTMLSelectElement;
  /** Lists the model's text columns again (after a draw or a change of bindings); keeps the choice when it remains. */
  refresh(): void;
};

export function createLabelControl(
  host: HTMLElement | null,
  layer: LabelLayer,
  fields: SearchFields,
  current: () => { model: GraphModel | undefined; session: VizSession },
): LabelControl {
  const select = document.createElement("select");
  select.id = "label-column";
  select.className = "label-column";
  select.title = "Labels: off, or the column they show";
  select.setAttribute("aria-label", "Labels");
  host?.prepend(select);
  let choice = BOUND;
  let asked = 0;

  const option = (value: string, text: string) => {
    const element = document.createElement("option");
    element.value = value;
    element.textContent = text;
    return element;
  };

  const apply = async () => {
    const ask = ++asked;
    const { model } = current();
    layer.setShown(choice !== OFF);
    if (choice === OFF || choice === BOUND || !model) {
      layer.setText(undefined);
      return;
    }
    const field = (await fields(model)).find((candidate) => candidate.name === choice);
    if (ask !== asked) return;
    layer.setText(field ? (index) => field.text[index] ?? "" : undefined);
  };

  const refresh = () => {
    const { model, session } = current();
    const bound = model ? (model.nodeColumns.label ?? model.nodeColumns.id) : "label";
    const columns = model ? textColumns(session, model) : [];
    if (choice !== OFF && choice !== BOUND && !columns.includes(choice)) choice = BOUND;
    select.replaceChildren(
      option(BOUND, `Labels: ${bound}`),
      ...columns.map((name) => option(name, `Labels: ${name}`)),
      option(OFF, "Labels: off"),
    );
    select.value = choice;
    void apply();
  };

  select.addEventListener("change", () => {
    choice = select.value;
    void apply();
  });
  refresh();
  return { select, refresh };
}
