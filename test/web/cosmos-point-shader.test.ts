// The page's build specializes cosmos.gl's point fragment shader to circles (scripts/cosmos-point-shader.ts): checked
// against the installed cosmos.gl bundle, so an upgrade that moves the shader fails here and in the build.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { CIRCLE_MAIN, IMAGE_SIZE, MAIN_START, SHAPE_SIZE, specializePointShader } from "../../scripts/cosmos-point-shader.ts";

const bundle = readFileSync(createRequire(import.meta.url).resolve("@cosmos.gl/graph"), "utf8");

describe("cosmos.gl point shader specialization", () => {
  it("replaces the point fragment shader's main() and the vertex shader's sprite size, and nothing else", () => {
    const out = specializePointShader(bundle);
    expect(out.split(CIRCLE_MAIN).length).toBe(2);
    expect(out.split(SHAPE_SIZE).length).toBe(2);
    expect(out).not.toContain(MAIN_START);
    expect(out).not.toContain(IMAGE_SIZE);
    // Put back, the two places give the bundle as it was, but for the fragment shader's main(), which now ends where
    // the original did (main()'s brace, then the template literal's end).
    const start = bundle.indexOf(MAIN_START);
    const end = bundle.indexOf("\n}\n`", start);
    expect(out.replace(SHAPE_SIZE, IMAGE_SIZE)).toBe(bundle.slice(0, start) + CIRCLE_MAIN + bundle.slice(end));
    // Every name the circle reads is one the original fragment shader declares.
    const declared = bundle.slice(bundle.lastIndexOf("#version 300 es", start), start);
    for (const name of [
      "shapeColor",
      "shapeSize",
      "overallSize",
      "isGreyedOut",
      "greyoutOpacity",
      "pointOpacity",
      "smoothing",
      "imageAtlasTexture",
      "fragColor",
    ]) {
      expect(declared).toContain(name);
    }
  });

  it("refuses a bundle where the shader is not found exactly once", () => {
    expect(() => specializePointShader("const x = 1;")).toThrow(/not found once/);
    expect(() => specializePointShader(`${IMAGE_SIZE}${IMAGE_SIZE}${MAIN_START}\n}\n\``)).toThrow(/not found once/);
    expect(() => specializePointShader(`${IMAGE_SIZE}${MAIN_START}\n}\n\`${MAIN_START}\n}\n\``)).toThrow(/not found once/);
  });
});
