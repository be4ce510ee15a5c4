"""Lazy replication against a scripted host: nothing until the first read, then one snapshot."""
import asyncio
import json
import os
import tempfile
import unittest

from pig_ext import Extension
from pig_ext.mirror import SessionMirror
from tests.fake_host import connected

HEADER = '{"type":"session","version":3,"id":"s1"}'
A = '{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"caf\u00e9 \u2028"}}'
B = '{"type":"message","id":"b2","parentId":"a1",  "spaced":true}'
C = '{"type":"custom","id":"c3","parentId":"a1","customType":"n"}'


def reader_ext():
    ext = Extension("reader")
    ext.reads = []

    @ext.command("read")
    async def read(_args, ctx):
        ext.reads.append({"entries": await ctx.get_entries(), "leaf": await ctx.get_leaf_id(),
                          "branch": [e["id"] for e in await ctx.get_branch()]})
    return ext


class LazyReplication(unittest.IsolatedAsyncioTestCase):
    async def run_read(self, host):
        call = host.request("command.run", {"extension": "/ext/x.py", "name": "read", "args": ""})
        await host.answer_to(call)

    async def test_nothing_is_asked_until_the_first_read_then_one_snapshot_and_appends(self):
        ext = reader_ext()
        appended = []

        def subscribe(params):
            # The append pig makes right after the snapshot arrives before the handler resumes.
            asyncio.get_running_loop().call_soon(lambda: host.notify("session.appended", {"entries": [B], "leafId": "b2"}))
            appended.append(params)
            return {"header": HEADER, "entries": [A], "leafId": "a1", "sessionFile": "/tmp/s.jsonl"}

        host, task = await connected(ext, answers={"session.subscribe": subscribe})
        ping = host.request("ping")
        await host.answer_to(ping)
        self.assertNotIn("session.subscribe", host.methods())
        await self.run_read(host)
        self.assertEqual(appended, [{"file": True}])
        self.assertIn(ext.reads[0]["entries"], ([A], [A, B]))
        await self.run_read(host)
        self.assertEqual(ext.reads[1], {"entries": [A, B], "leaf": "b2", "branch": ["a1", "b2"]})
        host.notify("session.appended", {"entries": [C], "leafId": "c3"})
        await self.run_read(host)
        self.assertEqual(ext.reads[2]["branch"], ["a1", "c3"])
        host.notify("session.leaf", {"leafId": "b2"})
        await self.run_read(host)
        self.assertEqual((ext.reads[3]["leaf"], ext.reads[3]["branch"]), ("b2", ["a1", "b2"]))
        host.notify("session.replaced", {"header": '{"type":"session","id":"s2"}', "entries": ['{"id":"z","parentId":null}'], "leafId": "z"})
        await self.run_read(host)
        self.assertEqual(ext.reads[4], {"entries": ['{"id":"z","parentId":null}'], "leaf": "z", "branch": ["z"]})
        self.assertEqual(host.methods().count("session.subscribe"), 1)
        host.drop()
        await asyncio.wait_for(task, 5)
        await host.close()

    async def test_the_snapshot_is_read_from_the_file_range_pig_names(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"{HEADER}\n{A}\n{B}\n")
            size = os.path.getsize(path)
            ext = reader_ext()
            snapshot = {"header": HEADER, "entries": [C], "leafId": "c3", "file": {"path": path, "offset": 0, "length": size, "count": 2}}
            host, task = await connected(ext, answers={"session.subscribe": snapshot})
            await self.run_read(host)
            self.assertEqual(ext.reads[0]["entries"], [A, B, C])
            host.drop()
            await asyncio.wait_for(task, 5)
            await host.close()

    async def test_a_file_that_is_not_what_pig_described_falls_back_to_the_text_snapshot(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"{HEADER}\n{A}\n")
            ext = reader_ext()

            def subscribe(params):
                if params.get("file"):
                    return {"header": HEADER, "entries": [], "leafId": "b2", "file": {"path": path, "offset": 0, "length": 10_000, "count": 2}}
                return {"header": HEADER, "entries": [A, B], "leafId": "b2"}

            host, task = await connected(ext, answers={"session.subscribe": subscribe})
            await self.run_read(host)
            self.assertEqual(ext.reads[0]["entries"], [A, B])
            self.assertEqual([m["params"] for m in host.received if m.get("method") == "session.subscribe"], [{"file": True}, {}])
            host.drop()
            await asyncio.wait_for(task, 5)
            await host.close()


class Mirror(unittest.TestCase):
    def test_the_branch_follows_parent_ids_from_the_leaf_and_survives_bad_lines(self):
        m = SessionMirror()
        m.load({"header": HEADER, "entries": [A, "not json", B, C], "leafId": "c3"})
        self.assertEqual([e["id"] for e in m.branch()], ["a1", "c3"])
        self.assertEqual([e["id"] for e in m.branch("b2")], ["a1", "b2"])
        self.assertEqual(m.entry("b2")["spaced"], True)
        self.assertEqual(m.header_object()["id"], "s1")

    def test_appends_before_a_subscription_are_ignored(self):
        m = SessionMirror()
        m.append([A], "a1")
        self.assertEqual((m.lines, m.subscribed), ([], False))
        m.replace({"header": HEADER, "entries": [A], "leafId": "a1", "sessionFile": "/tmp/x"})
        self.assertEqual((m.lines, m.session_file), ([], "/tmp/x"))


if __name__ == "__main__":
    unittest.main()
