"""Reasoning settings: one canonical setting for Anthropic's ``thinking``, OpenAI Chat's
``reasoning_effort``, OpenAI Responses' ``reasoning`` and Gemini's ``thinkingConfig``
(``corpus/RULES.md``, "Reasoning settings").

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
from .request import DEFAULT_MAX_TOKENS, Request, unsupported

__all__ = [
    "EFFORTS",
    "SUMMARIES",
    "budget_of",
    "effort_of",
    "read_anthropic",
    "read_canonical",
    "read_chat",
    "read_gemini",
    "read_responses",
    "write_anthropic",
    "write_chat",
    "write_gemini",
    "write_responses",
]

EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")
SUMMARIES = ("auto", "concise", "detailed")
#: https://ai.google.dev/gemini-api/docs/openai#thinking (minimal and xhigh: their neighbours' budgets)
EFFORT_BUDGETS = {"minimal": 1024, "low": 1024, "medium": 8192, "high": 24576, "xhigh": 24576}
#: Anthropic: ``budget_tokens`` ≥ 1,024 and below ``max_tokens``
#: (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking)
ANTHROPIC_MIN_BUDGET = 1024
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


def _one_of(value: Any, allowed: tuple[str, ...], what: str, path: Segments) -> str:
    if not isinstance(value, str) or value not in allowed:
        shown = repr(value) if isinstance(value, str) else json_type(value)
        raise invalid(f"{what} is one of {', '.join(allowed)}, not {shown}", path)
    return value


def _budget(value: Any, path: Segments, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise invalid(f"a thinking budget is an integer of at least {minimum}, not {value!r}", path)
    return value


def _read_object(
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


def _effort(item: Any, path: Segments) -> str:
    return _one_of(item, EFFORTS, f"`{'.'.join(map(str, path))}`", path)


def _summary(item: Any, path: Segments) -> str:
    return _one_of(item, SUMMARIES, f"`{'.'.join(map(str, path))}`", path)


_CANONICAL_MEMBERS = {
    "effort": ("effort", _effort),
    "summary": ("summary", _summary),
    "budget_tokens": ("budget_tokens", _budget),
}
#: ``generate_summary``: the deprecated name of ``summary``
_RESPONSES_MEMBERS = {
    "effort": ("effort", _effort),
    "summary": ("summary", _summary),
    "generate_summary": ("summary", _summary),
}


def read_canonical(req: Request, body: dict) -> None:
    """The canonical ``reasoning`` member."""
    _read_object(req, body, _CANONICAL_MEMBERS, null_is_absent=False)


def read_anthropic(req: Request, body: dict) -> None:
    """``thinking: {"type": "enabled", "budget_tokens"} | {"type": "disabled"} | {"type": "adaptive"}``;
    Anthropic returns the thinking it enables, so the client sees it (``summary: auto``)."""
    if body.get("thinking") is None:
        return
    base: Segments = ("thinking",)
    value = expect_object(body["thinking"], base, "`thinking`")
    kinds = ("enabled", "disabled", "adaptive")
    kind = _one_of(value.get("type"), kinds, "`thinking.type`", base + ("type",))
    if kind == "disabled":
        req.set(NAME, {"effort": "none"}, base)
    elif kind == "adaptive":
        req.set(NAME, {"summary": "auto"}, base)
    else:
        budget = _budget(value.get("budget_tokens"), base + ("budget_tokens",), ANTHROPIC_MIN_BUDGET)
        req.set(NAME, {"budget_tokens": budget, "summary": "auto"}, base)


def read_chat(req: Request, body: dict) -> None:
    """``reasoning_effort``."""
    if body.get("reasoning_effort") is not None:
        effort = _one_of(body["reasoning_effort"], EFFORTS, "`reasoning_effort`", ("reasoning_effort",))
        req.set(NAME, {"effort": effort}, ("reasoning_effort",))


def read_responses(req: Request, body: dict) -> None:
    """``reasoning: {"effort"?, "summary"?}`` (null members are absent)."""
    _read_object(req, body, _RESPONSES_MEMBERS, null_is_absent=True)


def read_gemini(req: Request, config: dict, base: Segments, key: str) -> None:
    """``generationConfig.thinkingConfig: {"thinkingBudget"?, "thinkingLevel"?, "includeThoughts"?}``
    (``thinkingBudget`` -1: dynamic, 0: off)."""
    base = base + (key,)
    value = expect_object(config[key], base, f"`{key}`")
    out: dict[str, Any] = {}
    for name, item in value.items():
        where = base + (name,)
        if item is None:
            continue
        if name in ("thinkingBudget", "thinking_budget"):
            if item == -1:
                continue
            budget = _budget(item, where)
            out.update({"effort": "none"} if budget == 0 else {"budget_tokens": budget})
        elif name in ("thinkingLevel", "thinking_level"):
            levels = ("minimal", "low", "medium", "high")
            level = item.lower() if isinstance(item, str) else item
            out["effort"] = _one_of(level, levels, f"`{name}`", where)
        elif name in ("includeThoughts", "include_thoughts"):
            if not isinstance(item, bool):
                raise invalid(f"`{name}` must be a boolean, not {json_type(item)}", where)
            if item:
                out["summary"] = "auto"
        else:
            raise invalid(f"`{key}` has no member `{name}`", where)
    req.set(NAME, out, base)


# ---- writing -------------------------------------------------------------------------------------------


def _setting(req: Request) -> dict[str, Any] | None:
    value = req.settings.get(NAME, MISSING)
    return None if value is MISSING else value


def write_anthropic(req: Request, out: dict, profile: Mapping[str, str]) -> None:
    """``thinking`` into the encoded request ``out``: a budget of at least 1,024 tokens and below
    ``max_tokens``. When the source named no ``max_tokens`` and the reference chose it
    (``anthropic.max-tokens=any``), it is raised to the budget plus the usual 4,096, so that thinking
    leaves the answer the room it would have had without it. Where Anthropic cannot think (``max_tokens``
    leaves no room for a budget, the tool choice forces a tool, or the sampling settings are ones
    thinking does not allow):
    ``request.unsupported_field``, dropped under degrade."""
    reasoning = _setting(req)
    if reasoning is None:
        return
    budget = budget_of(reasoning)
    if budget == 0:
        out["thinking"] = {"type": "disabled"}
        return
    max_tokens = out["max_tokens"]
    forced = (out.get("tool_choice") or {}).get("type") in ("any", "tool")
    sampling = _thinking_sampling_conflict(req.settings)
    if max_tokens <= ANTHROPIC_MIN_BUDGET or forced or sampling:
        why = (
            "a tool choice that forces a tool"
            if forced
            else sampling
            or f"max_tokens {max_tokens} (the budget is at least {ANTHROPIC_MIN_BUDGET} tokens below it)"
        )
        unsupported(
            profile,
            "request.unsupported_field",
            f"anthropic cannot think with {why}",
            req.setting_path(NAME),
        )
        return
    budget = max(budget or DEFAULT_BUDGET, ANTHROPIC_MIN_BUDGET)
    if "max_tokens" not in req.settings and profile.get("anthropic.max-tokens", "any") == "any":
        out["max_tokens"] = max_tokens = budget + DEFAULT_MAX_TOKENS
    budget = min(budget, max_tokens - 1)
    out["thinking"] = {"type": "enabled", "budget_tokens": budget}


def _thinking_sampling_conflict(settings: Mapping[str, Any]) -> str | None:
    """Why the request's sampling settings exclude thinking, or None: Anthropic takes no
    ``temperature`` but 1, no ``top_k``, and a ``top_p`` of at least 0.95 while thinking (extended
    thinking docs, "Feature compatibility")."""
    if settings.get("temperature", 1) != 1:
        return f"temperature {settings['temperature']} (thinking allows only 1)"
    if "top_k" in settings:
        return "top_k (thinking allows none)"
    if settings.get("top_p", 1) < 0.95:
        return f"top_p {settings['top_p']} (thinking allows 0.95 to 1)"
    return None


def write_chat(req: Request, out: dict) -> None:
    """``reasoning_effort`` (Chat returns no reasoning: ``summary`` has nothing to ask for)."""
    reasoning = _setting(req)
    effort = effort_of(reasoning) if reasoning is not None else None
    if effort is not None:
        out["reasoning_effort"] = effort


def write_responses(req: Request, out: dict) -> None:
    """``reasoning: {"effort"?, "summary"?}``."""
    reasoning = _setting(req)
    if reasoning is None:
        return
    value = {}
    effort = effort_of(reasoning)
    if effort is not None:
        value["effort"] = effort
    if "summary" in reasoning:
        value["summary"] = reasoning["summary"]
    out[NAME] = value


def write_gemini(req: Request, config: dict) -> None:
    """``thinkingConfig: {"thinkingBudget", "includeThoughts"?}`` (-1, dynamic, when no amount is named)."""
    reasoning = _setting(req)
    if reasoning is None:
        return
    budget = budget_of(reasoning)
    value: dict[str, Any] = {"thinkingBudget": -1 if budget is None else budget}
    if "summary" in reasoning and budget != 0:
        value["includeThoughts"] = True
    config["thinkingConfig"] = value
