"""The `ctx` every handler gets: the session as pig sees it, the UI, the log, cancellation."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .calls import HostCalls

if TYPE_CHECKING:
    from .registered import Registered
    from .peer import Request


class Context(HostCalls):
    def __init__(self, ext: "Registered", request: "Request | None" = None):
        self.ext = ext
        self._peer = ext._peer
        self._request = request
        self.ui = ext.ui

    @property
    def cwd(self) -> str:
        return self.ext.state.get("cwd") or self.ext.session_info.get("cwd", "")

    @property
    def has_ui(self) -> bool:
        return bool(self.ext.session_info.get("hasUI"))

    @property
    def mode(self) -> str:
        return str(self.ext.session_info.get("mode", ""))

    @property
    def state(self) -> dict:
        """The latest `state` notification (model, thinkingLevel, activeTools, isIdle, …)."""
        return self.ext.state

    @property
    def model(self) -> dict | None:
        return self.ext.state.get("model")

    @property
    def cancelled(self) -> asyncio.Event:
        """Set when pig cancels this request (the handler's task is cancelled too)."""
        return self._request.cancelled if self._request else asyncio.Event()

    @property
    def is_cancelled(self) -> bool:
        return self.cancelled.is_set()

    def progress(self, content: list | str, details: Any = None) -> None:
        """A partial result of the running tool (a `tool_execution_update`)."""
        if self._request is None:
            return
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        self._request.progress({"content": blocks, **({} if details is None else {"details": details})})

    # -- the session log (lazy) --------------------------------------------------------------

    async def get_entries(self) -> list[str]:
        """The exact JSON text of every entry line of the session file, in file order."""
        return list((await self.ext.session.ready()).lines)

    async def get_parsed_entries(self) -> list[dict]:
        return (await self.ext.session.ready()).entries()

    async def get_branch(self, from_id: str | None = None) -> list[dict]:
        """The entries from the root to the leaf (or `from_id`), parsed."""
        return (await self.ext.session.ready()).branch(from_id)

    async def get_entry(self, entry_id: str) -> dict | None:
        return (await self.ext.session.ready()).entry(entry_id)

    async def get_leaf_id(self) -> str | None:
        return (await self.ext.session.ready()).leaf_id

    async def get_header(self) -> dict | None:
        return (await self.ext.session.ready()).header_object()

    def get_session_file(self) -> str | None:
        """From the state pig sends; reading it does not subscribe to the log."""
        return self.ext.state.get("sessionFile")
