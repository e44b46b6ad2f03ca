"""Mistral ``response``: a ``chat.completion`` object (the SDK's ``ChatCompletionResponse``), by the
Chat-family codec (``dialects/chat_response.py``) with Mistral's own rules:

- ``message.content`` is a string or chunks: ``text`` chunks are text, ``thinking`` chunks
  (``{"type": "thinking", "thinking": [text chunks]}``, Magistral) are thinking; other chunks are
  ``content.unsupported``;
- a call's ``arguments`` is JSON text or a JSON object; ``type`` and ``index`` may be absent;
- ``finish_reason`` ``stop``, ``length``, ``model_length`` (the context is full), ``error``,
  ``tool_calls``;
- ``usage {prompt_tokens, completion_tokens, total_tokens, num_cached_tokens?}`` (``usage`` is required:
  ``{}`` when the source reported none, which the SDK reads as zeros);
- ids: the response id as given (else derived, 24 hex digits), call ids of 9 letters and digits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._json import MISSING, copy_json, json_type
from ...calls import arguments_to_object, response_invalid
from ..chat_response import ChatResponseCodec
from ..response_common import (
    make_usage,
    need_list,
    need_object,
    need_string,
    opt_count,
    opt_object,
    unsupported_part,
    usage_numbers,
)
from .request import call_body
from .rules import RULES

NAME = RULES.name


def read_chunks(value: list, path: tuple, profile: Mapping[str, str]) -> list[dict]:
    """Canonical text and thinking parts of Mistral content chunks (``text``, ``thinking``)."""
    parts = []
    for i, item in enumerate(need_list(value, path, "`content`")):
        here = path + (i,)
        chunk = need_object(item, here, "a content chunk")
        kind = chunk.get("type")
        if kind == "text":
            text = need_string(chunk, "text", here, "`text`")
            if text:
                parts.append({"type": "text", "text": text})
        elif kind == "thinking":
            inner = read_chunks(chunk.get("thinking", []), here + ("thinking",), profile)
            text = "".join(p["text"] for p in inner if p["type"] == "text")
            if text:
                parts.append({"type": "thinking", "text": text})
        else:
            unsupported_part(f"a `{kind}` content chunk", here, profile)
    return parts


class MistralResponse(ChatResponseCodec):
    """Mistral's ``chat.completion``."""

    id_prefix = ""

    def decode_text(self, message: dict, path: tuple, profile: Mapping[str, str]) -> list[dict]:
        value = message.get("content")
        if isinstance(value, list):
            return read_chunks(value, path + ("content",), profile)
        return super().decode_text(message, path, profile)

    def decode_arguments(self, value: Any, path: tuple, profile: Mapping[str, str]) -> Any:
        if isinstance(value, dict):
            return copy_json(value)
        if not isinstance(value, str):
            raise response_invalid(
                f"`arguments` must be JSON text or an object, not {json_type(value)}", path
            )
        return arguments_to_object(value, path, profile)

    def decode_usage(self, body: dict) -> Any:
        usage = opt_object(body, "usage", (), "`usage`")
        if usage is MISSING:
            return MISSING
        path = ("usage",)
        return make_usage(
            opt_count(usage, "prompt_tokens", path),
            opt_count(usage, "completion_tokens", path),
            opt_count(usage, "num_cached_tokens", path),
        )

    def encode_usage(self, canonical: Mapping[str, Any]) -> dict | None:
        numbers = usage_numbers(canonical)
        if numbers is None:
            return None
        usage = {
            "prompt_tokens": numbers["input_tokens"],
            "completion_tokens": numbers["output_tokens"],
            "total_tokens": numbers["input_tokens"] + numbers["output_tokens"],
        }
        if numbers["cached_input_tokens"] is not MISSING:
            usage["num_cached_tokens"] = numbers["cached_input_tokens"]
        return usage

    def encode_response(self, canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
        out = super().encode_response(canonical, profile)
        out.setdefault("usage", {})
        return out

    def call_body(self, part: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
        return call_body(part, profile)


CODEC = MistralResponse(RULES)
decode_response = CODEC.decode_response
encode_response = CODEC.encode_response
encode_text = CODEC.encode_text
