// The Session query of the page's contract and the typed view of its answer.
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import { requestGraphQL } from "./graphql-client.ts";

export const SESSION_QUERY = `query Session($id: ID!) { vizSession(id: $id) { id revision { id number } isOwner
  dataset { id name dataVersion layout nodeEncodings edgeEncodings fieldFilters tables { nodes { numRows dtypes } edges { numRows dtypes } } } } }`;

export type Encodings = { bindings: Record<string, string>; complex?: unknown };
export type TableInfo = { numRows: number; dtypes: Record<string, string> };

export type VizSession = {
  id: string;
  revision: { id: string; number: number };
  isOwner: boolean;
  dataset: {
    id: string;
    name: string;
    /** The tables' version: a compute job storing new columns changes it. */
    dataVersion: string | null;
    /** The layout the dataset was created with (its node table then has x, y columns), else null. */
    layout?: unknown;
    nodeEncodings: Encodings;
    edgeEncodings: Encodings;
    fieldFilters: FieldFilter[];
    tables: { nodes: TableInfo | null; edges: TableInfo | null };
  };
};

export async function fetchSession(id: string): Promise<VizSession> {
  const data = await requestGraphQL<{ vizSession: VizSession | null }>(SESSION_QUERY, { id });
  if (!data.vizSession) throw new Error(`session ${id} was not found`);
  return normalize(data.vizSession);
}

/** Fills the members a partial answer may lack, so the rest of the page reads one shape. */
function normalize(session: VizSession): VizSession {
  const dataset = session.dataset;
  const encodings = (value: Encodings | null | undefined): Encodings => ({ ...value, bindings: { ...(value?.bindings ?? {}) } });
  return {
    ...session,
    dataset: {
      ...dataset,
      nodeEncodings: encodings(dataset.nodeEncodings),
      edgeEncodings: encodings(dataset.edgeEncodings),
      fieldFilters: Array.isArray(dataset.fieldFilters) ? dataset.fieldFilters : [],
      tables: { nodes: dataset.tables?.nodes ?? null, edges: dataset.tables?.edges ?? null },
    },
  };
}
