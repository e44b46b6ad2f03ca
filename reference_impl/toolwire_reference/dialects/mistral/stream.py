"""Mistral streams: ``chat.completion.chunk`` objects as OpenAI Chat sends them (``data: [DONE]`` last),
by the Chat-family decoder and encoder (``dialects/chat_stream.py``) with Mistral's differences, seen in
corpus/captures/mistral/07_stream_tool_call.chunks.jsonl and the SDK's ``CompletionChunk`` /
``DeltaMessage`` / ``ToolCall``:

- each ``delta.tool_calls`` item is a whole call (``id``, ``function.name`` and all of ``arguments``), its
  ``index`` optional (the SDK defaults it to 0), ``arguments`` JSON text or an object; the decoder numbers
  calls itself (a named item starts a new call; an item without a name continues the last one, as a lenient
  reading of OpenAI-style fragments); the encoder sends each call whole when its block ends;
- ``delta.content`` is a string or chunks (``text``; ``thinking`` is thinking);
- ``usage`` rides on the chunk with ``finish_reason`` (no usage-only chunk).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from ...calls import encode_call_id, encode_stop_reason
from ..chat_stream import DONE, ChatDecoder, ChatEncoder
from .request import call_body
from .response import CODEC
from .rules import RULES

NAME = RULES.name


def _chunk_texts(value: list) -> tuple[str, str]:
    """The text and the thinking text of a list of content chunks (unreadable chunks are left out)."""
    text, thinking = [], []
    for chunk in value:
        if not isinstance(chunk, dict):
            continue
        if chunk.get("type") == "text" and isinstance(chunk.get("text"), str):
            text.append(chunk["text"])
        elif chunk.get("type") == "thinking" and isinstance(chunk.get("thinking"), list):
            inner, _ = _chunk_texts(chunk["thinking"])
            thinking.append(inner)
    return "".join(text), "".join(thinking)


class MistralDecoder(ChatDecoder):
    dialect = NAME
    rules = RULES
    response = CODEC

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.count = 0  # calls started

    def _choice(self, choice: dict, where: tuple) -> list[dict]:
        delta = choice.get("delta")
        if isinstance(delta, dict) and isinstance(delta.get("content"), list):
            text, thinking = _chunk_texts(delta["content"])
            delta = {**delta, "content": text}
            if thinking:
                delta["reasoning_content"] = thinking
            choice = {**choice, "delta": delta}
        return super()._choice(choice, where)

    def _call(self, call: dict, where: tuple) -> list[dict]:
        if not isinstance(call, dict):
            raise self.invalid("a tool_calls item must be an object", *where)
        function = call.get("function") if isinstance(call.get("function"), dict) else {}
        if isinstance(function.get("name"), str) and function["name"]:
            index, self.count = self.count, self.count + 1
        elif self.count:
            index = self.count - 1
        else:
            raise self.invalid("the first fragment of a tool call must carry `function.name`", *where)
        arguments = function.get("arguments")
        if isinstance(arguments, dict):
            function = {**function, "arguments": json.dumps(arguments, ensure_ascii=False)}
        return super()._call({**call, "index": index, "function": function}, where)


class MistralEncoder(ChatEncoder):
    dialect = NAME
    rules = RULES
    response = CODEC

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.pending: dict[int, dict] = {}  # canonical index -> the call being gathered

    def on_tool_call_start(self, event: dict) -> list[dict]:
        self.pending[event["index"]] = {"id": event["id"], "name": event["name"], "arguments": []}
        return []

    def on_tool_call_delta(self, event: dict) -> list[dict]:
        self.pending[event["index"]]["arguments"].append(event["arguments"])
        return []

    def on_block_end(self, event: dict) -> list[dict]:
        call = self.pending.pop(event["index"], None)
        if call is None:
            return []
        part = {"name": call["name"], "arguments_raw": "".join(call["arguments"]) or "{}"}
        entry = {"id": encode_call_id(call["id"], RULES, self.profile), **call_body(part, self.profile)}
        entry["index"] = self.count
        self.count += 1
        return [self._chunk({"tool_calls": [entry]})]

    def on_message_end(self, event: dict) -> list[dict]:
        self.ended = True
        chunk = self._chunk({}, encode_stop_reason(RULES, event["stop_reason"], self.count > 0))
        usage = CODEC.encode_usage(event)
        if usage is not None:
            chunk["data"]["usage"] = usage
        return [chunk, {"data": DONE}]


__all__ = ["MistralDecoder", "MistralEncoder"]
