// Minimal protobuf wire-format decoder (varints, zigzag, length-delimited, packed repeated) for the ORC tail.
import { orcError } from "./errors.ts";

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

/** Reads one protobuf message; `base` is the file offset of bytes[0] when known (for error details). */
export class ProtoReader {
  readonly bytes: Uint8Array;
  readonly base: number | undefined;
  readonly what: string;
  pos = 0;

  constructor(bytes: Uint8Array, what: string, base?: number) {
    this.bytes = bytes;
    this.what = what;
    this.base = base;
  }

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  fail(message: string): never {
    throw orcError(`${this.what}: ${message}`, { byteOffset: this.base === undefined ? undefined : this.base + this.pos });
  }

  /** An unsigned varint as a number (exact up to 2^53; larger values are rejected). */
  varint(): number {
    const b = this.bytes;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= b.length) this.fail("varint runs past the end of the message");
      const byte = b[this.pos++] as number;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        if (result > Number.MAX_SAFE_INTEGER) this.fail("varint value too large");
        return result;
      }
      scale *= 128;
    }
    return this.fail("varint longer than 10 bytes");
  }

  /** An unsigned varint as a 64-bit bigint. */
  varintBig(): bigint {
    const b = this.bytes;
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= b.length) this.fail("varint runs past the end of the message");
      const byte = b[this.pos++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    return this.fail("varint longer than 10 bytes");
  }

  /** A tag: field number and wire type. */
  tag(): { field: number; wire: number } {
    const t = this.varint();
    return { field: Math.floor(t / 8), wire: t % 8 };
  }

  /** The payload of a length-delimited field. */
  lengthDelimited(): Uint8Array {
    const len = this.varint();
    if (len > this.bytes.length - this.pos) this.fail(`field length ${len} runs past the end of the message`);
    const out = this.bytes.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    return new TextDecoder().decode(this.lengthDelimited());
  }

  /** Repeated varint field, packed or not: appends to `into`. */
  repeatedVarint(wire: number, into: number[]): void {
    if (wire === WIRE_LEN) {
      const start = this.pos;
      const len = this.varint();
      if (len > this.bytes.length - this.pos) this.fail(`packed field length ${len} runs past the end of the message`);
      const end = this.pos + len;
      while (this.pos < end) into.push(this.varint());
      if (this.pos !== end) {
        this.pos = start;
        this.fail("packed field overruns its length");
      }
    } else if (wire === WIRE_VARINT) {
      into.push(this.varint());
    } else {
      this.fail(`unexpected wire type ${wire} for a varint field`);
    }
  }

  /** Skips a field we do not need. */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varintBig();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_LEN:
        this.lengthDelimited();
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        this.fail(`unsupported wire type ${wire}`);
    }
  }

  private advance(n: number): void {
    if (n > this.bytes.length - this.pos) this.fail("fixed-width field runs past the end of the message");
    this.pos += n;
  }
}
