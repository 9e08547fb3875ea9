// Test harness for graph.html: launches the system Chromium with software WebGL (see shared/reference/browser-testing.md).
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export type Renderer = "swiftshader" | "llvmpipe";

const COMMON = [
  "--no-sandbox",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Headless pages in the background must still get every animation frame.
  "--disable-background-timer-throttling",
  "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
];

/** WebGL2 on the CPU: SwiftShader (always there), or Mesa's llvmpipe (faster; needs libegl-mesa0 libgl1-mesa-dri). */
export const RENDERER_FLAGS: Record<Renderer, string[]> = {
  swiftshader: ["--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
  llvmpipe: ["--use-gl=angle", "--use-angle=gl-egl", "--ignore-gpu-blocklist"],
};

export async function launchChromium(renderer: Renderer = "swiftshader"): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...COMMON, ...RENDERER_FLAGS[renderer]] });
}
