/**
 * Upstream's event streams as `pi-ai` exports them: an async-iterable queue of events with a
 * final result, and the assistant-message stream every model call returns. Small and free of
 * imports, so what the runner loads at start-up (`ctx.modelRegistry`) can make one.
 */

type Json = Record<string, unknown>;

/** An async-iterable queue of events with a final result, like upstream's EventStream. */
export class EventStream<E = unknown, R = unknown> implements AsyncIterable<E> {
  private queue: E[] = [];
  private waiters: ((r: IteratorResult<E>) => void)[] = [];
  private done = false;
  private final!: Promise<R>;
  private settle!: (r: R) => void;

  constructor(
    private readonly isComplete: (e: E) => boolean = () => false,
    private readonly extract: (e: E) => R = (e) => e as unknown as R,
  ) {
    this.final = new Promise<R>((resolve) => (this.settle = resolve));
  }

  push(event: E): void {
    if (this.done) return;
    if (this.isComplete(event)) {
      this.done = true;
      this.settle(this.extract(event));
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter({ value: event, done: false });
    else this.queue.push(event);
    if (this.done) for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
  }

  end(result?: R): void {
    this.done = true;
    if (result !== undefined) this.settle(result);
    for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
  }

  result(): Promise<R> {
    return this.final;
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return {
      next: () => {
        const value = this.queue.shift();
        if (value !== undefined) return Promise.resolve({ value, done: false });
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiters.push(resolve));
      },
    };
  }
}

export class AssistantMessageEventStream extends EventStream<Json, Json> {
  constructor() {
    super(
      (e) => e.type === "done" || e.type === "error",
      (e) => (e.type === "done" ? (e.message as Json) : (e.error as Json)),
    );
  }
}

export function createAssistantMessageEventStream(): AssistantMessageEventStream {
  return new AssistantMessageEventStream();
}
