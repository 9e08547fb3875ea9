// bench/viz-points: what drawing N points costs software WebGL (SwiftShader, as the page's bench and tests use), by
// what the vertex shader reads: no texture (positions from the index), one texture fetch (positions, as cosmos.gl's
// point shader reads them), or three (positions, the point status and the exit state, as cosmos.gl 3.x reads them),
// and with ten more varying components (cosmos.gl's point shader passes fourteen), at sprite sizes 1 and 4 px, with a
// 6-line circle fragment shader. Each program is drawn once first (SwiftShader compiles on the first draw); each figure
// is the best three of twelve draws over two interleaved rounds, timed to a 1-pixel readback (the draw's own end).
// Run: node bench/viz-points.ts [points=100000]

import { chromiumAvailable, launchChromium } from "../test/web/harness/browser.ts";
import { loadAverageLine } from "./load-average.ts";

const points = Number(process.argv[2] ?? 100_000);
if (!chromiumAvailable()) {
  console.error("bench/viz-points needs Chromium (apt-get install chromium)");
  process.exit(1);
}
const loadLine = loadAverageLine();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent('<canvas id="c" width="1280" height="800"></canvas>');
  const result = await page.evaluate(measure, points);
  console.log(`${result.renderer}, ${points} points, 1280x800, best three of twelve draws (ms):`);
  console.log("| vertex shader reads | 1 px sprites | 4 px sprites |\n|---|---|---|");
  for (const [name, [one, four]] of Object.entries(result.rows)) console.log(`| ${name} | ${one.join(", ")} | ${four.join(", ")} |`);
  console.log(loadLine());
} finally {
  await browser.close();
}

/** Runs in the page. */
function measure(n: number) {
  const canvas = document.getElementById("c") as HTMLCanvasElement;
  const gl = canvas.getContext("webgl2", { antialias: false }) as WebGL2RenderingContext;
  const side = Math.ceil(Math.sqrt(n));
  // `extra`: ten more varying components (cosmos.gl's point shader passes fourteen), declared by the fragment shader
  // but not read there (as in the page's specialized circle shader), or read.
  const program = (body: string, extra: "none" | "unread" | "read" = "none") => {
    const more = extra === "none" ? "" : "vec4 m1; vec4 m2; float m3; float m4;";
    const vs = `#version 300 es
precision highp float;
in float idx; in float size; in vec4 color;
uniform sampler2D pos; uniform sampler2D st; uniform sampler2D ex; uniform float side;
out vec4 c; ${more.replace(/(vec4|float) /g, "out $1 ")}
void main() { vec2 uv = (vec2(mod(idx, side), floor(idx / side)) + 0.5) / side;
${extra === "none" ? "" : "m1 = vec4(idx); m2 = color; m3 = size; m4 = uv.x;"}
${body}
}`;
    const use = extra === "read" ? " + 0.0001 * (m1.x + m2.y + m3 + m4)" : "";
    const fs = `#version 300 es
precision highp float; in vec4 c; ${more.replace(/(vec4|float) /g, "in $1 ")} out vec4 o;
void main() { vec2 p = 2.0 * gl_PointCoord - 1.0; o = vec4(c.rgb, (1.0 - smoothstep(0.9, 1.0, dot(p, p))) * c.a${use}); }`;
    const p = gl.createProgram() as WebGLProgram;
    for (const [type, source] of [
      [gl.VERTEX_SHADER, vs],
      [gl.FRAGMENT_SHADER, fs],
    ] as const) {
      const shader = gl.createShader(type) as WebGLShader;
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader) ?? "compile");
      gl.attachShader(p, shader);
    }
    for (const [i, name] of ["idx", "size", "color"].entries()) gl.bindAttribLocation(p, i, name);
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p) ?? "link");
    return p;
  };
  const threeBody = `vec4 s = texture(st, uv); vec4 e = texture(ex, uv);
  if (e.g >= 1.0) { gl_Position = vec4(2, 2, 2, 1); gl_PointSize = 0.0; return; }
  vec4 q = texture(pos, uv); gl_Position = vec4(q.xy, 0, 1); gl_PointSize = isnan(size) ? 4.0 : size; c = s.r > 0.0 ? vec4(0.5) : color;`;
  const programs: Record<string, WebGLProgram> = {
    "no texture": program(
      "gl_Position = vec4(fract(idx * 0.618) * 2.0 - 1.0, fract(idx * 0.377) * 2.0 - 1.0, 0, 1); gl_PointSize = size; c = color;",
    ),
    "one texture": program("vec4 q = texture(pos, uv); gl_Position = vec4(q.xy, 0, 1); gl_PointSize = size; c = color;"),
    "three textures": program(threeBody),
    "three textures, 14 varyings (10 unread)": program(threeBody, "unread"),
    "three textures, 14 varyings (all read)": program(threeBody, "read"),
  };
  const texture = (data: Float32Array) => {
    const t = gl.createTexture() as WebGLTexture;
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, side, side, 0, gl.RGBA, gl.FLOAT, data);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    return t;
  };
  const positions = new Float32Array(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    positions[i * 4] = Math.random() * 2 - 1;
    positions[i * 4 + 1] = Math.random() * 2 - 1;
  }
  const textures = [texture(positions), texture(new Float32Array(side * side * 4)), texture(new Float32Array(side * side * 4))];
  const attribute = (data: Float32Array, location: number, size: number) => {
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(location);
    gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
  };
  attribute(
    Float32Array.from({ length: n }, (_, i) => i),
    0,
    1,
  );
  attribute(
    Float32Array.from({ length: n * 4 }, (_, i) => (i % 4 === 3 ? 1 : Math.random())),
    2,
    4,
  );
  gl.enable(gl.BLEND);
  gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
  const pixel = new Uint8Array(4);
  const best = (a: number[], b: number[]) => [...a, ...b].sort((x, y) => x - y).slice(0, 3);
  const time = (p: WebGLProgram, size: number) => {
    gl.useProgram(p);
    gl.uniform1f(gl.getUniformLocation(p, "side"), side);
    for (const [unit, name] of ["pos", "st", "ex"].entries()) {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, textures[unit] as WebGLTexture);
      const location = gl.getUniformLocation(p, name);
      if (location) gl.uniform1i(location, unit);
    }
    gl.vertexAttrib1f(1, size);
    const times: number[] = [];
    for (let r = 0; r < 6; r++) {
      const start = performance.now();
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.drawArrays(gl.POINTS, 0, n);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
      times.push(performance.now() - start);
    }
    return times
      .sort((a, b) => a - b)
      .slice(0, 3)
      .map((t) => Math.round(t));
  };
  // Every program drawn once first (SwiftShader compiles a pipeline on its first draw), then the rounds interleaved.
  for (const p of Object.values(programs)) time(p, 1);
  const rows: Record<string, [number[], number[]]> = {};
  for (let round = 0; round < 2; round++)
    for (const [name, p] of Object.entries(programs)) {
      const [one, four] = [time(p, 1), time(p, 4)];
      const kept = rows[name];
      rows[name] = kept ? [best(kept[0], one), best(kept[1], four)] : [one, four];
    }
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  return { renderer: String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)), rows };
}
