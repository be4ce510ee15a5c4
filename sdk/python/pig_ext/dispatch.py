"""What pig asks of an extension (events, tools, commands, completions, shortcuts) and what
it tells it (state, bus messages, shutdown), routed to the handlers the extension registered."""
from __future__ import annotations

import asyncio
import inspect
import sys
import traceback
from typing import TYPE_CHECKING, Any, Callable

from .chain import Blocked, run_chain
from .context import Context
from .peer import HANDLER_FAILED, Peer, Request, RpcError
from .results import ToolResult, to_wire

if TYPE_CHECKING:
    from .registered import Registered


async def call(fn: Callable, *args: Any) -> Any:
    """Calls a handler that may be a plain function or a coroutine function."""
    result = fn(*args)
    return await result if inspect.isawaitable(result) else result


class Dispatch:
    def __init__(self, ext: "Registered"):
        self.ext = ext

    def install(self, peer: Peer) -> None:
        peer.on_notification("state", self._on_state)
        peer.on_notification("shutdown", lambda _p: self.ext._shutdown.set())
        peer.on_notification("bus.message", self._on_bus)
        peer.on_notification("event", lambda p: asyncio.get_running_loop().create_task(self._event(p, None)))
        peer.on_request("event", self._event)
        peer.on_request("tool.execute", self._tool)
        peer.on_request("command.run", self._command)
        peer.on_request("command.complete", self._complete)
        peer.on_request("shortcut.run", self._shortcut)

    def _on_state(self, params: dict) -> None:
        self.ext.state = params
        # Flag values are known once every extension has registered its flags: they come with the state.
        if isinstance(params.get("flags"), dict):
            self.ext.flags.update(params["flags"])

    def _on_bus(self, params: dict) -> None:
        for fn in self.ext._bus.get(str(params.get("channel")), []):
            asyncio.get_running_loop().create_task(call(fn, params.get("data")))

    def _report(self, event: str, error: BaseException) -> None:
        stack = "".join(traceback.format_exception(error))
        print(f"[{self.ext.name}] {event} handler failed: {stack}", file=sys.stderr)
        self.ext._peer.notify("extension.error", {"extension": self.ext.id, "event": event, "error": f"{type(error).__name__}: {error}", "stack": stack})

    async def _event(self, params: dict, request: Request | None) -> Any:
        event = str(params.get("event"))
        handlers = self.ext._handlers.get(event, [])
        if not handlers:
            return None
        ctx = Context(self.ext, request)
        try:
            return await run_chain(event, params.get("payload") or {}, handlers, lambda fn, payload: call(fn, payload, ctx),
                                   lambda error: self._report(event, error))
        except Blocked as blocked:
            raise RpcError(HANDLER_FAILED, str(blocked)) from blocked

    async def _tool(self, params: dict, request: Request) -> Any:
        found = self.ext._tools.get(str(params.get("name")))
        if found is None:
            raise RpcError(-32602, f"Tool {params.get('name')} is not registered by {self.ext.name}")
        try:
            result = await call(found[1], params.get("args") or {}, Context(self.ext, request))
        except (asyncio.CancelledError, RpcError):
            raise
        except Exception as error:  # the model hears what went wrong
            return {"content": [{"type": "text", "text": f"{type(error).__name__}: {error}" if not str(error) else str(error)}], "details": {}, "isError": True}
        if result is None:
            result = ToolResult([])
        elif isinstance(result, str):
            result = ToolResult(result)
        return to_wire(result)

    async def _command(self, params: dict, request: Request) -> Any:
        command = self.ext._commands.get(str(params.get("name")))
        if command is None:
            raise RpcError(-32602, f"Command {params.get('name')} is not registered by {self.ext.name}")
        await call(command.run, str(params.get("args") or ""), Context(self.ext, request))
        return {}

    async def _complete(self, params: dict, _request: Request) -> Any:
        command = self.ext._commands.get(str(params.get("name")))
        if command is None or command.complete is None:
            return {"items": None}
        items = await call(command.complete, str(params.get("prefix") or ""))
        if items is None:
            return {"items": None}
        return {"items": [{"value": i} if isinstance(i, str) else to_wire(i) for i in items]}

    async def _shortcut(self, params: dict, request: Request) -> Any:
        found = self.ext._shortcuts.get(str(params.get("key")))
        if found is None:
            raise RpcError(-32602, f"Shortcut {params.get('key')} is not registered by {self.ext.name}")
        await call(found[1], Context(self.ext, request))
        return {}
