// Validates REST bodies against the JSON Schemas in schema/json, naming the offending field.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { RestError } from "./errors.ts";

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../schema/json");

// allowUnionTypes: a field may take one of several types (gfql_query: a Chain or Let object, or Cypher text).
const ajv = new Ajv({ allErrors: false, strict: true, coerceTypes: false, allowUnionTypes: true });
for (const file of readdirSync(DIR).filter((f) => f.endsWith(".json"))) {
  ajv.addSchema(JSON.parse(readFileSync(path.join(DIR, file), "utf8")));
}

export function validateBody(schemaId: string, body: Record<string, unknown>): void {
  const check = ajv.getSchema(schemaId);
  if (!check) throw new Error(`unknown JSON Schema ${schemaId}`);
  if (check(body)) return;
  const error = check.errors?.[0];
  if (!error) throw new RestError("INVALID_INPUT", "request body is invalid");
  if (error.keyword === "required") {
    const field = String((error.params as { missingProperty: string }).missingProperty);
    throw new RestError("INVALID_INPUT", `missing required field "${field}"`, { field });
  }
  if (error.keyword === "additionalProperties") {
    const field = String((error.params as { additionalProperty: string }).additionalProperty);
    throw new RestError("INVALID_INPUT", `unknown field "${field}"`, { field });
  }
  const field = error.instancePath.replace(/^\//, "").replaceAll("/", ".") || "body";
  throw new RestError("INVALID_INPUT", `field "${field}" ${error.message ?? "is invalid"}`, { field });
}
