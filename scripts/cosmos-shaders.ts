// Build-time specialization of cosmos.gl's point and link shaders to what the page draws: every node a circle (it
// never sets point shapes, images or outlined points) and every link solid (it never sets link styles); see
// web/src/graph-view.ts. cosmos.gl's shaders handle all of those in one program each, and software WebGL (SwiftShader,
// llvmpipe) runs every branch for every fragment. Measured in SwiftShader: 50k nodes took 700 ms a frame, 160 ms with
// the circle shader and no multisampling (web/src/graph-device.ts); 100k links took 4.0 s a frame, 3.0 s without the
// dash patterns. What is drawn is cosmos.gl's own: the same smoothed circle, color, opacity and grey-out; the same
// links, arrows, gradients and hover color.
import type { Plugin } from "vite";

/** A change to cosmos.gl's bundle: `from` must be found exactly once. */
type Specialization = { what: string; from: string; to: string };

/** The start of the point fragment shader's main() in @cosmos.gl/graph 3.x (dist/index.js). */
export const POINT_MAIN_START = "void main() {\n    // Discard the fragment if the point is fully transparent and has no image";
/** A shader source ends with main()'s closing brace and the template literal's backtick. */
export const SHADER_END = "\n}\n`";

/** The point fragment shader's main() for circles without image or outline (the function's closing brace follows). */
export const CIRCLE_MAIN = `void main() {
    // cosmos.gl's circle (shape CIRCLE, no image, no outline; see scripts/cosmos-shaders.ts)
    if (shapeColor.a == 0.0) discard;
    vec2 pointCoord = 2.0 * gl_PointCoord - 1.0;
    // A sprite larger than the shape (an image size above it) keeps the shape at its own size, centered.
    if (overallSize > shapeSize && shapeSize > 0.0) pointCoord /= shapeSize / overallSize;
    float opacity = (1.0 - smoothstep(smoothing, 1.0, dot(pointCoord, pointCoord))) * shapeColor.a;
    opacity *= (isGreyedOut > 0.0 && greyoutOpacity != -1.0) ? greyoutOpacity : pointOpacity;
    fragColor = vec4(shapeColor.rgb, opacity);
    // Never true (an opacity is not negative): keeps the image atlas sampler in the program, which cosmos.gl binds.
    if (pointOpacity < 0.0) fragColor = texture(imageAtlasTexture, vec2(0.5));`;

/** The point vertex shader's sizes: the sprite is as large as the larger of the shape and the image. */
export const IMAGE_SIZE =
  "  // Calculate sizes for shape and image\n  float shapeSizeValue = calculatePointSize(pointSize * sizeScale);\n" +
  "  float imageSizeValue = calculatePointSize(imageSize * sizeScale);";
/** With no image in the graph the sprite is the shape's size (the same pixels: an image size only grew the sprite). */
export const SHAPE_SIZE =
  "  // Calculate sizes for shape and image\n  float shapeSizeValue = calculatePointSize(pointSize * sizeScale);\n" +
  "  float imageSizeValue = hasImages > 0.0 ? calculatePointSize(imageSize * sizeScale) : 0.0;";

/** The link fragment shader's dashed and dotted patterns (solid links skip them, but not in software WebGL). */
export const LINK_DASHES_START = "  // Dashed / dotted stroke patterns. Applied to the visible pass only";
export const LINK_DASHES_END = "  // Apply hover color if this is the hovered link and hover color is defined.";

function once(code: string, text: string, what: string): number {
  const at = code.indexOf(text);
  if (at < 0 || code.indexOf(text, at + 1) >= 0) {
    throw new Error(`cosmos-shaders: ${what} was not found exactly once in cosmos.gl's bundle (another cosmos.gl version?)`);
  }
  return at;
}

/** The changes, as found in the given bundle (the fragment shader's main() and the dash block run to their ends). */
export function specializations(code: string): Specialization[] {
  const main = once(code, POINT_MAIN_START, "the point fragment shader's main()");
  const mainEnd = code.indexOf(SHADER_END, main);
  const dashes = once(code, LINK_DASHES_START, "the link fragment shader's dash patterns");
  const dashesEnd = code.indexOf(LINK_DASHES_END, dashes);
  if (mainEnd < 0 || dashesEnd < 0) throw new Error("cosmos-shaders: the end of a shader part was not found in cosmos.gl's bundle");
  return [
    { what: "the point vertex shader's sprite size", from: IMAGE_SIZE, to: SHAPE_SIZE },
    { what: "the point fragment shader's main()", from: code.slice(main, mainEnd), to: CIRCLE_MAIN },
    { what: "the link fragment shader's dash patterns", from: code.slice(dashes, dashesEnd), to: "" },
  ];
}

/** Answers cosmos.gl's bundle with its shaders specialized; throws where a part is not found exactly once. */
export function specializeShaders(code: string): string {
  for (const { what, from, to } of specializations(code)) {
    const at = once(code, from, what);
    code = code.slice(0, at) + to + code.slice(at + from.length);
  }
  return code;
}

export function cosmosShaders(): Plugin {
  return {
    name: "cosmos-shaders",
    transform(code, id) {
      if (!/[\\/]@cosmos\.gl[\\/]graph[\\/]dist[\\/]index\.js$/.test(id.split("?")[0] ?? id)) return undefined;
      return { code: specializeShaders(code), map: null };
    },
  };
}
