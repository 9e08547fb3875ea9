// The WebGL device cosmos.gl draws with. cosmos.gl makes its own with multisampling on; software WebGL (SwiftShader,
// llvmpipe: a machine without a GPU, or with its GPU blocked) then resolves four samples a pixel on the CPU, which
// more than doubled the frame of a 50k-node graph (700 -> 340 ms in SwiftShader; 160 ms with the circle shader of
// scripts/cosmos-shaders.ts). On software WebGL a graph big enough for its frames to cost is drawn without
// multisampling; on a GPU, and for small graphs, cosmos.gl's own device is kept.
import type { Device } from "@luma.gl/core";
import { luma } from "@luma.gl/core";
import { webgl2Adapter } from "@luma.gl/webgl";

/** Renderer names of software WebGL implementations (WEBGL_debug_renderer_info's unmasked renderer). */
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|basic render/i;

let software: boolean | undefined;

/** Whether this browser's WebGL draws on the CPU (asked once, on a canvas of its own that is then let go). */
export function softwareWebgl(): boolean {
  if (software !== undefined) return software;
  software = false;
  try {
    const gl = document.createElement("canvas").getContext("webgl2");
    if (gl) {
      const info = gl.getExtension("WEBGL_debug_renderer_info");
      const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? "");
      software = SOFTWARE.test(renderer);
      gl.getExtension("WEBGL_lose_context")?.loseContext();
    }
  } catch {
    software = false;
  }
  return software;
}

/**
 * A device for cosmos.gl (its Graph's third argument) when the graph should be drawn without multisampling, else
 * undefined (cosmos.gl then makes its own). The caller destroys a device it was given once the graph is destroyed.
 */
export function graphDevice(items: number, costlyFrom: number, pixelRatio: number): Promise<Device> | undefined {
  if (items < costlyFrom || !softwareWebgl()) return undefined;
  // The canvas context cosmos.gl's own createDevice asks for, with multisampling off.
  return luma.createDevice({
    type: "webgl",
    adapters: [webgl2Adapter],
    createCanvasContext: { canvas: document.createElement("canvas"), useDevicePixels: pixelRatio, autoResize: true },
    webgl: { antialias: false },
  });
}
