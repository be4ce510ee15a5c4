/**
 * Loads the extensions this process holds, one after another as upstream does: import the
 * module, call its default export with a fresh `pi`, then tell the host what it registered
 * (`register`) and that it is done (`ready`, with the error if it failed). A failure belongs to
 * that extension alone; the next one still loads.
 */
import { isAbsolute, resolve } from "node:path";
import type { ExtensionFactory } from "../api/types.ts";
import { createPi } from "./pi-api.ts";
import { describe } from "./peer.ts";
import { ExtensionRecord } from "./record.ts";
import type { Runtime } from "./runtime.ts";

export interface LoadItem {
  id: string;
  path: string;
}

async function loadOne(runtime: Runtime, record: ExtensionRecord, path: string, prepared: Promise<void>, importModule: ImportModule): Promise<Error | undefined> {
  let module: { default?: unknown };
  try {
    await prepared;
    module = await importModule({ id: record.id, path });
  } catch (error) {
    return withStack(`Failed to load extension: ${describe(error)}`, error);
  }
  const factory = module.default;
  if (typeof factory !== "function") return new Error(`Extension does not export a valid factory function: ${record.path}`);
  try {
    await (factory as ExtensionFactory)(createPi(runtime, record));
  } catch (error) {
    return withStack(`Failed to load extension: ${describe(error)}`, error);
  }
  return undefined;
}

function withStack(message: string, cause: unknown): Error {
  const error = new Error(message);
  if (cause instanceof Error && cause.stack) error.stack = cause.stack;
  return error;
}

/** Makes ready what the extension at `path` will import from the host (modules.ts). */
export type Prepare = (path: string) => Promise<void>;

/** Evaluates an extension's module (a Piglet Binary's linked ones are bundled, not imported by path). */
export type ImportModule = (item: LoadItem) => Promise<{ default?: unknown }>;

const importByPath: ImportModule = async (item) => (await import(item.path)) as { default?: unknown };

export async function loadExtensions(
  runtime: Runtime,
  items: readonly LoadItem[],
  prepare: Prepare = async () => {},
  importModule: ImportModule = importByPath,
): Promise<void> {
  // A compiled binary resolves a relative import against the cwd: always pass an absolute path.
  const paths = items.map((item) => (isAbsolute(item.path) ? item.path : resolve(item.path)));
  // Every extension is prepared at once (its file read, to see what it imports): the reads run
  // beside the imports, not one before each. A failure is its extension's, told when it loads.
  const prepared = paths.map((path) => prepare(path));
  for (const preparing of prepared) preparing.catch(() => {});
  for (const [i, item] of items.entries()) {
    const record = new ExtensionRecord(item.id, item.path);
    runtime.records.set(item.id, record);
    const failure = await loadOne(runtime, record, paths[i]!, prepared[i]!, importModule);
    // `ready` is not waited for: the socket keeps the order, so the next extension loads while
    // the host takes this one's registrations (a round trip each, otherwise).
    if (failure) {
      runtime.records.delete(item.id);
      runtime.peer.request("ready", { extension: item.id, error: { message: failure.message, ...(failure.stack ? { stack: failure.stack } : {}) } }).catch(() => {});
      continue;
    }
    record.active = true;
    runtime.flushRegistrations(record);
    record.announced = true;
    runtime.peer.request("ready", { extension: item.id }).catch((error: unknown) => {
      process.stderr.write(`[${record.name}] ready: ${describe(error)}\n`);
    });
  }
}
