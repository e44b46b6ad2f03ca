"""The canonical ``response`` on the wire: toolwire's own model (closed: unknown members are invalid).

Decoding checks the shape and returns a copy (``arguments_raw`` becomes a RawArguments remembering
its pointer, so a target needing an object refuses at the right place). Encoding writes the model
as is; generated tool-call ids are written ``call_<n>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import signatures
from ..._json import MISSING, copy_json
from ...calls import CANONICAL_STOP_REASONS, RawArguments, encode_call_id, response_invalid
from ...custom import FreeInput
from ...errors import pointer
from ..response_common import (
    USAGE_KEYS,
    canonical_response,
    need_list,
    need_name,
    need_object,
    need_string,
    opt_count,
    opt_string,
    text_response,
)
from .rules import RULES

NAME = RULES.name
_MEMBERS = ("id", "model", "content", "stop_reason", "stop_sequence", "usage")
_PART_MEMBERS = {
    "text": ("type", "text", "signature", "origin"),
    "thinking": ("type", "text", "signature", "origin"),
    "tool_call": (
        "type", "id", "name", "arguments", "arguments_raw", "input", "signature", "origin", "item_id"
    ),  # fmt: skip
}


def _closed(obj: dict, allowed: tuple, path: tuple, what: str) -> None:
    for key in obj:
        if key not in allowed:
            raise response_invalid(f"{what} has no member `{key}`", path + (key,))


def _decode_part(item: Any, path: tuple) -> dict:
    part = need_object(item, path, "a content part")
    kind = part.get("type")
    if not isinstance(kind, str) or kind not in _PART_MEMBERS:
        raise response_invalid(
            "a response part's `type` must be text, tool_call or thinking", path + ("type",)
        )
    _closed(part, _PART_MEMBERS[kind], path, f"a `{kind}` part")
    if kind != "tool_call":
        out = {"type": kind, "text": need_string(part, "text", path, "`text`")}
        _read_signature(part, out, path)
        return out
    out = {
        "type": "tool_call",
        "id": need_string(part, "id", path, "`id`"),
        "name": need_name(part, "name", path, "`name`"),
    }
    if sum(key in part for key in ("arguments", "arguments_raw", "input")) != 1:
        raise response_invalid("a tool_call needs exactly one of `arguments`, `arguments_raw`, `input`", path)
    if "input" in part:
        out["input"] = FreeInput(need_string(part, "input", path, "`input`"), pointer(path))
    elif "arguments" in part:
        out["arguments"] = copy_json(need_object(part["arguments"], path + ("arguments",), "`arguments`"))
    else:
        raw = need_string(part, "arguments_raw", path, "`arguments_raw`")
        out["arguments_raw"] = RawArguments(raw, pointer(path + ("arguments_raw",)))
    _read_signature(part, out, path)
    item_id = opt_string(part, "item_id", path, "`item_id`")
    if item_id is not MISSING:
        out["item_id"] = item_id
    return out


def _read_signature(part: dict, out: dict, path: tuple) -> None:
    """Copy ``signature`` and its issuer ``origin`` (a dialect name, only beside a signature)."""
    for key in ("signature", "origin"):
        value = opt_string(part, key, path, f"`{key}`")
        if value is not MISSING:
            out[key] = value
    problem = signatures.origin_problem(out)
    if problem:
        raise response_invalid(problem, path + ("origin",))


def decode_usage(value: Any, path: tuple) -> dict:
    """A canonical ``usage`` object (also a stream's ``message_end``): both counts required."""
    raw = need_object(value, path, "`usage`")
    _closed(raw, USAGE_KEYS, path, "`usage`")
    usage = {}
    for key in USAGE_KEYS:
        count = opt_count(raw, key, path)
        if count is MISSING and key in ("input_tokens", "output_tokens"):
            raise response_invalid(f"`usage` needs `{key}`", path + (key,))
        if count is not MISSING:
            usage[key] = count
    return usage


def decode_response(payload: Any, profile: Mapping[str, str]) -> dict:
    body = need_object(payload, (), "a canonical response")
    _closed(body, _MEMBERS, (), "the canonical response")
    content = [
        _decode_part(item, ("content", i))
        for i, item in enumerate(need_list(body.get("content", MISSING), ("content",), "`content`"))
    ]
    stop_reason = body.get("stop_reason")
    if stop_reason not in CANONICAL_STOP_REASONS:
        raise response_invalid(
            f"`stop_reason` must be one of {', '.join(CANONICAL_STOP_REASONS)}", ("stop_reason",)
        )
    return canonical_response(
        content=content,
        stop_reason=stop_reason,
        response_id=opt_string(body, "id", (), "`id`"),
        model=opt_string(body, "model", (), "`model`"),
        stop_sequence=opt_string(body, "stop_sequence", (), "`stop_sequence`"),
        usage=decode_usage(body["usage"], ("usage",)) if "usage" in body else MISSING,
    )


def encode_response(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
    out = copy_json(dict(canonical))
    content = []
    for part in canonical["content"]:
        part = dict(part)
        if part["type"] == "tool_call":
            part["id"] = encode_call_id(part["id"], RULES, profile)
            if "arguments" in part:
                part["arguments"] = copy_json(part["arguments"])
            for key in ("arguments_raw", "input"):
                if key in part:
                    part[key] = str(part[key])
        content.append(part)
    out["content"] = content
    return out


def encode_text(parts: list[dict], profile: Mapping[str, str]) -> Any:
    """Kind ``text``: the ``{"content": [text | tool_call parts]}`` of a response."""
    return {"content": encode_response(text_response(parts), profile)["content"]}
