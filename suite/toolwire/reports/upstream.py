"""Which findings are already reported upstream: a finding whose checks come from a case that catches a bug
users reported in the implementation's own repository (``corpus/regressions.json``) shows that report, so a
maintainer sees the bug is known.

An implementation names its repositories in its capabilities (``"upstream": ["owner/name", ...]``); the
implementations toolwire publishes reports on are known here by name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import corpus_dir
from .bugs import Finding

__all__ = ["KNOWN", "Regression", "of_implementation", "regressions", "repositories", "reported_upstream"]

#: the repositories of the implementations in ``reports/``, by the start of their report name
KNOWN: dict[str, tuple[str, ...]] = {
    "aisuite": ("andrewyng/aisuite",),
    "any-llm": ("mozilla-ai/any-llm",),
    "claude-code-router": ("musistudio/claude-code-router", "musistudio/llms"),
    "copilot-api": ("ericc-ch/copilot-api",),
    "langchain": ("langchain-ai/langchain", "langchain-ai/langchain-google", "langchain-ai/langchain-aws"),
    "litellm": ("BerriAI/litellm",),
    "portkey-gateway": ("Portkey-AI/gateway",),
    "vercel-ai-sdk": ("vercel/ai",),
}

_TRACKER = re.compile(r"^https://github\.com/([\w.-]+/[\w.-]+)/")


def repositories(header: dict[str, Any]) -> tuple[str, ...]:
    """The implementation's repositories: its capabilities' ``upstream``, else :data:`KNOWN` by name."""
    adapter = header.get("adapter") or {}
    declared = (adapter.get("capabilities") or {}).get("upstream")
    if isinstance(declared, list) and all(isinstance(x, str) for x in declared):
        return tuple(declared)
    name = str(adapter.get("name") or "")
    for key in sorted(KNOWN, key=len, reverse=True):
        if name == key or name.startswith(key + "-") or name.startswith(key + " "):
            return KNOWN[key]
    return ()


@dataclass(frozen=True)
class Regression:
    """A bug users reported upstream that a case catches (an entry of ``regressions.json``)."""

    case: str
    issue: str
    shows: tuple[str, ...]

    def explains(self, title: str) -> bool:
        """Whether a finding with this (plain) title is how the bug shows."""
        return any(part in title for part in self.shows)


def regressions(header: dict[str, Any]) -> list[Regression]:
    """The field regressions of the corpus the header names, else of the bundled one ([] when neither has
    the file)."""
    corpus = header.get("corpus") or {}
    roots = [Path(corpus["path"])] if isinstance(corpus.get("path"), str) else []
    roots.append(corpus_dir())
    for root in roots:
        try:
            entries = json.loads((root / "regressions.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        out = []
        for entry in entries if isinstance(entries, list) else ():
            if not isinstance(entry, dict) or not isinstance(entry.get("case"), str):
                continue
            shows = tuple(x for x in entry.get("shows") or () if isinstance(x, str) and x)
            out.append(Regression(entry["case"], str(entry.get("issue")), shows))
        return out
    return []


def of_implementation(known: Iterable[Regression], repos: Iterable[str]) -> list[Regression]:
    """The regressions reported in one of ``repos`` (the implementation's own trackers)."""
    wanted = {r.lower() for r in repos}
    out = []
    for regression in known:
        match = _TRACKER.match(regression.issue)
        if match and match.group(1).lower() in wanted:
            out.append(regression)
    return out


def reported_upstream(finding: Finding, known: Iterable[Regression]) -> list[str]:
    """The upstream reports of the bugs ``finding`` is (its checks' case catches it, its title shows it)."""
    cases = {str(c.get("case")) for c in finding.checks}
    title = finding.plain_title()
    found: list[str] = []
    for regression in known:
        if regression.case in cases and regression.explains(title) and regression.issue not in found:
            found.append(regression.issue)
    return found
