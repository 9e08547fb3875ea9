// Checks the vector lengths in an uploaded Arrow message or footer before apache-arrow decodes it.
import { DictionaryBatch as FbDictionaryBatch } from "apache-arrow/fb/dictionary-batch";
import type { Field as FbField } from "apache-arrow/fb/field";
import { Footer as FbFooter } from "apache-arrow/fb/footer";
import { Message as FbMessage } from "apache-arrow/fb/message";
import { MessageHeader } from "apache-arrow/fb/message-header";
import { RecordBatch as FbRecordBatch } from "apache-arrow/fb/record-batch";
import { Schema as FbSchema } from "apache-arrow/fb/schema";
import { ByteBuffer } from "flatbuffers";

/**
 * apache-arrow builds one object per element of every vector it decodes, trusting the stored lengths:
 * an 11 KB file whose field count reads 100 million exhausts the JavaScript heap and ends the process.
 * Every element of a well-formed buffer takes bytes of its own (4 for a table offset, 16 or 24 for the
 * structs), so the elements counted over a whole buffer never exceed its size: a budget of its bytes
 * bounds them, shared tables and deep nesting included.
 */
class Budget {
  #left: number;
  constructor(bytes: number) {
    this.#left = bytes;
  }
  take(count: number, bytesEach: number): void {
    const bytes = count * bytesEach;
    if (!Number.isSafeInteger(count) || count < 0 || bytes > this.#left) throw new Error("Arrow metadata lengths exceed its size");
    this.#left -= bytes;
  }
}

const MAX_DEPTH = 64;

function checkField(field: FbField | null, budget: Budget, depth: number): void {
  if (!field || depth > MAX_DEPTH) throw new Error("Arrow schema field missing or nested too deep");
  budget.take(1 + field.childrenLength() + field.customMetadataLength(), 4);
  for (let i = 0; i < field.childrenLength(); i += 1) checkField(field.children(i), budget, depth + 1);
}

function checkSchema(schema: FbSchema | null, budget: Budget): void {
  if (!schema) throw new Error("Arrow schema missing");
  budget.take(schema.fieldsLength() + schema.customMetadataLength(), 4);
  budget.take(schema.featuresLength(), 8);
  for (let i = 0; i < schema.fieldsLength(); i += 1) checkField(schema.fields(i), budget, 0);
}

function checkRecordBatch(batch: FbRecordBatch | null, budget: Budget): void {
  if (!batch) throw new Error("Arrow record batch missing");
  budget.take(batch.nodesLength() + batch.buffersLength(), 16);
  budget.take(batch.variadicBufferCountsLength(), 8);
}

/** Throws unless the lengths in an encapsulated message's flatbuffer fit in it. */
export function guardMessage(bytes: Uint8Array): void {
  const budget = new Budget(bytes.byteLength);
  const message = FbMessage.getRootAsMessage(new ByteBuffer(bytes));
  budget.take(message.customMetadataLength(), 4);
  const type = message.headerType();
  if (type === MessageHeader.Schema) checkSchema(message.header(new FbSchema()) as FbSchema | null, budget);
  else if (type === MessageHeader.RecordBatch) checkRecordBatch(message.header(new FbRecordBatch()) as FbRecordBatch | null, budget);
  else if (type === MessageHeader.DictionaryBatch) {
    checkRecordBatch((message.header(new FbDictionaryBatch()) as FbDictionaryBatch | null)?.data() ?? null, budget);
  } else throw new Error("unknown Arrow message type");
}

/** Throws unless the lengths in a file footer's flatbuffer fit in it. */
export function guardFooter(bytes: Uint8Array): void {
  const budget = new Budget(bytes.byteLength);
  const footer = FbFooter.getRootAsFooter(new ByteBuffer(bytes));
  budget.take(footer.recordBatchesLength() + footer.dictionariesLength(), 24);
  budget.take(footer.customMetadataLength(), 4);
  checkSchema(footer.schema(), budget);
}
