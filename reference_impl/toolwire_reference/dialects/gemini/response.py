"""Google Gemini ``response``: a ``GenerateContentResponse`` (camelCase REST JSON).

Decoding reads ``candidates[0]`` (further candidates, from ``candidateCount > 1``, are ignored).
Parts: ``text``; ``text`` + ``thought: true`` → thinking; ``functionCall {id?, name, args}`` →
tool_call, its sibling ``thoughtSignature`` → the call's ``signature`` (Gemini 3 requires it back).
Every ``thoughtSignature`` (also on a text or thought part) is the part's ``signature`` with
``origin: gemini``, written back only to Gemini (``signatures``). Calls without ``id`` get generated
ids (calls.IdGenerator: ``call_1``, ``call_2``, … in order, skipping ids the response already uses),
so parallel calls to one function stay distinct. An empty part with only a ``thoughtSignature`` is
dropped. Other parts (``inlineData``, ``executableCode``, …) are ``content.unsupported`` (degrade:
dropped).

A response with no candidates is ``response.invalid``, unless ``promptFeedback.blockReason`` says
the prompt was blocked: that is an empty ``content_filter`` response.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import signatures
from ..._json import MISSING
from ...calls import (
    IdGenerator,
    arguments_for_object,
    decode_stop_reason,
    encode_call_id,
    encode_stop_reason,
    is_generated,
    read_arguments_object,
    response_invalid,
)
from ..response_common import (
    canonical_response,
    expect_value,
    has_tool_calls,
    make_usage,
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
from .rules import RULES, is_signature, own_signature

NAME = RULES.name
_PART_DATA = ("inlineData", "fileData", "executableCode", "codeExecutionResult", "functionResponse")


def _decode_part(item: Any, path: tuple, ids: IdGenerator, profile: Mapping[str, str]) -> dict | None:
    part = need_object(item, path, "a part")
    signature = opt_string(part, "thoughtSignature", path, "`thoughtSignature`")
    if signature is not MISSING and not is_signature(signature):
        raise response_invalid("`thoughtSignature` must be base64", path + ("thoughtSignature",))
    if "functionCall" in part:
        here = path + ("functionCall",)
        call = need_object(part["functionCall"], here, "`functionCall`")
        call_id = opt_string(call, "id", here, "`id`")
        args = call.get("args", MISSING)
        out = tool_call_part(
            ids.new() if call_id is MISSING or call_id == "" else call_id,
            need_name(call, "name", here, "`name`"),
            {} if args is MISSING or args is None else read_arguments_object(args, here + ("args",)),
        )
        return signatures.sign(out, signature, NAME)
    if "text" in part:
        text = need_string(part, "text", path, "`text`")
        if part.get("thought") is True:
            return signatures.sign({"type": "thinking", "text": text}, signature, NAME)
        return signatures.sign({"type": "text", "text": text}, signature, NAME) if text else None
    for key in _PART_DATA:
        if key in part:
            unsupported_part(f"a `{key}` part", path + (key,), profile)
            return None
    return None  # an empty part (at most a thoughtSignature): nothing to carry


def _decode_usage(body: dict) -> Any:
    usage = opt_object(body, "usageMetadata", (), "`usageMetadata`")
    if usage is MISSING:
        return MISSING
    path = ("usageMetadata",)
    thoughts = opt_count(usage, "thoughtsTokenCount", path)
    prompt = (opt_count(usage, "promptTokenCount", path) or 0) + (
        opt_count(usage, "toolUsePromptTokenCount", path) or 0
    )
    return make_usage(
        prompt,
        (opt_count(usage, "candidatesTokenCount", path) or 0) + (thoughts or 0),
        opt_count(usage, "cachedContentTokenCount", path),
        thoughts,
    )


def _taken_ids(parts: list) -> list[str]:
    taken = []
    for part in parts:
        call = part.get("functionCall") if isinstance(part, dict) else None
        if isinstance(call, dict) and isinstance(call.get("id"), str):
            taken.append(call["id"])
    return taken


def decode_response(payload: Any, profile: Mapping[str, str]) -> dict:
    body = need_object(payload, (), "a GenerateContentResponse")
    common = {
        "response_id": opt_string(body, "responseId", (), "`responseId`"),
        "model": opt_string(body, "modelVersion", (), "`modelVersion`"),
        "usage": _decode_usage(body),
    }
    candidates = body.get("candidates", MISSING)
    if candidates is MISSING or candidates == []:
        feedback = body.get("promptFeedback")
        if isinstance(feedback, dict) and isinstance(feedback.get("blockReason"), str):
            return canonical_response(content=[], stop_reason="content_filter", **common)
        raise response_invalid("a Gemini response needs at least one candidate", ("candidates",))
    candidate = need_object(
        need_list(candidates, ("candidates",), "`candidates`")[0], ("candidates", 0), "a candidate"
    )
    path = ("candidates", 0)
    content: list[dict] = []
    holder = opt_object(candidate, "content", path, "`content`")
    if holder is not MISSING:
        expect_value(holder, "role", ("model",), path + ("content",), "`role`")
        parts = holder.get("parts")
        parts = [] if parts is None else need_list(parts, path + ("content", "parts"), "`parts`")
        ids = IdGenerator(_taken_ids(parts))
        for i, item in enumerate(parts):
            part = _decode_part(item, path + ("content", "parts", i), ids, profile)
            if part is not None:
                content.append(part)
    finish = candidate.get("finishReason")
    if finish is not None and not isinstance(finish, str):
        raise response_invalid("`finishReason` must be a string", path + ("finishReason",))
    stop_reason = decode_stop_reason(RULES, finish or "STOP", has_tool_calls(content))
    return canonical_response(content=content, stop_reason=stop_reason, **common)


def _encode_part(part: Mapping[str, Any], profile: Mapping[str, str]) -> dict | None:
    signature = own_signature(signatures.for_target(part, NAME))
    if part["type"] == "text":
        out: dict = {"text": part["text"]}
    elif part["type"] == "thinking":
        if not part["text"] and signature is None:
            return None  # nothing to say: a signature Gemini did not issue is not written
        out = {"text": part["text"], "thought": True}
    else:
        call: dict = {}
        if not is_generated(part["id"]):
            call["id"] = encode_call_id(part["id"], RULES, profile)
        call["name"] = part["name"]
        call["args"] = arguments_for_object(part, profile=profile)
        out = {"functionCall": call}
    if signature is not None:
        out["thoughtSignature"] = signature
    return out


def _encode_usage(canonical: Mapping[str, Any]) -> dict | None:
    numbers = usage_numbers(canonical)
    if numbers is None:
        return None
    reasoning = numbers["reasoning_tokens"] or 0
    usage = {
        "promptTokenCount": numbers["input_tokens"],
        "candidatesTokenCount": max(numbers["output_tokens"] - reasoning, 0),
        "totalTokenCount": numbers["input_tokens"] + numbers["output_tokens"],
    }
    if numbers["cached_input_tokens"]:
        usage["cachedContentTokenCount"] = numbers["cached_input_tokens"]
    if reasoning:
        usage["thoughtsTokenCount"] = reasoning
    return usage


def encode_response(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
    parts = [p for part in canonical["content"] if (p := _encode_part(part, profile)) is not None]
    out: dict = {
        "candidates": [
            {
                "content": {"role": "model", "parts": parts},
                "finishReason": encode_stop_reason(RULES, canonical["stop_reason"]),
                "index": 0,
            }
        ]
    }
    usage = _encode_usage(canonical)
    if usage is not None:
        out["usageMetadata"] = usage
    if "model" in canonical:
        out["modelVersion"] = canonical["model"]
    if "id" in canonical:
        out["responseId"] = canonical["id"]
    return out


def encode_text(parts: list[dict], profile: Mapping[str, str]) -> Any:
    """Kind ``text``: the parts (``text``, ``functionCall`` without id: the ids are invented) of a
    response."""
    return encode_response(text_response(parts), profile)["candidates"][0]["content"]["parts"]
