"""Every case of pig's chaining cases (test/fixtures/extension-events/chaining.json), through this SDK's chain.

The same file is run by the TypeScript runner's and the Go SDK's tests, so the three chain one
extension's handlers alike, by the rules of pig's event table.
"""
import asyncio
import copy
import json
import pathlib
import unittest

from pig_ext.chain import RULES, Blocked, run_chain

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "test" / "fixtures" / "extension-events"
CASES = FIXTURES / "chaining.json"


def handler(answer, seen, field):
    def run(payload):
        seen.append(copy.deepcopy(payload.get(field)) if field else None)
        if isinstance(answer, dict) and "$throw" in answer:
            raise RuntimeError(answer["$throw"])
        return copy.deepcopy(answer)
    return run


class ChainingCases(unittest.TestCase):
    def test_each_request_combines_by_the_rule_of_pigs_table(self):
        events = json.loads((FIXTURES / "events.json").read_text())["events"]
        table = {name: info["combine"]["rule"] for name, info in events.items() if info["kind"] == "request"}
        self.assertEqual(RULES, table)

    def test_every_case(self):
        cases = json.loads(CASES.read_text())["cases"]
        self.assertGreater(len(cases), 0)
        for case in cases:
            with self.subTest(case["name"]):
                seen, errors = [], []
                field = case.get("seen", {}).get("field")
                handlers = [handler(a, seen, field) for a in case["handlers"]]

                async def run(fn, payload):
                    return fn(payload)
                chain = run_chain(case["event"], copy.deepcopy(case["payload"]), handlers, run, errors.append)
                if case.get("throws"):
                    with self.assertRaises(Blocked):
                        asyncio.run(chain)
                else:
                    self.assertEqual(asyncio.run(chain), case["result"])
                self.assertEqual(len(seen), case["calls"])
                if "seen" in case:
                    self.assertEqual(seen, case["seen"]["values"])
                self.assertEqual(len(errors), case.get("errors", 0))


if __name__ == "__main__":
    unittest.main()
