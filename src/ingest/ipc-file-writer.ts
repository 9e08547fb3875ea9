// Builds one Arrow IPC file from several IPC streams of the same schema (one per parsed chunk), copying their messages as written.
import { closeSync, openSync, writeSync } from "node:fs";
import { MessageHeader, MetadataVersion, type Schema } from "apache-arrow";
import { FileBlock, Footer } from "apache-arrow/ipc/metadata/file";
import { Message, type RecordBatch } from "apache-arrow/ipc/metadata/message";

const MAGIC = Buffer.from("ARROW1\0\0", "latin1");

/**
 * Appends the record batches of IPC streams to an IPC file, then writes its footer. Every stream must
 * carry byte for byte the same schema message as the first; dictionary batches are refused (a file may
 * hold one dictionary per column, streams of separate chunks each bring their own).
 */
export class IpcFileWriter {
  readonly #fd: number;
  #closed = false;
  #position = 0;
  #schemaBytes: Buffer | undefined;
  #schema: Schema | undefined;
  readonly #blocks: FileBlock[] = [];
  rows = 0;

  constructor(path: string) {
    this.#fd = openSync(path, "w");
    this.#write(MAGIC);
  }

  #write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(this.#fd, bytes, done, bytes.byteLength - done);
    this.#position += bytes.byteLength;
  }

  /** Appends the record batches of an IPC stream, or of an IPC file (as polars writes one into memory). */
  append(ipc: Uint8Array): void {
    const bytes = Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength);
    if (bytes.subarray(0, 6).equals(MAGIC.subarray(0, 6))) {
      const footerLength = bytes.readInt32LE(bytes.length - 10);
      const footer = Footer.decode(bytes.subarray(bytes.length - 10 - footerLength, bytes.length - 10));
      if (footer.numDictionaries > 0) throw new Error("IPC file with dictionary batches");
      this.#message(bytes, 8, MessageHeader.Schema);
      for (const block of footer.recordBatches()) this.#message(bytes, block.offset, MessageHeader.RecordBatch);
      return;
    }
    let at = 0;
    while (at + 8 <= bytes.length && bytes.readInt32LE(at + 4) !== 0) at = this.#message(bytes, at);
  }

  /** Copies the message at `at` (a schema only once, after checking it is the same); returns where the next one starts. */
  #message(bytes: Buffer, at: number, expected?: MessageHeader): number {
    if (bytes.readInt32LE(at) !== -1) throw new Error("IPC message without a continuation marker");
    const metaLength = 8 + bytes.readInt32LE(at + 4);
    const message = Message.decode(bytes.subarray(at + 8, at + metaLength));
    const whole = bytes.subarray(at, at + metaLength + message.bodyLength);
    if (whole.length !== metaLength + message.bodyLength) throw new Error("IPC data ends inside a message");
    if (expected !== undefined && message.headerType !== expected) throw new Error("unexpected IPC message");
    if (message.headerType === MessageHeader.Schema) {
      if (this.#schemaBytes === undefined) {
        this.#schemaBytes = Buffer.from(whole);
        this.#schema = message.header() as Schema;
        this.#write(whole);
      } else if (!this.#schemaBytes.equals(whole)) {
        throw new Error("IPC data with different schemas");
      }
    } else if (message.headerType === MessageHeader.RecordBatch) {
      if (this.#schema === undefined) throw new Error("record batch before the schema");
      this.#blocks.push(new FileBlock(metaLength, message.bodyLength, this.#position));
      this.#write(whole);
      this.rows += (message.header() as RecordBatch).length;
    } else {
      throw new Error("IPC data with dictionary batches");
    }
    return at + whole.length;
  }

  /** Writes the end-of-stream marker, the footer and the closing magic, and closes the file. */
  finish(): void {
    try {
      if (this.#schema === undefined) throw new Error("no IPC stream was appended");
      this.#write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
      const footer = Footer.encode(new Footer(this.#schema, MetadataVersion.V5, this.#blocks, []));
      const tail = Buffer.alloc(4);
      tail.writeInt32LE(footer.byteLength, 0);
      this.#write(footer);
      this.#write(tail);
      this.#write(MAGIC.subarray(0, 6));
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}
