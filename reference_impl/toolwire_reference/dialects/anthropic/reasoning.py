"""Anthropic's ``thinking`` as the canonical ``reasoning`` setting (:mod:`toolwire_reference.reasoning`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._json import expect_object
from ...errors import Segments
from ...reasoning import DEFAULT_BUDGET, NAME, budget_of, one_of, read_budget, setting
from ...request import DEFAULT_MAX_TOKENS, Request, unsupported

#: Anthropic: ``budget_tokens`` ≥ 1,024 and below ``max_tokens``
#: (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking)
MIN_BUDGET = 1024


def read_reasoning(req: Request, body: dict) -> None:
    """``thinking: {"type": "enabled", "budget_tokens"} | {"type": "disabled"} | {"type": "adaptive"}``;
    Anthropic returns the thinking it enables, so the client sees it (``summary: auto``)."""
    if body.get("thinking") is None:
        return
    base: Segments = ("thinking",)
    value = expect_object(body["thinking"], base, "`thinking`")
    kinds = ("enabled", "disabled", "adaptive")
    kind = one_of(value.get("type"), kinds, "`thinking.type`", base + ("type",))
    if kind == "disabled":
        req.set(NAME, {"effort": "none"}, base)
    elif kind == "adaptive":
        req.set(NAME, {"summary": "auto"}, base)
    else:
        budget = read_budget(value.get("budget_tokens"), base + ("budget_tokens",), MIN_BUDGET)
        req.set(NAME, {"budget_tokens": budget, "summary": "auto"}, base)


def write_reasoning(req: Request, out: dict, profile: Mapping[str, str]) -> None:
    """``thinking`` into the encoded request ``out``: a budget of at least 1,024 tokens and below
    ``max_tokens``. When the source named no ``max_tokens`` and the reference chose it
    (``anthropic.max-tokens=any``), it is raised to the budget plus the usual 4,096, so that thinking
    leaves the answer the room it would have had without it. Where Anthropic cannot think (``max_tokens``
    leaves no room for a budget, the tool choice forces a tool, or the sampling settings are ones
    thinking does not allow):
    ``request.unsupported_field``, dropped under degrade."""
    reasoning = setting(req)
    if reasoning is None:
        return
    budget = budget_of(reasoning)
    if budget == 0:
        out["thinking"] = {"type": "disabled"}
        return
    max_tokens = out["max_tokens"]
    forced = (out.get("tool_choice") or {}).get("type") in ("any", "tool")
    sampling = _thinking_sampling_conflict(req.settings)
    if max_tokens <= MIN_BUDGET or forced or sampling:
        why = (
            "a tool choice that forces a tool"
            if forced
            else sampling or f"max_tokens {max_tokens} (the budget is at least {MIN_BUDGET} tokens below it)"
        )
        unsupported(
            profile,
            "request.unsupported_field",
            f"anthropic cannot think with {why}",
            req.setting_path(NAME),
        )
        return
    budget = max(budget or DEFAULT_BUDGET, MIN_BUDGET)
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
