// "Export PNG": the current view as an image, the WebGL canvas with the label layer drawn over it.

/**
 * Draws a cosmos.gl frame and copies the canvas in the same task (the drawing buffer is only whole until the frame is
 * presented: the page's WebGL context does not preserve it), then draws the visible labels at their on-screen places,
 * at the canvas's pixel ratio. Answers PNG bytes.
 */
export async function renderViewPng(canvas: HTMLCanvasElement, labels: HTMLElement, drawNow: () => void): Promise<Blob> {
  const out = document.createElement("canvas");
  out.width = canvas.width;
  out.height = canvas.height;
  const context = out.getContext("2d");
  if (!context) throw new Error("this browser cannot draw into a 2D canvas");
  drawNow();
  context.drawImage(canvas, 0, 0);
  const box = canvas.getBoundingClientRect();
  const scale = box.width > 0 ? canvas.width / box.width : 1;
  for (const label of labels.querySelectorAll<HTMLElement>(".label")) drawLabel(context, label, box, scale);
  return new Promise<Blob>((resolve, reject) =>
    out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the browser could not encode the image"))), "image/png"),
  );
}

/** Draws one cosmos.gl frame at once (its frame method, a private member stable across 3.x; render-governor.ts uses it too). */
export function drawGraphNow(graph: unknown): void {
  const loop = graph as { renderFrame?: (now?: number) => void };
  if (typeof loop.renderFrame !== "function") throw new Error("this version of cosmos.gl cannot draw a frame on demand");
  loop.renderFrame(performance.now());
}

function drawLabel(context: CanvasRenderingContext2D, label: HTMLElement, box: DOMRect, scale: number): void {
  const text = label.textContent ?? "";
  if (!text || label.style.display === "none") return;
  const place = label.getBoundingClientRect();
  if (place.width === 0 || place.height === 0) return;
  const style = getComputedStyle(label);
  const x = (place.left - box.left) * scale;
  const y = (place.top - box.top) * scale;
  context.save();
  context.globalAlpha = Number(style.opacity) || 1;
  context.fillStyle = style.backgroundColor;
  context.fillRect(x, y, place.width * scale, place.height * scale);
  context.fillStyle = style.color;
  context.font = `${style.fontWeight} ${Number.parseFloat(style.fontSize) * scale}px ${style.fontFamily}`;
  context.textBaseline = "middle";
  const padding = Number.parseFloat(style.paddingLeft) || 0;
  context.beginPath();
  context.rect(x, y, place.width * scale, place.height * scale);
  context.clip();
  context.fillText(text, x + padding * scale, y + (place.height * scale) / 2);
  context.restore();
}
