// Draws cosmos.gl frames only when something changed, and leaves the main thread idle between costly frames.
//
// cosmos.gl redraws every animation frame, even with nothing moving. With software WebGL a frame of a 100k-edge graph
// takes seconds and blocks the main thread (hover detection reads pixels back), so a page that only shows a graph
// never gets to handle typing. The governor replaces cosmos.gl's loop: a frame is drawn when cosmos.gl asks (its
// render()), when the pointer moves over the canvas, on zoom and on resize, and for a short while after; and after a
// frame that took T ms the next waits T ms, so at least half the time is left to input, whatever the graph's size.
import type { Graph } from "@cosmos.gl/graph";

/** The parts of cosmos.gl's Graph the governor takes over (private members of its class, stable across 3.x). */
type CosmosLoop = {
  frame(): void;
  stopFrames(): void;
  renderFrame(now?: number): void;
  _isDestroyed: boolean;
};

/** Frames keep coming this long after the last reason to draw (hover, zoom and fit transitions settle in it). */
const KEEP_ALIVE_MS = 300;
/** Frames cheaper than this follow each other at the display's rate. */
const CHEAP_FRAME_MS = 12;

export type RenderGovernor = {
  /** Draws from the next animation frame on, for `ms` at least. */
  wake(ms?: number): void;
  /** Resolves after the next frame is drawn. */
  nextRender(): Promise<void>;
  /** Frames drawn so far. */
  readonly renders: number;
  destroy(): void;
};

export function governRendering(graph: Graph, surface: HTMLElement, onRender?: (renders: number) => void): RenderGovernor {
  const loop = graph as unknown as CosmosLoop;
  const renderFrame = loop.renderFrame.bind(loop);
  let raf = 0;
  let cooldown = 0;
  let aliveUntil = 0;
  let renders = 0;
  let destroyed = false;
  let waiting: (() => void)[] = [];

  const schedule = () => {
    if (raf || cooldown || destroyed) return;
    raf = requestAnimationFrame(tick);
  };

  const tick = (now: number) => {
    raf = 0;
    if (destroyed || loop._isDestroyed) return;
    const start = performance.now();
    renderFrame(now);
    renders++;
    const cost = performance.now() - start;
    onRender?.(renders);
    const done = waiting;
    waiting = [];
    for (const resolve of done) resolve();
    if (performance.now() >= aliveUntil) return;
    if (cost < CHEAP_FRAME_MS) schedule();
    else
      cooldown = window.setTimeout(() => {
        cooldown = 0;
        schedule();
      }, cost);
  };

  const wake = (ms = KEEP_ALIVE_MS) => {
    aliveUntil = Math.max(aliveUntil, performance.now() + ms);
    schedule();
  };

  // cosmos.gl's render() starts its loop through frame(); destroy() and an empty graph stop it through stopFrames().
  loop.frame = () => wake();
  loop.stopFrames = () => {
    if (raf) cancelAnimationFrame(raf);
    raf = 0;
    aliveUntil = 0;
  };

  const onPointer = () => wake();
  const types = ["pointermove", "pointerdown", "pointerup", "pointerleave", "wheel"] as const;
  for (const type of types) surface.addEventListener(type, onPointer, { passive: true, capture: true });
  const resized = new ResizeObserver(() => wake());
  resized.observe(surface);

  return {
    wake,
    nextRender() {
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        wake();
      });
    },
    get renders() {
      return renders;
    },
    destroy() {
      destroyed = true;
      loop.stopFrames();
      window.clearTimeout(cooldown);
      for (const type of types) surface.removeEventListener(type, onPointer, { capture: true });
      resized.disconnect();
      for (const resolve of waiting) resolve();
      waiting = [];
    },
  };
}
