"""The OpenAI Responses stream accumulator: an ``openai-responses`` stream -> its non-streaming response body.

The body: the ``response`` of the terminal ``response.completed`` / ``.incomplete`` /
  ``.failed`` event; when it has no ``output``, the items of the ``output_item.done`` events.
"""

from __future__ import annotations

from typing import Any

from ...jsonvalue import json_copy
from ..accumulate import Accumulator, Fragment
from ..sse import DONE

__all__ = ["ACCUMULATOR", "OpenAIResponsesAccumulator"]


class OpenAIResponsesAccumulator(Accumulator):
    dialect = "openai-responses"
    TERMINAL = ("response.completed", "response.incomplete", "response.failed")
    TEXT = {
        "response.output_text.delta": "text",
        "response.refusal.delta": "text",
        "response.reasoning_summary_text.delta": "thinking",
        "response.reasoning_text.delta": "thinking",
    }
    TEXT_DONE = {
        "response.output_text.done": ("text", "text"),
        "response.refusal.done": ("refusal", "text"),
        "response.reasoning_summary_text.done": ("text", "thinking"),
        "response.reasoning_text.done": ("text", "thinking"),
    }

    def __init__(self) -> None:
        super().__init__()
        self.response: dict[str, Any] | None = None
        self.items: dict[int, dict[str, Any]] = {}
        self.call_of: dict[int, int] = {}
        self.streamed: set[tuple[Any, ...]] = set()

    def on_data(self, data: Any) -> list[Fragment] | None:
        if data == DONE:
            # not a Responses event (the grammar reports it): OpenAI's SDK stops reading there, as in any
            # stream (openai/_streaming.py), so what a client accumulates is unchanged
            return None
        kind = data.get("type")
        if kind == "error":
            self.error = {k: v for k, v in data.items() if k not in ("type", "sequence_number")}
            return None
        if kind in self.TERMINAL:
            self.response = json_copy(data["response"])
            self.finished = True
            return None
        if kind == "response.output_item.added":
            item = data["item"]
            self.items[data["output_index"]] = json_copy(item)
            if item.get("type") in ("function_call", "custom_tool_call"):
                member = "arguments" if item["type"] == "function_call" else "input"
                self.call_of[data["output_index"]] = ordinal = self.new_call()
                out = [Fragment("call_start", call=ordinal)]
                if item.get(member):
                    self.streamed.add(("args", data["output_index"]))
                    out.append(Fragment("arguments", item[member], ordinal))
                return out
        elif kind == "response.output_item.done":
            self.items[data["output_index"]] = json_copy(data["item"])
            if data["output_index"] in self.call_of:
                return [Fragment("call_end", call=self.call_of[data["output_index"]])]
        elif kind in ("response.function_call_arguments.delta", "response.custom_tool_call_input.delta"):
            self.streamed.add(("args", data["output_index"]))
            if data["delta"]:
                return [Fragment("arguments", data["delta"], self.call_of[data["output_index"]])]
        elif kind in ("response.function_call_arguments.done", "response.custom_tool_call_input.done"):
            member = "arguments" if kind.startswith("response.function_call") else "input"
            if ("args", data["output_index"]) not in self.streamed and data.get(member):
                return [Fragment("arguments", data[member], self.call_of[data["output_index"]])]
        elif kind in self.TEXT:
            key = (
                "text",
                data.get("output_index"),
                data.get("content_index", data.get("summary_index")),
                kind,
            )
            self.streamed.add(key)
            if data["delta"]:
                return [Fragment(self.TEXT[kind], data["delta"])]
        elif kind in self.TEXT_DONE:
            member, fkind = self.TEXT_DONE[kind]
            delta_kind = kind[: -len("done")] + "delta"
            key = (
                "text",
                data.get("output_index"),
                data.get("content_index", data.get("summary_index")),
                delta_kind,
            )
            if key not in self.streamed and data.get(member):
                return [Fragment(fkind, data[member])]
        elif kind == "response.created":
            self.response = json_copy(data["response"])
        return None

    def build(self) -> Any:
        assert self.response is not None
        response = json_copy(self.response)
        if response.get("output") is None:
            response["output"] = [self.items[i] for i in sorted(self.items)]
        return response


ACCUMULATOR = OpenAIResponsesAccumulator
