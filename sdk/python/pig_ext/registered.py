"""What an extension has registered and what it knows of the session, as `Dispatch` (routing
pig's requests) and `Context` (a handler's `ctx`) read it. `Extension` is the one class that
has these attributes; naming them here lets those two modules type their `ext` without
importing `extension.py`, which imports them."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from .peer import Peer
    from .session import LazySession
    from .ui import UI


class Registered(Protocol):
    name: str
    id: str
    session_info: dict
    state: dict
    flags: dict[str, Any]
    ui: "UI | None"
    session: "LazySession | None"
    _peer: "Peer | None"
    _shutdown: asyncio.Event | None
    _tools: dict[str, tuple[dict, Callable]]
    #: Each command as `extension.py` keeps it: its spec, `run` and optional `complete`.
    _commands: dict[str, Any]
    _shortcuts: dict[str, tuple[dict, Callable]]
    _handlers: dict[str, list[Callable]]
    _bus: dict[str, list[Callable]]
