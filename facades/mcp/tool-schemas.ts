// The tools' argument schemas (schema/json/mcp): listed by tools/list and checked with ajv before a tool runs.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ErrorObject } from "ajv";

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../schema/json/mcp");

type JsonSchema = { $id: string; description?: string } & Record<string, unknown>;

const ajv = new Ajv({ allErrors: false, strict: true, coerceTypes: false, useDefaults: true });
const schemas = new Map<string, JsonSchema>();
for (const file of readdirSync(DIR).filter((f) => f.endsWith(".json"))) {
  const schema = JSON.parse(readFileSync(path.join(DIR, file), "utf8")) as JsonSchema;
  ajv.addSchema(schema);
  schemas.set(schema.$id.replace(/^mcp\//, ""), schema);
}

/** The JSON Schema a client sees as the tool's inputSchema. */
export function inputSchemaOf(tool: string): Record<string, unknown> {
  const schema = schemas.get(tool);
  if (!schema) throw new Error(`no argument schema for tool ${tool}`);
  const { $id: _id, description: _description, ...rest } = schema;
  return rest;
}

function describe(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (error.keyword === "required") return `missing required argument "${(error.params as { missingProperty: string }).missingProperty}"`;
  if (error.keyword === "additionalProperties")
    return `unknown argument "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  if (error.keyword === "type" && error.params && (error.params as { type?: string }).type)
    return `argument "${field}" must be ${(error.params as { type: string }).type}${field.includes(".") ? "" : " (omit optional arguments rather than pass null)"}`;
  return `argument "${field || "arguments"}" ${error.message ?? "is invalid"}`;
}

/** Checks (and fills defaults into) a tool's arguments; answers what is wrong, or undefined. */
export function argumentProblem(tool: string, args: Record<string, unknown>): string | undefined {
  const check = ajv.getSchema(`mcp/${tool}`);
  if (!check) return `no argument schema for tool ${tool}`;
  if (check(args)) return undefined;
  const error = check.errors?.[0];
  return error ? describe(error) : "arguments are invalid";
}
