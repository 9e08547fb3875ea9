// One MCP server per transport session (SDK): it lists the nine tools and runs a tools/call whose caller, arguments
// and access the facade has already checked; the checked call travels in authInfo.extra. The facade answers most
// tools/call requests itself with runCheckedCall (facades/mcp/app.ts), without the transport.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { INSTRUCTIONS, SERVER_INFO } from "./instructions.ts";
import { McpFailure } from "./json-rpc.ts";
import { inputSchemaOf } from "./tool-schemas.ts";
import { type RunOperation, TOOLS, ToolError, toolNamed } from "./tools.ts";

/** A tools/call that passed the facade's checks; a failure the tool meets at the HTTP level is left here. */
export type CheckedCall = {
  tool: string;
  args: Record<string, unknown>;
  run: RunOperation;
  timeoutMs: number;
  failure?: McpFailure;
};

const textBlock = (text: string): CallToolResult => ({ content: [{ type: "text", text }] });

export function createToolServer(onUnexpected: (error: unknown) => void): McpServer {
  const mcp = new McpServer(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: inputSchemaOf(tool.name) as { type: "object" },
      annotations: { readOnlyHint: tool.access === "read", destructiveHint: false, openWorldHint: false },
    })),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const call = extra.authInfo?.extra?.call as CheckedCall | undefined;
    // Only the facade hands calls in, always checked; anything else is a bug.
    if (!call || call.tool !== request.params.name) throw new Error("tools/call reached the server unchecked");
    return runCheckedCall(call, onUnexpected);
  });
  return mcp;
}

/**
 * Runs a checked tools/call: its result, a text block (an error payload for a failure the caller can fix); a failure
 * met at the HTTP level is left in `call.failure` (the result is then empty).
 */
export async function runCheckedCall(call: CheckedCall, onUnexpected: (error: unknown) => void): Promise<CallToolResult> {
  const tool = toolNamed(call.tool);
  if (!tool) throw new Error("tools/call reached the server unchecked");
  try {
    const payload = await tool.call({ args: call.args, run: call.run, timeoutMs: call.timeoutMs });
    return textBlock(typeof payload === "string" ? payload : JSON.stringify(payload));
  } catch (error) {
    if (error instanceof ToolError) return textBlock(JSON.stringify({ error: error.message }));
    if (error instanceof McpFailure) {
      call.failure = error;
      return { content: [] };
    }
    onUnexpected(error);
    return { ...textBlock(JSON.stringify({ error: "[internal] the tool failed unexpectedly" })), isError: true };
  }
}
