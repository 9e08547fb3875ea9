// Who is calling: the authenticated principal every resolver checks access against.
export type Viewer = {
  userId: number;
  username: string;
  isAdmin: boolean;
  /**
   * Whether the account may use the tool endpoint, as the account stood when authenticated: account state is
   * cached like the rest of it (a change made in this process applies at once, one made elsewhere, from the
   * command line or another instance, within AUTH_CACHE_SECONDS).
   */
  assistantEnabled: boolean;
  via: "jwt" | "key" | "cookie";
  keyId: string | undefined;
  /** Seconds since the epoch of the original login. */
  loginAt: number;
  org: string | undefined;
  /**
   * Set for a browser session a single-use link opened (spec 5.6), and for the read-only token such a session
   * obtains for an assistant: the one dataset it may reach. Such a viewer is never an administrator, and only the
   * operations of src/auth/single-use/scope-plugin.ts run for it (only its queries when `readOnly`).
   */
  grant?: { datasetId: string; readOnly: boolean };
};

/**
 * Reads shared by the operations of one scope (a tool call's checks and its own operation, see facades/execute.ts):
 * a record looked up for the access check is not looked up again a millisecond later. A viewer made outside such
 * a scope has none, and every read goes to the store.
 */
const scopedReads = new WeakMap<Viewer, Map<string, Promise<unknown>>>();

/** The viewer of a scope: the same principal, with reads shared for as long as the scope holds it. */
export function scopedViewer(viewer: Viewer): Viewer {
  const scoped = { ...viewer };
  scopedReads.set(scoped, new Map());
  return scoped;
}

/** Whether the viewer belongs to a scope (a tool call's): its reads may use records kept for a second. */
export function isScoped(viewer: Viewer): boolean {
  return scopedReads.has(viewer);
}

/** `load()`, or within a scope the answer an earlier identical read got (a failed read is not kept). */
export function readOnce<T>(viewer: Viewer, key: string, load: () => Promise<T>): Promise<T> {
  const reads = scopedReads.get(viewer);
  if (reads === undefined) return load();
  let read = reads.get(key) as Promise<T> | undefined;
  if (read === undefined) {
    read = load();
    reads.set(key, read);
    read.catch(() => reads.delete(key));
  }
  return read;
}
