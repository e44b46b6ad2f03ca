"""``stream.text-calls=parse``: tool calls printed inside a stream's text become real tool-call blocks.

:class:`TextCallFilter` sits between the decoder (after :class:`~.base.ThinkingFilter`) and the encoder,
on canonical stream events, so every source and target dialect gets it at once. The deltas of each text
block go through a :class:`~toolwire_reference.text.TextCallScanner` (one per source text block; a call
does not span blocks). Its output is written back as canonical events, in order:

- visible text: ``text_delta`` events of an output text block (opened lazily, closed by the next call or
  by the source block's end);
- each recognised call: ``tool_call_start`` (a generated id: ``call_<n>``, the target's prefix where it
  has one, none for Gemini), one ``tool_call_delta`` with the arguments as compact JSON, ``block_end``.

Block indices are renumbered in the order output blocks open. ``message_end`` with ``end_turn`` becomes
``tool_use`` when at least one call was recognised. Malformed and unterminated calls follow
``text.malformed`` (the scanner raises ``text.malformed_call`` / ``text.unterminated_call``, path
``""``, or keeps the region as text). An ``error`` event ends the stream: what the scanner still holds
back (a possible tag, an open call) is dropped. Rules: corpus/RULES.md "Streams", "Text-embedded tool
calls".
"""

from __future__ import annotations

from collections.abc import Mapping

from ..calls import IdGenerator, arguments_to_text
from ..text import TextCallScanner


class TextCallFilter:
    """Canonical events in, canonical events out: text blocks scanned for text-embedded calls."""

    def __init__(self, profile: Mapping[str, str], ids: IdGenerator | None = None) -> None:
        self.profile = profile
        self.ids = ids if ids is not None else IdGenerator()
        self.next = 0  # next output block index
        self.index: dict[int, int] = {}  # open source block (not the scanned text) -> output index
        self.source_text: int | None = None  # source index of the text block being scanned
        self.scanner: TextCallScanner | None = None
        self.text_out: int | None = None  # output index of the open output text block
        self.found = 0  # calls recognised so far

    def feed(self, event: dict) -> list[dict]:
        kind = event["type"]
        if kind == "text_delta" and (self.scanner is None or event["index"] == self.source_text):
            if self.scanner is None:
                self.source_text = event["index"]
                self.scanner = TextCallScanner(self.profile, self.ids)
            return self._parts(self.scanner.feed(event["text"]))
        if kind == "block_end" and self.scanner is not None and event["index"] == self.source_text:
            out = self._parts(self.scanner.close())
            self.scanner = self.source_text = None
            return out + self._close_text()
        if kind == "error":
            self.scanner = self.source_text = None
            return [event]
        if kind == "message_end":
            if self.found and event["stop_reason"] == "end_turn":
                return [{**event, "stop_reason": "tool_use"}]
            return [event]
        if "index" not in event:
            return [event]
        source = event["index"]
        if source not in self.index:
            self.index[source] = self._new()
        target = self.index[source]
        if kind == "block_end":
            del self.index[source]
        if kind == "tool_call_start":
            self.ids.take(event["id"])
        return [event if target == source else {**event, "index": target}]

    def _new(self) -> int:
        self.next += 1
        return self.next - 1

    def _close_text(self) -> list[dict]:
        if self.text_out is None:
            return []
        index, self.text_out = self.text_out, None
        return [{"type": "block_end", "index": index}]

    def _parts(self, parts: list[dict]) -> list[dict]:
        out: list[dict] = []
        for part in parts:
            if part["type"] == "text":
                if not part["text"]:
                    continue
                if self.text_out is None:
                    self.text_out = self._new()
                out.append({"type": "text_delta", "index": self.text_out, "text": part["text"]})
                continue
            out += self._close_text()
            index = self._new()
            self.found += 1
            arguments = arguments_to_text(part["arguments"])
            out += [
                {"type": "tool_call_start", "index": index, "id": part["id"], "name": part["name"]},
                {"type": "tool_call_delta", "index": index, "arguments": arguments},
                {"type": "block_end", "index": index},
            ]
        return out
