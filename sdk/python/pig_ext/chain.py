"""One extension's handlers for one event, combined as pig combines extensions (docs §3).

The next handler sees the payload with the previous one's changes; the answer sent back is
the combination. A handler that raises is reported and skipped, except in `tool_call`, where
it blocks (a permission check that fails must not let the call through).
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable

from .results import to_wire

Run = Callable[[Callable, dict], Awaitable[Any]]
Report = Callable[[BaseException], None]


class Blocked(Exception):
    """A `tool_call` handler failed: the call is blocked with this reason."""


async def run_chain(event: str, payload: dict, handlers: list, run: Run, report: Report) -> Any:
    payload = dict(payload)
    answer: dict | None = None
    collected: list = []
    for handler in handlers:
        try:
            result = to_wire(await run(handler, payload))
        except Exception as error:  # noqa: BLE001 — every handler failure is reported
            report(error)
            if event == "tool_call":
                raise Blocked(f"{type(error).__name__}: {error}") from error
            continue
        if result is None:
            continue
        if event == "tool_call":
            if result.get("block"):
                return result
            if "input" in result:
                payload["input"] = result["input"]
                answer = {"input": result["input"]}
        elif event == "input":
            action = result.get("action")
            if action == "handled":
                return result
            if action == "transform":
                payload["text"] = result.get("text", payload.get("text"))
                if "images" in result:
                    payload["images"] = result["images"]
                answer = result
        elif event in ("context", "context_with_system", "message_end", "before_provider_headers"):
            key = "message" if event == "message_end" else "headers" if event == "before_provider_headers" else "messages"
            if key in result:
                payload[key] = result[key]
                answer = {key: result[key]} if event != "before_provider_headers" else {**(answer or {}), **result}
        elif event == "before_provider_request":
            payload["payload"] = result
            answer = result
        elif event == "tool_result":
            for key in ("content", "details", "isError"):
                if key in result:
                    payload[key] = result[key]
            answer = {**(answer or {}), **result}
        elif event == "before_agent_start":
            collected += result.get("messages") or ([result["message"]] if result.get("message") else [])
            if result.get("systemPrompt"):
                payload["systemPrompt"] = result["systemPrompt"]
            answer = {"systemPrompt": payload["systemPrompt"]} if result.get("systemPrompt") or (answer or {}).get("systemPrompt") else {}
            if collected:
                answer.update({"messages": list(collected), "message": collected[0]})
        elif event.startswith("session_before_"):
            if result.get("cancel"):
                return result
            answer = result
        elif event in ("turn_end", "agent_before_settle"):
            for key in ("entries", "continue"):
                if key in result:
                    payload[key] = result[key]
            answer = {"entries": payload.get("entries", []), "continue": payload.get("continue", False)}
        elif event == "user_bash":
            if result.get("result") is not None:
                return result
        elif event == "resources_discover":
            answer = answer or {}
            for key in ("skillPaths", "promptPaths", "themePaths"):
                if result.get(key):
                    answer[key] = answer.get(key, []) + list(result[key])
        else:
            answer = result
    return answer
