"""Gemini's ``generationConfig.thinkingConfig`` as the canonical ``reasoning`` setting
(:mod:`toolwire_reference.reasoning`)."""

from __future__ import annotations

from typing import Any

from ..._json import expect_object, invalid, json_type
from ...errors import Segments
from ...reasoning import NAME, budget_of, one_of, read_budget, setting
from ...request import Request


def read_reasoning(req: Request, config: dict, base: Segments, key: str) -> None:
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
            budget = read_budget(item, where)
            out.update({"effort": "none"} if budget == 0 else {"budget_tokens": budget})
        elif name in ("thinkingLevel", "thinking_level"):
            levels = ("minimal", "low", "medium", "high")
            level = item.lower() if isinstance(item, str) else item
            out["effort"] = one_of(level, levels, f"`{name}`", where)
        elif name in ("includeThoughts", "include_thoughts"):
            if not isinstance(item, bool):
                raise invalid(f"`{name}` must be a boolean, not {json_type(item)}", where)
            if item:
                out["summary"] = "auto"
        else:
            raise invalid(f"`{key}` has no member `{name}`", where)
    req.set(NAME, out, base)


def write_reasoning(req: Request, config: dict) -> None:
    """``thinkingConfig: {"thinkingBudget", "includeThoughts"?}`` (-1, dynamic, when no amount is named)."""
    reasoning = setting(req)
    if reasoning is None:
        return
    budget = budget_of(reasoning)
    value: dict[str, Any] = {"thinkingBudget": -1 if budget is None else budget}
    if "summary" in reasoning and budget != 0:
        value["includeThoughts"] = True
    config["thinkingConfig"] = value
