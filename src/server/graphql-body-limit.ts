// /graphql bodies within the same limit as REST's JSON bodies (MAX_JSON_BODY_BYTES), multipart uploads within
// MAX_UPLOAD_BYTES: past it a 413 with a GraphQL error (PAYLOAD_TOO_LARGE), before anything is parsed.

export type GraphqlBodyLimits = { maxJsonBytes: number; maxUploadBytes: number };

function tooLarge(limit: number): Response {
  const body = {
    errors: [
      {
        message: `request body exceeds ${limit} bytes`,
        extensions: { code: "PAYLOAD_TOO_LARGE", details: { limit } },
      },
    ],
  };
  return new Response(JSON.stringify(body), { status: 413, headers: { "content-type": "application/json; charset=utf-8" } });
}

/** Counts the bytes passing through; past `limit` the stream fails (the reader answers its error). */
function capped(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) {
          controller.error(new Error(`request body exceeds ${limit} bytes`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * The request to hand to yoga, or the 413 answer. A JSON body is read here (it is small by then); a multipart
 * upload streams on through a counter.
 */
export async function limitGraphqlBody(request: Request, limits: GraphqlBodyLimits): Promise<Request | Response> {
  if (request.body === null) return request;
  const multipart = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/");
  const limit = multipart ? limits.maxUploadBytes : limits.maxJsonBytes;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return tooLarge(limit);
  // A declared length is what the HTTP parser reads, no more: such a body is within the limit as it is, and the
  // request goes on unchanged. (A request rebuilt around the original keeps its abort signal's bookkeeping alive:
  // about 0.6 KB per request retained, found by bench/load.ts. Only bodies sent without a length are rebuilt.)
  if (request.headers.has("content-length") && Number.isFinite(declared)) return request;
  if (multipart) {
    return new Request(request, { body: capped(request.body, limit), duplex: "half" } as RequestInit);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > limit) return tooLarge(limit);
    chunks.push(chunk);
  }
  return new Request(request, { body: Buffer.concat(chunks) });
}
