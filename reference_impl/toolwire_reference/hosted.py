"""Hosted web search between dialects (``hosted.web-search``; RULES.md, "Hosted tools").

Under ``refuse`` (the default) a web search is refused like every hosted tool. Under ``map`` it is the
canonical request setting ``web_search``: ``{max_uses?, allowed_domains?, blocked_domains?,
user_location?: {city?, region?, country?, timezone?}, context_size?}``, read from Anthropic's
``web_search_*`` server tool, a Responses ``web_search`` tool, Chat's ``web_search_options`` or a
Gemini ``googleSearch`` tool, and written as the target's own. An option the target cannot carry is
``request.unsupported_field`` at the option (dropped under degrade): domain filters and a use limit
narrow the search, a location changes its results. ``context_size`` (how much retrieved text the model
reads, OpenAI's ``search_context_size``) asks for nothing the reply shows and is dropped silently where
the target has no equivalent.

This module holds the canonical setting and what the dialects share in reading and writing it; each
dialect's own spelling is in its package (``dialects/<name>/web_search.py``).

A web search entry sits in the request's tool list next to function tools; :func:`take_tools` takes it
out before the dialect's ``tools`` codec reads the list, and :func:`restore_paths` gives the codec's
error paths and the decoded tools their indices in the source list back. The ``tools`` kind (a tool
list alone) has no canonical place for it: there a web search is refused under every profile.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from . import request
from ._json import MISSING, expect_list, expect_object, invalid
from .errors import Segments, TranslationError, pointer
from .model import SchemaOrigin
from .request import Request, unsupported

PROFILE_KEY = "hosted.web-search"
SETTING = "web_search"
_LOCATION = ("city", "region", "country", "timezone")

__all__ = [
    "PROFILE_KEY",
    "SETTING",
    "Splitter",
    "decode_tools",
    "mapping",
    "read_canonical",
    "read_domains",
    "read_location",
    "read_options",
    "record",
    "refuse_options",
    "restore_paths",
    "take_tools",
    "with_entry",
]

#: a dialect's reading of one tool-list entry: (what to keep of it, or None to take it out entirely;
#: the web search it holds as (options, option -> source segments), or None when it holds none)
Splitter = Callable[[dict, Segments], "tuple[dict | None, tuple | None]"]


def mapping(profile: Mapping[str, str]) -> bool:
    """True under ``hosted.web-search=map``."""
    return profile.get(PROFILE_KEY, "refuse") == "map"


# ---- reading ---------------------------------------------------------------------------------------


def take_tools(
    req: Request, value: Any, base: Segments, split: Splitter, profile
) -> tuple[Any, list[int] | None]:
    """The tool list without its web search (recorded as the ``web_search`` setting) and the source
    index of each entry kept (None when nothing was taken out), under ``map``; the list unchanged
    otherwise. Pass the index to :func:`restore_paths` around the ``tools`` codec."""
    if not mapping(profile) or not isinstance(value, list):
        return value, None
    kept, index, changed = [], [], False
    for i, entry in enumerate(value):
        rest, found = split(entry, base + (i,)) if isinstance(entry, dict) else (entry, None)
        if found is not None:
            if SETTING in req.settings:
                raise invalid("a request has one web search", base + (i,))
            record(req, found, base + (i,))
            changed = True
        if rest is not None:
            kept.append(rest)
            index.append(i)
    if not changed:
        return value, None
    return kept, (index if len(kept) != len(value) else None)


def restore_paths(
    req: Request, index: list[int] | None, error: TranslationError | None = None
) -> TranslationError | None:
    """Give ``error`` (a codec error relative to the shortened list), or else the decoded tools, the
    indices of the source list (``index`` from :func:`take_tools`)."""
    if not index:
        return error
    if error is not None:
        base = pointer(req.tools_base)
        match = re.match(rf"^{re.escape(base)}/(\d+)(.*)$", error.path)
        if match and int(match.group(1)) < len(index):
            path = f"{base}/{index[int(match.group(1))]}{match.group(2)}"
            return TranslationError(error.code, error.message, path)
        return error
    for tool in req.tools or []:
        tool.path = _moved(tool.path, index)
        tool.name_path = _moved(tool.name_path, index)
        origin = tool.params_origin
        tool.params_origin = SchemaOrigin(_moved(origin.base, index), origin.source, origin.mapper)
    return None


def _moved(segments: Segments, index: list[int]) -> Segments:
    if segments and isinstance(segments[0], int) and segments[0] < len(index):
        return (index[segments[0]],) + tuple(segments[1:])
    return segments


def record(req: Request, found: tuple[dict, dict[str, Segments]], path: Segments) -> None:
    """Set the ``web_search`` setting; each option's source member is remembered (for refusals)."""
    options, paths = found
    req.set(SETTING, options, path)
    for name, where in paths.items():
        req.setting_paths[f"{SETTING}.{name}"] = where


def read_domains(value: Any, path: Segments) -> list[str]:
    items = expect_list(value, path, "a domain list")
    if not all(isinstance(item, str) for item in items):
        raise invalid("a domain list holds strings", path)
    return list(items)


def read_location(value: Any, path: Segments) -> dict:
    obj = expect_object(value, path, "a user location")
    out = {}
    for key in _LOCATION:
        if obj.get(key) is not None:
            if not isinstance(obj[key], str):
                raise invalid(f"`{key}` must be a string", path + (key,))
            out[key] = obj[key]
    return out


def read_options(
    obj: dict, path: Segments, members: Mapping[str, str], skip: tuple[str, ...], found=None
) -> tuple[dict, dict[str, Segments]]:
    """Options of a web search object (added to ``found``): ``members`` maps a wire member to its
    canonical option; members in ``skip`` are read by the caller; any other non-null member is
    request.unsupported_field (refused under every profile: the search would change)."""
    out, paths = found if found is not None else ({}, {})
    for key, value in obj.items():
        if value is None or key in skip:
            continue
        name = members.get(key)
        where = path + (key,)
        if name is None:
            raise TranslationError(
                "request.unsupported_field",
                f"the web search option `{key}` has no canonical equivalent",
                pointer(where),
            )
        if name == "max_uses":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise invalid("`max_uses` must be a positive integer", where)
            out[name] = value
        elif name in ("allowed_domains", "blocked_domains"):
            out[name] = read_domains(value, where)
        elif name == "user_location":
            out[name] = read_location(value, where)
        else:  # context_size
            if value not in ("low", "medium", "high"):
                raise invalid('`search_context_size` is "low", "medium" or "high"', where)
            out[name] = value
        paths[name] = where
    return out, paths


# ---- writing ---------------------------------------------------------------------------------------


def refuse_options(req: Request, search: dict, options: tuple[str, ...], target: str, profile) -> None:
    for name in options:
        if name in search:
            unsupported(
                profile,
                "request.unsupported_field",
                f"{target}'s web search has no `{name}` option",
                req.setting_path(f"{SETTING}.{name}"),
            )


def read_canonical(req: Request, body: dict) -> None:
    """The canonical ``web_search`` member (closed: the options of the module docstring)."""
    if "web_search" not in body:
        return
    path: Segments = ("web_search",)
    obj = expect_object(body["web_search"], path, "`web_search`")
    members = {k: k for k in ("max_uses", "allowed_domains", "blocked_domains", "user_location")}
    members["context_size"] = "context_size"
    for key, value in obj.items():
        if key not in members:
            raise invalid(f"`web_search` has no member `{key}`", path + (key,))
        if value is None:
            raise invalid(f"`{key}` must not be null", path + (key,))
    record(req, read_options(obj, path, members, ()), path)


def decode_tools(req: Request, codec: Any, value: Any, base: Segments, split: Splitter, profile) -> None:
    """The request's tool list through the dialect's ``tools`` codec, its web search taken out first
    under ``map`` (a list of nothing but a web search leaves the request without function tools)."""
    tools, index = take_tools(req, value, base, split, profile)
    if isinstance(value, list) and value and not tools:
        return
    try:
        request.decode_tools(req, codec, tools, base, profile)
    except TranslationError as error:
        raise restore_paths(req, index, error) from None
    restore_paths(req, index)


def with_entry(tools: Any, entry: dict | None) -> Any:
    """The encoded tool list with the web search ``entry`` last (MISSING when there is neither)."""
    if entry is None:
        return tools
    return [*(tools if tools is not MISSING else []), entry]
