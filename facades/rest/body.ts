// Reads a request body as a JSON object (JSON, form-encoded or multipart), within a size limit.
import { jsonDepthBeyond } from "../../src/http/json-depth.ts";
import { RestError } from "./errors.ts";

/** Deepest nesting of a JSON body (GFQL chains and encodings stay far below). */
const MAX_JSON_DEPTH = 256;

export type BodyOptions = { maxBytes: number; required: boolean };

async function readLimited(request: Request, maxBytes: number, direct?: () => AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => new RestError("PAYLOAD_TOO_LARGE", `request body exceeds ${maxBytes} bytes`, { limit: maxBytes });
  if (declared > maxBytes) throw tooLarge();
  const hasBody = declared > 0 || request.headers.has("transfer-encoding");
  const source = request.body ?? (direct && hasBody ? direct() : undefined);
  if (!source) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const value of source as AsyncIterable<Uint8Array>) {
    total += value.byteLength;
    if (total > maxBytes) throw tooLarge();
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The body as an object. An empty body is `{}` unless required. `direct` supplies the body of a
 * GET request, which fetch's Request cannot carry but pygraphistry sends.
 */
export async function readObjectBody(
  request: Request,
  options: BodyOptions,
  direct?: () => AsyncIterable<Uint8Array>,
): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const bytes = await readLimited(request, options.maxBytes, request.method === "GET" ? direct : undefined);
  if (bytes.byteLength === 0) {
    if (options.required) throw new RestError("INVALID_INPUT", "request body is empty; send a JSON object");
    return {};
  }
  if (type === "application/x-www-form-urlencoded") {
    return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)));
  }
  if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": request.headers.get("content-type") ?? "" },
      }).formData();
    } catch {
      throw new RestError("INVALID_INPUT", "request body is not valid multipart/form-data (check the boundary); or send application/json", {
        contentType: type,
      });
    }
    return Object.fromEntries([...form].filter(([, v]) => typeof v === "string"));
  }
  if (type !== "" && type !== "application/json" && !type.endsWith("+json")) {
    throw new RestError("INVALID_INPUT", `unsupported content type "${type}"; send application/json`, { contentType: type });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new RestError("INVALID_INPUT", `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new RestError("INVALID_INPUT", "request body must be a JSON object");
  }
  // Validators and operations walk the value recursively: a 20,000-deep body must stop here.
  if (jsonDepthBeyond(parsed, MAX_JSON_DEPTH) !== undefined) {
    throw new RestError("INVALID_INPUT", `request body nests deeper than ${MAX_JSON_DEPTH} levels`, { limit: MAX_JSON_DEPTH });
  }
  return parsed as Record<string, unknown>;
}
