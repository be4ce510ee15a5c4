"""Typed results for the events whose answer can change what pig does, and for tools.

Each has `to_wire()`, the JSON the protocol carries (fields left as None are left out). A
handler may also return a plain dict in the wire shape, or None for "nothing to say".
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal


def _wire(obj: Any, names: dict[str, str] | None = None) -> dict:
    names = names or {}
    out = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if value is None:
            continue
        out[names.get(f.name, f.name)] = to_wire(value)
    return out


def to_wire(value: Any) -> Any:
    """Any result (dataclass, list, dict, plain JSON) as JSON-ready data."""
    if hasattr(value, "to_wire"):
        return value.to_wire()
    if isinstance(value, list):
        return [to_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: to_wire(v) for k, v in value.items()}
    return value


def text(value: str) -> dict:
    """A text content block."""
    return {"type": "text", "text": value}


@dataclass
class ToolResult:
    """What a tool returns: `content` blocks (a str becomes one text block)."""
    content: list | str
    details: Any = None
    is_error: bool | None = None
    terminate: bool | None = None
    structured_content: Any = None  # Pi 1.x: data for programmatic callers, never sent to the model

    def to_wire(self) -> dict:
        content = [text(self.content)] if isinstance(self.content, str) else to_wire(self.content)
        out = _wire(self, {"is_error": "isError", "structured_content": "structuredContent"})
        out["content"] = content
        return out


@dataclass
class ToolCallResult:
    """`tool_call`: block the call (with a reason), or let it run with edited `input`."""
    block: bool | None = None
    reason: str | None = None
    input: dict | None = None

    def to_wire(self) -> dict:
        return _wire(self)


def block(reason: str) -> ToolCallResult:
    return ToolCallResult(block=True, reason=reason)


@dataclass
class ToolResultPatch:
    """`tool_result`: each field given replaces that field of the result."""
    content: list | None = None
    details: Any = None
    is_error: bool | None = None

    def to_wire(self) -> dict:
        return _wire(self, {"is_error": "isError"})


@dataclass
class MessagesResult:
    """`context` / `context_with_system`: the messages to send instead."""
    messages: list

    def to_wire(self) -> dict:
        return {"messages": to_wire(self.messages)}


ContextResult = MessagesResult


@dataclass
class InputContinue:
    def to_wire(self) -> dict:
        return {"action": "continue"}


@dataclass
class InputTransform:
    """`input`: go on with this text (and images) instead."""
    text: str
    images: list | None = None

    def to_wire(self) -> dict:
        return {"action": "transform", **_wire(self)}


@dataclass
class InputHandled:
    """`input`: the extension dealt with it; no run starts."""
    def to_wire(self) -> dict:
        return {"action": "handled"}


@dataclass
class CustomMessage:
    """A message of the extension's own type; `display` shows it to the person."""
    custom_type: str
    content: str | list
    display: bool = True
    details: Any = None

    def to_wire(self) -> dict:
        return _wire(self, {"custom_type": "customType"})


@dataclass
class BeforeAgentStartResult:
    """`before_agent_start`: a message to add, and/or a replacement system prompt."""
    message: CustomMessage | None = None
    messages: list | None = None
    system_prompt: str | None = None

    def to_wire(self) -> dict:
        return _wire(self, {"system_prompt": "systemPrompt"})


@dataclass
class MessageEndResult:
    """`message_end`: the message to keep instead (same role)."""
    message: dict

    def to_wire(self) -> dict:
        return {"message": to_wire(self.message)}


@dataclass
class Cancel:
    """`session_before_switch` / `_fork` / `_compact` / `_tree`: `cancel=True` stops it.

    `extra` carries the other fields some of them accept (`compaction`, `summary`, …).
    """
    cancel: bool = True
    extra: dict = field(default_factory=dict)

    def to_wire(self) -> dict:
        return {"cancel": self.cancel, **to_wire(self.extra)}


@dataclass
class CustomDraft:
    """A `custom` entry to append at a session boundary (never shown to the model)."""
    custom_type: str
    data: Any = None

    def to_wire(self) -> dict:
        return {"type": "custom", **_wire(self, {"custom_type": "customType"})}


@dataclass
class CustomMessageDraft:
    """A `custom_message` entry to append at a session boundary (the model reads it)."""
    custom_type: str
    content: str | list
    display: bool = True
    details: Any = None

    def to_wire(self) -> dict:
        return {"type": "custom_message", **_wire(self, {"custom_type": "customType"})}


@dataclass
class BoundaryResult:
    """`turn_end` / `agent_before_settle`: the drafts (the whole list) and whether to go on."""
    entries: list | None = None
    continue_: bool | None = None

    def to_wire(self) -> dict:
        return _wire(self, {"continue_": "continue"})


Level = Literal["info", "warning", "error"]
