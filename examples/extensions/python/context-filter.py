"""Keeps bulky tool output out of the model's context: before every model call, a tool result
longer than 4,000 characters is replaced by its first and last lines. The session file keeps
the whole result; only what is sent changes.

    pig -e examples/extensions/python/context-filter.py
"""
import os
import sys

try:
    import pig_ext  # installed (pip install sdk/python), or the SDK directory next to this file
except ImportError:  # run from a checkout of pig: the SDK is in sdk/python
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from pig_ext import ContextResult, Extension  # noqa: E402

LIMIT = 4000

ext = Extension("context-filter")


def shorten(message):
    if message.get("role") != "toolResult":
        return message
    text = "".join(b.get("text", "") for b in message.get("content", []) if b.get("type") == "text")
    if len(text) <= LIMIT:
        return message
    lines = text.split("\n")
    kept = lines[:20] + [f"[… {len(lines) - 40} lines left out of the context …]"] + lines[-20:]
    return {**message, "content": [{"type": "text", "text": "\n".join(kept)}]}


@ext.on("context")
def filter_context(event, ctx):
    return ContextResult([shorten(m) for m in event["messages"]])


if __name__ == "__main__":
    ext.run()
