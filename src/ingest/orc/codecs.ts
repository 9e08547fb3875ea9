// ORC compression: the chunked stream framing (3-byte headers) and the NONE/ZLIB/SNAPPY/LZ4/ZSTD codecs.
import { inflateRawSync } from "node:zlib";
import { Decompress } from "fzstd";
import { isAppError } from "../../errors/app-error.ts";
import { type OrcContext, orcError } from "./errors.ts";
import { lz4Decompress } from "./lz4.ts";
import { snappyDecompress } from "./snappy.ts";

/** CompressionKind values from orc_proto.proto, by name. */
export const COMPRESSION_NAMES = ["NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD", "BROTLI"] as const;

/** Largest compression block size we accept (ORC writers use 256 KiB by default; the header allows 8 MiB). */
const MAX_BLOCK_SIZE = 1 << 24;
/** Largest zstd window we let the decoder allocate. */
const MAX_ZSTD_WINDOW = 1 << 27;

export type Codec = {
  kind: number;
  name: string;
  blockSize: number;
  /** Decompresses one chunk into at most blockSize bytes; throws Error on failure. */
  inflate: ((input: Uint8Array) => Uint8Array) | null;
};

export function compressionName(kind: number): string {
  return COMPRESSION_NAMES[kind] ?? `UNKNOWN(${kind})`;
}

export function makeCodec(kind: number, blockSize: number): Codec {
  const name = compressionName(kind);
  if (kind === 0) return { kind, name, blockSize, inflate: null };
  if (!Number.isSafeInteger(blockSize) || blockSize <= 0 || blockSize > MAX_BLOCK_SIZE) {
    throw orcError(`compression block size ${blockSize} is out of range (1..${MAX_BLOCK_SIZE})`);
  }
  switch (kind) {
    case 1:
      return {
        kind,
        name,
        blockSize,
        inflate: (input) => {
          const out = inflateRawSync(input, { maxOutputLength: blockSize });
          return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
        },
      };
    case 2:
      return { kind, name, blockSize, inflate: (input) => snappyDecompress(input, blockSize) };
    case 4: {
      const scratch = new Uint8Array(blockSize);
      return { kind, name, blockSize, inflate: (input) => lz4Decompress(input, blockSize, scratch) };
    }
    case 5:
      return { kind, name, blockSize, inflate: (input) => zstdDecompress(input, blockSize) };
    default:
      throw orcError(`compression codec ${name} is not supported (supported: NONE, ZLIB, SNAPPY, LZ4, ZSTD)`, { codec: name });
  }
}

/** Checks a zstd frame header before fzstd allocates its window, so a hostile header cannot ask for gigabytes. */
function checkZstdHeader(input: Uint8Array, blockSize: number): void {
  if (input.length < 6) throw new Error("zstd: truncated frame header");
  if (input[0] !== 0x28 || input[1] !== 0xb5 || input[2] !== 0x2f || input[3] !== 0xfd) throw new Error("zstd: bad frame magic");
  const descriptor = input[4] as number;
  const fcsFlag = descriptor >>> 6;
  const singleSegment = (descriptor >>> 5) & 1;
  const dictBytes = [0, 1, 2, 4][descriptor & 3] as number;
  let pos = 5;
  let window = 0;
  if (!singleSegment) {
    const wd = input[pos++] as number;
    const base = 2 ** (10 + (wd >>> 3));
    window = base + (base / 8) * (wd & 7);
  }
  pos += dictBytes;
  const fcsBytes = fcsFlag === 0 ? singleSegment : 1 << fcsFlag;
  if (pos + fcsBytes > input.length) throw new Error("zstd: truncated frame header");
  if (fcsBytes > 0) {
    let size = 0;
    for (let i = 0; i < fcsBytes; i++) size += (input[pos + i] as number) * 2 ** (8 * i);
    if (fcsBytes === 2) size += 256;
    if (size > blockSize) throw new Error(`zstd: declared content size ${size} exceeds the block size ${blockSize}`);
    if (singleSegment) window = size;
  }
  if (window > MAX_ZSTD_WINDOW) throw new Error(`zstd: window size ${window} is too large`);
}

function zstdDecompress(input: Uint8Array, blockSize: number): Uint8Array {
  checkZstdHeader(input, blockSize);
  const pieces: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((data) => {
    total += data.length;
    if (total > blockSize) throw new Error(`zstd: output exceeds the block size ${blockSize}`);
    pieces.push(data.slice());
  });
  stream.push(input, true);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Undoes the ORC compression framing of one stream (or footer): a sequence of chunks, each with a 3-byte
 * little-endian header (length << 1 | isOriginal). With codec NONE the bytes are returned as they are.
 */
export function decompressStream(bytes: Uint8Array, codec: Codec, ctx: OrcContext): Uint8Array {
  const inflate = codec.inflate;
  if (inflate === null) return bytes;
  const pieces: Uint8Array[] = [];
  let total = 0;
  let pos = 0;
  while (pos < bytes.length) {
    if (pos + 3 > bytes.length) {
      throw orcError("truncated compression chunk header", { ...ctx, byteOffset: at(ctx, pos) });
    }
    const header = (bytes[pos] as number) | ((bytes[pos + 1] as number) << 8) | ((bytes[pos + 2] as number) << 16);
    const length = header >>> 1;
    const original = (header & 1) === 1;
    pos += 3;
    if (length > bytes.length - pos) {
      throw orcError(`compression chunk of ${length} bytes runs past the end of its stream (${bytes.length - pos} bytes left)`, {
        ...ctx,
        byteOffset: at(ctx, pos - 3),
      });
    }
    const input = bytes.subarray(pos, pos + length);
    let piece: Uint8Array;
    if (original) {
      piece = input;
    } else {
      try {
        piece = inflate(input);
      } catch (err) {
        if (isAppError(err)) throw err;
        const why = err instanceof Error ? err.message : String(err);
        throw orcError(`corrupt ${codec.name} compression chunk: ${why}`, { ...ctx, byteOffset: at(ctx, pos - 3), codec: codec.name }, err);
      }
      if (piece.length > codec.blockSize) {
        throw orcError(`decompressed chunk of ${piece.length} bytes exceeds the compression block size ${codec.blockSize}`, {
          ...ctx,
          byteOffset: at(ctx, pos - 3),
        });
      }
    }
    pieces.push(piece);
    total += piece.length;
    pos += length;
  }
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of pieces) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function at(ctx: OrcContext, pos: number): number | undefined {
  return ctx.byteOffset === undefined ? undefined : ctx.byteOffset + pos;
}
