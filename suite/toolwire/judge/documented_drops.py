"""A request member the target has no form for, left out on purpose: where the corpus expects a refusal of
valid input at a top-level request member and the implementation lists that member toward that target
among its ``documented_drops`` (with where it documents the drop), an output the target accepts passes
when it is exactly the implementation's own translation of the request without that member: nothing else
changed, and its maintainers decided the drop in the open (LangChain drops ``stop`` toward the Responses
API, langchain-ai/langchain#38336). An undocumented drop stays a silent change of meaning
(INTERPRETING.md, "Error expectations")."""

from __future__ import annotations

import json
from typing import Any

from ..adapters import Adapter, Answer
from ..corpus import Check
from ..corpus.capabilities import documented_drops
from .checks import CheckResult, handled_pass

__all__ = ["dropped_as_documented"]


def dropped_as_documented(
    adapter: Adapter, check: Check, profile: dict[str, Any], answer: Answer, result: CheckResult
) -> CheckResult | None:
    """The pass (``documented-drop``) for a failed ``result`` that is such a drop, or None. Translates the
    source without the member once more to compare; a different output, or none, leaves the failure."""
    if result.outcome != "failed" or check.kind != "request" or answer.status != "payload":
        return None
    if "error" not in check.expectation or check.source_problems or result.wire_valid is not True:
        return None
    path = check.expected_error.get("path")
    member = path[1:] if isinstance(path, str) and path.count("/") == 1 else None
    source = check.source_payload
    ref = documented_drops(adapter.capabilities).get(("request", check.target, member or ""))
    if ref is None or not isinstance(source, dict) or member not in source:
        return None
    without = {k: v for k, v in source.items() if k != member}
    again = adapter.translate(check.kind, check.source, check.target, without, profile)
    if again.status != "payload" or _canonical(again.payload) != _canonical(answer.payload):
        return None
    name = adapter.capabilities.get("name")
    return handled_pass(
        "documented-drop",
        f"`{member}` left out, as {name} documents toward {check.target} ({ref}): "
        f"the output is its translation of the request without `{member}`, which the {check.target} "
        f"provider accepts, where a refusal at {path} is expected",
        True,
        answer.duration_ms + again.duration_ms,
    )


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
