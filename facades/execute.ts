// The one way a facade reaches the core: a GraphQL document, variables, and the caller's request.
import type { ExecutionResult } from "graphql";

export type Operation = {
  document: string;
  variables?: Record<string, unknown>;
  /** The incoming request: its headers carry the caller's credentials. */
  request: Request;
  clientAddress: string;
  /**
   * Operations given the same scope object (one tool call's checks and its own operation) authenticate once and
   * share what they read for the caller; without one, each operation reads afresh.
   */
  scope?: object;
};

export type Execute = (operation: Operation) => Promise<ExecutionResult>;
