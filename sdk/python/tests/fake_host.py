"""A scripted pig for the unit tests: listens on a Unix socket, reads frames, answers as told."""
from __future__ import annotations

import asyncio
import json
import os
import tempfile


class FakeHost:
    def __init__(self, answers=None, max_frame=8 * 1024 * 1024, extension="/ext/x.py", session=None, flags=None):
        self.answers = answers or {}  # method -> result, or callable(params) -> result
        self.max_frame = max_frame
        self.extension = extension
        self.session = session or {"cwd": os.getcwd(), "mode": "rpc", "hasUI": True}
        self.flags = flags or {}
        self.received: list[dict] = []
        self.token = "feedface"
        self._dir = tempfile.mkdtemp(prefix="pig-ext-test-")
        self.path = os.path.join(self._dir, "host.sock")
        self._arrived = asyncio.Condition()
        self._writer: asyncio.StreamWriter | None = None
        self._ids = 1000

    async def start(self):
        self._server = await asyncio.start_unix_server(self._serve, self.path)
        return self

    async def close(self):
        if self._writer:
            self._writer.close()
        self._server.close()
        await self._server.wait_closed()

    def drop(self):
        """Closes the connection, as a pig that went away."""
        self._writer.close()

    async def _serve(self, reader, writer):
        self._writer = writer
        buf = b""
        while True:
            chunk = await reader.read(1 << 16)
            if not chunk:
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                message = json.loads(line)
                await self._handle(message)

    async def _handle(self, message):
        async with self._arrived:
            self.received.append(message)
            self._arrived.notify_all()
        method, ident = message.get("method"), message.get("id")
        if method is None or ident is None:
            return
        if method == "initialize":
            result = {"protocol": "pig-ext/1", "maxFrameBytes": self.max_frame, "host": {"name": "fake"}, "load": [],
                      "extension": self.extension, "session": self.session, "flags": self.flags}
        elif method == "register":
            result = {"diagnostics": []}
        elif method in self.answers:
            answer = self.answers[method]
            result = answer(message.get("params") or {}) if callable(answer) else answer
        else:
            result = {}
        self.send({"jsonrpc": "2.0", "id": ident, "result": result})

    def send(self, message):
        self._writer.write(json.dumps(message).encode() + b"\n")

    def send_raw(self, data: bytes):
        self._writer.write(data)

    def request(self, method, params=None) -> int:
        self._ids += 1
        self.send({"jsonrpc": "2.0", "id": self._ids, "method": method, "params": params or {}})
        return self._ids

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    async def wait_for(self, predicate, timeout=10):
        """The first frame received that matches `predicate` (waits for it to arrive)."""
        async def find():
            async with self._arrived:
                while True:
                    for m in self.received:
                        if predicate(m):
                            return m
                    await self._arrived.wait()
        return await asyncio.wait_for(find(), timeout)

    async def answer_to(self, ident, timeout=10):
        return await self.wait_for(lambda m: m.get("id") == ident and "method" not in m, timeout)

    def methods(self):
        return [m["method"] for m in self.received if "method" in m]


async def connected(ext, **host_options):
    """A fake host and `ext` serving it, registered and ready."""
    host = await FakeHost(**host_options).start()
    task = asyncio.get_running_loop().create_task(ext.serve(host.path, host.token))
    await host.wait_for(lambda m: m.get("method") == "ready")
    return host, task
