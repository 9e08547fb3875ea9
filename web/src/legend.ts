// The color legend: category swatches, literal colors, or a gradient with its minimum and maximum.
import type { ColorLegend } from "./color-encoding.ts";

export function renderLegend(root: HTMLElement, legends: { title: string; legend: ColorLegend | undefined }[]): void {
  const sections = legends.flatMap(({ title, legend }) => (legend ? [section(title, legend)] : []));
  root.replaceChildren(...sections);
  root.hidden = sections.length === 0;
}

function section(title: string, legend: ColorLegend): HTMLElement {
  const box = document.createElement("section");
  const heading = document.createElement("h3");
  heading.textContent = `${title} color · ${legend.column}`;
  box.append(heading);
  if (legend.kind === "gradient") {
    const bar = document.createElement("div");
    bar.className = "gradient";
    bar.style.background = legend.css;
    const range = document.createElement("div");
    range.className = "range";
    const min = document.createElement("span");
    min.textContent = legend.min;
    const max = document.createElement("span");
    max.textContent = legend.max;
    range.append(min, max);
    box.append(bar, range);
    return box;
  }
  const list = document.createElement("ul");
  for (const entry of legend.entries) {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = entry.color;
    const label = document.createElement("span");
    label.textContent = entry.label;
    label.title = `${entry.label}: ${entry.count.toLocaleString("en-US")}`;
    item.append(swatch, label);
    list.append(item);
  }
  if (legend.more > 0) {
    const more = document.createElement("li");
    more.className = "more";
    more.textContent = `and ${legend.more.toLocaleString("en-US")} more`;
    list.append(more);
  }
  box.append(list);
  return box;
}
