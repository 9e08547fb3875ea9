// GraphiQL on /graphql with its scripts and styles served by this server from the @graphql-yoga/graphiql package,
// not from a CDN: the page works on a machine without internet.
import { createRequire } from "node:module";
import path from "node:path";
import { type GraphiQLOptions, renderGraphiQL } from "graphql-yoga";

/** URL prefix under which the package's dist/ folder is served. */
export const GRAPHIQL_ASSETS = "/graphiql/";

/** The folder holding yoga-graphiql.umd.js, graphiql.css and the editor workers. */
export function graphiqlAssetsDir(): string {
  const require = createRequire(import.meta.url);
  try {
    return path.join(path.dirname(require.resolve("@graphql-yoga/graphiql/package.json")), "dist");
  } catch (error) {
    throw new Error("GraphiQL's assets (the @graphql-yoga/graphiql package) are not installed; run npm ci", { cause: error });
  }
}

const CDN_DIST = /https:\/\/unpkg\.com\/@graphql-yoga\/graphiql@[^/"'\s>]+\/dist\//g;
const REMOTE_ICON = /<link rel=icon href=https:\/\/[^>\s]+>/;

/** yoga's GraphiQL page with every CDN address pointed at GRAPHIQL_ASSETS; throws if one is left. */
export function renderLocalGraphiQL(options: GraphiQLOptions): string {
  // yoga fills in only the first of its two __TITLE__ placeholders ("Loading __TITLE__..." keeps the other).
  const html = renderGraphiQL(options)
    .replace(CDN_DIST, GRAPHIQL_ASSETS)
    .replace(REMOTE_ICON, "<link rel=icon href=data:,>")
    .replaceAll("__TITLE__", options.title ?? "GraphiQL");
  const remote = /https?:\/\/[^"'\s>)]+/.exec(html);
  if (remote) {
    throw new Error(`GraphiQL page still loads ${remote[0]}: graphql-yoga's template changed; update src/server/graphiql.ts`);
  }
  return html;
}
