import json
import unittest

from pig_ext import framing


class LineSplitting(unittest.TestCase):
    def test_only_lf_ends_a_line_and_u2028_cr_and_empty_lines_are_handled(self):
        s = framing.LineSplitter()
        text = json.dumps({"a": "x\u2028y\u2029z"}, ensure_ascii=False).encode()
        out = s.feed(text[:5]) + s.feed(text[5:] + b"\r\n\n" + b'{"b":1}\n')
        self.assertEqual([json.loads(o) for o in out], [{"a": "x\u2028y\u2029z"}, {"b": 1}])

    def test_a_utf8_sequence_cut_between_chunks_is_joined_before_decoding(self):
        s = framing.LineSplitter()
        data = '{"t":"\U0001F437"}\n'.encode()
        out = [o for i in range(len(data)) for o in s.feed(data[i:i + 1])]
        self.assertEqual([framing.parse(o) for o in out], [{"t": "\U0001F437"}])

    def test_a_line_over_the_limit_is_dropped_and_its_id_read_from_its_head(self):
        s = framing.LineSplitter(max_frame=100)
        big = b'{"jsonrpc":"2.0","id":7,"method":"tool.execute","params":{"x":"' + b"y" * 300 + b'"}}\n'
        out = s.feed(big[:50]) + s.feed(big[50:] + b'{"ok":true}\n')
        self.assertIsInstance(out[0], framing.Oversized)
        self.assertEqual((out[0].id, out[0].is_request, out[0].size), (7, True, len(big) - 1))
        self.assertEqual(framing.parse(out[1]), {"ok": True})

    def test_invalid_lines_are_reported_not_raised(self):
        self.assertEqual(framing.parse(b"{nope").code, -32700)
        self.assertEqual(framing.parse(b"[1]").code, -32600)
        self.assertEqual(framing.parse(b'{"id":[1]}').code, -32600)


class Parts(unittest.TestCase):
    def test_a_long_message_goes_out_as_parts_that_reassemble_to_it(self):
        message = {"jsonrpc": "2.0", "id": 1, "result": {"text": "é\"\\\U0001F437" * 500}}
        lines = framing.frames(message, 1000, lambda: 9)
        self.assertGreater(len(lines), 1)
        r = framing.Reassembler(1000)
        whole = None
        for line in lines:
            self.assertLessEqual(len(line) - 1, 1000)
            part = json.loads(line)
            self.assertEqual((part["method"], part["params"]["stream"]), ("$/part", 9))
            whole = r.add(part["params"])
        self.assertEqual(json.loads(whole), message)

    def test_a_short_message_is_one_line(self):
        self.assertEqual(framing.frames({"a": 1}, 1000, lambda: 1), [b'{"a":1}\n'])

    def test_a_message_over_64_frames_is_refused(self):
        with self.assertRaises(ValueError):
            framing.frames({"x": "y" * 70_000}, 1000, lambda: 1)

    def test_interleaved_streams_and_the_open_stream_limit(self):
        r = framing.Reassembler(1000)
        self.assertIsNone(r.add({"stream": 1, "data": '{"a":', "final": False}))
        self.assertIsNone(r.add({"stream": 2, "data": '{"b":', "final": False}))
        self.assertEqual(r.add({"stream": 1, "data": "1}", "final": True}), '{"a":1}')
        self.assertEqual(r.add({"stream": 2, "data": "2}", "final": True}), '{"b":2}')
        for n in range(16):
            r.add({"stream": n, "data": "x", "final": False})
        with self.assertRaises(framing.PartError):
            r.add({"stream": 99, "data": "x", "final": False})

    def test_a_reassembled_message_over_the_limit_is_refused(self):
        r = framing.Reassembler(10)
        with self.assertRaises(framing.PartError):
            for _ in range(100):
                r.add({"stream": 1, "data": "é" * 10, "final": False})


if __name__ == "__main__":
    unittest.main()
