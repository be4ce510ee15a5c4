"""pig-ext/1 framing: one JSON object per LF-ended line, long messages as `$/part` slices.

Lines are split on the byte 0x0A before decoding, so U+2028 and CR inside text stay text.
Everything here is pure (no sockets), so the unit tests drive it with plain bytes.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

DEFAULT_MAX_FRAME = 8 * 1024 * 1024
REASSEMBLY_FACTOR = 64
MAX_OPEN_STREAMS = 16
FRAME_TOO_LARGE = -32003

_ID = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|null)')


def encode(message: dict) -> str:
    """The message's JSON text (no LF). Lone surrogates cannot be UTF-8: they go out escaped."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(message, separators=(",", ":"))
    return text


def frames(message: dict, max_frame: int, next_stream) -> list[bytes]:
    """The LF-ended lines that carry `message`: one line, or `$/part` slices when it is too long.

    `next_stream()` gives a fresh stream id. Raises ValueError when even parts may not carry it.
    """
    text = encode(message)
    data = text.encode("utf-8")
    if len(data) <= max_frame:
        return [data + b"\n"]
    if len(data) > REASSEMBLY_FACTOR * max_frame:
        raise ValueError(f"message of {len(data)} bytes exceeds the limit of {REASSEMBLY_FACTOR * max_frame} bytes")
    stream = next_stream()
    # A character is at most 4 bytes of UTF-8 and at most 6 once JSON-escaped again inside
    # `data`: slices of this many characters always fit, envelope included.
    step = max(1, (max_frame - 200) // 6)
    out = []
    for start in range(0, len(text), step):
        chunk = text[start:start + step]
        final = start + step >= len(text)
        part = {"jsonrpc": "2.0", "method": "$/part", "params": {"stream": stream, "data": chunk, "final": final}}
        out.append(encode(part).encode("utf-8") + b"\n")
    return out


@dataclass
class Oversized:
    """A line longer than the limit, dropped: what its first bytes said about it."""
    size: int
    id: object
    has_id: bool
    is_request: bool
    is_response: bool


@dataclass
class Invalid:
    """A line that is not a JSON object (answered -32700 / -32600 when it had an id)."""
    code: int
    message: str
    id: object = None


@dataclass
class LineSplitter:
    """Bytes in, whole lines out; a line over `max_frame` is skipped up to its LF."""
    max_frame: int = DEFAULT_MAX_FRAME
    _buf: bytearray = field(default_factory=bytearray)
    _skipping: Oversized | None = None
    _head: bytes = b""

    def feed(self, chunk: bytes) -> list[bytes | Oversized]:
        out: list[bytes | Oversized] = []
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            piece = chunk[start:] if nl < 0 else chunk[start:nl]
            if self._skipping is not None:
                self._skipping.size += len(piece)
            else:
                self._buf += piece
                if len(self._buf) > self.max_frame:
                    self._skipping = _oversized(bytes(self._buf[:256]), len(self._buf))
                    self._buf = bytearray()
            if nl < 0:
                return out
            if self._skipping is not None:
                out.append(self._skipping)
                self._skipping = None
            else:
                line = bytes(self._buf).rstrip(b"\r")
                self._buf = bytearray()
                if line.strip():
                    out.append(line)
            start = nl + 1


def _oversized(head: bytes, size: int) -> Oversized:
    match = _ID.search(head)
    ident = json.loads(match.group(1)) if match else None
    return Oversized(size, ident, match is not None, b'"method"' in head, b'"result"' in head or b'"error"' in head)


def parse(line: bytes) -> dict | Invalid:
    try:
        return parse_text(line.decode("utf-8"))
    except UnicodeDecodeError as error:
        return Invalid(-32700, f"parse error: {error}")


def parse_text(text: str) -> dict | Invalid:
    """A message whose text is already decoded (a reassembled `$/part` stream)."""
    try:
        message = json.loads(text)
    except ValueError as error:
        return Invalid(-32700, f"parse error: {error}")
    if not isinstance(message, dict):
        return Invalid(-32600, "not a JSON-RPC object")
    ident = message.get("id")
    if isinstance(ident, bool) or (ident is not None and not isinstance(ident, (int, str))):
        return Invalid(-32600, "id must be a number or a string")
    return message


class PartError(Exception):
    def __init__(self, message: str):
        super().__init__(message)


@dataclass
class Reassembler:
    """Joins `$/part` slices by stream; gives the whole message's text when the final one comes."""
    max_frame: int = DEFAULT_MAX_FRAME
    _streams: dict = field(default_factory=dict)

    def add(self, params: dict) -> str | None:
        stream, data, final = params.get("stream"), params.get("data", ""), bool(params.get("final"))
        if not isinstance(data, str):
            raise PartError("$/part data must be a string")
        entry = self._streams.get(stream)
        if entry is None:
            if len(self._streams) >= MAX_OPEN_STREAMS:
                raise PartError(f"more than {MAX_OPEN_STREAMS} open $/part streams")
            entry = self._streams[stream] = [[], 0]
        entry[0].append(data)
        entry[1] += len(data.encode("utf-8", "surrogatepass"))
        limit = REASSEMBLY_FACTOR * self.max_frame
        if entry[1] > limit:
            del self._streams[stream]
            raise PartError(f"reassembled message exceeds the limit of {limit} bytes")
        if not final:
            return None
        del self._streams[stream]
        return "".join(entry[0])
