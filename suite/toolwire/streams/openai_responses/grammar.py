"""OpenAI Responses stream grammar.

``response.created`` first (then ``response.in_progress``, optional) → output items, each
``response.output_item.added`` (``output_index`` 0, 1 … in order) → its deltas → its ``*.done`` events →
``response.output_item.done`` → a terminal ``response.completed`` / ``response.incomplete`` /
``response.failed`` after every item is done, whose ``response.output`` holds the done items; an
``error`` event also ends the stream. A function call: ``output_item.added`` (``type: function_call``,
``call_id``, ``name``, ``arguments: ""``) → ``response.function_call_arguments.delta``… →
``response.function_call_arguments.done`` whose ``arguments`` equal the joined deltas →
``output_item.done`` with the same arguments; a custom (free-form) tool call the same with
``custom_tool_call`` items, ``response.custom_tool_call_input.delta`` / ``.done`` and ``input``. Text:
``content_part.added`` → ``output_text.delta``… →
``output_text.done`` (the joined text) → ``content_part.done``. Deltas name their item by ``item_id`` and
``output_index``. ``sequence_number``, when the first event has one, is on every event and increases
(absent in the 2025-03 recordings, present since 2025-09: corpus/captures/openai-responses/09, 10 vs 11,
12, 14). The SSE event name, when sent, equals ``data.type``; there is no ``[DONE]``. Other
``response.*`` event types are accepted (the API adds new ones). ``.done`` events need not repeat
``name`` (none of the recordings does, although the spec lists it: the Responses API reference).
"""

from __future__ import annotations

from typing import Any

from ..grammar import Grammar, describe

TERMINAL = ("response.completed", "response.incomplete", "response.failed")
#: call item type -> (the prefix of its delta / done events, the member holding its text)
CALLS = {
    "function_call": ("response.function_call_arguments", "arguments"),
    "custom_tool_call": ("response.custom_tool_call_input", "input"),
}
CALL_EVENTS = {
    f"{prefix}.{end}": (item, member) for item, (prefix, member) in CALLS.items() for end in ("delta", "done")
}
TEXT_DELTAS = {
    "response.output_text.delta": "response.output_text.done",
    "response.refusal.delta": "response.refusal.done",
    "response.reasoning_summary_text.delta": "response.reasoning_summary_text.done",
    "response.reasoning_text.delta": "response.reasoning_text.done",
}
TEXT_DONE_KEY = {
    "response.output_text.done": "text",
    "response.refusal.done": "refusal",
    "response.reasoning_summary_text.done": "text",
    "response.reasoning_text.done": "text",
}


def _keys(item_type: str) -> tuple[str, ...]:
    """The members a terminal event's copy of a call item must repeat."""
    return ("call_id", "name", CALLS[item_type][1])


class _Item:
    def __init__(self, item: dict[str, Any]) -> None:
        self.item = item
        self.type = item.get("type")
        self.id = item.get("id")
        self.arguments: list[str] = []
        self.arguments_done = False
        self.texts: dict[tuple[str, int], list[str]] = {}
        self.done = False


class OpenAIResponsesGrammar(Grammar):
    dialect = "openai-responses"
    event_names = None
    #: gateways (LiteLLM's proxy) end Responses streams with ``[DONE]``; openai-python's SSE reader stops
    #: there
    done_ends_stream = True

    def __init__(self) -> None:
        super().__init__()
        self.created = False
        self.sequence: int | None | bool = False  # False: not decided yet
        self.items: list[_Item] = []

    def on_event(self, name: str | None, data: Any) -> None:
        if data == "[DONE]":
            raise self.fail("no-done", "[DONE] before the terminal event: the SDKs stop reading there")
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise self.fail(
                "event-shape", f"data must be an object with a string type (got {describe(data)})"
            )
        kind = data["type"]
        self._sequence(data)
        if kind == "error":
            self.ended = True
            return
        if not self.created:
            if kind != "response.created":
                raise self.fail("created-first", f"{kind} before response.created")
            self.created = True
            self._response(data, "response.created")
            return
        if kind == "response.created":
            raise self.fail("created-once", "a second response.created")
        if kind in TERMINAL:
            self._terminal(data)
            return
        if kind == "response.output_item.added":
            self._added(data)
        elif kind == "response.output_item.done":
            self._item_done(data)
        elif kind in CALL_EVENTS and kind.endswith(".delta"):
            item = self._open_item(data, CALL_EVENTS[kind][0])
            delta = data.get("delta")
            if not isinstance(delta, str):
                raise self.fail("delta-shape", f"{kind} without a string delta")
            if item.arguments_done:
                raise self.fail("arguments-after-done", f"{kind} after its .done event")
            item.arguments.append(delta)
        elif kind in CALL_EVENTS:
            item_type, member = CALL_EVENTS[kind]
            item = self._open_item(data, item_type)
            joined = "".join(item.arguments)
            if data.get(member) != joined and item.arguments:
                raise self.fail(
                    "arguments-done",
                    f"{kind} {member} {str(data.get(member))[:60]!r} differ from "
                    f"the joined deltas {joined[:60]!r}",
                )
            if not isinstance(data.get(member), str):
                raise self.fail("arguments-done", f"{kind} without a string {member}")
            item.arguments = [data[member]]
            item.arguments_done = True
        elif kind in TEXT_DELTAS:
            item = self._open_item(data, None)
            if not isinstance(data.get("delta"), str):
                raise self.fail("delta-shape", f"{kind} without a string delta")
            key = (TEXT_DELTAS[kind], self._part_index(data))
            item.texts.setdefault(key, []).append(data["delta"])
        elif kind in TEXT_DONE_KEY:
            item = self._open_item(data, None)
            key = (kind, self._part_index(data))
            joined = "".join(item.texts.get(key, []))
            value = data.get(TEXT_DONE_KEY[kind])
            if key in item.texts and value != joined:
                raise self.fail("text-done", f"{kind} text differs from the joined deltas")
        elif kind == "response.in_progress":
            self._response(data, kind)
        elif kind.startswith("response.") and ("item_id" in data or "output_index" in data):
            self._open_item(data, None)
        elif not kind.startswith("response."):
            raise self.fail("unknown-event", f"unknown event type {kind!r}")

    @staticmethod
    def _part_index(data: dict[str, Any]) -> int:
        for key in ("content_index", "summary_index"):
            if isinstance(data.get(key), int):
                return data[key]
        return 0

    def _sequence(self, data: dict[str, Any]) -> None:
        seq = data.get("sequence_number")
        if self.sequence is False:
            self.sequence = seq if isinstance(seq, int) else None
            return
        if self.sequence is None:
            if seq is not None:
                raise self.fail("sequence-number", "sequence_number appears mid-stream")
            return
        if not isinstance(seq, int):
            raise self.fail("sequence-number", "sequence_number missing (earlier events carry one)")
        if seq <= self.sequence:
            raise self.fail(
                "sequence-number", f"sequence_number {seq} does not increase (after {self.sequence})"
            )
        self.sequence = seq

    def _response(self, data: dict[str, Any], kind: str) -> None:
        if not isinstance(data.get("response"), dict):
            raise self.fail("response-shape", f"{kind} without a response object")

    def _added(self, data: dict[str, Any]) -> None:
        index = data.get("output_index")
        item = data.get("item")
        if index != len(self.items):
            raise self.fail(
                "output-index",
                f"output_item.added at output_index {index}; the next output index is {len(self.items)}",
            )
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            raise self.fail("item-shape", "output_item.added without a typed item")
        if item["type"] in CALLS:
            member = CALLS[item["type"]][1]
            if not item.get("call_id") or not item.get("name"):
                what = f"{item['type']} item {index}"
                raise self.fail("function-call-added", f"{what} without call_id and name")
            if item.get(member) not in ("", None):
                raise self.fail(
                    "function-call-added", f"{item['type']} item {index} must start with {member} ''"
                )
        self.items.append(_Item(item))

    def _open_item(self, data: dict[str, Any], type_: str | None) -> _Item:
        index = data.get("output_index")
        kind = data["type"]
        if not isinstance(index, int) or index >= len(self.items) or index < 0:
            raise self.fail(
                "item-not-added", f"{kind} for output_index {index} but item {index} was never added"
            )
        item = self.items[index]
        if item.done:
            raise self.fail("item-done", f"{kind} for output_index {index} after its output_item.done")
        if "item_id" in data and item.id is not None and data["item_id"] != item.id:
            raise self.fail(
                "item-id", f"{kind} names item_id {data['item_id']!r} but item {index} is {item.id!r}"
            )
        if type_ is not None and item.type != type_:
            raise self.fail("item-type", f"{kind} for item {index}, which is a {item.type}")
        return item

    def _item_done(self, data: dict[str, Any]) -> None:
        item = self._open_item(data, None)
        done = data.get("item")
        if not isinstance(done, dict) or done.get("type") != item.type:
            raise self.fail(
                "item-done-shape", f"output_item.done for item {data['output_index']} of another type"
            )
        if item.type in CALLS:
            member = CALLS[item.type][1]
            for key in ("call_id", "name"):
                if done.get(key) != item.item.get(key):
                    raise self.fail("item-done-call", f"output_item.done changes the call's {key}")
            joined = "".join(item.arguments)
            if (item.arguments or item.arguments_done) and done.get(member) != joined:
                raise self.fail(
                    "item-done-arguments",
                    f"output_item.done {member} {str(done.get(member))[:60]!r} differ from the "
                    "streamed "
                    f"{joined[:60]!r}",
                )
            if not isinstance(done.get(member), str):
                raise self.fail("item-done-arguments", f"a done {item.type} item without string {member}")
        item.item = done
        item.done = True

    def _terminal(self, data: dict[str, Any]) -> None:
        self._response(data, data["type"])
        open_items = [i for i, item in enumerate(self.items) if not item.done]
        if open_items:
            raise self.fail("terminal-open-items", f"{data['type']} while item {open_items[0]} is not done")
        output = data["response"].get("output")
        if output is not None:
            if not isinstance(output, list) or len(output) != len(self.items):
                raise self.fail(
                    "terminal-output",
                    f"{data['type']}.response.output has {len(output) if isinstance(output, list) else 'no'} "
                    f"items; {len(self.items)} were streamed",
                )
            for i, (got, item) in enumerate(zip(output, self.items, strict=True)):
                if (
                    not isinstance(got, dict)
                    or got.get("type") != item.type
                    or (item.type in CALLS and any(got.get(k) != item.item.get(k) for k in _keys(item.type)))
                ):
                    raise self.fail(
                        "terminal-output",
                        f"{data['type']}.response.output[{i}] differs from the streamed item",
                    )
        self.ended = True

    def on_end(self) -> None:
        if not self.ended:
            if not self.created:
                raise self.fail("truncated", "the stream is empty (no response.created)", at_end=True)
            raise self.fail(
                "truncated", "the stream ended without response.completed (truncated)", at_end=True
            )


GRAMMAR = OpenAIResponsesGrammar
