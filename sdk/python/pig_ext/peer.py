"""A pig-ext/1 peer over an asyncio stream: requests both ways, concurrent handlers.

The reader never waits for a handler: each request runs in a task of its own, so `ping` is
answered at once however busy the handlers are, and `$/cancel` cancels the task it names.
Notifications are handled in the reader, in arrival order (session log updates depend on it).
"""
from __future__ import annotations

import asyncio
import itertools
from collections import deque
import json
import sys
import traceback
from typing import Any, Awaitable, Callable

from . import framing

CANCELLED = -32800
HANDLER_FAILED = -32000
METHOD_NOT_FOUND = -32601


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


class Request:
    """What a request handler gets besides its params: progress, and whether it was cancelled."""

    def __init__(self, peer: "Peer", ident):
        self.id = ident
        self._peer = peer
        self.cancelled = asyncio.Event()

    def progress(self, value: Any) -> None:
        self._peer.notify("$/progress", {"id": self.id, "value": value})


RequestHandler = Callable[[dict, Request], Awaitable[Any]]
NotificationHandler = Callable[[dict], None]


class Peer:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self._reader, self._writer = reader, writer
        self.max_frame = framing.DEFAULT_MAX_FRAME
        self._ids = itertools.count(1)
        self._streams = itertools.count(1)
        self._pending: dict[Any, tuple[asyncio.Future, Callable[[Any], None] | None]] = {}
        self._running: dict[Any, tuple[asyncio.Task, Request]] = {}
        self._requests: dict[str, RequestHandler] = {}
        self._notifications: dict[str, NotificationHandler] = {}
        self._splitter = framing.LineSplitter(self.max_frame)
        self._parts = framing.Reassembler(self.max_frame)
        self.closed = asyncio.Event()
        #: Called with the method of every request and notification that arrives (tests, tracing).
        self.on_incoming: Callable[[str], None] | None = None

    def set_max_frame(self, size: int) -> None:
        self.max_frame = self._splitter.max_frame = self._parts.max_frame = size

    def on_request(self, method: str, handler: RequestHandler) -> None:
        self._requests[method] = handler

    def on_notification(self, method: str, handler: NotificationHandler) -> None:
        self._notifications[method] = handler

    # -- sending ---------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        if self.closed.is_set():
            return
        for line in framing.frames(message, self.max_frame, lambda: next(self._streams)):
            self._writer.write(line)

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": {} if params is None else params})

    def start_request(self, method: str, params: Any = None, on_result: Callable[[Any], None] | None = None) -> tuple[Any, asyncio.Future]:
        """Writes a request now (before anything the caller sends after it) and gives its id and
        the future of its result. `on_result` runs in the reader the moment the answer arrives,
        before any later message is handled: what must be in place before the next notification
        goes there."""
        future = asyncio.get_running_loop().create_future()
        if self.closed.is_set():
            future.set_exception(RpcError(HANDLER_FAILED, "the connection to pig is closed"))
            return None, future
        ident = next(self._ids)
        self._pending[ident] = (future, on_result)
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": {} if params is None else params})
        return ident, future

    async def request(self, method: str, params: Any = None, on_result: Callable[[Any], None] | None = None) -> Any:
        """Sends a request and waits for its result (RpcError for an error answer)."""
        ident, future = self.start_request(method, params, on_result)
        try:
            await self._writer.drain()
            return await future
        except asyncio.CancelledError:
            if ident in self._pending:
                self.notify("$/cancel", {"id": ident})
            raise
        finally:
            self._pending.pop(ident, None)

    def _answer(self, ident, result: Any = None, error: RpcError | None = None) -> None:
        if error is None:
            self._send({"jsonrpc": "2.0", "id": ident, "result": result})
        else:
            body = {"code": error.code, "message": error.message}
            if error.data is not None:
                body["data"] = error.data
            self._send({"jsonrpc": "2.0", "id": ident, "error": body})

    # -- receiving -------------------------------------------------------------------------

    async def serve(self) -> None:
        """Reads until the socket closes; then fails what is still waiting and cancels handlers.

        Reading and handling are two loops: the reader only splits lines (cheap) and answers a
        `ping` the moment it sees one; the handler parses the rest in order and lets the reader
        run between large frames. So a ping queued behind a 50 MB snapshot is answered without
        waiting for the snapshot to be parsed.
        """
        queue: deque = deque()
        wake = asyncio.Event()
        handling = asyncio.get_running_loop().create_task(self._handle_queue(queue, wake))
        try:
            while True:
                chunk = await self._reader.read(1 << 16)
                if not chunk:
                    break
                for item in self._splitter.feed(chunk):
                    if not (isinstance(item, bytes) and self._quick_ping(item)):
                        queue.append(item)
                wake.set()
                await self._writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            queue.append(None)
            wake.set()
            try:
                await handling
            finally:
                self.closed.set()
                for future, _ in list(self._pending.values()):
                    if not future.done():
                        future.set_exception(RpcError(HANDLER_FAILED, "the connection to pig closed"))
                for task, _ in list(self._running.values()):
                    task.cancel()

    def _quick_ping(self, line: bytes) -> bool:
        if len(line) > 200 or b'"ping"' not in line:
            return False
        message = framing.parse(line)
        if isinstance(message, dict) and message.get("method") == "ping" and message.get("id") is not None:
            if self.on_incoming:
                self.on_incoming("ping")
            self._answer(message["id"], {})
            return True
        return False

    async def _handle_queue(self, queue: deque, wake: asyncio.Event) -> None:
        while True:
            while not queue:
                wake.clear()
                await wake.wait()
            item = queue.popleft()
            if item is None:
                return
            if isinstance(item, framing.Oversized):
                self._oversized(item)
                continue
            try:
                self._line(item)
            except (ConnectionError, OSError):
                return
            if len(item) > 1 << 16:
                await asyncio.sleep(0)  # the reader answers pings meanwhile

    def _oversized(self, item: framing.Oversized) -> None:
        text = f"frame of {item.size} bytes exceeds the limit of {self.max_frame} bytes"
        error = RpcError(framing.FRAME_TOO_LARGE, text)
        if item.is_request and item.has_id:
            return self._answer(item.id, error=error)
        if item.is_request:
            return
        if item.has_id and item.id in self._pending:
            self._settle(item.id, error=error)
        elif not item.has_id:
            for ident in list(self._pending):
                self._settle(ident, error=error)
        self._answer(None, error=error)

    def _line(self, line: bytes) -> None:
        message = framing.parse(line)
        if isinstance(message, framing.Invalid):
            print(f"pig-ext: {message.message}", file=sys.stderr)
            return
        self._message(message)

    def _message(self, message: dict) -> None:
        method = message.get("method")
        ident = message.get("id")
        if method is None:
            if ident in self._pending:
                error = message.get("error")
                if error is not None:
                    self._settle(ident, error=RpcError(error.get("code", HANDLER_FAILED), error.get("message", ""), error.get("data")))
                else:
                    self._settle(ident, result=message.get("result"))
            return
        params = message.get("params") or {}
        if self.on_incoming:
            self.on_incoming(method)
        if ident is None:
            return self._notification(method, params)
        if method == "ping":
            return self._answer(ident, {})
        handler = self._requests.get(method)
        if handler is None:
            return self._answer(ident, error=RpcError(METHOD_NOT_FOUND, f"method not found: {method}"))
        request = Request(self, ident)
        task = asyncio.get_running_loop().create_task(self._run(handler, params, request))
        self._running[ident] = (task, request)

    def _notification(self, method: str, params: dict) -> None:
        if method == "$/part":
            try:
                text = self._parts.add(params)
            except framing.PartError as error:
                return self._answer(None, error=RpcError(framing.FRAME_TOO_LARGE, str(error)))
            if text is not None:
                message = framing.parse_text(text)
                if isinstance(message, framing.Invalid):
                    print(f"pig-ext: {message.message}", file=sys.stderr)
                else:
                    self._message(message)
            return
        if method == "$/cancel":
            running = self._running.get(params.get("id"))
            if running:
                running[1].cancelled.set()
                running[0].cancel()
            return
        handler = self._notifications.get(method)
        if handler is None:
            return
        try:
            handler(params)
        except Exception:
            traceback.print_exc(file=sys.stderr)

    def _settle(self, ident, result: Any = None, error: RpcError | None = None) -> None:
        future, on_result = self._pending.pop(ident, (None, None))
        if future is None or future.done():
            return
        if error is not None:
            return future.set_exception(error)
        if on_result is not None:
            try:
                on_result(result)
            except Exception as failure:  # the answer could not be used: the caller hears why
                return future.set_exception(failure)
        future.set_result(result)

    async def _run(self, handler: RequestHandler, params: dict, request: Request) -> None:
        try:
            result = await handler(params, request)
        except asyncio.CancelledError:
            self._answer(request.id, error=RpcError(CANCELLED, "the request was cancelled"))
        except RpcError as error:
            self._answer(request.id, error=error)
        except Exception as error:
            self._answer(request.id, error=RpcError(HANDLER_FAILED, str(error) or type(error).__name__, {"stack": traceback.format_exc()}))
        else:
            self._answer(request.id, result)
        finally:
            self._running.pop(request.id, None)
        try:
            await self._writer.drain()
        except (ConnectionError, OSError):
            pass
