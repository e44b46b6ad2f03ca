"""The Bedrock ConverseStream accumulator: a ``bedrock-converse`` stream -> its Converse response body.

The body: ``{"output": {"message": {"role", "content"}}, "stopReason", "usage", "metrics"}``: the
role of ``messageStart``; ``content`` = the blocks by ``contentBlockIndex`` (``{"text"}`` joined from
the text deltas; ``{"toolUse": {toolUseId, name, input}}`` with the joined ``input`` fragments parsed,
``{}`` when they are ``""``; ``{"reasoningContent": {"reasoningText": {text, signature?}}}`` from the
reasoning deltas); ``stopReason`` of ``messageStop``; ``usage`` and ``metrics`` of ``metadata`` (as
botocore's ``converse`` returns them). The server's padding member ``p`` is not part of any value.
"""

from __future__ import annotations

from typing import Any

from ..accumulate import Accumulator, Fragment, parse_object
from ..payload import StreamError
from .grammar import EXCEPTIONS

__all__ = ["ACCUMULATOR", "BedrockConverseAccumulator"]


class BedrockConverseAccumulator(Accumulator):
    dialect = "bedrock-converse"

    def __init__(self) -> None:
        super().__init__()
        self.role: Any = None
        self.blocks: dict[int, dict[str, Any]] = {}
        self.json: dict[int, list[str]] = {}
        self.call_of: dict[int, int] = {}
        self.body: dict[str, Any] = {}

    def feed(self, event: Any) -> list[Fragment]:
        self.name = event.get("event") if isinstance(event, dict) else None
        return super().feed(event)

    def on_data(self, data: Any) -> list[Fragment] | None:
        name = self.name
        if name in EXCEPTIONS:
            self.error = {"type": name, "message": data.get("message")}
        elif name == "messageStart":
            self.role = data["role"]
        elif name == "contentBlockStart":
            index, use = data["contentBlockIndex"], data["start"]["toolUse"]
            self.blocks[index] = {"toolUse": {"toolUseId": use["toolUseId"], "name": use["name"]}}
            self.json[index] = []
            self.call_of[index] = self.new_call()
            return [Fragment("call_start", call=self.call_of[index])]
        elif name == "contentBlockDelta":
            return self._delta(data["contentBlockIndex"], data["delta"])
        elif name == "contentBlockStop":
            index = data["contentBlockIndex"]
            if index in self.json:
                text = "".join(self.json.pop(index))
                try:
                    self.blocks[index]["toolUse"]["input"] = parse_object(text)
                except ValueError as exc:
                    raise self.invalid(
                        f"tool use block {index}: input is not a JSON object: {text[:80]!r}"
                    ) from exc
                return [Fragment("call_end", call=self.call_of[index])]
        elif name == "messageStop":
            self.body["stopReason"] = data["stopReason"]
        elif name == "metadata":
            for key in ("usage", "metrics"):
                if key in data:
                    self.body[key] = {k: v for k, v in data[key].items()}
            self.finished = True
        return None

    def _delta(self, index: int, delta: dict[str, Any]) -> list[Fragment] | None:
        if "text" in delta:
            block = self.blocks.setdefault(index, {"text": ""})
            block["text"] += delta["text"]
            return [Fragment("text", delta["text"])]
        if "toolUse" in delta:
            self.json[index].append(delta["toolUse"]["input"])
            return [Fragment("arguments", delta["toolUse"]["input"], self.call_of[index])]
        if "reasoningContent" in delta:
            block = self.blocks.setdefault(index, {"reasoningContent": {"reasoningText": {"text": ""}}})
            reasoning, text = delta["reasoningContent"], block["reasoningContent"]["reasoningText"]
            if "text" in reasoning:
                text["text"] += reasoning["text"]
                return [Fragment("thinking", reasoning["text"])]
            if "signature" in reasoning:
                text["signature"] = reasoning["signature"]
        return None

    def build(self) -> Any:
        if self.role is None:
            raise StreamError("stream.truncated", "no messageStart")
        content = [self.blocks[i] for i in sorted(self.blocks)]
        return {"output": {"message": {"role": self.role, "content": content}}, **self.body}


ACCUMULATOR = BedrockConverseAccumulator
