// The session's data routes under /graph/data/<session_id>/: Arrow columns, single rows, and the stored layout.
import { type Table, tableFromIPC } from "apache-arrow";
import { codeOfStatus, RequestError } from "./request-error.ts";

export type Axis = "nodes" | "edges";

export type DataRoutes = {
  /** Only the named columns, as one Arrow table (IPC stream format on the wire). */
  columns(axis: Axis, columns: readonly string[]): Promise<Table>;
  /** Every field of one row, for the inspector. */
  row(axis: Axis, index: number): Promise<Record<string, unknown>>;
  /** x,y per node in node-table order (the session's stored layout, else the dataset's default), or undefined. */
  loadLayout(): Promise<Float32Array | undefined>;
};

export function createDataRoutes(sessionId: string): DataRoutes {
  const base = `/graph/data/${encodeURIComponent(sessionId)}`;
  const get = async (path: string) => {
    const response = await fetch(`${base}/${path}`, { credentials: "same-origin" });
    return response;
  };
  return {
    async columns(axis, columns) {
      const query = columns.map(encodeURIComponent).join(",");
      const response = await get(`${axis}.arrow?columns=${query}`);
      if (!response.ok) throw failed(`${axis} columns`, response);
      return tableFromIPC(new Uint8Array(await response.arrayBuffer()));
    },
    async row(axis, index) {
      const response = await get(`${axis}/row/${index}`);
      if (!response.ok) throw failed(`${axis} row ${index}`, response);
      return (await response.json()) as Record<string, unknown>;
    },
    async loadLayout() {
      const response = await get("layout");
      // 204: the session has no stored layout (an older gateway answered 404).
      if (response.status === 204 || response.status === 404) return undefined;
      if (!response.ok) throw failed("layout", response);
      return littleEndianFloats(await response.arrayBuffer());
    },
  };
}

function failed(what: string, response: Response): RequestError {
  return new RequestError(`${what}: the server answered ${response.status}`, codeOfStatus(response.status));
}

const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function littleEndianFloats(buffer: ArrayBuffer): Float32Array {
  const count = Math.floor(buffer.byteLength / 4);
  if (littleEndianHost) return new Float32Array(buffer, 0, count);
  const view = new DataView(buffer);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
