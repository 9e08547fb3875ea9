// Reads the ORC file tail (PostScript, Footer) and stripe footers from their protobuf messages.
import { type Codec, compressionName, decompressStream, makeCodec } from "./codecs.ts";
import { orcError } from "./errors.ts";
import { ProtoReader, WIRE_LEN } from "./protobuf.ts";

export type PostScript = {
  footerLength: number;
  compression: number;
  compressionBlockSize: number;
  version: number[];
  metadataLength: number;
  writerVersion: number;
  magic: string | undefined;
};

export type OrcTypeProto = {
  kind: number;
  subtypes: number[];
  fieldNames: string[];
  maximumLength: number;
  precision: number;
  scale: number;
};

export type StripeInformation = {
  offset: number;
  indexLength: number;
  dataLength: number;
  footerLength: number;
  numberOfRows: number;
};

export type Footer = {
  headerLength: number;
  contentLength: number;
  stripes: StripeInformation[];
  types: OrcTypeProto[];
  numberOfRows: number;
  rowIndexStride: number;
  hasEncryption: boolean;
};

export type StreamInfo = { kind: number; column: number; length: number };
export type ColumnEncoding = { kind: number; dictionarySize: number };
export type StripeFooter = { streams: StreamInfo[]; columns: ColumnEncoding[]; writerTimezone: string | undefined };

export type OrcTail = {
  fileLength: number;
  postScript: PostScript;
  footer: Footer;
  codec: Codec;
  compressionName: string;
  /** File offset where the metadata section (or the footer, without metadata) starts: stripes must end before it. */
  contentEnd: number;
};

const DEFAULT_BLOCK_SIZE = 256 * 1024;
const MAGIC = [0x4f, 0x52, 0x43]; // "ORC"

function parsePostScript(bytes: Uint8Array, base: number): PostScript {
  const r = new ProtoReader(bytes, "PostScript", base);
  const ps: PostScript = {
    footerLength: 0,
    compression: 0,
    compressionBlockSize: DEFAULT_BLOCK_SIZE,
    version: [],
    metadataLength: 0,
    writerVersion: 0,
    magic: undefined,
  };
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 0) ps.footerLength = r.varint();
    else if (field === 2 && wire === 0) ps.compression = r.varint();
    else if (field === 3 && wire === 0) ps.compressionBlockSize = r.varint();
    else if (field === 4) r.repeatedVarint(wire, ps.version);
    else if (field === 5 && wire === 0) ps.metadataLength = r.varint();
    else if (field === 6 && wire === 0) ps.writerVersion = r.varint();
    else if (field === 8000 && wire === WIRE_LEN) ps.magic = r.string();
    else r.skip(wire);
  }
  return ps;
}

function parseStripeInformation(r: ProtoReader): StripeInformation {
  const s: StripeInformation = { offset: 0, indexLength: 0, dataLength: 0, footerLength: 0, numberOfRows: 0 };
  while (!r.done) {
    const { field, wire } = r.tag();
    if (wire !== 0) {
      r.skip(wire);
      continue;
    }
    if (field === 1) s.offset = r.varint();
    else if (field === 2) s.indexLength = r.varint();
    else if (field === 3) s.dataLength = r.varint();
    else if (field === 4) s.footerLength = r.varint();
    else if (field === 5) s.numberOfRows = r.varint();
    else r.skip(wire);
  }
  return s;
}

function parseType(r: ProtoReader): OrcTypeProto {
  const t: OrcTypeProto = { kind: -1, subtypes: [], fieldNames: [], maximumLength: 0, precision: 0, scale: 0 };
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 0) t.kind = r.varint();
    else if (field === 2) r.repeatedVarint(wire, t.subtypes);
    else if (field === 3 && wire === WIRE_LEN) t.fieldNames.push(r.string());
    else if (field === 4 && wire === 0) t.maximumLength = r.varint();
    else if (field === 5 && wire === 0) t.precision = r.varint();
    else if (field === 6 && wire === 0) t.scale = r.varint();
    else r.skip(wire);
  }
  return t;
}

function parseFooter(bytes: Uint8Array): Footer {
  const r = new ProtoReader(bytes, "Footer");
  const f: Footer = {
    headerLength: 0,
    contentLength: 0,
    stripes: [],
    types: [],
    numberOfRows: 0,
    rowIndexStride: 0,
    hasEncryption: false,
  };
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 0) f.headerLength = r.varint();
    else if (field === 2 && wire === 0) f.contentLength = r.varint();
    else if (field === 3 && wire === WIRE_LEN)
      f.stripes.push(parseStripeInformation(new ProtoReader(r.lengthDelimited(), "StripeInformation")));
    else if (field === 4 && wire === WIRE_LEN) f.types.push(parseType(new ProtoReader(r.lengthDelimited(), "Type")));
    else if (field === 6 && wire === 0) f.numberOfRows = r.varint();
    else if (field === 8 && wire === 0) f.rowIndexStride = r.varint();
    else if (field === 10 && wire === WIRE_LEN) {
      f.hasEncryption = true;
      r.skip(wire);
    } else r.skip(wire);
  }
  return f;
}

export function parseStripeFooter(bytes: Uint8Array): StripeFooter {
  const r = new ProtoReader(bytes, "StripeFooter");
  const sf: StripeFooter = { streams: [], columns: [], writerTimezone: undefined };
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === WIRE_LEN) {
      const m = new ProtoReader(r.lengthDelimited(), "Stream");
      const s: StreamInfo = { kind: 0, column: 0, length: 0 };
      while (!m.done) {
        const t = m.tag();
        if (t.field === 1 && t.wire === 0) s.kind = m.varint();
        else if (t.field === 2 && t.wire === 0) s.column = m.varint();
        else if (t.field === 3 && t.wire === 0) s.length = m.varint();
        else m.skip(t.wire);
      }
      sf.streams.push(s);
    } else if (field === 2 && wire === WIRE_LEN) {
      const m = new ProtoReader(r.lengthDelimited(), "ColumnEncoding");
      const e: ColumnEncoding = { kind: 0, dictionarySize: 0 };
      while (!m.done) {
        const t = m.tag();
        if (t.field === 1 && t.wire === 0) e.kind = m.varint();
        else if (t.field === 2 && t.wire === 0) e.dictionarySize = m.varint();
        else m.skip(t.wire);
      }
      sf.columns.push(e);
    } else if (field === 3 && wire === WIRE_LEN) {
      sf.writerTimezone = r.string();
    } else r.skip(wire);
  }
  return sf;
}

/**
 * The format versions this reader knows: 0.11 and 0.12 (every writer since 2013; 0.11 when none is stored).
 * A file of a later version (upstream's negative case version1999.orc says 19.99) is refused, not read as
 * whatever its streams happen to decode to.
 */
function checkVersion(version: number[], psStart: number): void {
  if (version.length === 0) return;
  const [major, minor = 0] = version;
  if (major === 0 && minor <= 12) return;
  throw orcError(`the file is ORC format version ${version.join(".")}, which this reader does not know (it reads 0.11 and 0.12)`, {
    byteOffset: psStart,
    version: version.join("."),
  });
}

/** Reads and checks the PostScript and Footer at the end of the file. */
export function readTail(bytes: Uint8Array): OrcTail {
  const n = bytes.length;
  if (n === 0) throw orcError("file is empty (0 bytes)", { byteOffset: 0 });
  if (n < 4) throw orcError(`file too short to be ORC (${n} bytes)`, { byteOffset: 0 });
  if (bytes[0] !== MAGIC[0] || bytes[1] !== MAGIC[1] || bytes[2] !== MAGIC[2]) {
    throw orcError('bad magic: the file does not start with "ORC"', { byteOffset: 0 });
  }
  const psLength = bytes[n - 1] as number;
  if (psLength === 0 || psLength + 1 > n - 3) {
    throw orcError(`PostScript length ${psLength} does not fit in a ${n}-byte file (truncated or not ORC)`, { byteOffset: n - 1 });
  }
  const psStart = n - 1 - psLength;
  let postScript: PostScript;
  try {
    postScript = parsePostScript(bytes.subarray(psStart, n - 1), psStart);
  } catch (err) {
    const msg = err instanceof Error ? err.message.replace(/^ORC: /, "") : String(err);
    const inner = (err as { details?: { byteOffset?: unknown } }).details?.byteOffset;
    const byteOffset = typeof inner === "number" ? inner : psStart;
    throw orcError(`the file is truncated or not ORC: cannot parse the PostScript (${msg})`, { byteOffset }, err);
  }
  if (postScript.magic !== undefined && postScript.magic !== "ORC") {
    throw orcError(`bad PostScript magic ${JSON.stringify(postScript.magic)} (truncated or not ORC)`, { byteOffset: psStart });
  }
  checkVersion(postScript.version, psStart);
  const { footerLength, metadataLength } = postScript;
  if (footerLength === 0) throw orcError("PostScript declares an empty footer", { byteOffset: psStart });
  if (footerLength + metadataLength > psStart - 3) {
    throw orcError(
      `footer (${footerLength} bytes) and metadata (${metadataLength} bytes) do not fit before the PostScript (truncated file?)`,
      {
        byteOffset: psStart,
      },
    );
  }
  const footerStart = psStart - footerLength;
  const codec = makeCodec(postScript.compression, postScript.compressionBlockSize);
  const footerBytes = decompressStream(bytes.subarray(footerStart, psStart), codec, { byteOffset: footerStart, stream: "footer" });
  let footer: Footer;
  try {
    footer = parseFooter(footerBytes);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw orcError(`corrupt footer: ${msg.replace(/^ORC: /, "")}`, { byteOffset: footerStart }, err);
  }
  const contentEnd = footerStart - metadataLength;
  validateFooter(footer, contentEnd);
  return { fileLength: n, postScript, footer, codec, compressionName: compressionName(postScript.compression), contentEnd };
}

function validateFooter(footer: Footer, contentEnd: number): void {
  const types = footer.types;
  if (types.length === 0) throw orcError("footer has no types");
  for (let id = 0; id < types.length; id++) {
    const t = types[id] as OrcTypeProto;
    if (t.kind < 0 || t.kind > 18) throw orcError(`column ${id} has unknown type kind ${t.kind}`, { columnId: id });
    for (const sub of t.subtypes) {
      // Types are stored in pre-order, so a child always has a larger id: this also rules out cycles.
      if (sub <= id || sub >= types.length) throw orcError(`column ${id} refers to invalid subtype ${sub}`, { columnId: id });
    }
    if (t.kind === 12 && t.fieldNames.length !== t.subtypes.length) {
      throw orcError(`struct column ${id} has ${t.subtypes.length} fields but ${t.fieldNames.length} names`, { columnId: id });
    }
    if (t.kind === 10 && t.subtypes.length !== 1) throw orcError(`list column ${id} must have one subtype`, { columnId: id });
    if (t.kind === 11 && t.subtypes.length !== 2) throw orcError(`map column ${id} must have two subtypes`, { columnId: id });
    if (t.kind === 13 && (t.subtypes.length === 0 || t.subtypes.length > 256)) {
      throw orcError(`union column ${id} has ${t.subtypes.length} branches`, { columnId: id });
    }
  }
  for (const [i, s] of footer.stripes.entries()) {
    const end = s.offset + s.indexLength + s.dataLength + s.footerLength;
    if (s.offset < 3 || end > contentEnd || s.footerLength === 0) {
      throw orcError(`stripe ${i} (offset ${s.offset}, ${end - s.offset} bytes) lies outside the file's data area`, {
        byteOffset: s.offset,
        stripe: i,
      });
    }
  }
}
