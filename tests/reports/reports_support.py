"""Hand-built results files for the combined-report tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FEATURES = [
    {
        "key": "tools.wrapper",
        "title": "Tool definition wrapper",
        "area": "tools",
        "description": "the `tools` list in each dialect",
    },
    {"key": "tools.multiple", "title": "Several tools, order kept", "area": "tools", "description": "d"},
    {"key": "choice.auto", "title": "auto", "area": "choice", "description": "d"},
    {"key": "choice.none", "title": "none", "area": "choice", "description": "d"},
]
VERSION, HASH = "0.3.0", "ab" * 32


def write_corpus(root: Path, version: str = VERSION) -> Path:
    """A directory with just what the reports read: VERSION and features.json."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "VERSION").write_text(version + "\n", encoding="utf-8")
    (root / "features.json").write_text(json.dumps(FEATURES), encoding="utf-8")
    return root


def header(
    name: str, corpus: Path | str = "corpus", *, version: str = VERSION, hash_: str = HASH
) -> dict[str, Any]:
    return {
        "record": "header",
        "format": 1,
        "toolwire_version": "0.1.0",
        "corpus": {"version": version, "hash": hash_, "interpreting_version": "1.0.0", "path": str(corpus)},
        "adapter": {
            "spec": f"peer:{name}",
            "name": name,
            "version": "1.2.3",
            "language": "python",
            "capabilities": {},
        },
        "run": {
            "started": "2026-01-02T03:04:05Z",
            "python": "3.11.9",
            "platform": "linux",
            "argv": ["toolwire", "run"],
            "selection": None,
        },
    }


def check(
    case: str,
    target: str,
    outcome: str,
    *,
    features: list[str],
    level: str = "must",
    source: str = "canonical",
    **extra: Any,
) -> dict[str, Any]:
    area = case.split("/")[0]
    rec = {
        "record": "check",
        "id": f"{case}[{source}>{target}]",
        "case": case,
        "area": area,
        "kind": "tools" if area == "tools" else "tool_choice",
        "source": source,
        "target": target,
        "profile": {},
        "level": level,
        "features": features,
        "outcome": outcome,
        "duration_ms": 2.5,
    }
    if outcome in ("failed", "errored") and "diff" not in extra:
        extra.setdefault("message", "the output differs from the expectation")
        extra["diff"] = f"/0/name: expected 'get_weather', got 'getWeather' <{target}>"
    rec.update({k: v for k, v in extra.items() if v is not None})
    return rec


def footer(checks: list[dict[str, Any]], complete: bool = True) -> dict[str, Any]:
    outcomes = ("passed", "failed", "errored", "skipped", "xfailed", "xpassed")
    return {
        "record": "footer",
        "complete": complete,
        "total": len(checks),
        "counts": {o: sum(c["outcome"] == o for c in checks) for o in outcomes},
        "finished": "2026-01-02T03:05:00Z",
    }


def write(
    path: Path,
    head: dict[str, Any],
    checks: list[dict[str, Any]],
    *,
    complete: bool | None = True,
) -> Path:
    """A results file; ``complete=None``: no footer (an interrupted run)."""
    lines = [head, *sorted(checks, key=lambda c: c["id"])]
    if complete is not None:
        lines.append(footer(checks, complete))
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def reference_checks() -> list[dict[str, Any]]:
    return [
        check("tools/basic", "openai-chat", "passed", features=["tools.wrapper"]),
        check("tools/basic", "anthropic", "passed", features=["tools.wrapper", "tools.multiple"]),
        check("choice/auto", "gemini", "passed", features=["choice.auto"], level="should"),
        check("choice/none", "anthropic", "passed", features=["choice.none"], level="may"),
    ]


def peer_checks() -> list[dict[str, Any]]:
    return [
        check("tools/basic", "openai-chat", "passed", features=["tools.wrapper"]),
        check("tools/basic", "anthropic", "failed", features=["tools.wrapper", "tools.multiple"]),
        check(
            "choice/auto",
            "gemini",
            "errored",
            features=["choice.auto"],
            level="should",
            message="Traceback: KeyError 'mode'",
            diff=None,
        ),
        check("choice/none", "anthropic", "skipped", features=["choice.none"], level="may"),
    ]
