// The page's build specializes cosmos.gl's shaders (scripts/cosmos-shaders.ts): checked against the installed cosmos.gl
// bundle, so an upgrade that moves a shader part fails here and in the build.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  CIRCLE_MAIN,
  IMAGE_SIZE,
  LINK_DASHES_END,
  LINK_DASHES_START,
  POINT_MAIN_START,
  SHADER_END,
  SHAPE_SIZE,
  specializations,
  specializeShaders,
} from "../../scripts/cosmos-shaders.ts";

const bundle = readFileSync(createRequire(import.meta.url).resolve("@cosmos.gl/graph"), "utf8");

/** The GLSL source around a place in the bundle: from its `#version` line to the template literal's end. */
function shaderAt(code: string, at: number): string {
  return code.slice(code.lastIndexOf("#version 300 es", at), code.indexOf(SHADER_END, at) + SHADER_END.length);
}

describe("cosmos.gl shader specialization", () => {
  it("changes exactly its three places, and the bundle is otherwise as installed", () => {
    const out = specializeShaders(bundle);
    expect(out.split(CIRCLE_MAIN).length).toBe(2);
    expect(out.split(SHAPE_SIZE).length).toBe(2);
    expect(out).not.toContain(POINT_MAIN_START);
    expect(out).not.toContain(IMAGE_SIZE);
    expect(out).not.toContain(LINK_DASHES_START);
    // Put back, each place gives the bundle as it was.
    let restored = out;
    for (const { from, to } of specializations(bundle).reverse()) {
      if (to === "") {
        const at = restored.indexOf(LINK_DASHES_END);
        restored = restored.slice(0, at) + from + restored.slice(at);
      } else restored = restored.replace(to, from);
    }
    expect(restored).toBe(bundle);
  });

  it("keeps the point fragment shader's main() ending where the original did, reading only what the shader declares", () => {
    const out = specializeShaders(bundle);
    const at = out.indexOf(CIRCLE_MAIN) + CIRCLE_MAIN.length;
    expect(out.slice(at, at + SHADER_END.length)).toBe(SHADER_END);
    const declared = bundle.slice(
      bundle.lastIndexOf("#version 300 es", bundle.indexOf(POINT_MAIN_START)),
      bundle.indexOf(POINT_MAIN_START),
    );
    for (const name of [
      "shapeColor",
      "shapeSize",
      "overallSize",
      "isGreyedOut",
      "greyoutOpacity",
      "pointOpacity",
      "smoothing",
      "imageAtlasTexture",
    ]) {
      expect(declared).toContain(name);
    }
  });

  it("leaves the link shader's arrows, gradient, hover color and picking pass", () => {
    const link = shaderAt(specializeShaders(bundle), bundle.indexOf(LINK_DASHES_START));
    for (const part of ["useArrow > 0.5", "linkColorInterpolateFromEndpoints > 0.5", "hoveredLinkIndex == linkIndex", "renderMode > 0.0"]) {
      expect(link).toContain(part);
    }
    expect(link).not.toContain("strokeMask(phase");
  });

  it("refuses a bundle where a part is not found exactly once", () => {
    const parts = `${IMAGE_SIZE}${POINT_MAIN_START}${SHADER_END}${LINK_DASHES_START}\n${LINK_DASHES_END}`;
    expect(specializeShaders(parts)).toContain(CIRCLE_MAIN);
    expect(() => specializeShaders("const x = 1;")).toThrow(/not found exactly once/);
    expect(() => specializeShaders(`${IMAGE_SIZE}${parts}`)).toThrow(/sprite size was not found exactly once/);
    expect(() => specializeShaders(`${parts}${LINK_DASHES_START}`)).toThrow(/dash patterns was not found exactly once/);
  });
});
