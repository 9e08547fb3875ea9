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
