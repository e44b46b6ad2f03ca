"""Scoring shared by the reports (Markdown, combined matrix, badges, diff): outcomes, tallies, percentages.

Pure functions of results records; no clock, no paths, so every report built on them is deterministic.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import corpus_dir

__all__ = [
    "AREA_ORDER",
    "FAILING",
    "LEVELS",
    "PASSING",
    "STATUS_ALL",
    "STATUS_NA",
    "STATUS_NONE",
    "STATUS_SOME",
    "Tally",
    "area_key",
    "errored_streak",
    "load_features",
    "percent",
    "tally",
]

LEVELS: tuple[str, ...] = ("must", "should", "may")
AREA_ORDER: tuple[str, ...] = (
    "tools",
    "choice",
    "calls",
    "results",
    "streams",
    "messages",
    "validation",
    "text",
)
PASSING = frozenset({"passed", "xpassed"})
FAILING = frozenset({"failed", "errored"})

STATUS_ALL, STATUS_SOME, STATUS_NONE, STATUS_NA = "✅", "⚠️", "❌", "➖"
#: a cell no check covers
STATUS_UNCOVERED = "—"


def percent(passed: int, applicable: int) -> str:
    """`passed/applicable` as a percentage that never rounds up to 100% (or down to 0%) falsely."""
    if applicable == 0:
        return "—"
    if passed == applicable:
        return "100%"
    value = math.floor(1000 * passed / applicable) / 10
    if passed and value == 0:
        value = 0.1
    return f"{value:.1f}%".replace(".0%", "%")


def area_key(area: str) -> tuple[int, str]:
    """Sort key of an area: the corpus's order, unknown areas last (alphabetically)."""
    return (AREA_ORDER.index(area), area) if area in AREA_ORDER else (len(AREA_ORDER), area)


@dataclass
class Tally:
    """Outcome counts for a set of checks, overall and per level."""

    outcomes: Counter[str] = field(default_factory=Counter)
    passed_by_level: Counter[str] = field(default_factory=Counter)
    applicable_by_level: Counter[str] = field(default_factory=Counter)

    def add(self, check: dict[str, Any]) -> None:
        outcome = str(check.get("outcome", "errored"))
        level = str(check.get("level", "must"))
        self.outcomes[outcome] += 1
        if outcome != "skipped":
            self.applicable_by_level[level] += 1
            if outcome in PASSING:
                self.passed_by_level[level] += 1

    @property
    def applicable(self) -> int:
        return sum(self.applicable_by_level.values())

    @property
    def passed(self) -> int:
        return sum(self.passed_by_level.values())

    @property
    def status(self) -> str:
        if self.applicable == 0:
            return STATUS_NA
        if self.passed == self.applicable:
            return STATUS_ALL
        return STATUS_NONE if self.passed == 0 else STATUS_SOME


def cell_text(t: Tally | None) -> str:
    """A matrix cell: status and passed/applicable, ➖ when every check was skipped, — when none ran."""
    if t is None:
        return STATUS_UNCOVERED
    if t.applicable == 0:
        return STATUS_NA
    return f"{t.status} {t.passed}/{t.applicable}"


def tally(checks: Iterable[dict[str, Any]]) -> Tally:
    """The :class:`Tally` of some check records."""
    out = Tally()
    for check in checks:
        out.add(check)
    return out


def load_features(header: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The corpus's features.json as {key: entry}: from the corpus the header names, else from the bundled
    corpus when its version is the header's, else {} (the report then shows keys only)."""
    corpus = header.get("corpus") or {}
    candidates: list[Path] = []
    if isinstance(corpus.get("path"), str):
        candidates.append(Path(corpus["path"]))
    try:
        bundled = corpus_dir()
        if (bundled / "VERSION").read_text(encoding="utf-8").strip() == corpus.get("version"):
            candidates.append(bundled)
    except (OSError, FileNotFoundError):
        pass
    for root in candidates:
        features = read_features(root)
        if features is not None:
            return features
    return {}


def read_features(root: Path) -> dict[str, dict[str, Any]] | None:
    """``root/features.json`` as {key: entry} in file order; None when it cannot be read."""
    try:
        data = json.loads((Path(root) / "features.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, list):
        return {e["key"]: e for e in data if isinstance(e, dict) and isinstance(e.get("key"), str)}
    if isinstance(data, dict):  # tolerate a {key: entry} spelling
        return {k: v if isinstance(v, dict) else {} for k, v in data.items()}
    return None


#: this many checks in a row errored (over several cases): the implementation probably stopped working
ERRORED_STREAK = 10


def errored_streak(checks: Iterable[dict[str, Any]]) -> str | None:
    """A warning when the run has a long streak of consecutive errored checks over several cases (skipped
    ones left out): an implementation that stopped working mid-run (a proxy's cooldown after some error, a
    dead process) errs on every later check, and those verdicts say little about the checks; one where every
    check errored never worked at all. None otherwise."""
    ran = [c for c in checks if c.get("outcome") != "skipped"]
    best: tuple[int, int] = (0, 0)  # (length, index of its first check)
    start = None
    for i, check in enumerate([*ran, {}]):
        if check.get("outcome") == "errored":
            start = i if start is None else start
        elif start is not None:
            best = max(best, (i - start, start), key=lambda b: b[0])
            start = None
    length, first = best
    cases = {c.get("case") for c in ran[first : first + length]}
    if length < ERRORED_STREAK or len(cases) < 2:
        return None
    if length == len(ran):
        return (
            f"all {length} checks that ran errored: the implementation may not work at all (it did not "
            "start, or its command, config or URL is wrong); run one check alone (`-k`) and read its message"
        )
    to_end = "to the end of the run" if first + length == len(ran) else "in a row"
    return (
        f"{length} checks errored {to_end} from `{ran[first].get('id')}` on: the implementation may have "
        "stopped working there (a cooldown after an error, a dead process) rather than failing each check; "
        "run a few of them alone (`-k`) to tell"
    )
