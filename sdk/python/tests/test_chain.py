"""One extension's handlers combined per event, as pig combines extensions."""
import asyncio
import unittest

from pig_ext import (BeforeAgentStartResult, BoundaryResult, Cancel, CustomDraft, CustomMessage, CustomMessageDraft,
                     InputHandled, ToolResult, ToolResultPatch)
from pig_ext.chain import Blocked, run_chain
from pig_ext.results import to_wire


def chain(event, payload, *handlers):
    errors = []

    async def run(fn, p):
        return fn(p)
    result = asyncio.run(run_chain(event, payload, list(handlers), run, errors.append))
    return result, errors


class Chains(unittest.TestCase):
    def test_before_agent_start_collects_messages_and_passes_the_system_prompt_on(self):
        seen = []
        result, _ = chain(
            "before_agent_start", {"prompt": "p", "systemPrompt": "base"},
            lambda p: BeforeAgentStartResult(message=CustomMessage("a", "one"), system_prompt=p["systemPrompt"] + "+1"),
            lambda p: (seen.append(p["systemPrompt"]), BeforeAgentStartResult(message=CustomMessage("b", "two", display=False)))[1],
        )
        self.assertEqual(seen, ["base+1"])
        self.assertEqual(result["systemPrompt"], "base+1")
        self.assertEqual(result["messages"], [{"customType": "a", "content": "one", "display": True}, {"customType": "b", "content": "two", "display": False}])
        self.assertEqual(result["message"], result["messages"][0])

    def test_tool_result_patches_field_by_field(self):
        result, _ = chain("tool_result", {"content": [], "details": None, "isError": False},
                          lambda p: ToolResultPatch(is_error=True), lambda p: ToolResultPatch(details={"n": 1}))
        self.assertEqual(result, {"isError": True, "details": {"n": 1}})

    def test_boundary_entries_replace_the_list_and_continue_the_flag(self):
        result, _ = chain("turn_end", {"entries": [], "continue": False},
                          lambda p: BoundaryResult(entries=p["entries"] + [CustomDraft("n", {"a": 1})]),
                          lambda p: BoundaryResult(entries=p["entries"] + [CustomMessageDraft("m", "go on")], continue_=True))
        self.assertEqual(result, {"entries": [{"type": "custom", "customType": "n", "data": {"a": 1}},
                                              {"type": "custom_message", "customType": "m", "content": "go on", "display": True}], "continue": True})

    def test_input_handled_stops_and_session_before_cancel_stops(self):
        later = []
        result, _ = chain("input", {"text": "x"}, lambda p: InputHandled(), lambda p: later.append(1))
        self.assertEqual((result, later), ({"action": "handled"}, []))
        result, _ = chain("session_before_switch", {"reason": "new"}, lambda p: Cancel(), lambda p: later.append(1))
        self.assertEqual((result, later), ({"cancel": True}, []))

    def test_a_failing_handler_is_reported_and_skipped_but_blocks_a_tool_call(self):
        def boom(_p):
            raise RuntimeError("boom")
        result, errors = chain("context", {"messages": [1]}, boom, lambda p: {"messages": p["messages"] + [2]})
        self.assertEqual((result, [str(e) for e in errors]), ({"messages": [1, 2]}, ["boom"]))
        with self.assertRaises(Blocked):
            chain("tool_call", {"toolName": "bash", "input": {}}, boom)

    def test_results_on_the_wire(self):
        self.assertEqual(to_wire(ToolResult("hi", details={"a": 1}, is_error=True)),
                         {"content": [{"type": "text", "text": "hi"}], "details": {"a": 1}, "isError": True})
        self.assertEqual(to_wire(Cancel(extra={"compaction": {"summary": "s"}})), {"cancel": True, "compaction": {"summary": "s"}})


if __name__ == "__main__":
    unittest.main()
