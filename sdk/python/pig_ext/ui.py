"""The person at the other end: dialogs wait for an answer, the rest are notifications.

Without a UI (print and JSON mode) pig answers every dialog with its default at once.
"""
from __future__ import annotations

from typing import Any

from .peer import Peer


def _drop_none(params: dict) -> dict:
    return {k: v for k, v in params.items() if v is not None}


class UI:
    def __init__(self, peer: Peer):
        self._peer = peer

    async def select(self, title: str, options: list[str], timeout: int | None = None) -> str | None:
        result = await self._peer.request("ui.select", _drop_none({"title": title, "options": options, "timeout": timeout}))
        return (result or {}).get("value")

    async def confirm(self, title: str, message: str = "", timeout: int | None = None) -> bool:
        result = await self._peer.request("ui.confirm", _drop_none({"title": title, "message": message, "timeout": timeout}))
        return bool((result or {}).get("confirmed"))

    async def input(self, title: str, placeholder: str | None = None, timeout: int | None = None) -> str | None:
        result = await self._peer.request("ui.input", _drop_none({"title": title, "placeholder": placeholder, "timeout": timeout}))
        return (result or {}).get("value")

    async def editor(self, title: str, prefill: str | None = None) -> str | None:
        result = await self._peer.request("ui.editor", _drop_none({"title": title, "prefill": prefill}))
        return (result or {}).get("value")

    async def get_editor_text(self) -> str:
        return str(((await self._peer.request("ui.getEditorText", {})) or {}).get("text", ""))

    def notify(self, message: str, type: str = "info") -> None:
        self._peer.notify("ui.notify", {"message": message, "type": type})

    def set_status(self, key: str, text: str | None = None) -> None:
        self._peer.notify("ui.setStatus", _drop_none({"key": key, "text": text}))

    def set_widget(self, key: str, lines: list[str] | None = None, placement: str | None = None) -> None:
        self._peer.notify("ui.setWidget", _drop_none({"key": key, "lines": lines, "placement": placement}))

    def set_title(self, title: str) -> None:
        self._peer.notify("ui.setTitle", {"title": title})

    def set_editor_text(self, text: str) -> None:
        self._peer.notify("ui.setEditorText", {"text": text})

    # The upstream spellings, for authors coming from the TypeScript API.
    setStatus, setWidget, setTitle, setEditorText = set_status, set_widget, set_title, set_editor_text


__all__: list[Any] = ["UI"]
