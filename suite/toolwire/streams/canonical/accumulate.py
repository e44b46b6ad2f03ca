"""The Canonical stream accumulator: a ``canonical`` stream -> its non-streaming response body.

The body: the canonical response (corpus/README.md): ``id``/``model`` of ``message_start``,
  ``content`` blocks by index (``tool_call.arguments`` parsed from the joined fragments, ``{}`` for
  ``""``, ``arguments_raw`` when they are not a JSON object), ``stop_reason``, ``stop_sequence``,
  ``usage`` of ``message_end``.
"""

from __future__ import annotations

from typing import Any

from ..accumulate import Accumulator, Fragment, parse_object
from ..sse import DONE

__all__ = ["ACCUMULATOR", "CanonicalAccumulator"]


class CanonicalAccumulator(Accumulator):
    dialect = "canonical"

    def __init__(self) -> None:
        super().__init__()
        self.start: dict[str, Any] = {}
        self.end: dict[str, Any] = {}
        self.blocks: dict[int, dict[str, Any]] = {}
        self.call_of: dict[int, int] = {}

    def on_data(self, data: Any) -> list[Fragment] | None:
        if data == DONE:
            return None  # not an Anthropic event: the SDK, which dispatches on event names, skips it
        kind = data.get("type")
        if kind == "message_start":
            self.start = {k: data[k] for k in ("id", "model") if k in data}
        elif kind == "message_end":
            self.end = {k: data[k] for k in ("stop_reason", "stop_sequence", "usage") if k in data}
            self.finished = True
        elif kind == "error":
            self.error = data.get("error")
        elif kind == "block_end" and data.get("index") in self.call_of:
            return [Fragment("call_end", call=self.call_of[data["index"]])]
        elif kind == "tool_call_start":
            block = {"type": "tool_call", "id": data["id"], "name": data["name"], "_args": []}
            if data.get("custom"):
                block["_custom"] = True
            block.update({k: data[k] for k in ("signature", "origin") if k in data})
            self.blocks[data["index"]] = block
            self.call_of[data["index"]] = ordinal = self.new_call()
            return [Fragment("call_start", call=ordinal)]
        elif kind == "tool_call_delta":
            text = data["input"] if "input" in data else data["arguments"]  # a custom call's text: `input`
            self.blocks[data["index"]]["_args"].append(text)
            if text:
                return [Fragment("arguments", text, self.call_of[data["index"]])]
        elif kind in ("text_delta", "thinking_delta"):
            btype = "text" if kind == "text_delta" else "thinking"
            block = self.blocks.setdefault(data["index"], {"type": btype, "text": ""})
            block["text"] += data["text"]
            block.update({k: data[k] for k in ("signature", "origin") if k in data})
            if data["text"]:
                return [Fragment(btype, data["text"])]
        return None

    def build(self) -> Any:
        content = []
        for index in sorted(self.blocks):
            block = dict(self.blocks[index])
            if block["type"] == "tool_call":
                text = "".join(block.pop("_args"))
                if block.pop("_custom", False):
                    block["input"] = text
                    content.append(block)
                    continue
                try:
                    block["arguments"] = parse_object(text)
                except ValueError:
                    block["arguments_raw"] = text
            content.append(block)
        return {**self.start, "content": content, **self.end}


ACCUMULATOR = CanonicalAccumulator
