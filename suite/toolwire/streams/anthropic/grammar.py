"""Anthropic Messages stream grammar.

``message_start`` (``message.content == []``, ``message.usage`` an object) → blocks, each
``content_block_start`` / ``content_block_delta``… / ``content_block_stop``, at indices 0, 1, 2 … one
block open at a time → one ``message_delta`` (``delta.stop_reason`` set, ``usage`` an object) →
``message_stop``. ``ping`` may appear anywhere; ``error`` ends the stream. Every event carries its SSE
event name, equal to ``data.type``: the anthropic SDK dispatches on the event name
(anthropic-sdk-python ``_streaming.py``). Deltas must fit their block (``text_delta``/``citations_delta``
→ text, ``input_json_delta`` → tool_use, ``thinking_delta``/``signature_delta`` → thinking); a tool_use
block starts with ``input: {}`` and its ``partial_json`` fragments join to ``""`` (no arguments,
corpus/captures/anthropic/15) or a JSON object. Based on corpus/captures/anthropic/11, 12, 13, 14, 15 and
the Messages API reference.
"""

from __future__ import annotations

from typing import Any

from ..grammar import Grammar, describe, is_json_object_text

DELTA_BLOCKS = {
    "text_delta": ("text",),
    "citations_delta": ("text",),
    "input_json_delta": ("tool_use", "server_tool_use"),
    "thinking_delta": ("thinking",),
    "signature_delta": ("thinking",),
}


class AnthropicGrammar(Grammar):
    dialect = "anthropic"
    sequential = True
    event_names = True

    def __init__(self) -> None:
        super().__init__()
        self.started = False
        self.blocks: list[str] = []  # block types by index
        self.open: int | None = None
        self.json: dict[int, list[str]] = {}
        self.message_delta = False

    def on_event(self, name: str | None, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise self.fail(
                "event-shape", f"data must be an object with a string type (got {describe(data)})"
            )
        kind = data["type"]
        if kind == "ping":
            return
        if kind == "error":  # the SDK raises here: the events after it never reach the caller
            self.ended = self.raised = True
            return
        if not self.started and kind != "message_start":
            raise self.fail("message-start-first", f"{kind} before message_start")
        handler = getattr(self, "_" + kind, None)
        if handler is None:
            raise self.fail("unknown-event", f"unknown event type {kind!r}")
        handler(data)

    def _message_start(self, data: dict[str, Any]) -> None:
        if self.started:
            raise self.fail("message-start-once", "a second message_start")
        self.started = True
        message = data.get("message")
        if not isinstance(message, dict):
            raise self.fail("message-start-shape", "message_start without a message object")
        if message.get("content") != []:
            raise self.fail("message-start-content", "message_start.message.content must be []")
        if not isinstance(message.get("usage"), dict):
            raise self.fail("message-start-usage", "message_start.message.usage must be an object")

    def _index(self, data: dict[str, Any]) -> int:
        index = data.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise self.fail("block-index", f"{data['type']} without a non-negative integer index")
        return index

    def _content_block_start(self, data: dict[str, Any]) -> None:
        if self.message_delta:
            raise self.fail("block-after-message-delta", "content_block_start after message_delta")
        index = self._index(data)
        if self.open is not None:
            raise self.fail(
                "one-open-block", f"content_block_start for index {index} while block {self.open} is open"
            )
        if index != len(self.blocks):
            raise self.fail(
                "block-order",
                f"content_block_start for index {index}; the next block index is {len(self.blocks)}",
            )
        block = data.get("content_block")
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise self.fail("block-shape", "content_block_start without a content_block of a known type")
        btype = block["type"]
        if btype in ("tool_use", "server_tool_use"):
            if not block.get("id") or not block.get("name"):
                raise self.fail("tool-use-start", f"tool_use block {index} starts without id and name")
            if block.get("input") != {}:
                raise self.fail("tool-use-start", f"tool_use block {index} must start with input {{}}")
            self.json[index] = []
        self.blocks.append(btype)
        self.open = index

    def _content_block_delta(self, data: dict[str, Any]) -> None:
        index = self._index(data)
        self._require_open(index, "content_block_delta")
        delta = data.get("delta")
        if not isinstance(delta, dict) or not isinstance(delta.get("type"), str):
            raise self.fail("delta-shape", f"content_block_delta for index {index} without a typed delta")
        dtype = delta["type"]
        allowed = DELTA_BLOCKS.get(dtype)
        btype = self.blocks[index]
        if allowed is not None and btype not in allowed:
            raise self.fail("delta-type", f"{dtype} in block {index}, which is a {btype} block")
        if dtype == "input_json_delta":
            fragment = delta.get("partial_json")
            if not isinstance(fragment, str):
                raise self.fail("delta-shape", f"input_json_delta for index {index} without partial_json")
            self.json[index].append(fragment)

    def _require_open(self, index: int, what: str) -> None:
        if index >= len(self.blocks):
            raise self.fail(
                "block-not-started", f"{what} for index {index} but block {index} was never started"
            )
        if self.open != index:
            raise self.fail(
                "block-not-open", f"{what} for index {index} but block {index} is already stopped"
            )

    def _content_block_stop(self, data: dict[str, Any]) -> None:
        index = self._index(data)
        self._require_open(index, "content_block_stop")
        if index in self.json:
            text = "".join(self.json[index])
            if text != "" and not is_json_object_text(text):
                raise self.fail(
                    "tool-input-json",
                    f"the partial_json fragments of block {index} do not join to a JSON object: "
                    f"{text[:80]!r}",
                )
        self.open = None

    def _message_delta(self, data: dict[str, Any]) -> None:
        if self.message_delta:
            raise self.fail("message-delta-once", "a second message_delta")
        if self.open is not None:
            raise self.fail("message-delta-open-block", f"message_delta while block {self.open} is open")
        delta = data.get("delta")
        if not isinstance(delta, dict) or not isinstance(delta.get("stop_reason"), str):
            raise self.fail("message-delta-stop-reason", "message_delta without delta.stop_reason")
        if not isinstance(data.get("usage"), dict):
            raise self.fail("message-delta-usage", "message_delta without usage")
        self.message_delta = True

    def _message_stop(self, data: dict[str, Any]) -> None:
        if not self.message_delta:
            raise self.fail("message-stop-after-delta", "message_stop before message_delta")
        self.ended = True

    def on_end(self) -> None:
        if not self.ended:
            if not self.started:
                raise self.fail("truncated", "the stream is empty (no message_start)", at_end=True)
            raise self.fail("truncated", "the stream ended without message_stop (truncated)", at_end=True)


GRAMMAR = AnthropicGrammar
