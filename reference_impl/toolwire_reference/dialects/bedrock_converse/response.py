"""Bedrock Converse ``response``: ``{output: {message: {role, content}}, stopReason, usage, metrics}``.

Blocks: ``text``, ``toolUse`` (its ``type``, which real responses set to ``tool_use``, dropped; a
``server_tool_use`` is a hosted tool's call: ``content.unsupported``), ``reasoningContent`` (thinking,
its ``signature`` issued by ``bedrock-converse``; ``redactedContent`` dropped, as Anthropic's
``redacted_thinking``; written back as ``reasoningText``, with a signature only when Bedrock issued
it); other blocks are ``content.unsupported`` (``unsupported=degrade``: dropped). A Converse
response has no id and no model: none is read, and those of another dialect are not written.
Usage: ``inputTokens`` EXCLUDES cache reads and writes (as Anthropic's ``input_tokens``), the canonical
``input_tokens`` includes them; ``totalTokens`` is written as input (cache reads included) + output.
``metrics.latencyMs`` (required) is written as 0: the translation knows no latency.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import signatures
from ..._json import MISSING
from ...calls import (
    arguments_for_object,
    decode_stop_reason,
    encode_stop_reason,
    read_arguments_object,
    response_invalid,
)
from ..response_common import (
    canonical_response,
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
from .tools import tool_use_id

NAME = RULES.name


def _block(item: Any, path: tuple) -> tuple[str, Any]:
    block = need_object(item, path, "a content block")
    members = [key for key, value in block.items() if value is not None]
    if len(members) != 1:
        raise response_invalid(f"a content block has exactly one member, not {len(members)}", path)
    return members[0], block[members[0]]


def decode_block(item: Any, path: tuple, profile: Mapping[str, str]) -> dict | None:
    """One content block of a response message (the stream decoder reads starts the same way)."""
    key, value = _block(item, path)
    where = path + (key,)
    if key == "text":
        if not isinstance(value, str):
            raise response_invalid("`text` must be a string", where)
        return {"type": "text", "text": value} if value else None
    if key == "toolUse":
        use = need_object(value, where, "`toolUse`")
        if use.get("type") == "server_tool_use":
            unsupported_part("a server tool's `toolUse` block", path, profile)
            return None
        return tool_call_part(
            need_id(use, "toolUseId", where, "`toolUseId`"),
            need_name(use, "name", where, "`name`"),
            read_arguments_object(use.get("input", MISSING), where + ("input",)),
        )
    if key == "reasoningContent":
        reasoning = need_object(value, where, "`reasoningContent`")
        text = opt_object(reasoning, "reasoningText", where, "`reasoningText`")
        if text is MISSING:
            return None  # redactedContent: no readable text, no canonical form
        part = {"type": "thinking", "text": need_string(text, "text", where + ("reasoningText",), "`text`")}
        signature = opt_string(text, "signature", where + ("reasoningText",), "`signature`")
        return signatures.sign(part, signature, NAME)
    unsupported_part(f"a `{key}` block", path, profile)
    return None


def decode_usage(usage: Any, path: tuple) -> Any:
    """Canonical usage of a ``TokenUsage`` object (MISSING when there is none)."""
    if usage is MISSING:
        return MISSING
    read = opt_count(usage, "cacheReadInputTokens", path)
    write = opt_count(usage, "cacheWriteInputTokens", path)
    total_in = (opt_count(usage, "inputTokens", path) or 0) + (read or 0) + (write or 0)
    return make_usage(total_in, opt_count(usage, "outputTokens", path), read)


def decode_response(payload: Any, profile: Mapping[str, str]) -> dict:
    body = need_object(payload, (), "a Bedrock Converse response")
    output = need_object(body.get("output", MISSING), ("output",), "`output`")
    message = need_object(output.get("message", MISSING), ("output", "message"), "`output.message`")
    expect_value(message, "role", ("assistant",), ("output", "message"), "`role`")
    content = []
    items = need_list(message.get("content", MISSING), ("output", "message", "content"), "`content`")
    for i, item in enumerate(items):
        part = decode_block(item, ("output", "message", "content", i), profile)
        if part is not None:
            content.append(part)
    reason = need_string(body, "stopReason", (), "`stopReason`")
    return canonical_response(
        content=content,
        stop_reason=decode_stop_reason(RULES, reason, has_tool_calls(content)),
        usage=decode_usage(opt_object(body, "usage", (), "`usage`"), ("usage",)),
    )


def encode_block(part: Mapping[str, Any], profile: Mapping[str, str]) -> dict | None:
    """A canonical response part as a content block (None: thinking with nothing Bedrock can carry)."""
    if part["type"] == "text":
        return {"text": part["text"]}
    if part["type"] == "tool_call":
        return {
            "toolUse": {
                "toolUseId": tool_use_id(part["id"], profile),
                "name": part["name"],
                "input": arguments_for_object(part, profile=profile),
            }
        }
    reasoning = {"text": part["text"]}
    signature = signatures.for_target(part, NAME)
    if signature is not None:
        reasoning["signature"] = signature  # only the signature Bedrock issued
    elif not part["text"]:
        return None  # nothing to say (another provider's signature alone)
    return {"reasoningContent": {"reasoningText": reasoning}}


def encode_usage(canonical: Mapping[str, Any]) -> dict:
    """The ``TokenUsage`` of a canonical response or ``message_end`` (zeros when it has none)."""
    numbers = usage_numbers(canonical)
    if numbers is None:
        return {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}
    cached = numbers["cached_input_tokens"]
    usage = {
        "inputTokens": max(numbers["input_tokens"] - (cached or 0), 0),
        "outputTokens": numbers["output_tokens"],
        "totalTokens": numbers["input_tokens"] + numbers["output_tokens"],
    }
    if cached is not MISSING:
        usage["cacheReadInputTokens"] = cached
    return usage


def encode_response(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
    blocks = [encode_block(part, profile) for part in canonical["content"]]
    return {
        "output": {"message": {"role": "assistant", "content": [b for b in blocks if b is not None]}},
        "stopReason": encode_stop_reason(RULES, canonical["stop_reason"]),
        "usage": encode_usage(canonical),
        "metrics": {"latencyMs": 0},
    }


def encode_text(parts: list[dict], profile: Mapping[str, str]) -> Any:
    """Kind ``text``: the content blocks (``text``, ``toolUse``) of a response message."""
    return encode_response(text_response(parts), profile)["output"]["message"]["content"]
