/**
 * A scripted `InteractiveHost` over a real session (temp agent and session
 * directories, a model that answers from a list): commands run exactly as in the app, and the
 * test reads what was printed and which dialogs were opened.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { replacesConversation } from "../../../src/modes/interactive/session-changes.ts";
import { AgentSession } from "../../../src/agent/session.ts";
import { ModelRegistry } from "../../../src/ai/registry.ts";
import { newAssistantMessage, type AssistantMessageEvent, type StreamFunction } from "../../../src/ai/types.ts";
import type { LoadedResources } from "../../../src/resources/load-resources.ts";
import { SettingsStore } from "../../../src/resources/settings-store.ts";
import { SessionStore } from "../../../src/session/store.ts";
import type { InteractiveHost, PickOption } from "../../../src/modes/interactive/host.ts";
import { loadTheme } from "../../../src/modes/interactive/theme.ts";
import type { TranscriptStyle } from "../../../src/modes/interactive/render/transcript.ts";
import { KeyBindings } from "../../../src/modes/interactive/input/keybindings.ts";
import { tempDir } from "../../helpers/tmp.ts";
import type { SessionTreeModel } from "../../../src/modes/interactive/tree/tree-rows.ts";
import type { LoginIO, SubscriptionLogin } from "../../../src/ai/oauth/types.ts";
import type { AskConfig } from "../../../src/modes/interactive/dialogs.ts";
import type { SubscriptionLogins } from "../../../src/modes/interactive/login/subscriptions.ts";

/** Subscription logins whose flow is the test's own function (what it asks and tells, what it stores). */
export class FakeSubscriptions implements SubscriptionLogins {
  logins: SubscriptionLogin[] = [];
  flow: (provider: string, io: LoginIO, authPath: string) => Promise<void> = async () => {
    throw new Error("no flow scripted");
  };
  readonly signIns: string[] = [];
  list(): readonly SubscriptionLogin[] {
    return this.logins;
  }
  signIn(provider: string, io: LoginIO, authPath: string): Promise<void> {
    this.signIns.push(provider);
    return this.flow(provider, io, authPath);
  }
}

/** A model that answers each request with the next text of `replies` ("ok" when they run out). */
export function scriptedStream(replies: string[]): StreamFunction {
  return async function* (model): AsyncIterable<AssistantMessageEvent> {
    const text = replies.shift() ?? "ok";
    const message = newAssistantMessage(model);
    message.content.push({ type: "text", text });
    message.usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 } };
    message.stopReason = "stop";
    yield { type: "start", partial: message };
    yield { type: "done", reason: "stop", message };
  };
}

export interface TestRuntime {
  session: AgentSession;
  registry: ModelRegistry;
  settings: SettingsStore;
  agentDir: string;
  sessionDir: string;
  cwd: string;
  replies: string[];
}

/**
 * Two models of provider "test" (alpha reasons, beta does not), keyed through models.json; the
 * session starts on test/alpha, or on `model` (a built-in one has no key: the environment is empty).
 */
export function makeRuntime(options: { inMemory?: boolean; model?: { provider: string; id: string } } = {}): TestRuntime {
  const agentDir = tempDir();
  const sessionDir = tempDir();
  const cwd = tempDir();
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        test: {
          baseUrl: "http://127.0.0.1:9",
          api: "openai-completions",
          apiKey: "k",
          models: [
            { id: "alpha", reasoning: true, contextWindow: 200000, input: ["text", "image"] },
            { id: "beta", contextWindow: 32000 },
          ],
        },
      },
    }),
  );
  const registry = new ModelRegistry({ agentDir, env: {} });
  const settings = SettingsStore.load({ agentDir, cwd, includeProject: false });
  const store = SessionStore.create({ cwd, ...(options.inMemory ? {} : { dir: sessionDir }) });
  const replies: string[] = [];
  const stream = scriptedStream(replies);
  const session = new AgentSession({
    store,
    registry,
    model: options.model ? registry.find(options.model.provider, options.model.id) : registry.find("test", "alpha"),
    thinkingLevel: "medium",
    tools: [],
    systemSections: () => ({ preamble: "system" }),
    cwd,
    agentDir,
    retry: { enabled: false, maxRetries: 0, baseDelayMs: 1, provider: { maxRetryDelayMs: 0 } },
    compaction: { enabled: false, reserveTokens: 100, keepRecentTokens: 1 },
    streamFor: () => stream,
    settings,
    sessionDir: options.inMemory ? undefined : sessionDir,
  });
  return { session, registry, settings, agentDir, sessionDir, cwd, replies };
}

/** A pick answer: the option whose label contains the text, an exact value, or a cancel. */
export type PickAnswer = { label: string } | { value: unknown } | "cancel";

export interface PickCall {
  message: string;
  options: PickOption<unknown>[];
  config?: { search?: boolean; initial?: unknown };
}

export class FakeHost implements InteractiveHost {
  readonly output: string[] = [];
  readonly picks: PickCall[] = [];
  readonly confirms: string[] = [];
  readonly asks: { message: string; config?: AskConfig }[] = [];
  pickAnswers: PickAnswer[] = [];
  confirmAnswers: boolean[] = [];
  askAnswers: (string | undefined)[] = [];
  editorText = "";
  changes = 0;
  reloads = 0;
  exited = false;
  readonly theme = loadTheme("dark", [], false).theme;
  keybindings = KeyBindings.defaults();
  readonly themesApplied: string[] = [];
  readonly subscriptions = new FakeSubscriptions();
  /** The controller of the running `cancellable` (a test aborts it as Escape would). */
  cancelling: AbortController | undefined;
  async cancellable<T>(run: (cancel: AbortController) => Promise<T>): Promise<T> {
    const cancel = new AbortController();
    this.cancelling = cancel;
    try {
      return await run(cancel);
    } finally {
      this.cancelling = undefined;
    }
  }
  applyTheme(name: string): void {
    this.themesApplied.push(name);
  }
  resources: LoadedResources = { contextFiles: [], skills: [], templates: [], themes: [], diagnostics: [] };

  constructor(
    readonly runtime: TestRuntime,
    private readonly noSessionDir = false,
  ) {
    // As the interactive mode does: the conversation is shown again after every replacement.
    runtime.session.onSessionChange((change) => {
      if (replacesConversation(change)) this.changes++;
    });
  }

  get session() {
    return this.runtime.session;
  }
  get registry() {
    return this.runtime.registry;
  }
  get settings() {
    return this.runtime.settings;
  }
  get agentDir() {
    return this.runtime.agentDir;
  }
  get cwd() {
    return this.runtime.cwd;
  }
  get sessionDir() {
    return this.noSessionDir ? undefined : this.runtime.sessionDir;
  }

  /** Everything printed, one string. */
  get text(): string {
    return this.output.join("\n");
  }

  print(text: string): void {
    this.output.push(text);
  }
  info(message: string): void {
    this.output.push(`info: ${message}`);
  }
  warn(message: string): void {
    this.output.push(`warn: ${message}`);
  }
  error(message: string): void {
    this.output.push(`error: ${message}`);
  }
  getEditorText(): string {
    return this.editorText;
  }
  setEditorText(text: string): void {
    this.editorText = text;
  }

  async pick<T>(message: string, options: PickOption<T>[], config?: { search?: boolean; initial?: T }): Promise<T | undefined> {
    this.picks.push({ message, options: options as PickOption<unknown>[], ...(config ? { config } : {}) });
    const answer = this.pickAnswers.shift();
    if (answer === undefined) throw new Error(`unexpected pick: ${message}`);
    if (answer === "cancel") return undefined;
    const found = "label" in answer ? options.find((o) => o.label.includes(answer.label)) : options.find((o) => o.value === answer.value);
    if (!found) throw new Error(`no option ${JSON.stringify(answer)} in "${message}": ${options.map((o) => o.label).join(" | ")}`);
    return found.value;
  }
  /** Answers for the tree picker: the entry chosen (by the tree it was shown), or undefined to cancel. */
  treeAnswers: ((tree: SessionTreeModel, setLabel: (entryId: string, label: string | undefined) => void) => string | undefined)[] = [];
  readonly treePicks: SessionTreeModel[] = [];
  async pickInTree(tree: SessionTreeModel, setLabel: (entryId: string, label: string | undefined) => void): Promise<string | undefined> {
    this.treePicks.push(tree);
    const answer = this.treeAnswers.shift();
    if (answer === undefined) throw new Error("unexpected tree picker");
    return answer(tree, setLabel);
  }

  /** Answers for pickMany: the values chosen, or "cancel". */
  pickManyAnswers: (unknown[] | "cancel")[] = [];
  readonly pickManyCalls: { message: string; options: PickOption<unknown>[]; initial: readonly unknown[] }[] = [];
  async pickMany<T>(message: string, options: PickOption<T>[], initial: readonly T[]): Promise<T[] | undefined> {
    this.pickManyCalls.push({ message, options: options as PickOption<unknown>[], initial });
    const answer = this.pickManyAnswers.shift();
    if (answer === undefined) throw new Error(`unexpected pickMany: ${message}`);
    if (answer === "cancel") return undefined;
    return options.filter((o) => answer.some((a) => JSON.stringify(a) === JSON.stringify(o.value))).map((o) => o.value);
  }
  async confirm(message: string, _initial?: boolean): Promise<boolean> {
    this.confirms.push(message);
    const answer = this.confirmAnswers.shift();
    if (answer === undefined) throw new Error(`unexpected confirm: ${message}`);
    return answer;
  }
  async ask(message: string, config?: AskConfig): Promise<string | undefined> {
    this.asks.push({ message, ...(config ? { config } : {}) });
    if (this.askAnswers.length === 0) throw new Error(`unexpected ask: ${message}`);
    return this.askAnswers.shift();
  }

  displaySettingsApplied = 0;
  applyDisplaySettings(): void {
    this.displaySettingsApplied++;
  }

  /** 80 columns, as a terminal that says nothing of its size. */
  transcriptStyle(): TranscriptStyle {
    return { theme: this.theme, width: 79, showThinking: true, codeBlockIndent: "  ", hyperlinks: false };
  }

  expanded: (number | "all")[] = [];
  expandResult(number: number): boolean {
    this.expanded.push(number);
    return number === 1;
  }
  toggleResults(): void {
    this.expanded.push("all");
  }
  async reload(): Promise<void> {
    this.reloads++;
  }
  exit(): void {
    this.exited = true;
  }
}

export function makeHost(options: { inMemory?: boolean; noSessionDir?: boolean; model?: { provider: string; id: string } } = {}): FakeHost {
  return new FakeHost(makeRuntime(options), options.noSessionDir ?? false);
}
