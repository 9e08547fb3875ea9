// Build-time specialization of cosmos.gl's point fragment shader for the page, which draws every node as a circle:
// it never sets point shapes, images or outlined points (graph-view.ts). cosmos.gl's shader handles all of those in
// one program (eight shape distance functions, an image atlas, an outline ring), and software WebGL (SwiftShader,
// llvmpipe) runs every branch for every fragment: at 50k nodes a frame took 700 ms in SwiftShader, 160 ms with this
// shader and no multisampling (web/src/graph-device.ts). The circle is cosmos.gl's own: the same smoothed edge, color,
// opacity and grey-out. And a graph without images gets sprites of its shapes' size in the vertex shader (an unset
// image size made every sprite at least the default size, shaded for nothing around a smaller node).
import type { Plugin } from "vite";

/** The start of the point fragment shader's main() in @cosmos.gl/graph 3.x (dist/index.js). */
export const MAIN_START = "void main() {\n    // Discard the fragment if the point is fully transparent and has no image";
/** The shader source ends with main()'s closing brace and the template literal's backtick. */
const SHADER_END = "\n}\n`";

export const CIRCLE_MAIN = `void main() {
    // cosmos.gl's circle (shape CIRCLE, no image, no outline; see scripts/cosmos-point-shader.ts)
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

/**
 * Answers cosmos.gl's bundle with the point fragment shader's main() replaced, and the vertex shader's sprite sized
 * to the shape when the graph has no images; throws where either is not found exactly once.
 */
export function specializePointShader(code: string): string {
  const sized = code.indexOf(IMAGE_SIZE);
  if (sized < 0 || code.indexOf(IMAGE_SIZE, sized + 1) >= 0) {
    throw new Error("cosmos-point-shader: cosmos.gl's point vertex shader sizes were not found once (another cosmos.gl version?)");
  }
  code = code.slice(0, sized) + SHAPE_SIZE + code.slice(sized + IMAGE_SIZE.length);
  const start = code.indexOf(MAIN_START);
  if (start < 0 || code.indexOf(MAIN_START, start + 1) >= 0) {
    throw new Error("cosmos-point-shader: cosmos.gl's point fragment shader was not found once (another cosmos.gl version?)");
  }
  const end = code.indexOf(SHADER_END, start);
  if (end < 0) throw new Error("cosmos-point-shader: the end of cosmos.gl's point fragment shader was not found");
  return code.slice(0, start) + CIRCLE_MAIN + code.slice(end);
}

export function cosmosPointShader(): Plugin {
  return {
    name: "cosmos-point-shader",
    transform(code, id) {
      if (!/[\\/]@cosmos\.gl[\\/]graph[\\/]dist[\\/]index\.js$/.test(id.split("?")[0] ?? id)) return undefined;
      return { code: specializePointShader(code), map: null };
    },
  };
}
