// Where collection changes (spec 2.8, 3.6) will be drawn once the page's contract carries collections.

export type SessionChange = { kind: string; revision: { id: string; number: number } | null };

/**
 * Called for every live event whose kind names collections. The contract does not carry collections yet, so there
 * is nothing to fetch or draw: this is the one place the collections layer plugs into.
 */
export function onCollectionsChanged(_change: SessionChange): void {}

export function isCollectionsChange(change: SessionChange): boolean {
  return change.kind.toLowerCase().includes("collection");
}
