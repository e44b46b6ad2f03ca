"""Anthropic Messages ``response``: a ``message`` object.

Blocks: ``text`` (citations dropped), ``tool_use`` (``caller`` dropped), ``thinking`` (text and
signature); ``redacted_thinking`` is dropped (it has no readable text and no canonical form); server
tool blocks (``server_tool_use``, ``web_search_tool_result``, …) are ``content.unsupported``
(``unsupported=degrade``: dropped). Usage: Anthropic's ``input_tokens`` EXCLUDES cached tokens, the
canonical one includes them (RULES.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import signatures
from ..._json import MISSING
from ...calls import (
    arguments_for_object,
    decode_stop_reason,
    derived_id,
    encode_call_id,
    encode_stop_reason,
    read_arguments_object,
    response_invalid,
)
from ..response_common import (
    canonical_response,
    envelope_seed,
    expect_value,
    has_tool_calls,
    make_usage,
    need_id,
    need_list,
    need_name,
    need_object,
    need_string,
    opt_count,
    opt_object,
    opt_string,
    text_response,
    tool_call_part,
    unsupported_part,
    usage_numbers,
)
from .rules import RULES

NAME = RULES.name


def _decode_block(item: Any, path: tuple, profile: Mapping[str, str]) -> dict | None:
    block = need_object(item, path, "a content block")
    kind = block.get("type")
    if kind == "text":
        text = need_string(block, "text", path, "`text`")
        return {"type": "text", "text": text} if text else None
    if kind == "tool_use":
        return tool_call_part(
            need_id(block, "id", path, "`id`"),
            need_name(block, "name", path, "`name`"),
            read_arguments_object(block.get("input", MISSING), path + ("input",)),
        )
    if kind == "thinking":
        part = {"type": "thinking", "text": need_string(block, "thinking", path, "`thinking`")}
        return signatures.sign(part, opt_string(block, "signature", path, "`signature`"), NAME)
    if kind == "redacted_thinking":
        return None
    if not isinstance(kind, str):
        raise response_invalid("a content block needs a string `type`", path + ("type",))
    unsupported_part(f"a `{kind}` block", path, profile)
    return None


def _decode_usage(body: dict) -> Any:
    usage = opt_object(body, "usage", (), "`usage`")
    if usage is MISSING:
        return MISSING
    path = ("usage",)
    read = opt_count(usage, "cache_read_input_tokens", path)
    creation = opt_count(usage, "cache_creation_input_tokens", path)
    total_in = (opt_count(usage, "input_tokens", path) or 0) + (read or 0) + (creation or 0)
    return make_usage(total_in, opt_count(usage, "output_tokens", path), read)


def decode_response(payload: Any, profile: Mapping[str, str]) -> dict:
    body = need_object(payload, (), "an Anthropic message")
    if body.get("type") != "message":
        raise response_invalid("an Anthropic response has `type: message`", ("type",))
    expect_value(body, "role", ("assistant",), (), "`role`")
    content = []
    for i, item in enumerate(need_list(body.get("content", MISSING), ("content",), "`content`")):
        part = _decode_block(item, ("content", i), profile)
        if part is not None:
            content.append(part)
    reason = body.get("stop_reason")
    if reason is not None and not isinstance(reason, str):
        raise response_invalid("`stop_reason` must be a string", ("stop_reason",))
    stop_reason = decode_stop_reason(RULES, reason or "end_turn", has_tool_calls(content))
    if reason is None and has_tool_calls(content):
        stop_reason = "tool_use"
    return canonical_response(
        content=content,
        stop_reason=stop_reason,
        response_id=opt_string(body, "id", (), "`id`"),
        model=opt_string(body, "model", (), "`model`"),
        stop_sequence=opt_string(body, "stop_sequence", (), "`stop_sequence`"),
        usage=_decode_usage(body),
    )


def _encode_block(part: Mapping[str, Any], profile: Mapping[str, str]) -> dict | None:
    if part["type"] == "text":
        return {"type": "text", "text": part["text"]}
    if part["type"] == "tool_call":
        return {
            "type": "tool_use",
            "id": encode_call_id(part["id"], RULES, profile),
            "name": part["name"],
            "input": arguments_for_object(part, profile=profile),
        }
    signature = signatures.for_target(part, NAME)
    if signature is None:
        return None  # Anthropic requires its own signature on thinking: unsigned or foreign, dropped
    return {"type": "thinking", "thinking": part["text"], "signature": signature}


def _encode_usage(canonical: Mapping[str, Any]) -> dict:
    numbers = usage_numbers(canonical)
    if numbers is None:
        return {"input_tokens": 0, "output_tokens": 0}
    cached = numbers["cached_input_tokens"]
    usage = {
        "input_tokens": max(numbers["input_tokens"] - (cached or 0), 0),
        "output_tokens": numbers["output_tokens"],
    }
    if cached is not MISSING:
        usage["cache_read_input_tokens"] = cached
    return usage


def encode_response(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
    blocks = [_encode_block(part, profile) for part in canonical["content"]]
    stop_reason = encode_stop_reason(RULES, canonical["stop_reason"])
    stop_sequence = canonical.get("stop_sequence") if stop_reason == "stop_sequence" else None
    return {
        "id": canonical.get("id") or derived_id("msg_", envelope_seed(canonical)),
        "type": "message",
        "role": "assistant",
        "model": canonical.get("model", ""),
        "content": [block for block in blocks if block is not None],
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "usage": _encode_usage(canonical),
    }


def encode_text(parts: list[dict], profile: Mapping[str, str]) -> Any:
    """Kind ``text``: the content blocks (``text``, ``tool_use``) of a response."""
    return encode_response(text_response(parts), profile)["content"]
