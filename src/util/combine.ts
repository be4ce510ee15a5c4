/**
 * The combinators of the event table (extension-events.ts), each written once: how the answers
 * to one event add up, whether they come from several handlers of one extension (the runner) or
 * from several extensions (the host). Both walk their answerers and hand each answer to the same
 * chain, so the two cannot drift; what is not combining (checking an answer's shape, failing
 * closed, previewing a boundary) stays with them, around the step.
 *
 * A chain owns the payload it is started with: the next answerer is shown `payload`, and a step
 * changes it as the rule says. Upstream's handlers may also edit it in place (a tool call's
 * `input`, the provider's `headers`); a step takes those edits in first.
 */
import type { Combinator } from "./extension-events.ts";

type Json = Record<string, unknown>;

export interface Chain {
  /** The payload as the answers so far left it: what the next answerer sees. */
  readonly payload: Json;
  /** Takes one answer (`undefined` or `null`: none); true when the chain ends with it. */
  step(answer: unknown): boolean;
  /** The answers combined, as one extension answers pig (`null`: nothing to say). */
  result(): unknown;
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A failing answerer blocks instead of being skipped (a permission check must not let a call through). */
export function failureEndsChain(combine: Combinator): boolean {
  return combine.rule === "block-or-edit";
}

/** A chain for one event's answers, combined by `combine`, starting from `payload` (which it changes). */
export function startChain(combine: Combinator, payload: Json): Chain {
  switch (combine.rule) {
    case "ignore":
      return { payload, step: () => false, result: () => null };
    case "first-that-decides": {
      let decided: unknown = null;
      return {
        payload,
        step(answer) {
          const value = isObject(answer) ? answer[combine.field] : undefined;
          if (value === undefined || value === null) return false;
          if (combine.values && !combine.values.includes(value as string)) return false;
          decided = answer;
          return true;
        },
        result: () => decided,
      };
    }
    case "cancel-or-last": {
      let last: unknown = null;
      return {
        payload,
        step(answer) {
          if (answer !== undefined && answer !== null) last = answer;
          return isObject(answer) && answer.cancel === true;
        },
        result: () => last,
      };
    }
    case "block-or-edit":
      return blockOrEdit(payload);
    case "handled-or-transform": {
      let handled = false;
      let transformed = false;
      return {
        payload,
        step(answer) {
          if (!isObject(answer)) return false;
          if (answer.action === "handled") return (handled = true);
          if (answer.action === "transform") {
            payload.text = answer.text;
            if (answer.images !== undefined) payload.images = answer.images;
            transformed = true;
          }
          return false;
        },
        result() {
          if (handled) return { action: "handled" };
          if (!transformed) return null;
          return { action: "transform", text: payload.text, ...(payload.images !== undefined ? { images: payload.images } : {}) };
        },
      };
    }
    case "replace-field": {
      let changed = false;
      return {
        payload,
        step(answer) {
          if (isObject(answer) && answer[combine.field]) [payload[combine.field], changed] = [answer[combine.field], true];
          return false;
        },
        result: () => (changed ? { [combine.field]: payload[combine.field] } : null),
      };
    }
    case "replace-payload": {
      // Upstream takes any answer but `undefined`; the wire has no `undefined` and says nothing with `null`.
      let changed = false;
      return {
        payload,
        step(answer) {
          if (answer !== undefined) [payload[combine.field], changed] = [answer, true];
          return false;
        },
        result: () => (changed ? payload[combine.field] : null),
      };
    }
    case "patch-fields": {
      const patch: Json = {};
      return {
        payload,
        step(answer) {
          if (!isObject(answer)) return false;
          for (const key of combine.fields) if (answer[key] !== undefined) payload[key] = patch[key] = answer[key];
          return false;
        },
        result: () => (Object.keys(patch).length > 0 ? patch : null),
      };
    }
    case "merge-objects":
      return mergeObjects(payload, combine.field);
    case "collect": {
      const out: Record<string, unknown[]> = {};
      return {
        payload,
        step(answer) {
          if (!isObject(answer)) return false;
          for (const key of combine.fields) if (Array.isArray(answer[key])) (out[key] ??= []).push(...(answer[key] as unknown[]));
          return false;
        },
        result: () => (Object.keys(out).length > 0 ? out : null),
      };
    }
    case "collect-messages-pass-prompt": {
      const messages: unknown[] = [];
      let promptChanged = false;
      // Upstream's handlers edit `systemPromptOptions` in place; what they leave is told when it differs.
      const optionsAtStart = JSON.stringify(payload.systemPromptOptions);
      return {
        payload,
        step(answer) {
          if (!isObject(answer)) return false;
          // An extension with several handlers answers with `messages` (all of them; `message` is its first).
          const added = Array.isArray(answer.messages) ? answer.messages : answer.message ? [answer.message] : [];
          messages.push(...(added as unknown[]));
          if (typeof answer.systemPrompt === "string" && answer.systemPrompt) [payload.systemPrompt, promptChanged] = [answer.systemPrompt, true];
          // Another process's edits come back as its answer's options: the next one sees them.
          if (isObject(answer.systemPromptOptions)) payload.systemPromptOptions = answer.systemPromptOptions;
          return false;
        },
        result() {
          const optionsChanged = payload.systemPromptOptions !== undefined && JSON.stringify(payload.systemPromptOptions) !== optionsAtStart;
          if (messages.length === 0 && !promptChanged && !optionsChanged) return null;
          return {
            ...(messages[0] ? { message: messages[0] } : {}),
            ...(messages.length > 1 ? { messages: [...messages] } : {}),
            ...(promptChanged ? { systemPrompt: payload.systemPrompt } : {}),
            ...(optionsChanged ? { systemPromptOptions: payload.systemPromptOptions } : {}),
          };
        },
      };
    }
    case "boundary": {
      payload.entries = Array.isArray(payload.entries) ? payload.entries : [];
      payload.continue = payload.continue === true;
      let changed = false;
      return {
        payload,
        step(answer) {
          if (!isObject(answer)) return false;
          if (Array.isArray(answer.entries)) [payload.entries, changed] = [answer.entries, true];
          if (typeof answer.continue === "boolean") [payload.continue, changed] = [answer.continue, true];
          return false;
        },
        result: () => (changed ? { entries: payload.entries, continue: payload.continue } : null),
      };
    }
  }
}

/**
 * `tool_call`: `block` ends the chain and is the result. Upstream's handlers edit `input` in
 * place; across the socket an extension answers the edited `input`, which replaces the contents
 * of the same object (the agent holds on to it), so the next answerer sees it either way.
 */
function blockOrEdit(payload: Json): Chain {
  const before = JSON.stringify(payload.input);
  let blocked: Json | undefined;
  return {
    payload,
    step(answer) {
      if (!isObject(answer)) return false;
      if (isObject(answer.input) && isObject(payload.input)) replaceContents(payload.input, answer.input);
      if (!answer.block) return false;
      blocked = answer;
      return true;
    },
    result() {
      if (blocked) return blocked;
      return JSON.stringify(payload.input) !== before ? { input: payload.input } : null;
    },
  };
}

function replaceContents(target: Json, source: Json): void {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  Object.assign(target, source);
}

/**
 * `before_provider_headers`: each answer's changes (`null` deletes; names compared without case)
 * apply to the object the next answerer sees, and add up, a later one winning per name. Edits
 * made in place since the last step count as changes too.
 */
function mergeObjects(payload: Json, field: string): Chain {
  if (!isObject(payload[field])) payload[field] = {};
  const changes: Record<string, string | null> = {};
  let seen: Json = { ...(payload[field] as Json) };
  const apply = (target: Json, name: string, value: unknown): void => {
    const lower = name.toLowerCase();
    for (const key of Object.keys(target)) if (key.toLowerCase() === lower) delete target[key];
    for (const key of Object.keys(changes)) if (key.toLowerCase() === lower) delete changes[key];
    const text = value === null || value === undefined ? null : typeof value === "string" ? value : String(value);
    if (text !== null) target[name] = text;
    changes[name] = text;
  };
  const takeInPlaceEdits = (current: Json): void => {
    const edits: Array<[string, unknown]> = [];
    for (const [name, value] of Object.entries(current)) if (seen[name] !== value) edits.push([name, value]);
    for (const name of Object.keys(seen)) if (!Object.hasOwn(current, name)) edits.push([name, null]);
    for (const [name, value] of edits) apply(current, name, value);
  };
  return {
    payload,
    step(answer) {
      const current = isObject(payload[field]) ? (payload[field] as Json) : (payload[field] = {});
      takeInPlaceEdits(current);
      const returned = isObject(answer) ? answer[field] : undefined;
      if (isObject(returned)) for (const [name, value] of Object.entries(returned)) apply(current, name, value);
      seen = { ...current };
      return false;
    },
    result() {
      if (isObject(payload[field])) takeInPlaceEdits(payload[field] as Json);
      return Object.keys(changes).length > 0 ? { [field]: { ...changes } } : null;
    },
  };
}
