"""``toolwire report diff OLD NEW``: what changed between two runs of the same implementation.

Lists the checks that regressed (passing → failing), were fixed (failing → passing), changed otherwise
(failed ↔ errored, or became applicable or not), and the checks only one run has. Passing is ``passed`` or
``xpassed``; failing is ``failed``, ``errored`` or ``xfailed`` (a known failure is still a failure). Exit 1
when something regressed (for CI), 0 otherwise, 2 when the files cannot be read or come from different
corpus versions or hashes (unless ``--allow-corpus-change``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..results import Results, ResultsError, read_results
from .matrix import CorpusId, implementation_name, partial_reason
from .scoring import PASSING

__all__ = ["Diff", "compare", "main", "render"]

FAILING_FOR_DIFF = frozenset({"failed", "errored", "xfailed"})


@dataclass
class Diff:
    """Check ids with their (old, new) outcomes, per category; each list sorted by id."""

    regressed: list[tuple[str, str, str]] = field(default_factory=list)
    fixed: list[tuple[str, str, str]] = field(default_factory=list)
    changed: list[tuple[str, str, str]] = field(default_factory=list)
    new: list[tuple[str, str]] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
    unchanged: int = 0


def compare(old: Results, new: Results) -> Diff:
    """The differences between two runs, check by check."""
    before = {str(c.get("id")): str(c.get("outcome", "errored")) for c in old.checks}
    after = {str(c.get("id")): str(c.get("outcome", "errored")) for c in new.checks}
    diff = Diff()
    for cid in sorted(before.keys() & after.keys()):
        a, b = before[cid], after[cid]
        if a == b:
            diff.unchanged += 1
        elif a in PASSING and b in FAILING_FOR_DIFF:
            diff.regressed.append((cid, a, b))
        elif a in FAILING_FOR_DIFF and b in PASSING:
            diff.fixed.append((cid, a, b))
        elif a in PASSING and b in PASSING:
            diff.unchanged += 1  # passed <-> xpassed: only the expectations file changed
        else:
            diff.changed.append((cid, a, b))
    diff.new = [(cid, after[cid]) for cid in sorted(after.keys() - before.keys())]
    diff.removed = [(cid, before[cid]) for cid in sorted(before.keys() - after.keys())]
    return diff


def _describe(results: Results) -> str:
    adapter = results.header.get("adapter") or {}
    label = " ".join(str(x) for x in (adapter.get("name"), adapter.get("version")) if x)
    text = str(results.path or implementation_name(results))
    text += f" ({label + ', ' if label else ''}corpus {CorpusId.of(results).short()})"
    reason = partial_reason(results)
    return text + (f" [PARTIAL: {reason}]" if reason else "")


def render(old: Results, new: Results, diff: Diff) -> str:
    """Plain text, one section per non-empty category, and a summary line."""
    levels = {str(c.get("id")): str(c.get("level", "?")) for c in [*old.checks, *new.checks]}
    lines = [f"old: {_describe(old)}", f"new: {_describe(new)}"]
    if CorpusId.of(old) != CorpusId.of(new):
        lines.append("note: the corpus changed between the runs (--allow-corpus-change)")

    def section(title: str, rows: list[str]) -> None:
        if rows:
            lines.extend(["", f"{title} ({len(rows)}):", *rows])

    def moved(items: list[tuple[str, str, str]]) -> list[str]:
        return [f"  {cid}: {a} -> {b} ({levels.get(cid, '?')})" for cid, a, b in items]

    section("REGRESSED (passing -> failing)", moved(diff.regressed))
    section("fixed (failing -> passing)", moved(diff.fixed))
    section("changed", moved(diff.changed))
    new_title = "new checks" + (" (or not run in old: a partial run)" if partial_reason(old) else "")
    old_title = "removed checks" + (" (or not run in new: a partial run)" if partial_reason(new) else "")
    section(new_title, [f"  {cid}: {outcome} ({levels.get(cid, '?')})" for cid, outcome in diff.new])
    section(old_title, [f"  {cid}: was {outcome} ({levels.get(cid, '?')})" for cid, outcome in diff.removed])
    lines += [
        "",
        f"toolwire report diff: {len(diff.regressed)} regressed, {len(diff.fixed)} fixed, "
        f"{len(diff.changed)} changed, {len(diff.new)} new, {len(diff.removed)} removed, "
        f"{diff.unchanged} unchanged",
    ]
    return "\n".join(lines) + "\n"


def _corpus_problem(old: Results, new: Results) -> str | None:
    a, b = CorpusId.of(old), CorpusId.of(new)
    if a == b:
        return None
    what = "versions" if a.version != b.version else "hashes (same version, different content)"
    return (
        f"the runs are from different corpus {what}: {a.short()} and {b.short()}; the same check may "
        "mean different things. Pass --allow-corpus-change to compare anyway."
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="toolwire report diff",
        description="List the checks that regressed or were fixed between two runs. Exit 1 when "
        "something regressed.",
    )
    parser.add_argument("old", help="the earlier results.jsonl")
    parser.add_argument("new", help="the later results.jsonl")
    parser.add_argument(
        "--allow-corpus-change",
        action="store_true",
        help="compare runs of different corpus versions or hashes",
    )
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        old, new = read_results(args.old), read_results(args.new)
    except ResultsError as exc:
        print(f"toolwire report diff: {exc}", file=sys.stderr)
        return 2
    problem = _corpus_problem(old, new)
    if problem and not args.allow_corpus_change:
        print(f"toolwire report diff: {problem}", file=sys.stderr)
        return 2
    diff = compare(old, new)
    sys.stdout.write(render(old, new, diff))
    return 1 if diff.regressed else 0
