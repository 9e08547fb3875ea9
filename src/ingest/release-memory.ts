// Lets V8 collect polars frames that are no longer used, so the native memory they hold is freed now.

type Gc = (options?: { type?: "major" | "minor" }) => void;

const gc = (globalThis as { gc?: Gc }).gc;

/**
 * nodejs-polars frees a frame's native memory only when V8 collects its small JavaScript wrapper, and
 * V8 does not know how large that memory is, so a loop that makes frame after frame can hold many of
 * them long after their last use. Where the runtime exposes the collector (the server runs with
 * --expose-gc), a young-generation collection here frees them; elsewhere this does nothing.
 */
export function releaseFrames(): void {
  // Frames made since the last call are young: a minor collection (a few ms) reaches them; a major
  // one costs tens of ms on the server's heap for no more memory back.
  gc?.({ type: "minor" });
}
