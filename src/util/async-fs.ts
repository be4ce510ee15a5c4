/**
 * node:fs's promise API, reached when first used. Loading `node:fs/promises` costs a few
 * milliseconds of start-up (measured: ~2.5 ms), which a run that never has a tool touch a file
 * (`pig -p hello`, an RPC client asking for the state) need not pay: the modules that define the
 * tools import this instead, and the API loads at the first call.
 */
import * as fs from "node:fs";

export function asyncFs(): typeof fs.promises {
  return fs.promises;
}
