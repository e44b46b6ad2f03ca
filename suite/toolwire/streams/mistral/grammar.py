"""Mistral stream grammar: OpenAI Chat's (:mod:`..openai_chat.grammar`: ``chat.completion.chunk`` objects
sharing one ``id``, ``finish_reason`` once per choice, ``data: [DONE]`` last), except that each
``delta.tool_calls`` item is a whole call: ``id`` (9 ASCII letters and digits), ``function.name`` and all
of ``function.arguments`` (JSON text of an object, or an object), ``index`` optional (the SDK's ``ToolCall``
defaults it to 0). ``usage`` may ride on the finishing chunk. Based on
corpus/captures/mistral/07_stream_tool_call.chunks.jsonl and the mistralai SDK's ``CompletionChunk``,
``DeltaMessage`` and ``ToolCall``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..openai_chat.grammar import OpenAIChatGrammar, _Choice

_CALL_ID = re.compile(r"[a-zA-Z0-9]{9}")


class MistralGrammar(OpenAIChatGrammar):
    dialect = "mistral"
    whole_calls = True
    sequential = True

    def _call(self, state: _Choice, call: Any) -> None:
        if not isinstance(call, dict):
            raise self.fail("tool-call-shape", "a tool_calls item must be an object")
        fn = call.get("function") if isinstance(call.get("function"), dict) else {}
        call_id, name, arguments = call.get("id"), fn.get("name"), fn.get("arguments")
        if not isinstance(call_id, str) or not _CALL_ID.fullmatch(call_id):
            raise self.fail(
                "tool-call-id", f"a tool call id must be 9 ASCII letters and digits (got {call_id!r})"
            )
        if not isinstance(name, str) or not name:
            raise self.fail(
                "tool-call-whole", "a tool_calls item must carry function.name (calls come whole)"
            )
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                arguments = None
        if not isinstance(arguments, dict):
            raise self.fail(
                "tool-call-whole",
                f"the arguments of tool call {name!r} must be a whole JSON object (calls come whole)",
            )
        state.calls += 1


GRAMMAR = MistralGrammar
