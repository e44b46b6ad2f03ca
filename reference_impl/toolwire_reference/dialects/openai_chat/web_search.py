"""Chat's ``web_search_options`` as the canonical ``web_search`` setting
(:mod:`toolwire_reference.hosted`)."""

from __future__ import annotations

from ..._json import MISSING, expect_object
from ...errors import Segments, pointer
from ...hosted import SETTING, mapping, read_location, read_options, record, refuse_options
from ...request import Request, unsupported


def read_web_search(req: Request, body: dict, profile) -> None:
    """Chat's ``web_search_options`` (``search_context_size``, ``user_location.approximate``);
    request.unsupported_field under ``refuse`` (dropped under degrade)."""
    value = body.get("web_search_options")
    if value is None:
        return
    path: Segments = ("web_search_options",)
    if not mapping(profile):
        unsupported(
            profile,
            "request.unsupported_field",
            "Chat's web search has no equivalent under hosted.web-search=refuse",
            pointer(path),
        )
        return
    obj = expect_object(value, path, "`web_search_options`")
    found = read_options(obj, path, {"search_context_size": "context_size"}, ("user_location",))
    if obj.get("user_location") is not None:
        where = path + ("user_location",)
        outer = expect_object(obj["user_location"], where, "`user_location`")
        inner = outer.get("approximate")
        found[0]["user_location"] = read_location(
            inner if inner is not None else {}, where + ("approximate",)
        )
        found[1]["user_location"] = where
    record(req, found, path)


def web_search_options(req: Request, profile) -> dict | None:
    """Chat's ``web_search_options`` for the request's web search (None when it has none)."""
    search = req.settings.get(SETTING, MISSING)
    if search is MISSING:
        return None
    refuse_options(req, search, ("max_uses", "allowed_domains", "blocked_domains"), "openai-chat", profile)
    out: dict = {}
    if "context_size" in search:
        out["search_context_size"] = search["context_size"]
    if "user_location" in search:
        out["user_location"] = {"type": "approximate", "approximate": dict(search["user_location"])}
    return out
