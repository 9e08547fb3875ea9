// Fans a session's layout frames out to the pages connected to this instance (and, through the bus, to other
// instances): at most one frame per frameMs per session on average (a newer frame replaces a held one: the newest
// wins, the last always goes), and the latest frame kept for a late viewer. Frames go in slots frameMs apart; a
// slot missed because the event loop was busy may be made up (never closer than frameMs / 2), so a loaded loop
// does not lower the rate.
import type { LayoutBus } from "./layout-bus.ts";

export type FrameListener = (bytes: Uint8Array) => void;

export type LayoutFanout = ReturnType<typeof createLayoutFanout>;

type Outlet = { nextSlot: number; held: Uint8Array | undefined; timer: ReturnType<typeof setTimeout> | undefined };

export function createLayoutFanout(options: { frameMs: number; bus?: LayoutBus | undefined }) {
  const { frameMs, bus } = options;
  const listeners = new Map<string, Set<FrameListener>>();
  const latest = new Map<string, Uint8Array>();
  const outlets = new Map<string, Outlet>();
  /** Sessions whose job runs here: their latest frame stays while no page listens. */
  const local = new Set<string>();

  function deliver(sessionId: string, bytes: Uint8Array): void {
    latest.set(sessionId, bytes);
    for (const listener of listeners.get(sessionId) ?? []) listener(bytes);
  }

  function send(sessionId: string, outlet: Outlet, bytes: Uint8Array): void {
    const now = Date.now();
    outlet.nextSlot = Math.max(outlet.nextSlot + frameMs, now + frameMs / 2);
    deliver(sessionId, bytes);
    bus?.publishFrame(sessionId, bytes);
  }

  return {
    /** A frame of a job running here. */
    publish(sessionId: string, bytes: Uint8Array): void {
      local.add(sessionId);
      let outlet = outlets.get(sessionId);
      if (!outlet) {
        outlet = { nextSlot: 0, held: undefined, timer: undefined };
        outlets.set(sessionId, outlet);
      }
      const wait = outlet.nextSlot - Date.now();
      if (wait <= 0 && !outlet.timer) {
        send(sessionId, outlet, bytes);
        return;
      }
      outlet.held = bytes;
      if (outlet.timer) return;
      const held = outlet;
      held.timer = setTimeout(
        () => {
          held.timer = undefined;
          const next = held.held;
          held.held = undefined;
          if (next) send(sessionId, held, next);
        },
        Math.max(0, wait),
      );
    },
    /** A frame from another instance. */
    received(sessionId: string, bytes: Uint8Array): void {
      if (listeners.has(sessionId)) deliver(sessionId, bytes);
    },
    /** The job running here ended: its frames stop; the last one stays for late viewers only while pages listen. */
    ended(sessionId: string): void {
      local.delete(sessionId);
      if (!listeners.has(sessionId)) latest.delete(sessionId);
    },
    /** Forgets a session's latest frame (a new job starts). */
    reset(sessionId: string): void {
      latest.delete(sessionId);
    },
    latest: (sessionId: string): Uint8Array | undefined => latest.get(sessionId),
    subscribe(sessionId: string, listener: FrameListener): () => void {
      let set = listeners.get(sessionId);
      if (!set) {
        set = new Set();
        listeners.set(sessionId, set);
      }
      set.add(listener);
      bus?.watch(sessionId);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        set.delete(listener);
        bus?.unwatch(sessionId);
        if (set.size === 0) {
          listeners.delete(sessionId);
          if (!local.has(sessionId)) latest.delete(sessionId);
        }
      };
    },
    close(): void {
      for (const outlet of outlets.values()) if (outlet.timer) clearTimeout(outlet.timer);
      outlets.clear();
    },
  };
}
