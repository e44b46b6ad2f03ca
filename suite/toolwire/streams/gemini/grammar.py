"""Gemini ``streamGenerateContent?alt=sse`` grammar.

Every event is a whole ``GenerateContentResponse`` chunk: no SSE event name, no ``[DONE]``
(corpus/captures/gemini/09, 10; the Gemini API reference). A ``functionCall`` part is whole (a
``name``, ``args`` an object when present) — except Vertex AI's streamed arguments
(``streamFunctionCallArguments``): a ``functionCall`` with ``name`` and ``willContinue: true`` opens a
call, parts with ``partialArgs`` continue it, and an empty ``functionCall: {}`` closes it
(corpus/captures/gemini/13). The ``finishReason`` of a candidate comes on its last chunk: no chunk follows
the one where every candidate has finished (corpus/captures/gemini/09, 12: the last chunk, often an empty
text part, carries it). A chunk ``{"error": …}`` ends the stream. A stream whose candidates never finish
is truncated. A chunk may instead carry only ``promptFeedback`` (a blocked prompt), which ends it.
"""

from __future__ import annotations

from typing import Any

from ..grammar import Grammar, describe


class GeminiGrammar(Grammar):
    dialect = "gemini"
    whole_calls = True
    sequential = True
    event_names = False

    def __init__(self) -> None:
        super().__init__()
        self.candidates: dict[int, dict[str, Any]] = {}
        self.chunks = 0

    def on_event(self, name: str | None, data: Any) -> None:
        if data == "[DONE]":
            raise self.fail("no-done", "Gemini streams have no [DONE]")
        if not isinstance(data, dict):
            raise self.fail(
                "event-shape", f"data must be a GenerateContentResponse object (got {describe(data)})"
            )
        if self.candidates and all(s["finished"] for s in self.candidates.values()):
            raise self.fail(
                "finish-last", "a chunk after the one carrying finishReason (it must be the last)"
            )
        self.chunks += 1
        if "error" in data and "candidates" not in data:
            self.ended = True
            return
        candidates = data.get("candidates")
        if candidates is None:
            if isinstance(data.get("promptFeedback"), dict) and data["promptFeedback"].get("blockReason"):
                self.ended = True
                return
            if isinstance(data.get("usageMetadata"), dict):
                return
            raise self.fail("chunk-shape", "a chunk without candidates")
        if not isinstance(candidates, list):
            raise self.fail("chunk-shape", "candidates must be a list")
        for position, candidate in enumerate(candidates):
            if not isinstance(candidate, dict):
                raise self.fail("candidate-shape", "a candidate must be an object")
            index = candidate.get("index", position)
            state = self.candidates.setdefault(index, {"finished": False, "streaming": None})
            if state["finished"]:
                raise self.fail("finish-last", f"candidate {index} continues after its finishReason")
            content = candidate.get("content") or {}
            parts = content.get("parts") if isinstance(content, dict) else None
            for part in parts or []:
                self._part(index, state, part)
            if candidate.get("finishReason") is not None:
                if state["streaming"] is not None:
                    raise self.fail(
                        "function-call-open",
                        f"finishReason while the streamed call {state['streaming']!r} is not closed",
                    )
                state["finished"] = True

    def _part(self, index: int, state: dict[str, Any], part: Any) -> None:
        if not isinstance(part, dict):
            raise self.fail("part-shape", "a part must be an object")
        call = part.get("functionCall")
        if call is None:
            if state["streaming"] is not None and ("text" in part):
                raise self.fail("function-call-open", "a text part inside a streamed function call")
            return
        if not isinstance(call, dict):
            raise self.fail("function-call-shape", "functionCall must be an object")
        if state["streaming"] is not None:  # Vertex streamed arguments: partialArgs…, then {}
            if call.get("name"):
                raise self.fail(
                    "function-call-open", f"a new functionCall while {state['streaming']!r} is not closed"
                )
            if not call:
                state["streaming"] = None
            elif "partialArgs" not in call:
                raise self.fail(
                    "function-call-partial", "a streamed call continues with partialArgs or closes with {}"
                )
            return
        if not call.get("name"):
            raise self.fail("function-call-whole", f"candidate {index}: a functionCall without a name")
        if call.get("willContinue") is True:
            state["streaming"] = call["name"]
            return
        if "args" in call and not isinstance(call["args"], dict):
            raise self.fail("function-call-whole", f"functionCall {call['name']!r}: args must be an object")
        if "partialArgs" in call:
            raise self.fail("function-call-whole", "partialArgs outside a streamed call (willContinue)")

    def on_end(self) -> None:
        if self.ended or (self.candidates and all(s["finished"] for s in self.candidates.values())):
            return
        if self.chunks == 0:
            raise self.fail("truncated", "the stream is empty", at_end=True)
        raise self.fail("truncated", "the stream ended before finishReason (truncated)", at_end=True)


GRAMMAR = GeminiGrammar
