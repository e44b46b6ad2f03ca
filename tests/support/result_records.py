"""Hand-built ``check`` records of a results file, for report tests (the shape toolwire.results writes)."""

from __future__ import annotations

from typing import Any


def check_rec(
    case: str,
    source: str,
    target: str,
    outcome: str,
    *,
    kind: str,
    level: str,
    features: list[str] | tuple[str, ...],
    profile: dict[str, str] | None = None,
    variant: str = "",
    duration_ms: float = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A check record; its id is built as the harness builds it (profile suffix, then variant)."""
    profile = profile or {}
    suffix = "".join(f",{k}={v}" for k, v in profile.items()) + (f",{variant}" if variant else "")
    return {
        "record": "check",
        "id": f"{case}[{source}>{target}{suffix}]",
        "case": case,
        "area": case.split("/")[0],
        "kind": kind,
        "source": source,
        "target": target,
        "profile": profile,
        "level": level,
        "features": list(features),
        "outcome": outcome,
        "duration_ms": duration_ms,
        **extra,
    }
