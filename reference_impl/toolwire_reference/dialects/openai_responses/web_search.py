"""The Responses ``web_search`` tool as the canonical ``web_search`` setting
(:mod:`toolwire_reference.hosted`)."""

from __future__ import annotations

from ..._json import MISSING, expect_object
from ...errors import Segments
from ...hosted import SETTING, read_options, refuse_options
from ...request import Request

TOOL_TYPES = frozenset(
    ("web_search", "web_search_2025_08_26", "web_search_preview", "web_search_preview_2025_03_11")
)


def split_web_search(entry: dict, path: Segments) -> tuple[dict | None, tuple | None]:
    """A Responses ``web_search`` (or ``web_search_preview``) tool: ``filters.allowed_domains``,
    ``user_location``, ``search_context_size``."""
    kind = entry.get("type")
    if not isinstance(kind, str) or kind not in TOOL_TYPES:  # (an unhashable type: not this tool)
        return entry, None
    members = {"user_location": "user_location", "search_context_size": "context_size"}
    found = read_options(entry, path, members, ("type", "filters"))
    if entry.get("filters") is not None:
        where = path + ("filters",)
        filters = expect_object(entry["filters"], where, "`filters`")
        read_options(filters, where, {"allowed_domains": "allowed_domains"}, (), found)
    return None, found


def web_search_tool(req: Request, profile) -> dict | None:
    """The Responses ``web_search`` tool for the request's web search (None when it has none)."""
    search = req.settings.get(SETTING, MISSING)
    if search is MISSING:
        return None
    refuse_options(req, search, ("max_uses", "blocked_domains"), "openai-responses", profile)
    out: dict = {"type": "web_search"}
    if "allowed_domains" in search:
        out["filters"] = {"allowed_domains": list(search["allowed_domains"])}
    if "user_location" in search:
        out["user_location"] = {"type": "approximate", **search["user_location"]}
    if "context_size" in search:
        out["search_context_size"] = search["context_size"]
    return out
