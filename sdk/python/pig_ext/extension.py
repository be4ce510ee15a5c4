"""`Extension`: what an extension registers (decorators) and its life on the socket.

    ext = Extension("guard")

    @ext.on("tool_call")
    async def gate(event, ctx): ...

    ext.run()
"""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass
from typing import Any, Callable

from . import __version__
from .calls import HostCalls
from .dispatch import Dispatch
from .peer import Peer, RpcError
from .peer_check import EXIT_HOST_REFUSED, host_problem
from .session import LazySession
from .ui import UI

PROTOCOL = "pig-ext/1"


@dataclass
class _Command:
    spec: dict
    run: Callable
    complete: Callable | None = None


class Extension(HostCalls):
    def __init__(self, name: str, version: str | None = None, read_session_file: bool = True):
        self.name, self.version = name, version
        self.id = ""
        self.session_info: dict = {}
        self.state: dict = {}
        self.flags: dict[str, Any] = {}
        self._read_session_file = read_session_file
        self._tools: dict[str, tuple[dict, Callable]] = {}
        self._commands: dict[str, _Command] = {}
        self._shortcuts: dict[str, tuple[dict, Callable]] = {}
        self._flags: dict[str, dict] = {}
        self._handlers: dict[str, list[Callable]] = {}
        self._bus: dict[str, list[Callable]] = {}
        self._peer: Peer | None = None
        self._registered = False
        self._shutdown: asyncio.Event | None = None
        self.ui: UI | None = None
        self.session: LazySession | None = None
        #: Called with the method of every request and notification pig sends (debugging, tests).
        self.trace: Callable[[str], None] | None = None

    # -- registration ----------------------------------------------------------------------

    def tool(self, name: str, description: str, parameters: dict | None = None, *, label: str | None = None,
             prompt_snippet: str | None = None, prompt_guidelines: list[str] | None = None,
             execution_mode: str | None = None) -> Callable:
        """Registers `fn(args, ctx)` as a tool; `parameters` is a JSON Schema object."""
        spec = {"name": name, "description": description, "parameters": parameters or {"type": "object", "properties": {}},
                "label": label, "promptSnippet": prompt_snippet, "promptGuidelines": prompt_guidelines, "executionMode": execution_mode}
        spec = {k: v for k, v in spec.items() if v is not None}

        def add(fn: Callable) -> Callable:
            self._tools[name] = (spec, fn)
            self._register_late({"tools": [spec]})
            return fn
        return add

    def command(self, name: str, description: str | None = None, complete: Callable | None = None) -> Callable:
        """Registers `fn(args: str, ctx)` as `/name`; `complete(prefix)` gives argument completions
        (strings or `{value, label?, description?}`)."""
        def add(fn: Callable) -> Callable:
            spec = {"name": name, **({"description": description} if description else {}), **({"hasCompletions": True} if complete else {})}
            self._commands[name] = _Command(spec, fn, complete)
            self._register_late({"commands": [spec]})
            return fn
        return add

    def shortcut(self, key: str, description: str | None = None) -> Callable:
        """Registers `fn(ctx)` for a key such as "ctrl+shift+g"."""
        def add(fn: Callable) -> Callable:
            spec = {"key": key, **({"description": description} if description else {})}
            self._shortcuts[key] = (spec, fn)
            self._register_late({"shortcuts": [spec]})
            return fn
        return add

    def flag(self, name: str, type: str = "boolean", default: Any = None, description: str | None = None) -> None:
        """A command-line flag `--name`; its value is `ext.get_flag(name)`."""
        spec = {"name": name, "type": type, **({"default": default} if default is not None else {}), **({"description": description} if description else {})}
        self._flags[name] = spec
        self._register_late({"flags": [spec]})

    def get_flag(self, name: str) -> Any:
        return self.flags.get(name, self._flags.get(name, {}).get("default"))

    def on(self, event: str) -> Callable:
        """Registers `fn(event_payload, ctx)` for an event (docs/extension-protocol.md §3)."""
        def add(fn: Callable) -> Callable:
            new = event not in self._handlers
            self._handlers.setdefault(event, []).append(fn)
            if new:
                self._register_late({"events": [event]})
            return fn
        return add

    def on_bus(self, channel: str) -> Callable:
        """Registers `fn(data)` for messages other extensions `emit` on `channel`."""
        def add(fn: Callable) -> Callable:
            self._bus.setdefault(channel, []).append(fn)
            return fn
        return add

    def _register_late(self, params: dict) -> None:
        # Before `run()` everything goes into the first `register`; afterwards each call adds.
        # `register` must be a request (pig does not take it as a notification), and it is
        # written at once: before the answer of the handler that registered, so pig knows the
        # new tool or command when that answer arrives.
        if self._registered and self._peer is not None:
            _, future = self._peer.start_request("register", {"extension": self.id, **params})
            future.add_done_callback(self._registered_more)

    def _registered_more(self, future: asyncio.Future) -> None:
        if future.cancelled():
            return
        if future.exception() is not None:
            print(f"[{self.name}] register failed: {future.exception()}", file=sys.stderr)
            return
        for d in (future.result() or {}).get("diagnostics", []):
            print(f"[{self.name}] {d.get('type')}: {d.get('message')}", file=sys.stderr)

    def _registration(self) -> dict:
        return {
            "extension": self.id,
            "tools": [spec for spec, _ in self._tools.values()],
            "commands": [c.spec for c in self._commands.values()],
            "shortcuts": [spec for spec, _ in self._shortcuts.values()],
            "flags": list(self._flags.values()),
            "events": list(self._handlers),
        }

    @property
    def cwd(self) -> str:  # for HostCalls.exec
        return self.state.get("cwd") or self.session_info.get("cwd", os.getcwd())

    # -- running ---------------------------------------------------------------------------

    def run(self) -> None:
        """Connects to pig (PIG_EXT_SOCKET) and serves until the socket closes or pig says shutdown."""
        code = asyncio.run(self.serve())
        sys.stdout.flush()
        sys.exit(code)

    async def serve(self, socket_path: str | None = None, token: str | None = None) -> int:
        socket_path = socket_path or os.environ.get("PIG_EXT_SOCKET")
        token = token or os.environ.pop("PIG_EXT_TOKEN", "")  # helpers we start must not inherit it
        if not socket_path:
            print(f"{self.name}: PIG_EXT_SOCKET is not set; this file is an extension, run it with `pig -e {sys.argv[0]}`", file=sys.stderr)
            return 2
        reader, writer = await asyncio.open_unix_connection(socket_path)
        problem = host_problem(writer.get_extra_info("socket"))
        if problem:  # checked before a byte is sent: the token and the registration stay here
            print(f"{self.name}: refused the host socket: {problem}", file=sys.stderr)
            writer.close()
            return EXIT_HOST_REFUSED
        self._peer = peer = Peer(reader, writer)
        peer.on_incoming = self.trace
        self._shutdown = asyncio.Event()
        self.ui = UI(peer)
        self.session = LazySession(peer, self._read_session_file)
        Dispatch(self).install(peer)
        serving = asyncio.get_running_loop().create_task(peer.serve())
        try:
            await self._handshake(peer, token)
        except RpcError as error:
            print(f"{self.name}: pig refused the connection: {error.message}", file=sys.stderr)
            writer.close()
            serving.cancel()
            return 1
        closed = asyncio.get_running_loop().create_task(peer.closed.wait())
        told = asyncio.get_running_loop().create_task(self._shutdown.wait())
        await asyncio.wait([closed, told], return_when=asyncio.FIRST_COMPLETED)
        if not self._shutdown.is_set():
            self._end_group()
        writer.close()
        serving.cancel()
        return 0

    async def _handshake(self, peer: Peer, token: str) -> None:
        init = await peer.request("initialize", {"token": token, "protocols": [PROTOCOL],
                                                 "client": {"name": self.name, "version": self.version or __version__}, "pid": os.getpid()})
        peer.set_max_frame(int(init.get("maxFrameBytes") or peer.max_frame))
        self.id = init.get("extension") or ""
        self.session_info = init.get("session") or {}
        self.flags.update(init.get("flags") or {})
        await peer.request("register", self._registration())
        self._registered = True
        await peer.request("ready", {"extension": self.id})

    @staticmethod
    def _end_group() -> None:
        """pig went away without `shutdown` (perhaps killed): take the helpers we started with us."""
        if os.getpgrp() == os.getpid():
            sys.stderr.flush()
            os.killpg(os.getpid(), signal.SIGKILL)
