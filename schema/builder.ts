// The one Pothos SchemaBuilder: context type, scalars and the Prisma plugin.
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import type PrismaTypes from "../prisma/generated/pothos-types.ts";
import { getDatamodel } from "../prisma/generated/pothos-types.ts";
import type { GatewayContext } from "../src/server/context.ts";

export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    Upload: { Input: { stream(): ReadableStream<Uint8Array>; chunks?: () => AsyncIterable<Uint8Array> }; Output: never };
  };
}>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.services.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.queryType({ description: "Read operations." });
builder.mutationType({ description: "Write operations." });
builder.subscriptionType({ description: "Live updates, over graphql-ws or SSE on /graphql." });
