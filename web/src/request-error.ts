// An error from the server with its code (GraphQL extensions.code, or one read from the HTTP status).

export class RequestError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = "RequestError";
    this.code = code;
  }
}

export function codeOfStatus(status: number): string {
  if (status === 401) return "UNAUTHENTICATED";
  if (status === 403) return "FORBIDDEN";
  if (status === 404) return "NOT_FOUND";
  return "INTERNAL";
}
