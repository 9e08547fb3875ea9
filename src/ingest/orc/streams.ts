// Locates a stripe's streams, decompresses them on demand, and provides the bounds-checked cursor decoders read.
import type { Codec } from "./codecs.ts";
import { decompressStream } from "./codecs.ts";
import { orcError } from "./errors.ts";
import type { StreamInfo, StripeFooter, StripeInformation } from "./footer.ts";

export const S = {
  PRESENT: 0,
  DATA: 1,
  LENGTH: 2,
  DICTIONARY_DATA: 3,
  DICTIONARY_COUNT: 4,
  SECONDARY: 5,
  ROW_INDEX: 6,
  BLOOM_FILTER: 7,
  BLOOM_FILTER_UTF8: 8,
} as const;

const STREAM_NAMES: Record<number, string> = {
  0: "PRESENT",
  1: "DATA",
  2: "LENGTH",
  3: "DICTIONARY_DATA",
  4: "DICTIONARY_COUNT",
  5: "SECONDARY",
  6: "ROW_INDEX",
  7: "BLOOM_FILTER",
  8: "BLOOM_FILTER_UTF8",
};

/** A cursor over one decompressed stream; every read is bounds-checked and fails with a PARSE_FAILED AppError. */
export class ByteReader {
  readonly buf: Uint8Array;
  pos = 0;
  readonly column: string;
  readonly stream: string;
  /** File offset where the (compressed) stream starts. */
  readonly fileOffset: number;

  constructor(buf: Uint8Array, column: string, stream: string, fileOffset: number) {
    this.buf = buf;
    this.column = column;
    this.stream = stream;
    this.fileOffset = fileOffset;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  fail(message: string): never {
    throw orcError(`column ${JSON.stringify(this.column)}, ${this.stream} stream: ${message}`, {
      byteOffset: this.fileOffset >= 0 ? this.fileOffset : undefined,
      column: this.column,
      stream: this.stream,
      streamPosition: this.pos,
    });
  }

  byte(): number {
    if (this.pos >= this.buf.length) this.fail("stream ended early");
    return this.buf[this.pos++] as number;
  }

  /** Unsigned varint as a number (exact below 2^53; larger, hostile values lose precision but stay finite). */
  uvarint(): number {
    const b = this.buf;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= b.length) this.fail("varint runs past the end of the stream");
      const byte = b[this.pos++] as number;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
    return this.fail("varint longer than 10 bytes");
  }

  /** Zigzag-encoded signed varint as a number. */
  svarint(): number {
    const u = this.uvarint();
    return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
  }

  /** Unsigned 64-bit varint as a bigint. */
  uvarintBig(): bigint {
    const b = this.buf;
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= b.length) this.fail("varint runs past the end of the stream");
      const byte = b[this.pos++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    return this.fail("varint longer than 10 bytes");
  }

  svarintBig(): bigint {
    const u = this.uvarintBig();
    return BigInt.asIntN(64, (u >> 1n) ^ -(u & 1n));
  }

  take(n: number): Uint8Array {
    if (n > this.buf.length - this.pos) this.fail(`needs ${n} bytes but only ${this.buf.length - this.pos} remain`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Refuses to decode `count` values from a stream that could not possibly hold them (hostile sizes). */
  checkCount(count: number, valuesPerByte: number): void {
    if (count > (this.buf.length - this.pos) * valuesPerByte + valuesPerByte) {
      this.fail(`cannot hold ${count} values (${this.buf.length - this.pos} bytes)`);
    }
  }
}

type Located = { info: StreamInfo; offset: number; decoded: Uint8Array | null };

/** The streams of one stripe, by column id and stream kind. */
export class StripeStreams {
  private readonly file: Uint8Array;
  private readonly codec: Codec;
  private readonly streams = new Map<number, Located>();
  readonly footer: StripeFooter;

  constructor(file: Uint8Array, codec: Codec, stripe: StripeInformation, footer: StripeFooter, stripeIndex: number) {
    this.file = file;
    this.codec = codec;
    this.footer = footer;
    let offset = stripe.offset;
    const end = stripe.offset + stripe.indexLength + stripe.dataLength;
    for (const info of footer.streams) {
      if (info.length > end - offset) {
        throw orcError(
          `stripe ${stripeIndex}: ${streamName(info.kind)} stream of column ${info.column} (${info.length} bytes) runs past the stripe`,
          {
            byteOffset: offset,
            stripe: stripeIndex,
            columnId: info.column,
          },
        );
      }
      const key = info.column * 1024 + info.kind;
      if (info.kind < 1024 && !this.streams.has(key)) this.streams.set(key, { info, offset, decoded: null });
      offset += info.length;
    }
  }

  /** A cursor over the decompressed stream, or null when the stripe has no such stream. */
  get(column: number, kind: number, path: string): ByteReader | null {
    const s = this.streams.get(column * 1024 + kind);
    if (s === undefined) return null;
    if (s.decoded === null) {
      const raw = this.file.subarray(s.offset, s.offset + s.info.length);
      s.decoded = decompressStream(raw, this.codec, { byteOffset: s.offset, column: path, stream: streamName(kind) });
    }
    return new ByteReader(s.decoded, path, streamName(kind), s.offset);
  }

  /** Like get, but an absent stream reads as empty (so decoding fails only if values are actually needed). */
  require(column: number, kind: number, path: string): ByteReader {
    return this.get(column, kind, path) ?? new ByteReader(new Uint8Array(0), path, streamName(kind), -1);
  }

  encoding(column: number): { kind: number; dictionarySize: number } {
    return this.footer.columns[column] ?? { kind: 0, dictionarySize: 0 };
  }
}

export function streamName(kind: number): string {
  return STREAM_NAMES[kind] ?? `kind ${kind}`;
}
