// Draws cosmos.gl frames only when something changed, and leaves the main thread idle between costly frames.
//
// cosmos.gl redraws every animation frame, even with nothing moving. With software WebGL a frame of a 100k-edge graph
// takes seconds, so a page that only shows a graph never gets to handle typing. The governor replaces cosmos.gl's
// loop: a frame is drawn when cosmos.gl asks (its render()), on zoom, pan and resize, when the view asks (a changed
// hover, focus or highlight), and for a short while after; and after a frame that took T ms to show the next waits
// T ms, so at least half the time is left to input, whatever the graph's size. Pointer moves alone draw nothing
// (hover is found on the CPU, hover-picking.ts), and the view leaves hover feedback off the canvas while frames are
// costly. A costly frame woken from idle waits SETTLE_MS first, so the control that woke it answers before the canvas
// holds the page, and costly frames wait while the pointer moves over the page's controls (a person reaching for one).
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
/** Frames slower than this (drawn and shown) are costly: only what must change is drawn (a control answers in 200 ms). */
const COSTLY_MS = 120;
/** How long a costly frame woken from idle waits (see wake). */
const SETTLE_MS = 150;
/** While the pointer moves over the page's controls, or a key is pressed there, costly frames wait this long. */
const INPUT_HOLD_MS = 300;

export type RenderGovernor = {
  /** Draws from the next animation frame on, for `ms` at least. */
  wake(ms?: number): void;
  /** Resolves after the next frame is drawn. */
  nextRender(): Promise<void>;
  /** Frames drawn so far. */
  readonly renders: number;
  /**
   * Whether the last frame was slow: its drawing, or the wait until the browser could show the next frame (a software
   * WebGL draw queued on the GPU side holds the page's frames back), took over COSTLY_MS. Hover feedback drawn on the
   * canvas is then left out: the page stays responsive instead.
   */
  readonly costly: boolean;
  /** The last frame's time, drawing and showing (ms). */
  readonly frameMs: number;
  destroy(): void;
};

export function governRendering(graph: Graph, surface: HTMLElement, onRender?: (renders: number, frameMs: number) => void): RenderGovernor {
  const loop = graph as unknown as CosmosLoop;
  const renderFrame = loop.renderFrame.bind(loop);
  let raf = 0;
  let cooldown = 0;
  let aliveUntil = 0;
  /**
   * A frame asked for while the last one was being shown, drawn after it whatever the time: otherwise a wake that came
   * then (a fit's zoom during a graph's first frame) ran out with the frame before it was drawn, and a small graph's
   * canvas was seen left blank, drawn before the fit, on a loaded machine (test/web/filter-panel.test.ts).
   */
  let owed = false;
  let renders = 0;
  let frameMs = 0;
  let destroyed = false;
  let waiting: (() => void)[] = [];
  /** Costly frames start no earlier than this (input on the page's controls, see hold). */
  let heldUntil = 0;
  /** A frame was drawn and the page waits for it to be shown (see tick). */
  let showing = false;

  const schedule = () => {
    if (raf || cooldown || showing || destroyed) return;
    const heldFor = heldUntil - performance.now();
    if (heldFor > 0 && frameMs > COSTLY_MS) scheduleAfter(heldFor);
    else raf = requestAnimationFrame(tick);
  };
  /** Schedules the next frame once `ms` have passed (the pause after a frame, a hold, a settle). */
  const scheduleAfter = (ms: number) => {
    cooldown = window.setTimeout(() => {
      cooldown = 0;
      schedule();
    }, ms);
  };

  // A person reaching for a control (the pointer moving over the toolbar or a panel) or typing: a costly frame started
  // now would hold the page's frames, and so the control's answer, for its whole length (software WebGL draws on the
  // CPU and the page waits for it). Frames wait until the input has been still for INPUT_HOLD_MS; those on the canvas
  // itself (pan, zoom, hover) are not held.
  const hold = (event: Event) => {
    if (frameMs <= COSTLY_MS) return;
    if (event.target instanceof Node && surface.contains(event.target)) return;
    heldUntil = performance.now() + INPUT_HOLD_MS;
  };
  const inputEvents: (keyof DocumentEventMap)[] = ["pointermove", "pointerdown", "keydown"];
  for (const type of inputEvents) document.addEventListener(type, hold, { capture: true, passive: true });

  const tick = (now: number) => {
    raf = 0;
    if (destroyed || loop._isDestroyed) return;
    const start = performance.now();
    renderFrame(now);
    renders++;
    owed = false;
    const cost = performance.now() - start;
    onRender?.(renders, frameMs);
    const done = waiting;
    waiting = [];
    for (const resolve of done) resolve();
    // The next animation frame comes once this one could be shown (software WebGL draws after this call returns, and
    // the page's frames wait for it): the time until then is what the frame cost, and the pause after it, as long
    // again, starts there. Timed from here instead, the pause ran out while the frame was still being drawn, and
    // costly frames followed each other with no time left to input.
    showing = true;
    requestAnimationFrame((shownAt) => {
      showing = false;
      frameMs = Math.max(cost, performance.now() - start);
      onRender?.(renders, frameMs);
      if (destroyed || (performance.now() >= aliveUntil && !owed)) return;
      if (frameMs < CHEAP_FRAME_MS) tick(shownAt);
      else scheduleAfter(frameMs);
    });
  };

  const wake = (ms = KEEP_ALIVE_MS) => {
    aliveUntil = Math.max(aliveUntil, performance.now() + ms);
    // A frame being shown goes on to the next itself, now that it is wanted.
    if (showing) {
      owed = true;
      return;
    }
    if (!raf && !cooldown && frameMs > COSTLY_MS) {
      // A costly frame woken from idle waits a moment, so the page's own answer to the same action (a panel, the
      // inspector's fields from the server) shows first rather than behind a frame that holds the page for seconds.
      scheduleAfter(SETTLE_MS);
      return;
    }
    schedule();
  };

  // cosmos.gl's render() starts its loop through frame(); destroy() and an empty graph stop it through stopFrames().
  loop.frame = () => wake();
  loop.stopFrames = () => {
    if (raf) cancelAnimationFrame(raf);
    raf = 0;
    aliveUntil = 0;
    owed = false;
  };

  // Pointer moves draw nothing by themselves: a pan or zoom wakes the loop through cosmos.gl's zoom events, a changed
  // hover through the view (hover-picking.ts finds it without drawing).
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
    get costly() {
      return frameMs > COSTLY_MS;
    },
    get frameMs() {
      return frameMs;
    },
    destroy() {
      destroyed = true;
      loop.stopFrames();
      window.clearTimeout(cooldown);
      resized.disconnect();
      for (const type of inputEvents) document.removeEventListener(type, hold, { capture: true });
      for (const resolve of waiting) resolve();
      waiting = [];
    },
  };
}
