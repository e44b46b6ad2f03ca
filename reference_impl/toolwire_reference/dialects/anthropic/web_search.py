"""Anthropic's web search server tool as the canonical ``web_search`` setting
(:mod:`toolwire_reference.hosted`)."""

from __future__ import annotations

import re

from ..._json import MISSING
from ...errors import Segments
from ...hosted import SETTING, read_options
from ...request import Request

TOOL_TYPE = "web_search_20250305"
TOOL_PATTERN = re.compile(r"^web_search_\d{8}$")


def split_web_search(entry: dict, path: Segments) -> tuple[dict | None, tuple | None]:
    """Anthropic's ``web_search_YYYYMMDD`` server tool (``name``, ``type`` and the hint members
    ``cache_control``, ``defer_loading``, ``allowed_callers``, ``strict`` carry no option)."""
    if not (isinstance(entry.get("type"), str) and TOOL_PATTERN.match(entry["type"])):
        return entry, None
    members = {k: k for k in ("max_uses", "allowed_domains", "blocked_domains", "user_location")}
    skip = ("type", "name", "cache_control", "defer_loading", "allowed_callers", "strict")
    return None, read_options(entry, path, members, skip)


def web_search_tool(req: Request, profile) -> dict | None:
    """Anthropic's web search server tool for the request's web search (None when it has none)."""
    search = req.settings.get(SETTING, MISSING)
    if search is MISSING:
        return None
    out: dict = {"type": TOOL_TYPE, "name": "web_search"}
    for name in ("max_uses", "allowed_domains", "blocked_domains"):
        if name in search:
            out[name] = list(search[name]) if isinstance(search[name], list) else search[name]
    if "user_location" in search:
        out["user_location"] = {"type": "approximate", **search["user_location"]}
    return out
