// The file types and compressions of spec 2.2, and how names and compressions must agree.
import type { Validated } from "../errors/app-error.ts";

export const FILE_TYPES = ["arrow", "csv", "json", "orc", "parquet", "xls", "xlsx"] as const;
export type FileType = (typeof FILE_TYPES)[number];

export const COMPRESSIONS = ["", "gzip", "bz2", "zip", "xz"] as const;
export type Compression = (typeof COMPRESSIONS)[number];

const EXTENSIONS: Record<Exclude<Compression, "">, readonly string[]> = {
  gzip: [".gz", ".gzip"],
  bz2: [".bz2"],
  zip: [".zip"],
  xz: [".xz"],
};

export function isFileType(value: unknown): value is FileType {
  return typeof value === "string" && (FILE_TYPES as readonly string[]).includes(value);
}

export function isCompression(value: unknown): value is Compression {
  return typeof value === "string" && (COMPRESSIONS as readonly string[]).includes(value);
}

/** The compression a file name's extension names, if any. */
export function compressionOfName(name: string): Exclude<Compression, ""> | undefined {
  const lower = name.toLowerCase();
  for (const [compression, extensions] of Object.entries(EXTENSIONS)) {
    if (extensions.some((ext) => lower.endsWith(ext))) return compression as Exclude<Compression, "">;
  }
  return undefined;
}

/**
 * Spec 2.2: a compressed upload names its compression both in `file_compression` and in the file
 * name's extension. A name without any extension is not checked; a disagreement is an error.
 */
export function checkNameAgainstCompression(name: string, compression: Compression): Validated<true> {
  const named = compressionOfName(name);
  const hasExtension = /\.[A-Za-z0-9]{1,8}$/.test(name);
  if (compression === "" && named) {
    return {
      ok: false,
      code: "INVALID_INPUT",
      message: `name "${name}" ends in a ${named} extension but file_compression is ''; set file_compression to "${named}"`,
    };
  }
  if (compression !== "" && hasExtension && named !== compression) {
    return {
      ok: false,
      code: "INVALID_INPUT",
      message: `file_compression is "${compression}" but name "${name}" does not end in ${EXTENSIONS[compression].join(" or ")}`,
    };
  }
  return { ok: true, value: true };
}
