// Validates GFQL wire JSON against the JSON Schemas in schema/json/gfql before parsing, refusing a malformed query
// with a pygraphistry-style code and the query path of its first fault.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { gfqlError } from "./gfql-error.ts";

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../schema/json/gfql");

/**
 * Schema annotations this module reads (ajv ignores them while validating): `gfqlCode` and `gfqlMessage` give the
 * error code and text for a failure of that subschema (a string, or an object keyed by the failing keyword);
 * `gfqlKind` names what a `type`-discriminated subschema chooses between.
 */
type Annotations = {
  gfqlCode?: string | Record<string, string>;
  gfqlMessage?: string | Record<string, string>;
  gfqlKind?: string;
};

let validator: ValidateFunction | undefined;

function compile(): ValidateFunction {
  const ajv = new Ajv({ allErrors: false, strict: true, coerceTypes: false, discriminator: true, verbose: true, allowUnionTypes: true });
  ajv.addKeyword({ keyword: "gfqlCode", schemaType: ["string", "object"] });
  ajv.addKeyword({ keyword: "gfqlMessage", schemaType: ["string", "object"] });
  ajv.addKeyword({ keyword: "gfqlKind", schemaType: "string" });
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".json"))) {
    ajv.addSchema(JSON.parse(readFileSync(path.join(DIR, file), "utf8")));
  }
  const check = ajv.getSchema("gfql-query");
  if (check === undefined) throw new Error("schema/json/gfql has no gfql-query schema");
  return check;
}

function pick(value: string | Record<string, string> | undefined, keyword: string): string | undefined {
  return typeof value === "string" ? value : value?.[keyword];
}

/** The query path of a JSON pointer: array positions as [i], object keys as .key; `root` prefixes it. */
function queryPath(data: unknown, pointer: string, root: string): string {
  let out = root;
  let at: unknown = data;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(at)) {
      out += `[${key}]`;
      at = at[Number(key)];
    } else {
      out = out === "" ? key : `${out}.${key}`;
      at = (at as Record<string, unknown> | undefined)?.[key];
    }
  }
  return out;
}

const CHAIN_ELSEWHERE: Record<string, string> = {
  Chain: "'Chain' cannot appear inside a chain",
  Let: "'Let' cannot appear inside a chain",
  QueryDAG: "'QueryDAG' cannot appear inside a chain",
  Ref: "'Ref' cannot appear inside a chain",
  RemoteGraph: "'RemoteGraph' operations are not supported yet",
};

function discriminatorMessage(kind: string | undefined, tag: unknown): string {
  if (kind === "operation" && typeof tag === "string" && CHAIN_ELSEWHERE[tag] !== undefined) return CHAIN_ELSEWHERE[tag];
  if (kind === "predicate") return `unknown or unsupported predicate type ${typeof tag === "string" ? `'${tag}'` : String(tag)}`;
  return `unknown ${kind ?? "operation"} type ${tag === undefined ? "undefined" : JSON.stringify(tag)}`;
}

function describe(error: ErrorObject, data: unknown, root: string): { code: string; message: string; path: string } {
  const schema = (error.parentSchema ?? {}) as Annotations;
  const at = queryPath(data, error.instancePath, root);
  const code = pick(schema.gfqlCode, error.keyword);
  const custom = pick(schema.gfqlMessage, error.keyword);
  const params = error.params as Record<string, unknown>;
  const last = error.instancePath.split("/").pop() ?? "";
  switch (error.keyword) {
    case "required":
      return { code: "E105", message: custom ?? `missing required field '${String(params.missingProperty)}'`, path: at };
    case "additionalProperties":
      return { code: code ?? "E102", message: custom ?? `unknown key '${String(params.additionalProperty)}'`, path: at };
    case "discriminator": {
      const tag = (error.data as Record<string, unknown> | undefined)?.type;
      if (tag === undefined && schema.gfqlKind === "predicate")
        return { code: "E105", message: "predicate is missing its 'type'", path: at };
      return { code: "E101", message: discriminatorMessage(schema.gfqlKind, tag), path: at === "" ? "type" : `${at}.type` };
    }
    default: {
      let message = custom ?? `must ${error.message?.replace(/^must /, "") ?? "be valid"}`;
      if (message.startsWith("must ") && last !== "" && !/^\d+$/.test(last)) message = `'${last}' ${message}`;
      return { code: code ?? "E101", message, path: at };
    }
  }
}

/**
 * Checks `value` (the parsed JSON of a query) against schema/json/gfql/query.json. The query path names chain
 * operations as parseGfql does: a bare list is `chain`, a lone Node/Edge/Call is `chain[0]`.
 */
/** Compiles the schema now (about 60 ms), so that the first query does not wait for it (a query worker's start). */
export function prepareGfqlSchema(): void {
  validator ??= compile();
}

export function checkGfqlSchema(value: unknown): void {
  validator ??= compile();
  if (validator(value)) return;
  const error = validator.errors?.[0];
  if (error === undefined) throw gfqlError("E101", "the query does not match the GFQL schema", "");
  const type = (value as { type?: unknown } | null)?.type;
  const root = Array.isArray(value) ? "chain" : type === "Node" || type === "Edge" || type === "Call" ? "chain[0]" : "";
  const { code, message, path: at } = describe(error, value, root);
  throw gfqlError(code, message, at);
}
