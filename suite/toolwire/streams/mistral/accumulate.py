"""The Mistral stream accumulator: a ``mistral`` stream -> its non-streaming response body, as OpenAI
Chat's (:mod:`..openai_chat.accumulate`), except that each ``delta.tool_calls`` item is a new, whole call
(whatever its ``index``, which the SDK defaults to 0), its object ``arguments`` kept as JSON text, and
content chunks (``text``; ``thinking`` is left out) read as their text."""

from __future__ import annotations

import json
from typing import Any

from ..accumulate import Fragment
from ..openai_chat.accumulate import OpenAIChatAccumulator

__all__ = ["ACCUMULATOR", "MistralAccumulator"]


def _text(chunks: list) -> str:
    return "".join(
        c["text"]
        for c in chunks
        if isinstance(c, dict) and c.get("type") == "text" and isinstance(c.get("text"), str)
    )


class MistralAccumulator(OpenAIChatAccumulator):
    dialect = "mistral"

    def on_data(self, data: Any) -> list[Fragment] | None:
        if isinstance(data, dict) and isinstance(data.get("choices"), list):
            choices = []
            for choice in data["choices"]:
                delta = choice.get("delta") if isinstance(choice, dict) else None
                if isinstance(delta, dict) and isinstance(delta.get("content"), list):
                    choice = {**choice, "delta": {**delta, "content": _text(delta["content"])}}
                choices.append(choice)
            data = {**data, "choices": choices}
        return super().on_data(data)

    def call(self, calls: dict[Any, dict[str, Any]], call: dict[str, Any]) -> list[Fragment]:
        fn = call.get("function") or {}
        if isinstance(fn.get("arguments"), dict):
            fn = {**fn, "arguments": json.dumps(fn["arguments"], ensure_ascii=False)}
        return super().call(calls, {**call, "index": len(calls), "function": fn})


ACCUMULATOR = MistralAccumulator
