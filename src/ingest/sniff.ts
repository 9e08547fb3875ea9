// Recognizes containers and formats by their leading bytes, to check uploads against what was declared.
export type Sniffed =
  | "gzip"
  | "bz2"
  | "xz"
  | "zip"
  | "zstd"
  | "zlib"
  | "lz4"
  | "parquet"
  | "arrow-file"
  | "arrow-stream"
  | "orc"
  | "ole2"
  | "unknown";

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

export function sniff(head: Uint8Array): Sniffed {
  if (startsWith(head, [0x1f, 0x8b])) return "gzip";
  if (startsWith(head, [0x42, 0x5a, 0x68])) return "bz2";
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return "xz";
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return "zip";
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) return "zstd";
  if (startsWith(head, [0x04, 0x22, 0x4d, 0x18])) return "lz4";
  if (isZlibHeader(head)) return "zlib";
  if (startsWith(head, [0x50, 0x41, 0x52, 0x31])) return "parquet";
  if (startsWith(head, [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31])) return "arrow-file";
  if (startsWith(head, [0xff, 0xff, 0xff, 0xff])) return "arrow-stream";
  if (startsWith(head, [0x4f, 0x52, 0x43])) return "orc";
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return "ole2";
  return "unknown";
}

/**
 * A zlib stream header (RFC 1950): deflate with a 32 KiB window and a valid check. polars' CSV reader inflates
 * such data on its own, with no limit, so it must be recognized here ("x^" text passes this test: the caller
 * confirms by inflating a little, see parse.ts).
 */
function isZlibHeader(head: Uint8Array): boolean {
  const [cmf, flg] = head;
  return cmf === 0x78 && flg !== undefined && (cmf * 256 + flg) % 31 === 0 && (flg & 0x20) === 0;
}

/** Compressed containers: an upload declared uncompressed must not be one of these (xlsx is a zip by nature). */
export const COMPRESSED: readonly Sniffed[] = ["gzip", "bz2", "xz", "zip", "zstd", "zlib", "lz4"];

/** Compressions an upload may declare (spec 2.2); the others are refused wherever they are found. */
export const DECLARABLE: readonly Sniffed[] = ["gzip", "bz2", "xz", "zip"];
