// The contract between the tool endpoint and the store that makes its transport sessions known across instances.

/** What an assistant sent in `initialize`: enough for another instance to take the session up. */
export type McpSessionStart = { protocolVersion: string; capabilities: unknown; clientInfo: unknown };

export type McpSessionDirectory = {
  remember(id: string, start: McpSessionStart): Promise<void>;
  /** The session's start, when some instance opened it and it is neither closed nor idle past its time. */
  recall(id: string): Promise<McpSessionStart | undefined>;
  /** Marks the session used (its idle time starts over); false when it is no longer known. */
  touch(id: string): Promise<boolean>;
  forget(id: string): Promise<void>;
};
