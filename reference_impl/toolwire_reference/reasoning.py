"""Reasoning settings: one canonical setting for Anthropic's ``thinking``, OpenAI Chat's
``reasoning_effort``, OpenAI Responses' ``reasoning`` and Gemini's ``thinkingConfig``
(``corpus/RULES.md``, "Reasoning settings"). This module holds the canonical setting and what reading and
writing it share; each dialect's own member is read and written in its package
(``dialects/<name>/reasoning.py``; Chat's ``reasoning_effort`` in ``dialects/chat_request.py``).

The canonical ``reasoning`` setting says how much the model thinks and whether the client gets to see the
thinking: ``{"effort"?: one of EFFORTS, "budget_tokens"?: integer ≥ 0, "summary"?: one of SUMMARIES}``; an
empty object is "thinking on, the amount left to the model". A level becomes a token budget, and back, by
Google's documented mapping of OpenAI's ``reasoning_effort`` to Gemini thinking budgets (low 1,024,
medium 8,192, high 24,576; ``none`` turns thinking off); the levels it does not name take their
neighbour's budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._json import MISSING, expect_object, invalid, json_type
from .errors import Segments
from .request import Request

__all__ = [
    "DEFAULT_BUDGET",
    "EFFORTS",
    "NAME",
    "SUMMARIES",
    "budget_of",
    "effort_of",
    "one_of",
    "read_budget",
    "read_canonical",
    "read_effort",
    "read_object",
    "read_summary",
    "setting",
]

EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")
SUMMARIES = ("auto", "concise", "detailed")
#: https://ai.google.dev/gemini-api/docs/openai#thinking (minimal and xhigh: their neighbours' budgets)
EFFORT_BUDGETS = {"minimal": 1024, "low": 1024, "medium": 8192, "high": 24576, "xhigh": 24576}
#: a budget for "thinking on" when the source named no amount (the documented medium)
DEFAULT_BUDGET = EFFORT_BUDGETS["medium"]
NAME = "reasoning"


def budget_of(reasoning: Mapping[str, Any]) -> int | None:
    """The token budget the setting asks for (0: no thinking), or None when it names no amount."""
    if "budget_tokens" in reasoning:
        return int(reasoning["budget_tokens"])
    effort = reasoning.get("effort")
    if effort == "none":
        return 0
    return EFFORT_BUDGETS.get(effort) if effort is not None else None


def effort_of(reasoning: Mapping[str, Any]) -> str | None:
    """The level the setting asks for (a budget becomes the smallest level that covers it), or None."""
    if "effort" in reasoning:
        return str(reasoning["effort"])
    budget = reasoning.get("budget_tokens")
    if budget is None:
        return None
    if budget == 0:
        return "none"
    return next((e for e in ("low", "medium") if budget <= EFFORT_BUDGETS[e]), "high")


# ---- reading -------------------------------------------------------------------------------------------


def one_of(value: Any, allowed: tuple[str, ...], what: str, path: Segments) -> str:
    if not isinstance(value, str) or value not in allowed:
        shown = repr(value) if isinstance(value, str) else json_type(value)
        raise invalid(f"{what} is one of {', '.join(allowed)}, not {shown}", path)
    return value


def read_budget(value: Any, path: Segments, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise invalid(f"a thinking budget is an integer of at least {minimum}, not {value!r}", path)
    return value


def read_object(
    req: Request, body: dict, readers: Mapping[str, tuple[str, Any]], *, null_is_absent: bool
) -> None:
    """``body["reasoning"]`` (an object), each member read by ``readers[key] = (canonical name, reader)``;
    any other member is payload.invalid."""
    if body.get(NAME) is None:
        return
    base: Segments = (NAME,)
    out: dict[str, Any] = {}
    for key, item in expect_object(body[NAME], base, "`reasoning`").items():
        if item is None and null_is_absent:
            continue
        if key not in readers:
            raise invalid(f"`reasoning` has no member `{key}`", base + (key,))
        name, read = readers[key]
        out[name] = read(item, base + (key,))
    req.set(NAME, out, base)


def read_effort(item: Any, path: Segments) -> str:
    return one_of(item, EFFORTS, f"`{'.'.join(map(str, path))}`", path)


def read_summary(item: Any, path: Segments) -> str:
    return one_of(item, SUMMARIES, f"`{'.'.join(map(str, path))}`", path)


_CANONICAL_MEMBERS = {
    "effort": ("effort", read_effort),
    "summary": ("summary", read_summary),
    "budget_tokens": ("budget_tokens", read_budget),
}


def read_canonical(req: Request, body: dict) -> None:
    """The canonical ``reasoning`` member."""
    read_object(req, body, _CANONICAL_MEMBERS, null_is_absent=False)


# ---- writing -------------------------------------------------------------------------------------------


def setting(req: Request) -> dict[str, Any] | None:
    """The request's canonical ``reasoning`` setting, or None."""
    value = req.settings.get(NAME, MISSING)
    return None if value is MISSING else value
