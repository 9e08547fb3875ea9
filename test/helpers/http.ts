// HTTP and graphql-ws helpers for suites that talk to a real server process.
import { request as httpRequest } from "node:http";
import { createClient } from "graphql-ws";
import WebSocket from "ws";

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by each test's assertions.
export type Json = any;

export async function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** GET with a JSON body, as pygraphistry's requests call sends it; fetch cannot. */
export function getWithBody(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "GET", headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Subscribes over graphql-ws, runs `trigger` once the subscription stands, and returns the first event. The server
 * registers a subscription asynchronously (a Redis SUBSCRIBE across instances), which a loaded machine can delay
 * past the first trigger: with no event after a while the trigger runs again, so a caller that checks what its
 * trigger made must accept any of its runs.
 */
export async function firstEvent(baseUrl: string, token: string, query: string, trigger: () => Promise<unknown>): Promise<unknown> {
  const client = createClient({
    url: `${baseUrl.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: bearer(token),
  });
  try {
    const received = new Promise<unknown>((resolve, reject) => {
      const stop = client.subscribe(
        { query },
        {
          next: (value) => {
            stop();
            resolve(value);
          },
          error: reject,
          complete: () => {},
        },
      );
    });
    // The server registers the subscription asynchronously; give it a moment before the event fires.
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (let attempt = 0; ; attempt++) {
      await trigger();
      const waited = await Promise.race([
        received.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 4000)),
      ]);
      if (waited || attempt === 4) return await received;
    }
  } finally {
    await client.dispose();
  }
}
