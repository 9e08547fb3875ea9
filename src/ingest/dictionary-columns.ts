// Encodes columns of a stored table as Arrow dictionaries: pandas' `category` columns of any value type,
// which polars can hold only for text (its Categorical).
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { Dictionary, Int32, Table, Type, tableFromIPC, tableToIPC, type Vector, vectorFromArray } from "apache-arrow";
import { AppError } from "../errors/app-error.ts";
import type { TableSchema } from "./table-files.ts";

/** Value types a dictionary is built over here: numbers, booleans, text (instants keep their values' type). */
const ENCODABLE: ReadonlySet<number> = new Set([Type.Int, Type.Float, Type.Bool, Type.Utf8, Type.LargeUtf8, Type.Utf8View]);

/**
 * Rewrites the stored table with `columns` dictionary-encoded (the same values; categories in order of
 * first appearance) and answers its schema with them as `category`. Columns already dictionaries, absent,
 * or of other types are left as they are.
 */
export async function encodeDictionaries(stored: string, schema: TableSchema, columns: readonly string[]): Promise<TableSchema> {
  if (columns.length === 0) return schema;
  const table = tableFromIPC(await readFile(stored));
  const recode = columns.filter((name) => {
    const type = table.schema.fields.find((f) => f.name === name)?.type;
    return type !== undefined && ENCODABLE.has(type.typeId);
  });
  if (recode.length === 0) return schema;
  const out: Record<string, Vector> = {};
  // Dictionary ids are unique in a schema: the new ones follow the ids already there.
  let id = Math.max(-1, ...table.schema.fields.map((f) => (f.type.typeId === Type.Dictionary ? (f.type as Dictionary).id : -1)));
  for (const field of table.schema.fields) {
    const column = table.getChild(field.name) as Vector;
    if (!recode.includes(field.name)) {
      out[field.name] = column;
      continue;
    }
    id += 1;
    out[field.name] = vectorFromArray([...column], new Dictionary(field.type, new Int32(), id));
  }
  const temporary = `${stored}.dictionaries`;
  try {
    await writeFile(temporary, tableToIPC(new Table(out), "file"));
    // A new file replaces the stored one (never written through: it may be a hard link).
    await rm(stored, { force: true });
    await rename(temporary, stored);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new AppError("PARSE_FAILED", `the category columns could not be stored: ${(error as Error).message.split("\n")[0]}`);
  }
  return { ...schema, dtypes: Object.fromEntries(Object.entries(schema.dtypes).map(([n, d]) => [n, recode.includes(n) ? "category" : d])) };
}
