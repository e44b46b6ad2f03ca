"""Responses of the Chat Completions family (a ``chat.completion`` object: OpenAI Chat, Mistral) ↔ the
canonical response: :class:`ChatResponseCodec`, configured by each dialect of the family
(``dialects/openai_chat/response.py``, ``dialects/mistral/response.py``).

Decoding reads ``choices[0]`` (further choices, from ``n > 1``, are not part of the canonical model
and are ignored), its ``message`` (``content`` string or text parts, ``refusal``, ``tool_calls``, the
legacy ``function_call``) and ``finish_reason``; ``usage``. Encoding writes the minimal complete object
the provider SDK's type accepts (RULES.md "Responses").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._json import MISSING, json_type
from ..calls import (
    IdGenerator,
    arguments_to_object,
    decode_stop_reason,
    derived_id,
    encode_call_id,
    encode_stop_reason,
    response_invalid,
)
from ..rules import DialectRules
from .response_common import (
    canonical_response,
    custom_call_part,
    envelope_seed,
    expect_value,
    has_tool_calls,
    joined_text,
    need_id,
    need_list,
    need_name,
    need_object,
    need_string,
    now,
    openai_usage,
    opt_string,
    tool_call_part,
    unsupported_part,
    usage_numbers,
)


class ChatResponseCodec:
    """The response codec of one Chat-family dialect (``rules``).

    ``refusal_member``: a refusal's text goes to ``message.refusal`` (OpenAI); else it stays ``content``.
    ``id_prefix``: the prefix of a response id derived when the canonical response has none.
    """

    refusal_member = False
    id_prefix = "chatcmpl-"

    def __init__(self, rules: DialectRules) -> None:
        self.rules = rules

    # ---- decoding --------------------------------------------------------------------------------

    def decode_text(self, message: dict, path: tuple, profile: Mapping[str, str]) -> list[dict]:
        """The message's ``content``: a string, or text parts."""
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

    def decode_arguments(self, value: Any, path: tuple, profile: Mapping[str, str]) -> Any:
        """A call's ``arguments``: JSON text."""
        if not isinstance(value, str):
            raise response_invalid(
                f"`arguments` must be a JSON text (a string), not {json_type(value)}", path
            )
        return arguments_to_object(value, path, profile)

    def _decode_call(self, call: Any, path: tuple, profile: Mapping[str, str]) -> dict | None:
        obj = need_object(call, path, "a tool call")
        kind = obj.get("type", "function")
        if kind == "custom" and self.rules.custom_tools:
            inner = need_object(obj.get("custom", MISSING), path + ("custom",), "`custom`")
            call_id = need_id(obj, "id", path, "`id`")
            name = need_name(inner, "name", path + ("custom",), "`name`")
            return custom_call_part(inner, call_id, name, path)
        if kind != "function":
            unsupported_part(f"a `{kind}` tool call", path, profile)
            return None
        function = need_object(obj.get("function", MISSING), path + ("function",), "`function`")
        return tool_call_part(
            need_id(obj, "id", path, "`id`"),
            need_name(function, "name", path + ("function",), "`name`"),
            self.decode_arguments(
                function.get("arguments", MISSING), path + ("function", "arguments"), profile
            ),
        )

    def decode_usage(self, body: dict) -> Any:
        """Canonical usage of the body's ``usage`` (MISSING when absent)."""
        return openai_usage(body, "prompt_tokens", "completion_tokens")

    def decode_response(self, payload: Any, profile: Mapping[str, str]) -> dict:
        """The canonical response of a ``chat.completion`` body."""
        body = need_object(payload, (), "a chat completion")
        expect_value(body, "object", ("chat.completion",), (), "`object`")
        choices = need_list(body.get("choices", MISSING), ("choices",), "`choices`")
        if not choices:
            raise response_invalid("a chat completion needs at least one choice", ("choices",))
        choice = need_object(choices[0], ("choices", 0), "a choice")
        path = ("choices", 0, "message")
        message = need_object(choice.get("message", MISSING), path, "`message`")
        expect_value(message, "role", ("assistant",), path, "`role`")

        content = self.decode_text(message, path, profile)
        refusal = opt_string(message, "refusal", path, "`refusal`")
        if refusal:
            content.append({"type": "text", "text": refusal})
        calls = message.get("tool_calls")
        if calls is not None:
            for j, call in enumerate(need_list(calls, path + ("tool_calls",), "`tool_calls`")):
                part = self._decode_call(call, path + ("tool_calls", j), profile)
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
                    need_name(function, "name", here, "`name`"),
                    arguments_to_object(arguments, here + ("arguments",), profile),
                )
            )

        finish = choice.get("finish_reason")
        if finish is None:
            finish = "stop"  # lenient: some OpenAI-compatible servers send null on a finished response
        elif not isinstance(finish, str):
            raise response_invalid("`finish_reason` must be a string", ("choices", 0, "finish_reason"))
        stop_reason = decode_stop_reason(self.rules, finish, has_tool_calls(content))
        if refusal and stop_reason == "end_turn":
            stop_reason = "refusal"
        return canonical_response(
            content=content,
            stop_reason=stop_reason,
            response_id=opt_string(body, "id", (), "`id`"),
            model=opt_string(body, "model", (), "`model`"),
            usage=self.decode_usage(body),
        )

    # ---- encoding --------------------------------------------------------------------------------

    def encode_usage(self, canonical: Mapping[str, Any]) -> dict | None:
        """The ``usage`` object of canonical usage (None when unknown)."""
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

    def call_body(self, part: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
        """The ``type`` and body of a ``tool_calls`` entry (overridden by each dialect)."""
        raise NotImplementedError

    def encode_calls(self, content: list[dict], profile: Mapping[str, str]) -> list[dict]:
        """The ``tool_calls`` of the canonical content's calls."""
        return [
            {"id": encode_call_id(part["id"], self.rules, profile), **self.call_body(part, profile)}
            for part in content
            if part["type"] == "tool_call"
        ]

    def encode_response(self, canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
        """The ``chat.completion`` body of a canonical response."""
        content = canonical["content"]
        text = joined_text(content)
        calls = self.encode_calls(content, profile)
        stop_reason = canonical["stop_reason"]
        finish = encode_stop_reason(self.rules, stop_reason, bool(calls))
        message: dict = {"role": "assistant", "content": text if text or not calls else None}
        if stop_reason == "refusal" and self.refusal_member:
            if text:
                message["content"], message["refusal"] = None, text
            else:
                finish = "content_filter"
        if calls:
            message["tool_calls"] = calls
        out = {
            "id": canonical.get("id") or derived_id(self.id_prefix, envelope_seed(canonical)),
            "object": "chat.completion",
            "created": now(),
            "model": canonical.get("model", ""),
            "choices": [self.choice(message, finish)],
        }
        usage = self.encode_usage(canonical)
        if usage is not None:
            out["usage"] = usage
        return out

    def choice(self, message: dict, finish: str) -> dict:
        """``choices[0]``."""
        return {"index": 0, "message": message, "finish_reason": finish}

    def encode_text(self, parts: list[dict], profile: Mapping[str, str]) -> Any:
        """Kind ``text``: the assistant message ``{"role": "assistant", "content": text or null,
        "tool_calls"?}``, its text runs joined with a blank line (``"\\n\\n"``, as the request encoder joins
        an assistant message's text parts), since a call stood between them."""
        calls = self.encode_calls(parts, profile)
        text = "\n\n".join(p["text"] for p in parts if p["type"] == "text")
        message: dict = {"role": "assistant", "content": text if text or not calls else None}
        if calls:
            message["tool_calls"] = calls
        return message
