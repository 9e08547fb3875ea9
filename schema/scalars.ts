// Custom scalars: DateTime (ISO 8601, UTC) and JSON.
import { GraphQLError } from "graphql";
import { builder } from "./builder.ts";

builder.scalarType("DateTime", {
  description: "An instant as an ISO 8601 string in UTC.",
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError("DateTime must be an ISO 8601 string");
    return date;
  },
});

builder.scalarType("JSON", {
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.scalarType("Upload", {
  description: "File bytes: a file part of a GraphQL multipart request, or a stream the REST facade hands over.",
  serialize: () => {
    throw new GraphQLError("Upload is an input-only scalar");
  },
  parseValue: (value) => {
    if (value !== null && typeof value === "object" && typeof (value as { stream?: unknown }).stream === "function") {
      return value as { stream(): ReadableStream<Uint8Array> };
    }
    throw new GraphQLError("Upload must be a file (send the request as multipart/form-data)");
  },
});
