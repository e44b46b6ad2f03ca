"""OpenAI Chat Completions stream grammar.

Chunks have no SSE event name and are ``chat.completion.chunk`` objects sharing one ``id``. Per choice:
``delta.tool_calls[]`` items carry ``index``; a call's first fragment (a new index, the next one: 0, 1 …)
carries ``id`` and ``function.name``; later fragments carry only ``index`` and ``function.arguments``
(a custom call's: ``custom.name``, ``custom.input``; openai-node ``ChatCompletionChunk``) (clients
concatenate every string member of a repeated fragment: openai-python
``lib/streaming/chat/_completions.py`` accumulates deltas by concatenation, so a repeated ``id`` or name
would be doubled); ``finish_reason`` is set once, after which the choice sends nothing. An optional
usage-only chunk (``choices: []`` + ``usage``) comes after every finish_reason. ``data: [DONE]`` is the
last event. An ``{"error": …}`` object ends the stream (then ``[DONE]`` may follow). Based on
corpus/captures/openai-chat/08, 09 (parallel), 10, 11, 12 (2026: ``usage: null`` on every chunk) and
the Chat Completions API reference.
"""

from __future__ import annotations

from typing import Any

from ..grammar import Grammar, describe
from ..sse import DONE
from .fragments import text_member


class _Choice:
    def __init__(self) -> None:
        self.calls = 0
        self.finished = False


class OpenAIChatGrammar(Grammar):
    dialect = "openai-chat"
    event_names = False

    def __init__(self) -> None:
        super().__init__()
        self.id: Any = None
        self.choices: dict[int, _Choice] = {}
        self.usage_only = False
        self.done = False
        self.error = False
        self.chunks = 0

    def on_event(self, name: str | None, data: Any) -> None:
        if data == DONE:
            if self.chunks == 0 and not self.error:
                raise self.fail("done-first", "[DONE] before any chunk")
            self.done = True
            self.ended = True
            return
        if not isinstance(data, dict):
            raise self.fail("event-shape", f"data must be a chunk object or [DONE] (got {describe(data)})")
        if self.error:
            raise self.fail("after-error", "a chunk after an error")
        if "error" in data and "choices" not in data:
            self.error = True
            return
        if data.get("object") != "chat.completion.chunk":
            self.note("chunk-object", f"object must be 'chat.completion.chunk' (got {data.get('object')!r})")
        if self.chunks == 0:
            self.id = data.get("id")
        elif data.get("id") != self.id:
            self.note("chunk-id", f"chunk id {data.get('id')!r} differs from the first chunk's {self.id!r}")
        self.chunks += 1
        choices = data.get("choices")
        if not isinstance(choices, list):
            raise self.fail("chunk-shape", "a chunk without a choices list")
        if self.usage_only:
            raise self.fail("usage-chunk-last", "a chunk after the usage-only chunk")
        if not choices:
            if not isinstance(data.get("usage"), dict):
                raise self.fail("empty-choices", "a chunk with empty choices must carry usage")
            if not self.choices or not all(c.finished for c in self.choices.values()):
                raise self.fail("usage-chunk-after-finish", "the usage-only chunk comes before finish_reason")
            self.usage_only = True
            return
        for choice in choices:
            self._choice(choice)

    def _choice(self, choice: Any) -> None:
        if not isinstance(choice, dict) or not isinstance(choice.get("index"), int):
            raise self.fail("choice-shape", "a choice without an integer index")
        state = self.choices.setdefault(choice["index"], _Choice())
        delta = choice.get("delta")
        if not isinstance(delta, dict):
            raise self.fail("choice-shape", f"choice {choice['index']} without a delta object")
        carries = [k for k in ("content", "tool_calls", "refusal", "reasoning_content") if delta.get(k)]
        if state.finished and (carries or choice.get("finish_reason") is not None):
            raise self.fail("after-finish", f"choice {choice['index']} continues after its finish_reason")
        for call in delta.get("tool_calls") or []:
            self._call(state, call)
        if choice.get("finish_reason") is not None:
            state.finished = True

    def _call(self, state: _Choice, call: Any) -> None:
        if not isinstance(call, dict):
            raise self.fail("tool-call-shape", "a tool_calls item must be an object")
        index = call.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise self.fail("tool-call-index", "a tool_calls fragment without an integer index")
        member, field = text_member(call)
        body = call.get(member) if isinstance(call.get(member), dict) else {}
        if index == state.calls:
            if not call.get("id") or not body.get("name"):
                raise self.fail(
                    "tool-call-first-fragment",
                    f"the first fragment of tool call {index} must carry id and {member}.name",
                )
            state.calls += 1
        elif index < state.calls:
            # openai-python overwrites index and type, and concatenates every other string member
            repeated = ["id"] if call.get("id") else []
            repeated += [f"{member}.name"] if body.get("name") else []
            if repeated:
                raise self.fail(
                    "tool-call-later-fragment",
                    f"a later fragment of tool call {index} repeats {', '.join(repeated)} "
                    "(clients concatenate it)",
                )
        else:
            raise self.fail(
                "tool-call-index",
                f"tool call index {index} skips ahead; the next new call index is {state.calls}",
            )
        if field in body and not isinstance(body[field], str):
            raise self.fail("tool-call-arguments", f"{member}.{field} of tool call {index} must be a string")

    def on_end(self) -> None:
        if self.done:
            return
        if self.error:
            return
        if not self.choices or not all(c.finished for c in self.choices.values()):
            raise self.fail("truncated", "the stream ended before finish_reason (truncated)", at_end=True)
        raise self.fail("done-last", "the stream ended without data: [DONE]", at_end=True)


GRAMMAR = OpenAIChatGrammar
