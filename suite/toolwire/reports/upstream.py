"""Which findings are already reported upstream: a finding whose checks come from a case citing an issue or
pull request of the implementation's own repository (a field regression: ``corpus/cases/*``'s ``refs``)
shows that link, so a maintainer sees the bug is known.

An implementation names its repositories in its capabilities (``"upstream": ["owner/name", ...]``); the
implementations toolwire publishes reports on are known here by name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..paths import corpus_dir

__all__ = ["KNOWN", "case_refs", "repositories", "reported_upstream"]

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

_TRACKER = re.compile(r"^https://github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull)/\d+")


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


def case_refs(header: dict[str, Any]) -> dict[str, list[str]]:
    """Case id → its ``refs``, from the corpus the header names, else the bundled one ({} when neither
    can be read)."""
    corpus = header.get("corpus") or {}
    roots = [Path(corpus["path"])] if isinstance(corpus.get("path"), str) else []
    roots.append(corpus_dir())
    for root in roots:
        cases = root / "cases"
        if not cases.is_dir():
            continue
        out: dict[str, list[str]] = {}
        for path in sorted(cases.rglob("*.json")):
            try:
                case = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(case, dict) and isinstance(case.get("id"), str):
                out[case["id"]] = [r for r in case.get("refs") or () if isinstance(r, str)]
        return out
    return {}


def reported_upstream(
    checks: Iterable[dict[str, Any]], refs: dict[str, list[str]], repos: Iterable[str]
) -> list[str]:
    """The issue and pull-request links of ``repos`` cited by the cases of ``checks``, in order."""
    wanted = {r.lower() for r in repos}
    found: list[str] = []
    for check in checks:
        for ref in refs.get(str(check.get("case")), ()):
            match = _TRACKER.match(ref)
            if match and match.group(1).lower() in wanted and ref not in found:
                found.append(ref)
    return found
