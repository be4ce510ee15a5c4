"""Reads the session log: `/session` tells how many entries the file has and how many are on the
current branch; `/session <file>` also writes the log's entry lines, exactly as they are in the
session file, to <file> (relative to the working directory).

The log is replicated lazily: nothing of it reaches this process until the first `/session`.

    pig -e examples/extensions/python/session-reader.py
"""
import os
import sys

try:
    import pig_ext  # installed (pip install sdk/python), or the SDK directory next to this file
except ImportError:  # run from a checkout of pig: the SDK is in sdk/python
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from pig_ext import Extension  # noqa: E402

ext = Extension("session-reader")


@ext.command("session", "Count the session's entries; with a file name, export their lines")
async def session(args, ctx):
    lines = await ctx.get_entries()
    branch = await ctx.get_branch()
    kinds = {}
    for entry in branch:
        kinds[entry.get("type")] = kinds.get(entry.get("type"), 0) + 1
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    ctx.ui.notify(f"{len(lines)} entries, {len(branch)} on this branch ({summary}); leaf {await ctx.get_leaf_id()}", "info")
    target = args.strip()
    if target:
        with open(os.path.join(ctx.cwd, target), "w", encoding="utf-8", newline="") as out:
            out.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    ext.run()
