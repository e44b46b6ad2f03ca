"""Each grammar rule fires on a broken stream, naming the right event index and rule."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
import stream_captures
from toolwire.streams.dialects import accumulate, check_stream
from toolwire.streams.grammar import Violation
from toolwire.streams.payload import StreamError

CAPTURED = {label: events for label, _, events in stream_captures.streams()}


def capture(prefix: str) -> list:
    return copy.deepcopy(next(v for k, v in CAPTURED.items() if k.startswith(prefix)))


def first(events: list, dialect: str) -> Violation:
    found = check_stream(events, dialect)
    assert found, f"expected a violation, the stream is valid for {dialect}"
    return found[0]


Mutation = Callable[[list], list]


def setdata(i: int, path: str, value: object) -> Mutation:
    def mutate(events: list) -> list:
        node = events[i]["data"]
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[int(key)] if key.isdigit() else node[key]
        if value is DELETE:
            del node[keys[-1]]
        else:
            node[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
        return events

    return mutate


DELETE = object()


def drop(i: int) -> Mutation:
    return lambda events: events[:i] + events[i + 1 :]


def insert(i: int, event: dict) -> Mutation:
    return lambda events: [*events[:i], event, *events[i:]]


def dup(i: int, at: int) -> Mutation:
    return lambda events: [*events[:at], copy.deepcopy(events[i]), *events[at:]]


def truncate(n: int) -> Mutation:
    return lambda events: events[:n]


def rename(i: int, name: object) -> Mutation:
    def mutate(events: list) -> list:
        if name is DELETE:
            events[i].pop("event", None)
        else:
            events[i]["event"] = name
        return events

    return mutate


# anthropic/13: 0 message_start, 1 start text 0, 2 ping, 3-4 text deltas, 5 stop 0, 6 start tool_use 1,
# 7-11 input_json deltas, 12 stop 1, 13 message_delta, 14 message_stop
ANTHROPIC = [
    (
        "delta for a block never started",
        setdata(7, "index", 2),
        7,
        "block-not-started",
        "content_block_delta for index 2 but block 2 was never started",
    ),
    ("block start missing", drop(1), 2, "block-not-started", None),
    ("delta after stop", dup(4, 6), 6, "block-not-open", "already stopped"),
    ("indices must increase by one", setdata(6, "index", 2), 6, "block-order", None),
    ("one open block at a time", drop(5), 5, "one-open-block", None),
    (
        "message_start content must be []",
        setdata(0, "message.content", [{"type": "text", "text": ""}]),
        0,
        "message-start-content",
        None,
    ),
    ("message_start usage", setdata(0, "message.usage", DELETE), 0, "message-start-usage", None),
    ("message_start first", drop(0), 0, "message-start-first", None),
    ("one message_start", dup(0, 3), 3, "message-start-once", None),
    (
        "message_delta needs stop_reason",
        setdata(13, "delta.stop_reason", None),
        13,
        "message-delta-stop-reason",
        None,
    ),
    ("message_delta needs usage", setdata(13, "usage", DELETE), 13, "message-delta-usage", None),
    ("one message_delta", dup(13, 14), 14, "message-delta-once", None),
    ("message_delta after the blocks", dup(13, 12), 12, "message-delta-open-block", None),
    ("message_stop after message_delta", drop(13), 13, "message-stop-after-delta", None),
    ("truncated", truncate(14), None, "truncated", "without message_stop"),
    ("nothing after message_stop", dup(2, 15), 15, "after-end", None),
    ("event name equals type", rename(3, "ping"), 3, "event-name", None),
    ("event name required", rename(3, DELETE), 3, "event-name", "missing"),
    (
        "delta type fits the block",
        setdata(7, "delta", {"type": "text_delta", "text": "x"}),
        7,
        "delta-type",
        None,
    ),
    ("tool input is a JSON object", setdata(11, "delta.partial_json", "is"), 12, "tool-input-json", None),
    ("tool_use starts with input {}", setdata(6, "content_block.input", {"a": 1}), 6, "tool-use-start", None),
    ("unknown type", setdata(2, "type", "pong"), 2, "event-name", None),
]

# openai-chat/09: 0 role, 1 call 0 start, 2-12 args 0, 13 call 1 start, 14-22 args 1, 23 finish,
# 24 usage, 25 [DONE]
CHAT = [
    ("[DONE] last", drop(25), None, "done-last", None),
    ("truncated", truncate(10), None, "truncated", "before finish_reason"),
    (
        "first fragment carries id",
        setdata(1, "choices.0.delta.tool_calls.0.id", DELETE),
        1,
        "tool-call-first-fragment",
        "must carry id and function.name",
    ),
    (
        "later fragment repeats the name",
        setdata(5, "choices.0.delta.tool_calls.0.function.name", "x"),
        5,
        "tool-call-later-fragment",
        None,
    ),
    (
        "new index skips ahead",
        setdata(13, "choices.0.delta.tool_calls.0.index", 2),
        13,
        "tool-call-index",
        None,
    ),
    ("finish_reason once", dup(23, 24), 24, "after-finish", None),
    ("usage chunk after finish_reason", drop(23), 23, "usage-chunk-after-finish", None),
    ("empty choices carry usage", setdata(24, "usage", None), 24, "empty-choices", None),
    ("no event names", rename(3, "message"), 3, "event-name", None),
    ("nothing after [DONE]", dup(3, 26), 26, "after-end", None),
    ("one chunk id", setdata(4, "id", "chatcmpl-other"), 4, "chunk-id", None),
    ("chunk object", setdata(4, "object", "chat.completion"), 4, "chunk-object", None),
]

# openai-responses/12 (sequence numbers): 0 created, 1 in_progress, 2 added, 3-8 deltas, 9 args done,
# 10 item done, 11 completed
RESPONSES = [
    ("created first", drop(0), 0, "created-first", None),
    ("delta before its item", drop(2), 2, "item-not-added", "was never added"),
    ("arguments done equal the deltas", setdata(9, "arguments", "{}"), 9, "arguments-done", None),
    ("item done equals the deltas", setdata(10, "item.arguments", "{}"), 10, "item-done-arguments", None),
    ("terminal after every item", drop(10), 10, "terminal-open-items", None),
    (
        "terminal output holds the items",
        setdata(11, "response.output.0.name", "other"),
        11,
        "terminal-output",
        None,
    ),
    ("sequence numbers increase", setdata(5, "sequence_number", 3), 5, "sequence-number", None),
    ("no [DONE] before the end", insert(5, {"data": "[DONE]"}), 5, "no-done", None),
    ("nothing after a closing [DONE]", lambda e: [*e, {"data": "[DONE]"}, e[-1]], 13, "after-end", None),
    ("truncated", truncate(11), None, "truncated", "without response.completed"),
    ("item id matches", setdata(4, "item_id", "fc_other"), 4, "item-id", None),
    ("output index in order", setdata(2, "output_index", 1), 2, "output-index", None),
    ("event name equals type", rename(4, "response.output_text.delta"), 4, "event-name", None),
]

# gemini/10: three text chunks, the last with finishReason
GEMINI = [
    ("finishReason on the last chunk", dup(1, 3), 3, "finish-last", None),
    ("truncated", truncate(2), None, "truncated", "before finishReason"),
    ("no [DONE]", insert(3, {"data": "[DONE]"}), 3, "no-done", None),
    ("no event names", rename(0, "message"), 0, "event-name", None),
    (
        "whole function calls",
        setdata(0, "candidates.0.content.parts.0", {"functionCall": {"args": {}}}),
        0,
        "function-call-whole",
        None,
    ),
]

CANONICAL_STREAM = [
    {"data": {"type": "message_start", "id": "m1"}},
    {"data": {"type": "text_delta", "index": 0, "text": "Hi"}},
    {"data": {"type": "block_end", "index": 0}},
    {"data": {"type": "tool_call_start", "index": 1, "id": "c1", "name": "a"}},
    {"data": {"type": "tool_call_start", "index": 2, "id": "c2", "name": "b"}},
    {"data": {"type": "tool_call_delta", "index": 1, "arguments": "{}"}},
    {"data": {"type": "tool_call_delta", "index": 2, "arguments": '{"x": 1}'}},
    {"data": {"type": "block_end", "index": 1}},
    {"data": {"type": "block_end", "index": 2}},
    {"data": {"type": "message_end", "stop_reason": "tool_use"}},
]
CANONICAL = [
    ("message_start first", drop(0), 0, "message-start-first", None),
    ("delta for a block never started", setdata(5, "index", 7), 5, "block-not-started", None),
    (
        "delta after block_end",
        insert(3, {"data": {"type": "text_delta", "index": 0, "text": "x"}}),
        3,
        "block-not-open",
        None,
    ),
    (
        "text opens only when nothing is open",
        insert(5, {"data": {"type": "text_delta", "index": 3, "text": "x"}}),
        5,
        "one-open-block",
        None,
    ),
    ("delta type fits", setdata(5, "type", "text_delta"), 5, "delta-shape", None),
    ("index order", setdata(3, "index", 5), 3, "block-order", None),
    ("message_end after every block", drop(8), 8, "message-end-open-block", None),
    ("canonical stop reasons", setdata(9, "stop_reason", "tool_calls"), 9, "stop-reason", None),
    ("truncated", truncate(9), None, "truncated", None),
    ("no event names", rename(1, "text_delta"), 1, "event-name", None),
]


def run(case: tuple, base: list, dialect: str) -> None:
    _, mutate, index, rule, text = case
    violation = first(mutate(copy.deepcopy(base)), dialect)
    assert (violation.index, violation.rule) == (index, f"{dialect}.{rule}"), str(violation)
    if text:
        assert text in violation.message
    assert str(violation).startswith("end of stream" if index is None else f"event {index}:")


@pytest.mark.parametrize("case", ANTHROPIC, ids=[c[0] for c in ANTHROPIC])
def test_anthropic_rules(case: tuple) -> None:
    run(case, capture("anthropic/13"), "anthropic")


@pytest.mark.parametrize("case", CHAT, ids=[c[0] for c in CHAT])
def test_openai_chat_rules(case: tuple) -> None:
    run(case, capture("openai-chat/09"), "openai-chat")


@pytest.mark.parametrize("case", RESPONSES, ids=[c[0] for c in RESPONSES])
def test_openai_responses_rules(case: tuple) -> None:
    run(case, capture("openai-responses/12"), "openai-responses")


def test_a_closing_done_ends_a_responses_stream_as_its_sdk_reads_it() -> None:
    """LiteLLM's proxy ends Responses streams with ``[DONE]``; openai-python's SSE reader stops there, so
    after the terminal event it is the end of the stream, valid for the grammar and the wire schema."""
    from toolwire.corpus.stream_wire import stream_wire_errors

    events = [*capture("openai-responses/12"), {"data": "[DONE]"}]
    assert check_stream(events, "openai-responses") == []
    assert stream_wire_errors("openai-responses", events) == []
    assert stream_wire_errors("openai-responses", [{"data": "[DONE]"}, *events]) != []


@pytest.mark.parametrize("case", GEMINI, ids=[c[0] for c in GEMINI])
def test_gemini_rules(case: tuple) -> None:
    run(case, capture("gemini/10"), "gemini")


def test_gemini_vertex_streamed_call_must_close() -> None:
    events = capture("gemini/13")
    violation = first(drop(3)(events), "gemini")
    assert (violation.index, violation.rule) == (3, "gemini.function-call-open")


def test_canonical_stream_is_valid_and_accumulates() -> None:
    assert check_stream(CANONICAL_STREAM, "canonical") == []
    assert accumulate(CANONICAL_STREAM, "canonical") == {
        "id": "m1",
        "content": [
            {"type": "text", "text": "Hi"},
            {"type": "tool_call", "id": "c1", "name": "a", "arguments": {}},
            {"type": "tool_call", "id": "c2", "name": "b", "arguments": {"x": 1}},
        ],
        "stop_reason": "tool_use",
    }


@pytest.mark.parametrize("case", CANONICAL, ids=[c[0] for c in CANONICAL])
def test_canonical_rules(case: tuple) -> None:
    run(case, CANONICAL_STREAM, "canonical")


def test_event_shape_and_stream_shape() -> None:
    assert first([{"data": {}, "extra": 1}], "canonical").rule == "canonical.event-shape"
    assert first({"data": {}}, "canonical").rule == "canonical.stream-shape"  # type: ignore[arg-type]


@pytest.mark.parametrize("dialect", ["anthropic", "openai-chat", "openai-responses", "gemini", "canonical"])
def test_truncated_streams_are_a_coded_error(dialect: str) -> None:
    assert first([], dialect).rule == f"{dialect}.truncated"
    with pytest.raises(StreamError) as info:
        accumulate([], dialect)
    assert info.value.code == "stream.truncated"


def test_error_events_end_a_stream_and_accumulate_to_the_error() -> None:
    events = [
        {
            "event": "message_start",
            "data": {
                "type": "message_start",
                "message": {
                    "id": "m",
                    "type": "message",
                    "role": "assistant",
                    "model": "x",
                    "content": [],
                    "usage": {},
                },
            },
        },
        {
            "event": "error",
            "data": {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}},
        },
    ]
    assert check_stream(events, "anthropic") == []
    assert accumulate(events, "anthropic") == {"error": {"type": "overloaded_error", "message": "busy"}}
    chat = [{"data": {"error": {"message": "boom", "type": "server_error"}}}, {"data": "[DONE]"}]
    assert check_stream(chat, "openai-chat") == []
    assert accumulate(chat, "openai-chat") == {"error": {"message": "boom", "type": "server_error"}}


def test_a_done_line_after_an_anthropic_stream_is_what_the_sdk_skips() -> None:
    """The official Anthropic SDK dispatches on SSE event names, so a nameless `data: [DONE]` (which some
    proxies append) never reaches it: no violation, and the accumulated message is unchanged."""
    from toolwire.streams.dialects import accumulate, check_stream

    start = {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "m",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        },
    }
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
        "usage": {"output_tokens": 1},
    }
    events = [{"event": d["type"], "data": d} for d in (start, delta, {"type": "message_stop"})]
    assert check_stream([*events, {"data": "[DONE]"}], "anthropic") == []
    assert accumulate([*events, {"data": "[DONE]"}], "anthropic") == accumulate(events, "anthropic")
    # a named event after the end is still one too many
    assert check_stream([*events, {"event": "ping", "data": {"type": "ping"}}], "anthropic")


def test_one_broken_rule_does_not_hide_another() -> None:
    """Chunk ids that change and a second call reusing the first one's index are two bugs: both named."""
    events = capture("openai-chat/09")
    for i, event in enumerate(events[1:-1], start=1):
        if isinstance(event["data"], dict):
            event["data"]["id"] = f"chatcmpl-{i}"
    events[13]["data"]["choices"][0]["delta"]["tool_calls"][0]["index"] = 5
    found = check_stream(events, "openai-chat")
    assert [v.rule for v in found] == ["openai-chat.chunk-id", "openai-chat.tool-call-index"]
    assert (found[0].index, found[1].index) == (1, 13)
