"""OpenAI Responses ``response``: a ``response`` object.

Output items: ``message`` (``output_text`` → text, ``refusal`` → text and stop reason ``refusal``),
``function_call`` (canonical ``id`` = ``call_id``; the ``fc_…`` item ``id`` is kept as the part's
``item_id`` and written back only to openai-responses), ``custom_tool_call`` (the same, with ``input``
for ``arguments`` and a ``ctc_…`` item id), ``reasoning`` (summary texts joined with a blank line →
thinking text, ``encrypted_content`` → its opaque signature with ``origin: openai-responses``, written
back only to openai-responses; an item with neither is dropped). Other items (hosted tool calls) are
``content.unsupported`` (degrade: dropped). The stop reason comes from ``status`` and
``incomplete_details.reason``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import signatures
from ..._json import MISSING
from ...calls import (
    arguments_for_text,
    arguments_to_object,
    decode_stop_reason,
    derived_id,
    encode_call_id,
    encode_stop_reason,
    response_invalid,
)
from ..response_common import (
    canonical_response,
    custom_call_part,
    envelope_seed,
    expect_value,
    has_tool_calls,
    need_id,
    need_list,
    need_name,
    need_object,
    need_string,
    now,
    openai_usage,
    opt_object,
    opt_string,
    text_response,
    tool_call_part,
    unsupported_part,
    usage_numbers,
)
from .rules import RULES

NAME = RULES.name
FAILED_ERROR = {"code": "server_error", "message": "The model failed to generate a response."}


def _decode_message(item: dict, path: tuple, content: list[dict]) -> bool:
    """Append the message's text parts; True when it holds a refusal."""
    expect_value(item, "role", ("assistant",), path, "`role`")
    refused = False
    for i, entry in enumerate(need_list(item.get("content", MISSING), path + ("content",), "`content`")):
        here = path + ("content", i)
        part = need_object(entry, here, "a content part")
        kind = part.get("type")
        if kind == "output_text":
            text = need_string(part, "text", here, "`text`")
        elif kind == "refusal":
            text, refused = need_string(part, "refusal", here, "`refusal`"), True
        else:
            raise response_invalid("a message content part is `output_text` or `refusal`", here + ("type",))
        if text:
            content.append({"type": "text", "text": text})
    return refused


def _decode_reasoning(item: dict, path: tuple) -> dict | None:
    texts = []
    summary = item.get("summary")
    for i, entry in enumerate(
        [] if summary is None else need_list(summary, path + ("summary",), "`summary`")
    ):
        texts.append(
            need_string(
                need_object(entry, path + ("summary", i), "a summary part"),
                "text",
                path + ("summary", i),
                "`text`",
            )
        )
    signature = opt_string(item, "encrypted_content", path, "`encrypted_content`")
    text = "\n\n".join(t for t in texts if t)
    if not text and signature is MISSING:
        return None
    return signatures.sign({"type": "thinking", "text": text}, signature, NAME)


def takes_item_id(item_id: str) -> bool:
    """Whether a Responses request takes ``item_id`` back on a ``function_call`` item: only an ``fc``
    item id (the API refuses others)."""
    return item_id.startswith("fc")


def _item_id(call_id: str, custom: bool = False) -> str:
    """The item id written for a call that has none: ``fc_`` (``ctc_`` for a custom tool call) + 24 hex
    digits of the SHA-256 of the call id (recognisable on the way back, never equal to a real or
    hand-written id)."""
    if custom:
        return derived_id("ctc_", "custom_tool_call", call_id)
    return derived_id("fc_", "function_call", call_id)


def call_item_id(item_id: Any, call_id: str, custom: bool = False) -> str:
    """The item ``id`` written for a call: the one it came with when a Responses item can carry it (an
    ``fc`` id on a function call; any custom tool call's), else one derived from its ``call_id``."""
    return kept_item_id(item_id, call_id, custom) or _item_id(call_id, custom)


def kept_item_id(item_id: Any, call_id: str, custom: bool) -> str | None:
    """The item ``id`` of a call to keep as ``item_id``: None when it is none (absent, not a string, ""),
    the one :func:`_item_id` derives from the ``call_id`` (so canonical → Responses → canonical adds
    nothing), or, for a function call, not an ``fc_`` item id, which no Responses request takes back (one
    is derived instead)."""
    if not isinstance(item_id, str) or not item_id or item_id == _item_id(call_id, custom):
        return None
    if not custom and not takes_item_id(item_id):
        return None
    return item_id


def _kept_item_id(item: dict, path: tuple) -> Any:
    """:func:`kept_item_id` of a response's call item (an ``id`` that is not a string: response.invalid)."""
    item_id = opt_string(item, "id", path, "`id`")
    kept = kept_item_id(item_id, item["call_id"], item.get("type") == "custom_tool_call")
    return MISSING if kept is None else kept


def _decode_usage(body: dict) -> Any:
    return openai_usage(body, "input_tokens", "output_tokens")


def decode_response(payload: Any, profile: Mapping[str, str]) -> dict:
    body = need_object(payload, (), "a Responses `response` object")
    expect_value(body, "object", ("response",), (), "`object`")
    content: list[dict] = []
    refused = False
    for i, entry in enumerate(need_list(body.get("output", MISSING), ("output",), "`output`")):
        path = ("output", i)
        item = need_object(entry, path, "an output item")
        kind = item.get("type")
        if kind == "message":
            refused = _decode_message(item, path, content) or refused
        elif kind == "function_call":
            arguments = item.get("arguments", MISSING)
            if not isinstance(arguments, str):
                raise response_invalid("`arguments` must be a JSON text (a string)", path + ("arguments",))
            content.append(
                tool_call_part(
                    need_id(item, "call_id", path, "`call_id`"),
                    need_name(item, "name", path, "`name`"),
                    arguments_to_object(arguments, path + ("arguments",), profile),
                    item_id=_kept_item_id(item, path),
                )
            )
        elif kind == "custom_tool_call":
            call_id = need_id(item, "call_id", path, "`call_id`")
            name = need_name(item, "name", path, "`name`")
            content.append(custom_call_part(item, call_id, name, path, item_id=_kept_item_id(item, path)))
        elif kind == "reasoning":
            part = _decode_reasoning(item, path)
            if part is not None:
                content.append(part)
        elif isinstance(kind, str):
            unsupported_part(f"a `{kind}` output item", path, profile)
        else:
            raise response_invalid("an output item needs a string `type`", path + ("type",))

    status = body.get("status")
    if status is None:
        status = "completed"
    elif not isinstance(status, str):
        raise response_invalid("`status` must be a string", ("status",))
    key = status
    if status == "incomplete":
        details = opt_object(body, "incomplete_details", (), "`incomplete_details`")
        reason = details.get("reason") if details is not MISSING else None
        if isinstance(reason, str):
            key = f"incomplete/{reason}"
    stop_reason = decode_stop_reason(RULES, key, has_tool_calls(content))
    if refused and stop_reason == "end_turn":
        stop_reason = "refusal"
    return canonical_response(
        content=content,
        stop_reason=stop_reason,
        response_id=opt_string(body, "id", (), "`id`"),
        model=opt_string(body, "model", (), "`model`"),
        usage=_decode_usage(body),
    )


def _encode_output(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> list[dict]:
    seed = envelope_seed(canonical)
    refusal = canonical["stop_reason"] == "refusal"
    output: list[dict] = []
    message: dict | None = None
    for i, part in enumerate(canonical["content"]):
        if part["type"] == "text":
            if message is None:
                message = {
                    "type": "message",
                    "id": derived_id("msg_", seed, i),
                    "status": "completed",
                    "role": "assistant",
                    "content": [],
                }
                output.append(message)
            message["content"].append(
                {"type": "refusal", "refusal": part["text"]}
                if refusal
                else {"type": "output_text", "text": part["text"], "annotations": []}
            )
            continue
        message = None
        if part["type"] == "tool_call" and "input" in part:
            call_id = encode_call_id(part["id"], RULES, profile)
            output.append(
                {
                    "type": "custom_tool_call",
                    "id": call_item_id(part.get("item_id"), call_id, custom=True),
                    "call_id": call_id,
                    "name": part["name"],
                    "input": str(part["input"]),
                    "status": "completed",
                }
            )
        elif part["type"] == "tool_call":
            call_id = encode_call_id(part["id"], RULES, profile)
            output.append(
                {
                    "type": "function_call",
                    "id": call_item_id(part.get("item_id"), call_id),
                    "call_id": call_id,
                    "name": part["name"],
                    "arguments": arguments_for_text(part),
                    "status": "completed",
                }
            )
        elif part["text"] or signatures.for_target(part, NAME) is not None:
            item = {
                "type": "reasoning",
                "id": derived_id("rs_", seed, i),
                "summary": [{"type": "summary_text", "text": part["text"]}] if part["text"] else [],
            }
            signature = signatures.for_target(part, NAME)
            if signature is not None:
                item["encrypted_content"] = signature
            output.append(item)
    return output


def _encode_usage(canonical: Mapping[str, Any]) -> dict | None:
    numbers = usage_numbers(canonical)
    if numbers is None:
        return None
    return {
        "input_tokens": numbers["input_tokens"],
        # cache_write_tokens: required by the current spec; the canonical usage has no cache-write count
        "input_tokens_details": {
            "cached_tokens": numbers["cached_input_tokens"] or 0,
            "cache_write_tokens": 0,
        },
        "output_tokens": numbers["output_tokens"],
        "output_tokens_details": {"reasoning_tokens": numbers["reasoning_tokens"] or 0},
        "total_tokens": numbers["input_tokens"] + numbers["output_tokens"],
    }


def encode_response(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
    status, _, reason = encode_stop_reason(RULES, canonical["stop_reason"]).partition("/")
    out = {
        "id": canonical.get("id") or derived_id("resp_", envelope_seed(canonical)),
        "object": "response",
        "created_at": now(),
        "status": status,
        "error": dict(FAILED_ERROR) if status == "failed" else None,
        "incomplete_details": {"reason": reason} if reason else None,
        "model": canonical.get("model", ""),
        "output": _encode_output(canonical, profile),
        "instructions": None,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }
    usage = _encode_usage(canonical)
    if usage is not None:
        out["usage"] = usage
    return out


def encode_text(parts: list[dict], profile: Mapping[str, str]) -> Any:
    """Kind ``text``: the output items (``message``, ``function_call``) of a response."""
    return encode_response(text_response(parts), profile)["output"]
