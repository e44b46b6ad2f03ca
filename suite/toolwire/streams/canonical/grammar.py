"""Canonical stream grammar (``corpus/RULES.md, "Streams"``).

``message_start`` first → blocks → ``message_end`` last (or ``error``, which ends the stream). Events
have no SSE name and no ``[DONE]``. A block's index is its position in the final content: a new block
takes the next index (0, 1 …). ``text_delta``/``thinking_delta`` at a new index open a text/thinking
block, ``tool_call_start`` (``id``, ``name``) opens a tool-call block, ``block_end`` closes a block.
Only one text or thinking block is open at a time and nothing else opens while it is; tool-call blocks
may interleave with each other. Deltas go to an open block of their type. ``message_end`` comes after
every block is closed, with a ``stop_reason`` of the canonical response's vocabulary.
"""

from __future__ import annotations

import json
from typing import Any

from ... import paths
from ..grammar import Grammar, describe

#: the canonical response's stop reasons, read from its schema (one list for the corpus and the harness)
STOP_REASONS = tuple(
    json.loads((paths.schemas_dir() / "canonical" / "response.schema.json").read_bytes())["properties"][
        "stop_reason"
    ]["enum"]
)
DELTA_BLOCK = {"text_delta": "text", "thinking_delta": "thinking", "tool_call_delta": "tool_call"}


class CanonicalGrammar(Grammar):
    dialect = "canonical"
    event_names = False

    def __init__(self) -> None:
        super().__init__()
        self.started = False
        self.blocks: list[str] = []
        self.open: set[int] = set()
        self.custom: set[int] = set()  # blocks of custom (free-form) tool calls: their deltas carry `input`

    def on_event(self, name: str | None, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise self.fail(
                "event-shape", f"data must be an object with a string type (got {describe(data)})"
            )
        kind = data["type"]
        if kind == "error":
            self.ended = True
            return
        if not self.started:
            if kind != "message_start":
                raise self.fail("message-start-first", f"{kind} before message_start")
            self.started = True
            return
        if kind == "message_start":
            raise self.fail("message-start-once", "a second message_start")
        if kind == "message_end":
            if self.open:
                raise self.fail("message-end-open-block", f"message_end while block {min(self.open)} is open")
            if data.get("stop_reason") not in STOP_REASONS:
                raise self.fail(
                    "stop-reason", f"message_end stop_reason {data.get('stop_reason')!r} is not canonical"
                )
            self.ended = True
            return
        index = data.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise self.fail("block-index", f"{kind} without a non-negative integer index")
        if kind == "block_end":
            if index >= len(self.blocks):
                raise self.fail(
                    "block-not-started", f"block_end for index {index} but block {index} was never started"
                )
            if index not in self.open:
                raise self.fail(
                    "block-not-open", f"block_end for index {index} but block {index} is already closed"
                )
            self.open.discard(index)
            return
        if kind == "tool_call_start":
            if not data.get("id") or not data.get("name"):
                raise self.fail("tool-call-start", f"tool_call_start {index} without id and name")
            self._open(index, "tool_call", kind)
            if data.get("custom"):
                self.custom.add(index)
            return
        block = DELTA_BLOCK.get(kind)
        if block is None:
            raise self.fail("unknown-event", f"unknown event type {kind!r}")
        field = ("input" if index in self.custom else "arguments") if kind == "tool_call_delta" else "text"
        if not isinstance(data.get(field), str):
            raise self.fail("delta-shape", f"{kind} without a string {field}")
        if index == len(self.blocks) and block != "tool_call":
            self._open(index, block, kind)
            return
        if index >= len(self.blocks):
            raise self.fail(
                "block-not-started", f"{kind} for index {index} but block {index} was never started"
            )
        if index not in self.open:
            raise self.fail("block-not-open", f"{kind} for index {index} but block {index} is already closed")
        if self.blocks[index] != block:
            raise self.fail("delta-type", f"{kind} for block {index}, which is a {self.blocks[index]} block")

    def _open(self, index: int, block: str, kind: str) -> None:
        if index != len(self.blocks):
            raise self.fail(
                "block-order", f"{kind} opens index {index}; the next block index is {len(self.blocks)}"
            )
        kinds = {self.blocks[i] for i in self.open}
        if kinds and (block != "tool_call" or kinds != {"tool_call"}):
            raise self.fail(
                "one-open-block", f"{kind} opens block {index} while block {min(self.open)} is open"
            )
        self.blocks.append(block)
        self.open.add(index)

    def on_end(self) -> None:
        if not self.ended:
            raise self.fail("truncated", "the stream ended without message_end (truncated)", at_end=True)


GRAMMAR = CanonicalGrammar
