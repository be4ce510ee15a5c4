"""Counts the prompts of a session and keeps the count in the session file (a `custom` entry the
model never sees), so it survives /resume and follows the branch: after /tree to an earlier
point the count is the one recorded on that branch. `/count` shows it.

    pig -e examples/extensions/python/prompt-counter.py
"""
import os
import sys

try:
    import pig_ext  # installed (pip install sdk/python), or the SDK directory next to this file
except ImportError:  # run from a checkout of pig: the SDK is in sdk/python
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from pig_ext import Extension  # noqa: E402

TYPE = "prompt-counter"

ext = Extension("prompt-counter")
count = 0


async def restore(_event, ctx):
    global count
    count = 0
    for entry in await ctx.get_branch():
        if entry.get("type") == "custom" and entry.get("customType") == TYPE:
            count = entry["data"]["count"]


ext.on("session_start")(restore)
ext.on("session_tree")(restore)


@ext.on("before_agent_start")
def counted(_event, ctx):
    global count
    count += 1
    ctx.append_entry(TYPE, {"count": count})


@ext.command("count", "Show how many prompts this branch of the session has had")
def show(_args, ctx):
    ctx.ui.notify(f"{count} prompt{'' if count == 1 else 's'} on this branch", "info")


if __name__ == "__main__":
    ext.run()
