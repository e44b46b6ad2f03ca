"""OpenAI Chat Completions ``response``: a ``chat.completion`` object.

Decoding reads ``choices[0]`` (further choices, from ``n > 1``, are not part of the canonical model
and are ignored), its ``message`` (``content`` string or text parts, ``refusal``, ``tool_calls``, the
legacy ``function_call``) and ``finish_reason``; ``usage`` with ``prompt_tokens_details.cached_tokens``
and ``completion_tokens_details.reasoning_tokens``. Encoding writes the minimal complete object the
SDK's ``ChatCompletion`` accepts (RULES.md "Responses").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._json import MISSING, json_type
from ...calls import (
    IdGenerator,
    arguments_for_text,
    arguments_to_object,
    decode_stop_reason,
    derived_id,
    encode_call_id,
    encode_stop_reason,
    response_invalid,
)
from ..openai_common import chat_call_body
from ..response_common import (
    canonical_response,
    custom_call_part,
    envelope_seed,
    expect_value,
    has_tool_calls,
    joined_text,
    need_list,
    need_object,
    need_string,
    now,
    openai_usage,
    opt_string,
    tool_call_part,
    unsupported_part,
    usage_numbers,
)
from .rules import RULES

NAME = RULES.name


def _decode_text(message: dict, path: tuple) -> list[dict]:
    value = message.get("content", MISSING)
    if value is MISSING or value is None:
        return []
    if isinstance(value, str):
        return [{"type": "text", "text": value}] if value else []
    parts = []
    for i, item in enumerate(need_list(value, path + ("content",), "`content`")):
        here = path + ("content", i)
        part = need_object(item, here, "a content part")
        if part.get("type") != "text":
            raise response_invalid("an assistant content part must be of type `text`", here + ("type",))
        text = need_string(part, "text", here, "`text`")
        if text:
            parts.append({"type": "text", "text": text})
    return parts


def _decode_call(call: Any, path: tuple, profile: Mapping[str, str]) -> dict | None:
    obj = need_object(call, path, "a tool call")
    kind = obj.get("type", "function")
    if kind == "custom":
        inner = need_object(obj.get("custom", MISSING), path + ("custom",), "`custom`")
        call_id = need_string(obj, "id", path, "`id`")
        name = need_string(inner, "name", path + ("custom",), "`name`")
        return custom_call_part(inner, call_id, name, path)
    if kind != "function":
        unsupported_part(f"a `{kind}` tool call", path, profile)
        return None
    function = need_object(obj.get("function", MISSING), path + ("function",), "`function`")
    arguments = function.get("arguments", MISSING)
    if not isinstance(arguments, str):
        raise response_invalid(
            f"`arguments` must be a JSON text (a string), not {json_type(arguments)}",
            path + ("function", "arguments"),
        )
    return tool_call_part(
        need_string(obj, "id", path, "`id`"),
        need_string(function, "name", path + ("function",), "`name`"),
        arguments_to_object(arguments, path + ("function", "arguments"), profile),
    )


def _decode_usage(body: dict) -> Any:
    return openai_usage(body, "prompt_tokens", "completion_tokens")


def decode_response(payload: Any, profile: Mapping[str, str]) -> dict:
    body = need_object(payload, (), "a chat completion")
    expect_value(body, "object", ("chat.completion",), (), "`object`")
    choices = need_list(body.get("choices", MISSING), ("choices",), "`choices`")
    if not choices:
        raise response_invalid("a chat completion needs at least one choice", ("choices",))
    choice = need_object(choices[0], ("choices", 0), "a choice")
    path = ("choices", 0, "message")
    message = need_object(choice.get("message", MISSING), path, "`message`")
    expect_value(message, "role", ("assistant",), path, "`role`")

    content = _decode_text(message, path)
    refusal = opt_string(message, "refusal", path, "`refusal`")
    if refusal:
        content.append({"type": "text", "text": refusal})
    calls = message.get("tool_calls")
    if calls is not None:
        for j, call in enumerate(need_list(calls, path + ("tool_calls",), "`tool_calls`")):
            part = _decode_call(call, path + ("tool_calls", j), profile)
            if part is not None:
                content.append(part)
    legacy = message.get("function_call")
    if legacy is not None:
        here = path + ("function_call",)
        function = need_object(legacy, here, "`function_call`")
        arguments = function.get("arguments", "")
        if not isinstance(arguments, str):
            raise response_invalid("`arguments` must be a JSON text (a string)", here + ("arguments",))
        taken = [part["id"] for part in content if part["type"] == "tool_call"]
        content.append(
            tool_call_part(
                IdGenerator(taken).new(),
                need_string(function, "name", here, "`name`"),
                arguments_to_object(arguments, here + ("arguments",), profile),
            )
        )

    finish = choice.get("finish_reason")
    if finish is None:
        finish = "stop"  # lenient: some OpenAI-compatible servers send null on a finished response
    elif not isinstance(finish, str):
        raise response_invalid("`finish_reason` must be a string", ("choices", 0, "finish_reason"))
    stop_reason = decode_stop_reason(RULES, finish, has_tool_calls(content))
    if refusal and stop_reason == "end_turn":
        stop_reason = "refusal"
    return canonical_response(
        content=content,
        stop_reason=stop_reason,
        response_id=opt_string(body, "id", (), "`id`"),
        model=opt_string(body, "model", (), "`model`"),
        usage=_decode_usage(body),
    )


def _encode_usage(canonical: Mapping[str, Any]) -> dict | None:
    numbers = usage_numbers(canonical)
    if numbers is None:
        return None
    usage = {
        "prompt_tokens": numbers["input_tokens"],
        "completion_tokens": numbers["output_tokens"],
        "total_tokens": numbers["input_tokens"] + numbers["output_tokens"],
    }
    if numbers["cached_input_tokens"] is not MISSING:
        usage["prompt_tokens_details"] = {"cached_tokens": numbers["cached_input_tokens"]}
    if numbers["reasoning_tokens"] is not MISSING:
        usage["completion_tokens_details"] = {"reasoning_tokens": numbers["reasoning_tokens"]}
    return usage


def encode_response(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
    content = canonical["content"]
    text = joined_text(content)
    calls = [
        {
            "id": encode_call_id(part["id"], RULES, profile),
            **chat_call_body(part),
        }
        for part in content
        if part["type"] == "tool_call"
    ]
    stop_reason = canonical["stop_reason"]
    finish = encode_stop_reason(RULES, stop_reason)
    message: dict = {"role": "assistant", "content": text if text or not calls else None}
    if stop_reason == "refusal":
        if text:
            message["content"], message["refusal"] = None, text
        else:
            finish = "content_filter"
    if calls:
        message["tool_calls"] = calls
    out = {
        "id": canonical.get("id") or derived_id("chatcmpl-", envelope_seed(canonical)),
        "object": "chat.completion",
        "created": now(),
        "model": canonical.get("model", ""),
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
    }
    usage = _encode_usage(canonical)
    if usage is not None:
        out["usage"] = usage
    return out


def encode_text(parts: list[dict], profile: Mapping[str, str]) -> Any:
    """Kind ``text``: the assistant message ``{"role": "assistant", "content": text or null, "tool_calls"?}``,
    its text runs joined with a blank line (``"\\n\\n"``, as the request encoder joins an assistant
    message's text parts), since a call stood between them."""
    calls = [p for p in parts if p["type"] == "tool_call"]
    text = "\n\n".join(p["text"] for p in parts if p["type"] == "text")
    message: dict = {"role": "assistant", "content": text if text or not calls else None}
    if calls:
        message["tool_calls"] = [
            {
                "id": encode_call_id(p["id"], RULES, profile),
                "type": "function",
                "function": {"name": p["name"], "arguments": arguments_for_text(p)},
            }
            for p in calls
        ]
    return message
