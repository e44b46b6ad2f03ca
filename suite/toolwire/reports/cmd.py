"""``toolwire report``: dispatch to ``combine`` (matrix, HTML, badges), ``diff``, or the Markdown report."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]

USAGE = """\
usage: toolwire report RESULTS.jsonl [-o FILE]          Markdown report of one run
       toolwire report combine RESULTS... [-o DIR]      matrix of implementations x features:
                                                        index.html, README.md, <name>.badge.svg
       toolwire report diff OLD NEW                     checks that regressed or were fixed
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "combine":
        from .combine import main as combine

        return combine(args[1:])
    if args and args[0] == "diff":
        from .diff import main as diff

        return diff(args[1:])
    if not args:
        sys.stderr.write(USAGE)
        return 2
    if args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE + "\n")
    from .markdown import main as markdown

    try:
        return markdown(args)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
