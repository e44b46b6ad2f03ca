"""Gemini's ``googleSearch`` tool as the canonical ``web_search`` setting
(:mod:`toolwire_reference.hosted`)."""

from __future__ import annotations

from ..._json import MISSING, expect_object
from ...errors import Segments
from ...hosted import SETTING, read_options, refuse_options
from ...request import Request

TOOL_KEYS = ("googleSearch", "google_search")


def split_web_search(entry: dict, path: Segments) -> tuple[dict | None, tuple | None]:
    """A Gemini tool entry's ``googleSearch`` (an entry may hold function declarations beside it)."""
    key = next((k for k in TOOL_KEYS if k in entry), None)
    if key is None:
        return entry, None
    found = read_options(expect_object(entry[key], path + (key,), f"`{key}`"), path + (key,), {}, ())
    rest = {k: v for k, v in entry.items() if k != key}
    return (rest or None), found


def web_search_tool(req: Request, profile) -> dict | None:
    """Gemini's ``googleSearch`` tool entry for the request's web search (None when it has none)."""
    search = req.settings.get(SETTING, MISSING)
    if search is MISSING:
        return None
    options = ("max_uses", "allowed_domains", "blocked_domains", "user_location")
    refuse_options(req, search, options, "gemini", profile)
    return {"googleSearch": {}}
