"""Lazy replication: the first read subscribes (one snapshot), later changes come as notifications.

An extension that never reads the log asks for nothing and receives no log traffic.
"""
from __future__ import annotations

import asyncio

from .mirror import SessionMirror, SnapshotFileError, read_snapshot_file
from .peer import Peer


class LazySession:
    def __init__(self, peer: Peer, read_file: bool = True):
        self.mirror = SessionMirror()
        self._peer = peer
        self._read_file = read_file
        self._lock = asyncio.Lock()
        peer.on_notification("session.appended", lambda p: self.mirror.append(list(p.get("entries", [])), p.get("leafId")))
        peer.on_notification("session.leaf", lambda p: self.mirror.move_leaf(p.get("leafId")))
        peer.on_notification("session.replaced", self.mirror.replace)
        # `pig extension check` compares this copy with the session file (docs/extension-protocol.md §12).
        peer.on_request("check.mirror", self._check_mirror)

    async def _check_mirror(self, _params: dict, _request: object) -> dict:
        m = self.mirror
        if not m.subscribed:
            return {"subscribed": False}
        return {"subscribed": True, "header": m.header, "entries": list(m.lines), "leafId": m.leaf_id}

    async def ready(self) -> SessionMirror:
        if self.mirror.subscribed:
            return self.mirror
        async with self._lock:
            if not self.mirror.subscribed:
                await self._subscribe()
        return self.mirror

    async def resubscribe(self) -> SessionMirror:
        """A fresh snapshot (after losing track); the stream goes on without gaps or repeats."""
        async with self._lock:
            await self._peer.request("session.subscribe", {}, on_result=self.mirror.load)
        return self.mirror

    async def _subscribe(self) -> None:
        if self._read_file:
            # The answer is applied in the reader, before any append that follows it.
            try:
                await self._peer.request("session.subscribe", {"file": True}, on_result=lambda s: self.mirror.load(read_snapshot_file(s)))
                return
            except SnapshotFileError:
                pass  # changed under pig: take the whole snapshot as text
        await self._peer.request("session.subscribe", {}, on_result=self.mirror.load)
