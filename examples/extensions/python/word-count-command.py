"""A command: `/words <text>` counts the words of its argument, `/words` alone those of the last
answer. Works in every mode (`pig -p "/words one two"` prints the notice on stderr).

    pig -e examples/extensions/python/word-count-command.py
"""
import os
import sys

try:
    import pig_ext  # installed (pip install sdk/python), or the SDK directory next to this file
except ImportError:  # run from a checkout of pig: the SDK is in sdk/python
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from pig_ext import Extension  # noqa: E402

ext = Extension("word-count-command")


def message_text(message):
    content = message.get("content", "")
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content if b.get("type") == "text")


def complete(prefix):
    # Argument completions: a few things worth counting.
    return [w for w in ("hello world", "lorem ipsum dolor") if w.startswith(prefix)]


@ext.command("words", "Count the words of the text given, or of the last answer", complete=complete)
async def words(args, ctx):
    text = args.strip()
    if not text:
        answers = [e for e in await ctx.get_branch() if e.get("type") == "message" and e["message"].get("role") == "assistant"]
        text = message_text(answers[-1]["message"]) if answers else ""
    ctx.ui.notify(f"{len(text.split())} words", "info")


if __name__ == "__main__":
    ext.run()
