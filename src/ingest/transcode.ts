// Re-encodes a text file to UTF-8, streaming, for readers that only take UTF-8.
import { createReadStream, createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/** WHATWG encoding labels for our names. */
const LABELS: Record<string, string> = { "latin-1": "iso-8859-1" };

export async function transcodeToUtf8(source: string, target: string, encoding: string): Promise<void> {
  let decoder: TextDecoder | undefined;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!decoder) {
        // "utf-16" means: follow the byte-order mark, little-endian without one (as Python does on x86).
        const label =
          encoding === "utf-16" ? (chunk[0] === 0xfe && chunk[1] === 0xff ? "utf-16be" : "utf-16le") : (LABELS[encoding] ?? encoding);
        decoder = new TextDecoder(label);
      }
      done(null, Buffer.from(decoder.decode(chunk, { stream: true }), "utf8"));
    },
    flush(done) {
      done(null, Buffer.from(decoder?.decode() ?? "", "utf8"));
    },
  });
  await pipeline(createReadStream(source), transform, createWriteStream(target));
}
