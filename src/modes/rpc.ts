/**
 * RPC mode (`pig --mode rpc`): commands as JSON lines on stdin, responses and events as JSON
 * lines on stdout, speaking upstream Pi's protocol so its clients drive pig unchanged. Each line
 * is handled on its own (a slow command does not hold up the next); pig exits at the end of
 * input (once running work is done), or on SIGTERM/SIGHUP.
 */
import { isAbsolute, resolve } from "node:path";
import * as v from "valibot";
import type { AgentSession } from "../agent/session.ts";
import { PromptError } from "../agent/session.ts";
import type { InputDisposition } from "../agent/submit.ts";
import { defaultExportName, exportSessionHtml } from "../export/html.ts";
import { presentBuiltinCall } from "../tools/index.ts";
import { writeExportFile } from "../export/write-export.ts";
import type { LoadedResources } from "../resources/load-resources.ts";
import { describeIssues } from "../session/format.ts";
import { runCommandIfAny, unqueueableCommand } from "../extensions/commands.ts";
import { commandContextFor, type ModeExtensions } from "../extensions/registries.ts";
import { sessionEntries, sessionTree } from "./rpc-entries.ts";
import { CommandSchema, COMMAND_TYPES, runCommand, type CommandContext } from "./rpc-commands.ts";
import { LineSplitter, MAX_LINE_BYTES, writeRecord } from "./rpc-framing.ts";
import { RpcUi, UiResponseSchema } from "./rpc-ui.ts";
import { toWireEvent } from "./wire-event.ts";

export interface RpcOptions {
  session: AgentSession;
  /** The run's resources now (a reload replaces them). */
  resources: () => LoadedResources;
  cwd: string;
  /** Runs after each command, before its response (diagnostics the command left behind). */
  afterCommand?: () => void;
  /** The run's Piglets (`get_piglets`, `set_piglet`). */
  piglets?: CommandContext["piglets"];
  /** Extension commands (`prompt` with "/name args" runs one) and the UI their handlers get. */
  extensions?: ModeExtensions;
  /** Where an extension's `ctx.shutdown()` is heard. */
  onShutdownRequest?: (listener: () => void) => void;
  /** Ends pig once a shutdown an extension asked for is due (the run closed, exit code 0). */
  leave?: () => Promise<void>;
}

type Json = Record<string, unknown>;

function respond(id: unknown, command: string, outcome: { data?: unknown } | { error: string }): void {
  const base = { ...(id !== undefined ? { id } : {}), type: "response", command };
  if ("error" in outcome) writeRecord({ ...base, success: false, error: outcome.error });
  else writeRecord({ ...base, success: true, ...(outcome.data !== undefined ? { data: outcome.data } : {}) });
}

function commandList(resources: LoadedResources, extensions: ModeExtensions | undefined): unknown[] {
  return [
    ...(extensions?.registries.commands.list() ?? []),
    ...resources.templates.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), source: "prompt", sourceInfo: t.sourceInfo })),
    ...resources.skills.map((s) => ({ name: `skill:${s.name}`, description: s.description, source: "skill", sourceInfo: s.sourceInfo })),
  ];
}

export async function runRpcMode(options: RpcOptions): Promise<number> {
  const { session } = options;
  const ui = new RpcUi(writeRecord);
  const { extensions } = options;
  extensions?.bindUi?.(ui);
  const unsubscribe = session.subscribe((event) => writeRecord(toWireEvent(event)));
  for (const report of extensions?.drainStartupErrors?.() ?? []) session.reportExtensionError(report);
  const inFlight = new Set<Promise<void>>();
  /** No command is being handled (an extension command's prompt has answered) and nothing runs. */
  const quiet = async (): Promise<void> => {
    for (;;) {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      await session.waitForIdle();
      if (inFlight.size === 0) return;
    }
  };
  // ctx.shutdown(), as upstream 1.x: at once when idle (from a timer, say); otherwise once the
  // command being handled has answered and the run has settled. Looked at on the next tick, so
  // the handler that asked is heard out first.
  options.onShutdownRequest?.(() => setImmediate(() => void quiet().then(() => options.leave?.())));

  const ctx: CommandContext = {
    session,
    async startPrompt(text, images, behavior) {
      // An extension command runs now, even while the agent works; the response waits for it.
      // Other text starts its run in this very tick (an abort in the same write must find it running).
      const commands = extensions?.registries.commands;
      if (commands?.match(text)) {
        await runCommandIfAny(commands, text, commandContextFor(extensions, ui), (failure) => writeRecord({ type: "extension_error", ...failure }));
        return "handled";
      }
      let accepted = (_disposition: InputDisposition): void => undefined;
      const acceptance = new Promise<InputDisposition>((resolve) => (accepted = resolve));
      const run = session.submit(text, {
        source: "rpc",
        ...(images ? { images } : {}),
        ...(behavior ? { streamingBehavior: behavior } : {}),
        onAccepted: (disposition) => accepted(disposition),
      });
      // Refused (no model, no key, busy): the response says why. Accepted (queued, taken by a
      // command, or running): the response goes out now; a later failure is reported as an event.
      const first = await Promise.race([acceptance, run.then(() => "done" as const)]);
      // Over before it was accepted (dropped on the way): no run started for it.
      if (first === "done") return "handled";
      run.catch((error: unknown) => writeRecord({ type: "prompt_error", error: error instanceof Error ? error.message : String(error) }));
      return first;
    },
    compact: (instructions) => session.compact(instructions),
    navigateTree: (c) =>
      session.navigateTree(c.targetId, {
        ...(c.summarize !== undefined ? { summarize: c.summarize } : {}),
        ...(c.customInstructions !== undefined ? { customInstructions: c.customInstructions } : {}),
        ...(c.replaceInstructions !== undefined ? { replaceInstructions: c.replaceInstructions } : {}),
        ...(c.label !== undefined ? { label: c.label } : {}),
      }),
    stats: () => session.stats(),
    exportHtml(outputPath) {
      const store = session.store;
      if (!store.path) throw new PromptError("Cannot export in-memory session to HTML");
      if (!store.isFlushed) throw new PromptError("Nothing to export yet - start a conversation first");
      const target = outputPath ?? defaultExportName(store.path);
      const path = isAbsolute(target) ? target : resolve(options.cwd, target);
      writeExportFile(path, exportSessionHtml(store, { presentCall: presentBuiltinCall }));
      return path;
    },
    commands: () => commandList(options.resources(), extensions),
    extensions: () => extensions?.status?.() ?? [],
    entries: (since) => sessionEntries(session.store, since),
    tree: () => sessionTree(session.store),
    abortRetry: () => session.abortRetry(),
    assertQueueable(text) {
      const refused = unqueueableCommand(extensions?.registries.commands, text);
      if (refused) throw new PromptError(refused);
    },
    ...(options.piglets ? { piglets: options.piglets } : {}),
    emit: writeRecord,
  };

  const handle = (line: string): void => {
    let parsed: unknown;
    try {
      if (!line.trim()) throw new Error("empty line");
      parsed = JSON.parse(line);
    } catch (error) {
      writeRecord({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${(error as Error).message}` });
      return;
    }
    const raw = (parsed ?? {}) as Json;
    if (raw.type === "extension_ui_response") {
      const response = v.safeParse(UiResponseSchema, raw);
      if (response.success) ui.receive(response.output);
      return;
    }
    const type = typeof raw.type === "string" ? raw.type : String(raw.type);
    if (!COMMAND_TYPES.has(type)) {
      respond(raw.id, type, { error: `Unknown command: ${type}` });
      return;
    }
    const checked = v.safeParse(CommandSchema, raw);
    if (!checked.success) {
      respond(raw.id, type, { error: `Invalid ${type} command: ${describeIssues(checked.issues)}` });
      return;
    }
    const work = runCommand(checked.output, ctx).then(
      (result) => {
        options.afterCommand?.();
        respond(raw.id, type, result);
      },
      (error: unknown) => {
        options.afterCommand?.();
        respond(raw.id, type, { error: error instanceof Error ? error.message : String(error) });
      },
    );
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  const splitter = new LineSplitter(handle, (bytes) =>
    writeRecord({
      type: "response",
      command: "parse",
      success: false,
      error: `Failed to parse command: the line is ${bytes} bytes, more than the ${MAX_LINE_BYTES}-byte limit`,
    }),
  );
  for await (const chunk of Bun.stdin.stream()) splitter.push(chunk);
  splitter.end();
  // End of input: finish what was asked, then leave.
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  await session.waitForIdle();
  unsubscribe();
  return 0;
}
