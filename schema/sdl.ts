// Prints the schema as SDL, the form committed at schema/schema.graphql.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { lexicographicSortSchema, printSchema } from "graphql";
import { schema } from "./index.ts";

export const SDL_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), "schema.graphql");

export function printSchemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
