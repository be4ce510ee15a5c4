/** Preloaded for every test run (bunfig.toml): what the helpers made in the temp dir goes at the end. */
import { afterAll } from "bun:test";
import { removeTempDirs } from "./tmp.ts";

afterAll(() => removeTempDirs());
