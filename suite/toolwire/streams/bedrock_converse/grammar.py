"""Bedrock ConverseStream grammar, over the decoded event stream: each event is one frame,
``{"event": <:event-type>, "data": <payload>}`` (corpus/RULES.md, "Streams").

``messageStart`` (``role: assistant``) → content blocks by ``contentBlockIndex`` 0, 1, 2 … in the order
they open: a tool-use block opens with ``contentBlockStart`` (``start.toolUse`` with ``toolUseId`` and
``name``), a text or reasoning block with its first ``contentBlockDelta``; deltas fit their block
(``text`` / ``citation`` → text, ``toolUse.input`` → tool use, ``reasoningContent`` → reasoning), a tool
block's ``input`` fragments join to ``""`` or a JSON object; ``contentBlockStop`` closes a block (events
name their block, so blocks may interleave) → ``messageStop`` (``stopReason``, every block closed) →
``metadata`` (``usage`` and ``metrics`` objects), the terminal event. An exception event
(``throttlingException``, ``modelStreamErrorException``, …) ends the stream. Every event has its name:
the payload does not repeat it. Based on corpus/captures/bedrock-converse/08, 09 and botocore's
``ConverseStreamOutput`` (bedrock-runtime service model).
"""

from __future__ import annotations

from typing import Any

from ..grammar import Grammar, is_json_object_text

EXCEPTIONS = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    }
)
#: the block kind each delta member fits
DELTA_BLOCKS = {"text": "text", "citation": "text", "toolUse": "tool", "reasoningContent": "reasoning"}


class BedrockConverseGrammar(Grammar):
    dialect = "bedrock-converse"
    event_names = True
    names_in_data = False

    def __init__(self) -> None:
        super().__init__()
        self.started = False
        self.blocks: list[str] = []  # block kinds by index
        self.open: set[int] = set()
        self.json: dict[int, list[str]] = {}
        self.stopped = False

    def on_event(self, name: str | None, data: Any) -> None:
        if name is None:
            raise self.fail("event-name", "a Bedrock event names its type (the :event-type header)")
        if not isinstance(data, dict):
            raise self.fail("event-shape", f"the payload of {name} must be an object")
        if name in EXCEPTIONS:
            self.ended = True
            return
        if not self.started and name != "messageStart":
            raise self.fail("message-start-first", f"{name} before messageStart")
        handler = getattr(self, "_" + name, None)
        if handler is None:
            raise self.fail("unknown-event", f"unknown event type {name!r}")
        handler(data)

    def _messageStart(self, data: dict[str, Any]) -> None:  # noqa: N802 (the event's name)
        if self.started:
            raise self.fail("message-start-once", "a second messageStart")
        if data.get("role") != "assistant":
            raise self.fail("message-start-role", "messageStart.role must be assistant")
        self.started = True

    def _index(self, data: dict[str, Any], what: str) -> int:
        index = data.get("contentBlockIndex")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise self.fail("block-index", f"{what} without a non-negative integer contentBlockIndex")
        if self.stopped:
            raise self.fail("block-after-stop", f"{what} after messageStop")
        return index

    def _open(self, index: int, kind: str, what: str) -> None:
        if index != len(self.blocks):
            raise self.fail(
                "block-order", f"{what} opens block {index}; the next block index is {len(self.blocks)}"
            )
        self.blocks.append(kind)
        self.open.add(index)

    def _contentBlockStart(self, data: dict[str, Any]) -> None:  # noqa: N802
        index = self._index(data, "contentBlockStart")
        start = data.get("start")
        use = start.get("toolUse") if isinstance(start, dict) else None
        if not isinstance(use, dict):
            kind = next(iter(start), None) if isinstance(start, dict) and len(start) == 1 else None
            if kind in ("toolResult", "image"):
                self._open(index, kind, "contentBlockStart")
                return
            raise self.fail("block-start-shape", f"contentBlockStart {index} without start.toolUse")
        if not isinstance(use.get("toolUseId"), str) or not isinstance(use.get("name"), str):
            raise self.fail("tool-use-start", f"tool use block {index} starts without toolUseId and name")
        self._open(index, "tool", "contentBlockStart")
        self.json[index] = []

    def _contentBlockDelta(self, data: dict[str, Any]) -> None:  # noqa: N802
        index = self._index(data, "contentBlockDelta")
        delta = data.get("delta")
        if not isinstance(delta, dict) or len(delta) != 1:
            raise self.fail("delta-shape", f"contentBlockDelta {index}: delta must have exactly one member")
        member = next(iter(delta))
        kind = DELTA_BLOCKS.get(member, member)
        if index == len(self.blocks) and kind in ("text", "reasoning"):
            self._open(index, kind, "contentBlockDelta")
        elif index >= len(self.blocks):
            raise self.fail(
                "block-not-started", f"a {member} delta for block {index}, which was never started"
            )
        elif index not in self.open:
            raise self.fail(
                "block-not-open", f"contentBlockDelta for block {index}, which is already stopped"
            )
        if self.blocks[index] != kind:
            raise self.fail("delta-type", f"a {member} delta in block {index}, a {self.blocks[index]} block")
        if member == "toolUse":
            fragment = delta["toolUse"].get("input") if isinstance(delta["toolUse"], dict) else None
            if not isinstance(fragment, str):
                raise self.fail("delta-shape", f"a toolUse delta for block {index} without an input string")
            self.json[index].append(fragment)
        elif member == "text" and not isinstance(delta["text"], str):
            raise self.fail("delta-shape", f"a text delta for block {index} that is not a string")

    def _contentBlockStop(self, data: dict[str, Any]) -> None:  # noqa: N802
        index = self._index(data, "contentBlockStop")
        if index not in self.open:
            state = "never started" if index >= len(self.blocks) else "already stopped"
            raise self.fail("block-not-open", f"contentBlockStop for block {index}, which is {state}")
        if index in self.json:
            text = "".join(self.json[index])
            if text != "" and not is_json_object_text(text):
                raise self.fail(
                    "tool-input-json",
                    f"the input fragments of block {index} do not join to a JSON object: {text[:80]!r}",
                )
        self.open.discard(index)

    def _messageStop(self, data: dict[str, Any]) -> None:  # noqa: N802
        if self.stopped:
            raise self.fail("message-stop-once", "a second messageStop")
        if self.open:
            raise self.fail("message-stop-open-block", f"messageStop while block {min(self.open)} is open")
        if not isinstance(data.get("stopReason"), str):
            raise self.fail("message-stop-reason", "messageStop without a stopReason")
        self.stopped = True

    def _metadata(self, data: dict[str, Any]) -> None:
        if not self.stopped:
            raise self.fail("metadata-after-stop", "metadata before messageStop")
        if not isinstance(data.get("usage"), dict) or not isinstance(data.get("metrics"), dict):
            raise self.fail("metadata-shape", "metadata needs its usage and metrics objects")
        self.ended = True

    def on_end(self) -> None:
        if not self.ended:
            if not self.started:
                raise self.fail("truncated", "the stream is empty (no messageStart)", at_end=True)
            raise self.fail("truncated", "the stream ended without metadata (truncated)", at_end=True)


GRAMMAR = BedrockConverseGrammar
