// A running gateway serving the built graph.html, with a dataset uploaded and a Chromium to open it: the set-up
// the browser suites against the real gateway share.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { type ServerProcess, startServer } from "../../helpers/server-process.ts";
import { launchChromium, type Renderer } from "./browser.ts";
import { ADMIN, uploadDataset } from "./gateway-session.ts";
import { buildGatewayPage, REPO_ROOT } from "./page-build.ts";

export const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");

export type PageGateway = { server: ServerProcess; browser: Browser; datasetId: string; close(): Promise<void> };

/** `env`: more of the server's environment (a suite's own REDIS_URL, say). */
export async function startPageGateway(name: string, renderer?: Renderer, env: Record<string, string> = {}): Promise<PageGateway> {
  mkdirSync(ARTIFACTS, { recursive: true });
  // The gateway serves web/dist: build the page there, as `npm run build:web` does.
  await buildGatewayPage();
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const server = await startServer({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    COOKIE_SECURE: "false",
    ...env,
  });
  const stop = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let datasetId: string;
  let browser: Browser;
  try {
    datasetId = await uploadDataset(server.url);
    browser = await launchChromium(renderer);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    server,
    browser,
    datasetId,
    async close() {
      await browser.close();
      await stop();
    },
  };
}
