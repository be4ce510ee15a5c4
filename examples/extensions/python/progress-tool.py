"""A tool that reports progress while it works: `count_lines` counts the lines of each file it is
given, one update per file, and stops when the run is cancelled (Escape).

    pig -e examples/extensions/python/progress-tool.py
"""
import asyncio
import os
import sys

try:
    import pig_ext  # installed (pip install sdk/python), or the SDK directory next to this file
except ImportError:  # run from a checkout of pig: the SDK is in sdk/python
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from pig_ext import Extension, ToolResult  # noqa: E402

ext = Extension("progress-tool")

PARAMETERS = {
    "type": "object",
    "properties": {"paths": {"type": "array", "items": {"type": "string"}, "description": "Files, relative to the working directory"}},
    "required": ["paths"],
}


def count(path):
    with open(path, "rb") as f:
        data = f.read()
    return 0 if not data else data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


@ext.tool("count_lines", "Counts the lines of each of the given files.", PARAMETERS,
          label="Count lines", prompt_snippet="Count the lines of files")
async def count_lines(args, ctx):
    counts = {}
    for index, path in enumerate(args["paths"]):
        # Cancellation (Escape) cancels this task: the await below is where it stops.
        counts[path] = await asyncio.to_thread(count, os.path.join(ctx.cwd, path))
        ctx.progress(f"{index + 1}/{len(args['paths'])}: {path}", {"counts": dict(counts)})
        await asyncio.sleep(0)
    return ToolResult("\n".join(f"{p}: {n}" for p, n in counts.items()), details={"counts": counts})


if __name__ == "__main__":
    ext.run()
