"""Asks before a bash command that deletes, formats or force-pushes runs. Without anyone to ask
(print and JSON mode) such a command is blocked.

    pig -e examples/extensions/python/permission-gate.py
"""
import re
import os
import sys

try:
    import pig_ext  # installed (pip install sdk/python), or the SDK directory next to this file
except ImportError:  # run from a checkout of pig: the SDK is in sdk/python
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from pig_ext import Extension, block  # noqa: E402

RISKY = [re.compile(p) for p in (r"\brm\s+(-[a-zA-Z]*[rf]|--recursive|--force)", r"\bmkfs\b", r"\bdd\s+if=",
                                  r"\bgit\s+push\b.*(--force|-f)\b", r"\bsudo\b")]

ext = Extension("permission-gate")


@ext.on("tool_call")
async def gate(event, ctx):
    if event["toolName"] != "bash":
        return None
    command = str(event["input"].get("command", ""))
    if not any(p.search(command) for p in RISKY):
        return None
    if not ctx.has_ui:
        return block(f"Blocked without confirmation: {command}")
    if await ctx.ui.confirm("Run this command?", command):
        return None
    return block("The user declined this command.")


if __name__ == "__main__":
    ext.run()
