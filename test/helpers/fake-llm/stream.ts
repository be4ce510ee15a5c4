/**
 * Turns prepared SSE frames into a streaming response body with the script's timing faults:
 * a delay between frames, a stall (hang until the client leaves) or a hard disconnect.
 */

export interface StreamTiming {
  chunkDelayMs: number;
  /** Frame i no earlier than `i × chunkIntervalMs` after the first frame (the schedule does not drift). */
  chunkIntervalMs?: number;
  /** Send this many frames, then nothing until the client disconnects. */
  stallAfterChunks: number | undefined;
  /** While stalled, send `text` every `everyMs` instead of nothing (keep-alives that carry no answer). */
  stallKeepAlive?: { text: string; everyMs: number };
  /** Send this many frames, then drop the connection. */
  disconnectAfterChunks: number | undefined;
  /** Drop a disconnecting stream only when told (server close or `dropOpenStreams`), not after a grace. */
  holdDisconnect?: boolean;
}

/** Lets the server end streams that would otherwise hang forever (stalls) when it closes. */
export interface OpenStreams {
  add(release: () => void): void;
  delete(release: () => void): void;
}

const encoder = new TextEncoder();
const DISCONNECT_GRACE_MS = 100;

export function frameStream(frames: (string | Uint8Array)[], timing: StreamTiming, open: OpenStreams): ReadableStream<Uint8Array> {
  let next = 0;
  let firstSentAt = 0;
  let stopped = false;
  let wake: () => void = () => {};
  const woken = new Promise<void>((resolve) => {
    wake = resolve;
  });
  // Called on client cancel and on server close; wakes a stalled or sleeping pull.
  const stop = () => {
    stopped = true;
    open.delete(stop);
    wake();
  };
  open.add(stop);
  // Erroring a streaming body makes Bun reset the connection (RST) without the terminating empty
  // chunk, so the client sees a truncated response (Bun fetch: ECONNRESET, undici: "terminated").
  // An `undefined` reason keeps Bun from logging it; on a cancelled stream it is a no-op.
  const drop = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    stop();
    controller.error(undefined);
  };
  // Give the client time to read what it has already received before the connection goes:
  // Bun discards body bytes it has not written yet when the body errors (erroring right after an
  // enqueue lost the whole response), and Bun's fetch discards body bytes it has received but not
  // yet handed to JS when the connection closes early (measured under load: ~15% of streams
  // lost their chunks with a 1 ms wait, none in 900 with 100 ms).
  // A test that asserts what arrived before the cut holds the drop until it has seen that.
  const flushThenDrop = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    await (timing.holdDisconnect ? woken : Promise.race([Bun.sleep(DISCONNECT_GRACE_MS), woken]));
    drop(controller);
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stopped) return drop(controller);
      // With nothing sent yet, drop at once: the client gets no response at all. (Waiting here
      // would let Bun write a torn header block, which clients read inconsistently.)
      if (next === timing.disconnectAfterChunks) return next === 0 ? drop(controller) : flushThenDrop(controller);
      if (next === timing.stallAfterChunks && timing.stallKeepAlive) {
        // Pull comes back here once the text is taken, until the client leaves.
        await Promise.race([Bun.sleep(timing.stallKeepAlive.everyMs), woken]);
        if (stopped) return drop(controller);
        controller.enqueue(encoder.encode(timing.stallKeepAlive.text));
        return;
      }
      if (next === timing.stallAfterChunks) {
        // Pull is not called again while this one is pending, so the connection idles (the
        // server runs with idleTimeout 0) until the client leaves or the server closes.
        await woken;
        return drop(controller);
      }
      if (next === frames.length) {
        stop();
        controller.close();
        return;
      }
      if (next > 0 && timing.chunkDelayMs > 0) {
        await Promise.race([Bun.sleep(timing.chunkDelayMs), woken]);
        if (stopped) return drop(controller);
      }
      if (next === 0) firstSentAt = performance.now();
      else if (timing.chunkIntervalMs !== undefined) {
        const wait = firstSentAt + next * timing.chunkIntervalMs - performance.now();
        if (wait > 0) await Promise.race([Bun.sleep(wait), woken]);
        if (stopped) return drop(controller);
      }
      const frame = frames[next++] ?? "";
      controller.enqueue(typeof frame === "string" ? encoder.encode(frame) : frame);
    },
    cancel() {
      stop();
    },
  });
}
