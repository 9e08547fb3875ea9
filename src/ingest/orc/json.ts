// Renders nested values (struct, list, map, union and everything inside them) as UTF-8 JSON text, one per row.
import type { Decoded } from "./decoded.ts";
import { orcError } from "./errors.ts";
import { K } from "./types.ts";

/** Most JSON bytes one nested column may produce per stripe: a hostile file cannot make us build more. */
const MAX_JSON_BYTES = 256 * 1024 * 1024;

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** A growable UTF-8 buffer with a hard size limit. */
export class JsonWriter {
  buf = new Uint8Array(1024);
  length = 0;
  private readonly column: string;

  constructor(column: string) {
    this.column = column;
  }

  private reserve(n: number): void {
    const need = this.length + n;
    if (need <= this.buf.length) return;
    if (need > MAX_JSON_BYTES) {
      throw orcError(`column ${JSON.stringify(this.column)}: nested values need more than ${MAX_JSON_BYTES} bytes of JSON in one stripe`, {
        column: this.column,
      });
    }
    const next = new Uint8Array(Math.min(MAX_JSON_BYTES, Math.max(need, this.buf.length * 2)));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /** Text that is already JSON (numbers, punctuation, JSON.stringify output). */
  write(text: string): void {
    // encodeInto needs up to 3 bytes per UTF-16 unit.
    this.reserve(text.length * 3);
    this.length += encoder.encodeInto(text, this.buf.subarray(this.length)).written;
  }
}

/** Number of values in a decoded subtree: every one becomes at least two bytes of JSON (value and separator). */
function subtreeSize(col: Decoded): number {
  let n = col.length;
  if (col.shape === "struct" || col.shape === "list" || col.shape === "union") for (const c of col.children) n += subtreeSize(c);
  return n;
}

/** Refuses, before any work, a nested chunk whose JSON could not fit the limit (e.g. billions of empty structs). */
export function checkJsonSize(col: Decoded): void {
  const values = subtreeSize(col);
  if (values > MAX_JSON_BYTES / 2) {
    throw orcError(`column ${JSON.stringify(col.type.path)}: ${values} nested values are too many to render as JSON in one stripe`, {
      column: col.type.path,
    });
  }
}

/** Shortest decimal text that reads back as the same float32. */
function float32Text(v: number): string {
  for (let p = 1; p < 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return String(s);
  }
  return String(v);
}

function numberJson(v: number, float32: boolean): string {
  // JSON has no NaN or infinities: they become the strings "NaN", "Infinity", "-Infinity".
  if (!Number.isFinite(v)) return JSON.stringify(String(v));
  return float32 ? float32Text(v) : String(v);
}

function dateText(days: number): string {
  const d = new Date(days * 86_400_000);
  return Number.isNaN(d.getTime()) ? String(days) : d.toISOString().slice(0, 10);
}

/** Epoch nanoseconds as an ISO-8601 UTC instant with up to 9 fractional digits, e.g. "2000-03-12T23:00:00.123456789Z". */
export function timestampText(ns: bigint): string {
  let secs = ns / 1_000_000_000n;
  let nanos = ns % 1_000_000_000n;
  if (nanos < 0n) {
    nanos += 1_000_000_000n;
    secs -= 1n;
  }
  const d = new Date(Number(secs) * 1000);
  if (Number.isNaN(d.getTime())) return ns.toString();
  const fraction = nanos === 0n ? "" : `.${nanos.toString().padStart(9, "0").replace(/0+$/, "")}`;
  return `${d.toISOString().slice(0, -5)}${fraction}Z`;
}

function bytesAt(col: Decoded & { shape: "bytes" }, i: number): Uint8Array {
  return col.data.subarray(col.offsets[i] as number, col.offsets[i + 1] as number);
}

/**
 * Writes element `i` of a decoded column as JSON. Inside JSON: strings as strings, bigint digits exact, decimals as
 * their exact number text, binary as an array of byte values (as orc-contents prints it), dates as "YYYY-MM-DD",
 * timestamps as ISO-8601 UTC instants, maps as objects keyed by the key's text, unions as the selected branch's value.
 */
export function writeJson(col: Decoded, i: number, out: JsonWriter): void {
  if (col.valid !== null && col.valid[i] === 0) {
    out.write("null");
    return;
  }
  const kind = col.type.kind;
  switch (col.shape) {
    case "values": {
      const v = col.values[i] as number | bigint;
      if (kind === K.BOOLEAN) out.write(v ? "true" : "false");
      else if (kind === K.DATE) out.write(JSON.stringify(dateText(v as number)));
      else if (kind === K.TIMESTAMP || kind === K.TIMESTAMP_INSTANT) out.write(JSON.stringify(timestampText(v as bigint)));
      else if (kind === K.FLOAT || kind === K.DOUBLE) out.write(numberJson(v as number, kind === K.FLOAT));
      else out.write(v.toString());
      return;
    }
    case "bytes": {
      const bytes = bytesAt(col, i);
      if (kind === K.DECIMAL) out.write(utf8.decode(bytes));
      else if (kind === K.BINARY) out.write(`[${bytes.join(",")}]`);
      else out.write(JSON.stringify(utf8.decode(bytes)));
      return;
    }
    case "struct": {
      const names = col.type.fieldNames;
      out.write("{");
      col.children.forEach((c, f) => {
        out.write(`${f === 0 ? "" : ","}${JSON.stringify(names[f] ?? `_col${f}`)}:`);
        writeJson(c, i, out);
      });
      out.write("}");
      return;
    }
    case "list": {
      const from = col.offsets[i] as number;
      const to = col.offsets[i + 1] as number;
      if (kind === K.MAP) {
        const [keys, values] = col.children as [Decoded, Decoded];
        out.write("{");
        for (let j = from; j < to; j++) {
          if (j > from) out.write(",");
          if (keys.shape === "bytes" && keys.type.kind !== K.DECIMAL && keys.type.kind !== K.BINARY && keys.valid?.[j] !== 0) {
            out.write(JSON.stringify(utf8.decode(bytesAt(keys, j))));
          } else {
            const key = new JsonWriter(keys.type.path);
            writeJson(keys, j, key);
            out.write(JSON.stringify(utf8.decode(key.buf.subarray(0, key.length))));
          }
          out.write(":");
          writeJson(values, j, out);
        }
        out.write("}");
        return;
      }
      const child = col.children[0] as Decoded;
      out.write("[");
      for (let j = from; j < to; j++) {
        if (j > from) out.write(",");
        writeJson(child, j, out);
      }
      out.write("]");
      return;
    }
    case "union":
      writeJson(col.children[col.tags[i] as number] as Decoded, col.indexes[i] as number, out);
      return;
  }
}
