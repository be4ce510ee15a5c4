"""What an extension can ask of pig (docs §6), as methods. Shared by `Extension` and `Context`."""
from __future__ import annotations

from typing import Any

from .exec import ExecResult, exec_command
from .peer import Peer
from .results import to_wire


def _drop_none(params: dict) -> dict:
    return {k: v for k, v in params.items() if v is not None}


class HostCalls:
    _peer: Peer
    cwd: str

    def append_entry(self, custom_type: str, data: Any = None) -> None:
        """A `custom` entry in the session file; the model never sees it."""
        self._peer.notify("session.appendEntry", _drop_none({"customType": custom_type, "data": to_wire(data)}))

    def send_message(self, custom_type: str, content: str | list, display: bool = True, details: Any = None,
                     trigger_turn: bool | None = None, deliver_as: str | None = None) -> None:
        """A custom message into the session (the model reads it as a user message)."""
        message = _drop_none({"customType": custom_type, "content": to_wire(content), "display": display, "details": to_wire(details)})
        options = _drop_none({"triggerTurn": trigger_turn, "deliverAs": deliver_as})
        self._peer.notify("agent.sendMessage", {"message": message, **({"options": options} if options else {})})

    def send_user_message(self, content: str | list, deliver_as: str | None = None) -> None:
        """A user message, as if typed; `deliver_as` "steer" or "followUp" while a run is going."""
        self._peer.notify("agent.sendUserMessage", _drop_none({"content": to_wire(content), "options": {"deliverAs": deliver_as} if deliver_as else None}))

    def set_session_name(self, name: str) -> None:
        self._peer.notify("session.setName", {"name": name})

    def set_label(self, entry_id: str, label: str | None = None) -> None:
        self._peer.notify("session.setLabel", _drop_none({"entryId": entry_id, "label": label}))

    async def set_model(self, provider: str, model_id: str) -> bool:
        """False when pig has no credentials for it."""
        return bool(((await self._peer.request("model.set", {"provider": provider, "id": model_id})) or {}).get("ok"))

    def set_thinking_level(self, level: str) -> None:
        self._peer.notify("thinking.set", {"level": level})

    def set_active_tools(self, names: list[str]) -> None:
        self._peer.notify("tools.setActive", {"names": names})

    async def compact(self, custom_instructions: str | None = None) -> None:
        await self._peer.request("agent.compact", _drop_none({"customInstructions": custom_instructions}))

    def abort(self) -> None:
        self._peer.notify("agent.abort", {})

    async def wait_for_idle(self) -> None:
        await self._peer.request("agent.waitForIdle", {})

    async def context_usage(self) -> dict | None:
        return await self._peer.request("context.usage", {})

    def emit(self, channel: str, data: Any = None) -> None:
        """To the other extensions' `bus.message` listeners."""
        self._peer.notify("bus.emit", _drop_none({"channel": channel, "data": to_wire(data)}))

    async def exec(self, command: str, args: list[str] | None = None, cwd: str | None = None, timeout: float | None = None) -> ExecResult:
        """Runs a program (no shell) in the session's cwd unless told otherwise."""
        return await exec_command(command, args, cwd or self.cwd, timeout)

    async def call(self, method: str, params: dict | None = None) -> Any:
        """Any other method of the protocol, as a request (e.g. `session.new` from a command)."""
        return await self._peer.request(method, params or {})
