// Decompresses an upload (gzip, bz2, xz, zip) into a file, streaming, refusing decompression bombs.
import { closeSync, createReadStream, createWriteStream, openSync, readFileSync, writeSync } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createGunzip } from "node:zlib";
import { Unzip, UnzipInflate } from "fflate";
import Bunzip from "seek-bzip";
import xz from "xz-decompress";
import { AppError } from "../errors/app-error.ts";
import type { Compression } from "./formats.ts";

export type DecompressLimits = {
  /** Largest decompressed size accepted, in bytes. */
  maxBytes: number;
  /** Largest ratio of decompressed to compressed size; small inputs may always reach `floorBytes`. */
  maxRatio: number;
  floorBytes: number;
};

/** The most bytes `inputBytes` of compressed data may expand to: every inflation path is held to it. */
export function inflationBudget(inputBytes: number, limits: DecompressLimits): number {
  return Math.min(limits.maxBytes, Math.max(limits.floorBytes, inputBytes * limits.maxRatio));
}

function bomb(budget: number, compression: string): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `${compression} data expands past ${budget} bytes; refusing it as a decompression bomb`, {
    details: { limit: budget, compression },
  });
}

function limiter(budget: number, compression: string): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > budget) done(bomb(budget, compression));
      else done(null, chunk);
    },
  });
}

function corrupt(compression: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AppError("PARSE_FAILED", `the data is not valid ${compression}: ${message}`, { details: { compression } });
}

async function gunzip(source: string, target: string, budget: number): Promise<void> {
  // Node's gunzip also reads concatenated members, as gzip(1) does.
  await pipeline(createReadStream(source), createGunzip(), limiter(budget, "gzip"), createWriteStream(target));
}

async function unxz(source: string, target: string, budget: number): Promise<void> {
  const web = Readable.toWeb(createReadStream(source)) as unknown as ReadableStream<Uint8Array>;
  const out = Readable.fromWeb(new xz.XzReadableStream(web) as unknown as WebReadableStream<Uint8Array>);
  await pipeline(out, limiter(budget, "xz"), createWriteStream(target));
}

/** bzip2 has no streaming decoder on the registry without native code: decode into a bounded, flushed buffer. */
function bunzip(source: string, target: string, budget: number): void {
  const input = readFileSync(source);
  const fd = openSync(target, "w");
  const chunk = Buffer.allocUnsafe(1 << 20);
  let used = 0;
  let total = 0;
  const flush = () => {
    if (used > 0) writeSync(fd, chunk, 0, used);
    used = 0;
  };
  try {
    Bunzip.decode(
      input,
      {
        writeByte(byte: number) {
          if (++total > budget) throw bomb(budget, "bz2");
          chunk[used++] = byte;
          if (used === chunk.length) flush();
        },
      },
      true,
    );
    flush();
  } finally {
    closeSync(fd);
  }
}

/** A zip must hold exactly one file (directories aside): that file is the upload. */
async function unzip(source: string, target: string, budget: number): Promise<void> {
  const out = createWriteStream(target);
  let members = 0;
  let total = 0;
  let failure: unknown;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const unzipper = new Unzip((file) => {
    if (file.name.endsWith("/")) return;
    members += 1;
    if (members > 1) {
      failure ??= new AppError("PARSE_FAILED", "the zip archive holds more than one file; upload a zip with exactly one", {
        details: { compression: "zip" },
      });
      return;
    }
    file.ondata = (error, data, final) => {
      if (error) failure ??= error;
      else {
        total += data.length;
        if (total > budget) failure ??= bomb(budget, "zip");
        else out.write(data);
      }
      if (final || error) finished();
    };
    file.start();
  });
  unzipper.register(UnzipInflate);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, next) {
      if (failure) return next(failure as Error);
      try {
        unzipper.push(chunk, false);
        next(failure as Error | undefined);
      } catch (error) {
        next(error as Error);
      }
    },
    final(next) {
      try {
        unzipper.push(new Uint8Array(0), true);
        next();
      } catch (error) {
        next(error as Error);
      }
    },
  });
  try {
    await pipeline(createReadStream(source), sink);
    if (members === 1) await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 0))]);
    if (failure) throw failure;
    if (members === 0) throw new AppError("PARSE_FAILED", "the zip archive holds no file", { details: { compression: "zip" } });
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
}

/** Decompresses `source` into `target` and returns the decompressed size. */
export async function decompressFile(
  source: string,
  target: string,
  compression: Exclude<Compression, "">,
  limits: DecompressLimits,
): Promise<number> {
  const budget = inflationBudget((await stat(source)).size, limits);
  try {
    if (compression === "gzip") await gunzip(source, target, budget);
    else if (compression === "xz") await unxz(source, target, budget);
    else if (compression === "bz2") bunzip(source, target, budget);
    else await unzip(source, target, budget);
  } catch (error) {
    throw corrupt(compression, error);
  }
  return (await stat(target)).size;
}
