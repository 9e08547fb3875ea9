// Writes the SDL snapshot schema/schema.graphql (the contract; a test fails when it drifts).
import { writeFileSync } from "node:fs";
import { printSchemaSdl, SDL_PATH } from "../schema/sdl.ts";

writeFileSync(SDL_PATH, printSchemaSdl());
console.log(`wrote ${SDL_PATH}`);
