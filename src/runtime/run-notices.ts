/**
 * What pig tells the user about an extension using what pig holds — a built-in tool it replaces,
 * a provider with the user's credentials it points elsewhere — once per run. Notices raised
 * before a mode listens wait for it; then they go where the mode says (stderr in print, JSON and
 * RPC mode, a notice line in interactive mode).
 */
export class RunNotices {
  private readonly said = new Set<string>();
  private readonly waiting: string[] = [];
  private sink: ((text: string) => void) | undefined;

  say(text: string): void {
    if (this.said.has(text)) return;
    this.said.add(text);
    if (this.sink) this.sink(text);
    else this.waiting.push(text);
  }

  /** From now on notices go to `sink`; the ones waiting go first. */
  bind(sink: (text: string) => void): void {
    this.sink = sink;
    for (const text of this.waiting.splice(0)) sink(text);
  }
}
