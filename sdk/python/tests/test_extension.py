"""The SDK against a scripted host: handshake, registration, requests served concurrently."""
import asyncio
import json
import os
import unittest

from pig_ext import Extension, InputTransform, ToolCallResult, block
from tests.fake_host import connected


def gate_ext():
    ext = Extension("t")
    release = asyncio.Event()

    @ext.tool("slow", "waits", {"type": "object"}, label="Slow")
    async def slow(_args, ctx):
        ctx.progress("started")
        await release.wait()
        return "released"

    @ext.tool("sleeper", "waits until cancelled")
    async def sleeper(_args, ctx):
        try:
            await asyncio.Event().wait()
        finally:
            ext.seen_cancel = ctx.is_cancelled

    @ext.tool("fails", "raises")
    def fails(_args, _ctx):
        raise ValueError("no such file")

    @ext.command("go", "does it", complete=lambda prefix: [w for w in ["alpha", "beta"] if w.startswith(prefix)])
    async def go(args, ctx):
        ctx.ui.notify(f"go {args}")

    @ext.on("tool_call")
    def first(event, _ctx):
        return ToolCallResult(input={**event["input"], "checked": True})

    @ext.on("tool_call")
    def second(event, _ctx):
        return block(f"saw {json.dumps(event['input'], sort_keys=True)}") if event["toolName"] == "bash" else None

    @ext.on("input")
    def shout(event, _ctx):
        return InputTransform(event["text"].upper())

    ext.flag("plan", "boolean", False, "plan first")
    return ext, release


class Handshake(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.ext, self.release = gate_ext()
        self.host, self.task = await connected(self.ext, flags={"plan": True})

    async def asyncTearDown(self):
        self.host.drop()
        await asyncio.wait_for(self.task, 5)
        await self.host.close()

    async def test_initialize_register_ready(self):
        init = self.host.received[0]
        self.assertEqual(init["method"], "initialize")
        self.assertEqual(init["params"]["token"], self.host.token)
        self.assertEqual(init["params"]["protocols"], ["pig-ext/1"])
        self.assertEqual(init["params"]["pid"], os.getpid())
        register = next(m for m in self.host.received if m.get("method") == "register")["params"]
        self.assertEqual(register["extension"], "/ext/x.py")
        self.assertEqual([t["name"] for t in register["tools"]], ["slow", "sleeper", "fails"])
        self.assertEqual(register["tools"][0], {"name": "slow", "description": "waits", "parameters": {"type": "object"}, "label": "Slow"})
        self.assertEqual(register["commands"], [{"name": "go", "description": "does it", "hasCompletions": True}])
        self.assertEqual(register["events"], ["tool_call", "input"])
        self.assertEqual(register["flags"], [{"name": "plan", "type": "boolean", "default": False, "description": "plan first"}])
        self.assertTrue(self.ext.get_flag("plan"))
        self.assertEqual(self.host.methods()[:3], ["initialize", "register", "ready"])

    async def test_ping_is_answered_while_a_tool_is_busy_and_progress_flows(self):
        call = self.host.request("tool.execute", {"extension": "/ext/x.py", "name": "slow", "toolCallId": "c1", "args": {}})
        progress = await self.host.wait_for(lambda m: m.get("method") == "$/progress")
        self.assertEqual(progress["params"], {"id": call, "value": {"content": [{"type": "text", "text": "started"}]}})
        ping = self.host.request("ping")
        self.assertEqual((await self.host.answer_to(ping))["result"], {})
        self.assertFalse(any(m.get("id") == call and "method" not in m for m in self.host.received))
        self.release.set()
        self.assertEqual((await self.host.answer_to(call))["result"], {"content": [{"type": "text", "text": "released"}]})

    async def test_cancel_cancels_the_handler_task_and_answers_32800(self):
        call = self.host.request("tool.execute", {"extension": "/ext/x.py", "name": "sleeper", "toolCallId": "c2", "args": {}})
        await asyncio.sleep(0)
        ping = self.host.request("ping")
        await self.host.answer_to(ping)  # the tool is running by now
        self.host.notify("$/cancel", {"id": call})
        self.assertEqual((await self.host.answer_to(call))["error"]["code"], -32800)
        self.assertTrue(self.ext.seen_cancel)

    async def test_a_tool_that_raises_answers_an_error_result_for_the_model(self):
        call = self.host.request("tool.execute", {"extension": "/ext/x.py", "name": "fails", "toolCallId": "c3", "args": {}})
        result = (await self.host.answer_to(call))["result"]
        self.assertEqual(result, {"content": [{"type": "text", "text": "no such file"}], "details": {}, "isError": True})

    async def test_handlers_of_one_event_chain_and_the_first_block_wins(self):
        call = self.host.request("event", {"extension": "/ext/x.py", "event": "tool_call", "payload": {"toolCallId": "c", "toolName": "bash", "input": {"command": "ls"}}})
        self.assertEqual((await self.host.answer_to(call))["result"], {"block": True, "reason": 'saw {"checked": true, "command": "ls"}'})
        call = self.host.request("event", {"extension": "/ext/x.py", "event": "tool_call", "payload": {"toolCallId": "c", "toolName": "read", "input": {"path": "a"}}})
        self.assertEqual((await self.host.answer_to(call))["result"], {"input": {"path": "a", "checked": True}})
        call = self.host.request("event", {"extension": "/ext/x.py", "event": "input", "payload": {"text": "hi", "source": "rpc"}})
        self.assertEqual((await self.host.answer_to(call))["result"], {"action": "transform", "text": "HI"})

    async def test_an_event_without_handlers_is_answered_null(self):
        call = self.host.request("event", {"extension": "/ext/x.py", "event": "context", "payload": {"messages": []}})
        self.assertIsNone((await self.host.answer_to(call))["result"])

    async def test_commands_run_and_complete(self):
        call = self.host.request("command.complete", {"extension": "/ext/x.py", "name": "go", "prefix": "a"})
        self.assertEqual((await self.host.answer_to(call))["result"], {"items": [{"value": "alpha"}]})
        call = self.host.request("command.run", {"extension": "/ext/x.py", "name": "go", "args": "now"})
        self.assertEqual((await self.host.answer_to(call))["result"], {})
        notice = await self.host.wait_for(lambda m: m.get("method") == "ui.notify")
        self.assertEqual(notice["params"], {"message": "go now", "type": "info"})

    async def test_an_unknown_method_is_answered_32601(self):
        call = self.host.request("no.such")
        self.assertEqual((await self.host.answer_to(call))["error"]["code"], -32601)

    async def test_a_request_over_the_frame_limit_is_answered_32003_and_the_next_line_is_read(self):
        self.host.send_raw(b'{"jsonrpc":"2.0","id":77,"method":"ping","params":{"pad":"' + b"x" * (9 * 1024 * 1024) + b'"}}\n')
        self.assertEqual((await self.host.answer_to(77))["error"]["code"], -32003)
        ping = self.host.request("ping")
        self.assertEqual((await self.host.answer_to(ping))["result"], {})

    async def test_a_request_in_parts_is_reassembled(self):
        text = json.dumps({"jsonrpc": "2.0", "id": 88, "method": "command.complete", "params": {"extension": "/ext/x.py", "name": "go", "prefix": "b"}})
        for i in range(0, len(text), 10):
            self.host.notify("$/part", {"stream": 5, "data": text[i:i + 10], "final": i + 10 >= len(text)})
        self.assertEqual((await self.host.answer_to(88))["result"], {"items": [{"value": "beta"}]})

    async def test_a_late_registration_adds_to_the_first(self):
        @self.ext.tool("later", "registered after ready")
        def later(_args, _ctx):
            return "late"
        again = await self.host.wait_for(lambda m: m.get("method") == "register" and "later" in json.dumps(m))
        self.assertEqual(again["params"]["tools"][0]["name"], "later")
        self.assertIsNotNone(again.get("id"), "register is a request")


class Lifetime(unittest.IsolatedAsyncioTestCase):
    async def test_serve_returns_when_the_socket_closes_and_on_shutdown(self):
        ext, _ = gate_ext()
        host, task = await connected(ext)
        host.drop()
        self.assertEqual(await asyncio.wait_for(task, 5), 0)
        await host.close()
        ext, _ = gate_ext()
        host, task = await connected(ext)
        host.notify("shutdown", {"reason": "quit"})
        self.assertEqual(await asyncio.wait_for(task, 5), 0)
        await host.close()

    async def test_the_token_is_removed_from_the_environment(self):
        os.environ["PIG_EXT_TOKEN"] = "secret"
        ext, _ = gate_ext()
        from tests.fake_host import FakeHost
        host = await FakeHost().start()
        os.environ["PIG_EXT_SOCKET"] = host.path
        task = asyncio.get_running_loop().create_task(ext.serve())
        init = await host.wait_for(lambda m: m.get("method") == "initialize")
        self.assertEqual(init["params"]["token"], "secret")
        self.assertNotIn("PIG_EXT_TOKEN", os.environ)
        await host.wait_for(lambda m: m.get("method") == "ready")
        host.drop()
        await asyncio.wait_for(task, 5)
        await host.close()
        del os.environ["PIG_EXT_SOCKET"]


if __name__ == "__main__":
    unittest.main()
