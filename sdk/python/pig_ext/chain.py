"""One extension's handlers for one event, combined as pig combines extensions (docs §3).

Each event combines its answers by one of a few rules (the last column of the docs' event
table); `RULES` names this SDK's choice for each event, and the tests hold it to pig's table
(test/fixtures/extension-events/events.json) and run pig's chaining cases through `run_chain`.
The next handler sees the payload with the previous one's changes; the answer sent back is
the combination. A handler that raises is reported and skipped, except in `tool_call`, where
it blocks (a permission check that fails must not let the call through): the error answer is
then its report.
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable

from .results import to_wire

Run = Callable[[Callable, dict], Awaitable[Any]]
Report = Callable[[BaseException], None]

RULES: dict[str, str] = {
    "project_trust": "first-that-decides",
    "resources_discover": "collect",
    "session_start": "ignore",
    "session_before_switch": "cancel-or-last",
    "session_before_fork": "cancel-or-last",
    "session_before_compact": "cancel-or-last",
    "session_shutdown": "ignore",
    "session_before_tree": "cancel-or-last",
    "context": "replace-field",
    "context_with_system": "replace-field",
    "cache_warming_decision": "patch-fields",
    "before_provider_request": "replace-payload",
    "before_provider_headers": "merge-objects",
    "before_agent_start": "collect-messages-pass-prompt",
    "agent_before_settle": "boundary",
    "turn_end": "boundary",
    "message_end": "replace-field",
    "user_bash": "first-that-decides",
    "input": "handled-or-transform",
    "tool_call": "block-or-edit",
    "tool_result": "patch-fields",
}

# The field each rule that works on one (or a few) reads.
_FIELDS: dict[str, tuple] = {
    "context": ("messages",),
    "context_with_system": ("messages",),
    "message_end": ("message",),
    "before_provider_request": ("payload",),
    "before_provider_headers": ("headers",),
    "tool_result": ("content", "details", "structuredContent", "isError"),
    "cache_warming_decision": ("action",),
    "resources_discover": ("skillPaths", "promptPaths", "themePaths"),
    "user_bash": ("result",),
    "project_trust": ("trusted",),
}
_DECIDING_VALUES: dict[str, tuple] = {"project_trust": ("yes", "no")}


class Blocked(Exception):
    """A `tool_call` handler failed: the call is blocked with this reason."""


async def run_chain(event: str, payload: dict, handlers: list, run: Run, report: Report) -> Any:
    rule = RULES.get(event, "ignore")
    fields = _FIELDS.get(event, ())
    payload = dict(payload)
    changed: dict = {}
    collected: dict[str, list] = {}
    messages: list = []
    last: Any = None
    headers_before: dict = {}
    if rule == "merge-objects":
        payload[fields[0]] = dict(payload.get(fields[0]) or {})
        headers_before = dict(payload[fields[0]])
    for handler in handlers:
        try:
            result = to_wire(await run(handler, payload))
        except Exception as error:  # noqa: BLE001 — every handler failure is reported
            if rule == "block-or-edit":
                raise Blocked(f"{type(error).__name__}: {error}") from error
            report(error)
            continue
        if result is None or rule == "ignore":
            continue
        if rule == "block-or-edit":
            if result.get("block"):
                return result
            if "input" in result:
                payload["input"] = changed["input"] = result["input"]
        elif rule == "handled-or-transform":
            action = result.get("action")
            if action == "handled":
                return result
            if action == "transform":
                payload["text"] = changed["text"] = result.get("text", payload.get("text"))
                if result.get("images") is not None:
                    payload["images"] = result["images"]
        elif rule == "replace-field":
            if result.get(fields[0]):
                payload[fields[0]] = changed[fields[0]] = result[fields[0]]
        elif rule == "replace-payload":
            payload[fields[0]] = changed[fields[0]] = result
        elif rule == "patch-fields":
            for key in fields:
                if key in result:
                    payload[key] = changed[key] = result[key]
        elif rule == "merge-objects":
            if isinstance(result.get(fields[0]), dict):
                payload[fields[0]].update(result[fields[0]])
        elif rule == "collect":
            for key in fields:
                if result.get(key):
                    collected.setdefault(key, []).extend(result[key])
        elif rule == "collect-messages-pass-prompt":
            messages += result.get("messages") or ([result["message"]] if result.get("message") else [])
            if result.get("systemPrompt"):
                payload["systemPrompt"] = changed["systemPrompt"] = result["systemPrompt"]
        elif rule == "boundary":
            for key in ("entries", "continue"):
                if key in result:
                    payload[key] = changed[key] = result[key]
        elif rule == "first-that-decides":
            value = result.get(fields[0])
            if value is not None and (event not in _DECIDING_VALUES or value in _DECIDING_VALUES[event]):
                return result
        elif rule == "cancel-or-last":
            if result.get("cancel"):
                return result
            last = result
    return _answer(rule, fields, payload, changed, collected, messages, last, headers_before)


def _answer(rule: str, fields: tuple, payload: dict, changed: dict, collected: dict, messages: list, last: Any, before: dict) -> Any:
    if rule == "cancel-or-last":
        return last
    if rule == "replace-payload":
        return changed.get(fields[0])
    if rule == "collect":
        return collected or None
    if rule == "merge-objects":
        current = payload[fields[0]]
        changes = {k: v for k, v in current.items() if k not in before or before[k] != v}
        changes.update({k: None for k in before if k not in current})
        return {fields[0]: changes} if changes else None
    if not changed and not messages:
        return None
    if rule == "handled-or-transform":
        return {"action": "transform", "text": payload["text"], **({"images": payload["images"]} if payload.get("images") is not None else {})}
    if rule == "collect-messages-pass-prompt":
        out: dict = {}
        if messages:
            out["message"] = messages[0]
        if len(messages) > 1:
            out["messages"] = list(messages)
        if "systemPrompt" in changed:
            out["systemPrompt"] = changed["systemPrompt"]
        return out
    if rule == "boundary":
        return {"entries": payload.get("entries", []), "continue": payload.get("continue", False)}
    return changed
