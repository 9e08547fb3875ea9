// graphql-ws over the same schema: yoga's envelop pipeline executes each subscription message.
import type { ExecutionArgs } from "graphql";
import type { ServerOptions } from "graphql-ws";
import type { YogaServerInstance } from "graphql-yoga";
import type { ContextInput } from "./context.ts";

type Enveloped = ReturnType<YogaServerInstance<ContextInput, object>["getEnveloped"]>;

/** Server options shared by the Node (ws) and Deno adapters. `extra` yields the upgrade request and peer. */
export function graphqlWsOptions<E>(
  yoga: YogaServerInstance<ContextInput, object>,
  fromExtra: (extra: E) => { request?: Request; clientAddress: string },
): ServerOptions<Record<string, unknown> | undefined, E> {
  return {
    execute: (args) => (args.rootValue as { execute: Enveloped["execute"] }).execute(args),
    subscribe: (args) => (args.rootValue as { subscribe: Enveloped["subscribe"] }).subscribe(args),
    onSubscribe: async (ctx, _id, params) => {
      const { request, clientAddress } = fromExtra(ctx.extra);
      const enveloped = yoga.getEnveloped({ ...(request ? { request } : {}), clientAddress, connectionParams: ctx.connectionParams ?? {} });
      const document = enveloped.parse(params.query);
      const errors = enveloped.validate(enveloped.schema, document);
      if (errors.length > 0) return errors;
      const args: ExecutionArgs = {
        schema: enveloped.schema,
        operationName: params.operationName ?? null,
        document,
        variableValues: params.variables ?? {},
        contextValue: await enveloped.contextFactory(),
        rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
      };
      return args;
    },
  };
}
