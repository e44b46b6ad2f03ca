"""The Anthropic Messages stream accumulator: a ``anthropic`` stream -> its non-streaming response body.

The body: ``message_start.message`` with ``content`` = the blocks by index (``text`` joined from
  ``text_delta``; ``thinking`` joined from ``thinking_delta``, ``signature`` from ``signature_delta``;
  ``citations`` appended; ``tool_use.input`` = the joined ``partial_json`` parsed, ``{}`` when it is
  ``""``), then ``message_delta.delta`` members set on the message and ``message_delta.usage`` members
  (non-null) set on ``usage`` (as the anthropic SDK's accumulator does).
"""

from __future__ import annotations

from typing import Any

from ...jsonvalue import json_copy
from ..accumulate import Accumulator, Fragment, parse_object
from ..payload import StreamError
from ..sse import DONE

__all__ = ["ACCUMULATOR", "AnthropicAccumulator"]


class AnthropicAccumulator(Accumulator):
    dialect = "anthropic"

    def __init__(self) -> None:
        super().__init__()
        self.message: dict[str, Any] | None = None
        self.blocks: dict[int, dict[str, Any]] = {}
        self.json: dict[int, list[str]] = {}
        self.call_of: dict[int, int] = {}

    def on_data(self, data: Any) -> list[Fragment] | None:
        if data == DONE:
            return None  # not an Anthropic event: the SDK, which dispatches on event names, skips it
        kind = data.get("type")
        if kind == "message_start":
            self.message = json_copy(data["message"])
        elif kind == "content_block_start":
            index = data["index"]
            block = json_copy(data["content_block"])
            self.blocks[index] = block
            if block.get("type") in ("tool_use", "server_tool_use"):
                self.json[index] = []
                self.call_of[index] = self.new_call()
                return [Fragment("call_start", call=self.call_of[index])]
        elif kind == "content_block_delta":
            index, delta = data["index"], data["delta"]
            block = self.blocks[index]
            dtype = delta.get("type")
            if dtype == "text_delta":
                block["text"] = block.get("text", "") + delta["text"]
                return [Fragment("text", delta["text"])]
            if dtype == "input_json_delta":
                self.json[index].append(delta["partial_json"])
                return [Fragment("arguments", delta["partial_json"], self.call_of[index])]
            if dtype == "thinking_delta":
                block["thinking"] = block.get("thinking", "") + delta["thinking"]
                return [Fragment("thinking", delta["thinking"])]
            if dtype == "signature_delta":
                block["signature"] = delta["signature"]
            elif dtype == "citations_delta":
                block.setdefault("citations", []).append(delta["citation"])
        elif kind == "content_block_stop":
            index = data["index"]
            if index in self.json:
                text = "".join(self.json[index])
                try:
                    self.blocks[index]["input"] = parse_object(text)
                except ValueError as exc:
                    raise self.invalid(
                        f"tool_use block {index}: input is not a JSON object: {text[:80]!r}"
                    ) from exc
                return [Fragment("call_end", call=self.call_of[index])]
        elif kind == "message_delta":
            assert self.message is not None
            self.message.update(data.get("delta") or {})
            usage = self.message.setdefault("usage", {})
            usage.update({k: v for k, v in (data.get("usage") or {}).items() if v is not None})
        elif kind == "message_stop":
            self.finished = True
        elif kind == "error":
            self.error = _error_object(data)
        return None

    def build(self) -> Any:
        if self.message is None:
            raise StreamError("stream.truncated", "no message_start")
        message = json_copy(self.message)
        message["content"] = [self.blocks[i] for i in sorted(self.blocks)]
        return message


def _error_object(data: dict[str, Any]) -> Any:
    """The error an ``error`` event carries: its ``error`` (the API's member), else the object a proxy put
    under ``message`` (claude-code-router), else the event without its type. The anthropic SDK raises with
    the whole event whatever its shape, so each one ends the answer in an error with that message."""
    for member in ("error", "message"):
        if isinstance(data.get(member), dict):
            return data[member]
    return {k: v for k, v in data.items() if k != "type"}


ACCUMULATOR = AnthropicAccumulator
