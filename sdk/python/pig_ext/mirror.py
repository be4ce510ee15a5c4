"""The extension's copy of the session log, filled only when first read.

Entries are kept as the exact text of their lines and parsed when a view needs them. The
snapshot comes from `session.subscribe`; appends, leaf moves and session switches arrive as
notifications and are applied in the order they arrive.
"""
from __future__ import annotations

import json
import os
from typing import Any


class SnapshotFileError(Exception):
    """The file is not the one pig described: ask for the snapshot as text instead."""


def read_snapshot_file(snapshot: dict) -> dict:
    """The snapshot with the header and first entries of its `file` range read from disk, checked."""
    file = snapshot.get("file")
    if not file:
        return snapshot
    path, offset, length, count = file["path"], file["offset"], file["length"], file["count"]
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size < offset + length:
                raise SnapshotFileError(f"{path} is shorter than the range pig named")
            handle.seek(offset)
            data = handle.read(length)
    except OSError as error:
        raise SnapshotFileError(f"cannot read {path}: {error}") from error
    if len(data) != length or not data.endswith(b"\n"):
        raise SnapshotFileError(f"{path}: the range does not end with a line feed")
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError as error:
        raise SnapshotFileError(f"{path}: not UTF-8") from error
    lines.pop()
    if len(lines) != count + 1 or lines[0] != snapshot["header"]:
        raise SnapshotFileError(f"{path}: the range is not the lines pig described")
    return {**snapshot, "entries": lines[1:] + list(snapshot.get("entries", []))}


class SessionMirror:
    def __init__(self) -> None:
        self.subscribed = False
        self.header: str | None = None
        self.lines: list[str] = []
        self.leaf_id: str | None = None
        self.session_file: str | None = None
        self._parsed: list[dict] = []  # parsed prefix of `lines`
        self._by_id: dict[str, dict] = {}

    def load(self, snapshot: dict) -> None:
        self.subscribed = True
        self.header = snapshot.get("header")
        self.lines = list(snapshot.get("entries", []))
        self.leaf_id = snapshot.get("leafId")
        self.session_file = snapshot.get("sessionFile")
        self._parsed, self._by_id = [], {}

    def append(self, entries: list[str], leaf_id: str | None) -> None:
        if not self.subscribed:
            return
        self.lines.extend(entries)
        self.leaf_id = leaf_id

    def move_leaf(self, leaf_id: str | None) -> None:
        if self.subscribed:
            self.leaf_id = leaf_id

    def replace(self, snapshot: dict) -> None:
        if self.subscribed:
            self.load(snapshot)
        elif snapshot.get("sessionFile"):
            self.session_file = snapshot["sessionFile"]

    def _index(self) -> None:
        for line in self.lines[len(self._parsed):]:
            try:
                entry = json.loads(line)
            except ValueError:
                entry = {}
            if not isinstance(entry, dict):
                entry = {}
            self._parsed.append(entry)
            if isinstance(entry.get("id"), str):
                self._by_id[entry["id"]] = entry

    def entries(self) -> list[dict]:
        """Every entry, parsed, in file order."""
        self._index()
        return list(self._parsed)

    def entry(self, entry_id: str) -> dict | None:
        self._index()
        return self._by_id.get(entry_id)

    def branch(self, from_id: str | None = None) -> list[dict]:
        """The entries from the root to `from_id` (the leaf by default), following `parentId`."""
        self._index()
        path: list[dict] = []
        seen: set[str] = set()
        current = self._by_id.get(from_id if from_id is not None else self.leaf_id or "")
        while current is not None and current.get("id") not in seen:
            seen.add(current["id"])
            path.append(current)
            parent = current.get("parentId")
            current = self._by_id.get(parent) if isinstance(parent, str) else None
        path.reverse()
        return path

    def header_object(self) -> dict[str, Any] | None:
        return json.loads(self.header) if self.header else None
