/**
 * Loaded before every test file (bunfig.toml, test.preload), so `bun test <file>` behaves as
 * `npm test`: a test may take up to a minute on a loaded machine before it counts as hung.
 */
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
