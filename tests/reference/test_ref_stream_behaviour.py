"""Stream transcoding beyond the captures: laziness, truncation, memory, errors, edge shapes, SSE, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tracemalloc

import pytest
from stream_helpers import DIALECTS, accumulated, capture_streams
from toolwire.streams.dialects import accumulate, check_stream
from toolwire_reference import TranslationError, Translator, transcode, translate_stream
from toolwire_reference.dialects.gemini.stream import PartialArgsWriter
from toolwire_reference.streams.sse import format_event, read_sse

STREAMS = capture_streams()
PAIRS = [(label, source, events, target) for label, source, events in STREAMS for target in DIALECTS]


def data(events):
    return [e["data"] for e in events]


# ---- laziness ---------------------------------------------------------------------------------


class Pulled:
    """An input iterator that counts how many events were pulled."""

    def __init__(self, events):
        self.events, self.count = events, 0

    def __iter__(self):
        for event in self.events:
            self.count += 1
            yield event


def _is_argument_fragment(event, target):
    d = event["data"]
    if not isinstance(d, dict):
        return False
    if target == "anthropic":
        return d.get("type") == "content_block_delta" and d["delta"].get("type") == "input_json_delta"
    if target == "openai-chat":
        calls = [c for ch in d.get("choices", []) for c in ch["delta"].get("tool_calls") or []]
        return any(c.get("function", {}).get("arguments") for c in calls)
    if target == "openai-responses":
        return d.get("type") == "response.function_call_arguments.delta"
    if target == "canonical":
        return d.get("type") == "tool_call_delta"
    return any(
        "functionCall" in p for c in d.get("candidates", []) for p in c.get("content", {}).get("parts", [])
    )


@pytest.mark.parametrize(
    ("label", "source", "events", "target"), PAIRS, ids=[f"{p[0]}->{p[3]}" for p in PAIRS]
)
def test_outputs_come_before_the_input_ends(label, source, events, target):
    """The first argument fragment is yielded before the last input event is pulled, and every output
    is yielded no later than one event after what caused it (Gemini: when the call is complete)."""
    source_iter = Pulled(events)
    first = None
    for event in translate_stream(source_iter, source=source, target=target):
        if first is None and _is_argument_fragment(event, target):
            first = source_iter.count
    if first is None:
        pytest.skip("no tool call in this stream")
    assert first < len(events)


def test_fragments_pass_through_one_by_one():
    label, source, events = next(s for s in STREAMS if s[0].endswith("09_stream_parallel_tool_calls.sse"))
    source_iter = Pulled(events)
    seen = []
    for event in translate_stream(source_iter, source=source, target="anthropic"):
        if event["event"] == "content_block_delta":
            seen.append((source_iter.count, event["data"]["delta"]["partial_json"]))
    args = [
        (i + 1, c["function"]["arguments"])
        for i, e in enumerate(events)
        if isinstance(e["data"], dict)
        for ch in e["data"]["choices"]
        for c in ch["delta"].get("tool_calls") or []
        if c["function"].get("arguments")
    ]
    assert seen == args  # each fragment leaves right after the event that carried it


def test_lazy_on_a_generator_that_never_ends():
    def endless():
        yield {"data": {"type": "message_start"}}
        yield {"data": {"type": "tool_call_start", "index": 0, "id": "call_1", "name": "f"}}
        while True:
            yield {"data": {"type": "tool_call_delta", "index": 0, "arguments": " "}}

    out = translate_stream(endless(), source="canonical", target="anthropic")
    kinds = [next(out)["event"] for _ in range(4)]
    assert kinds == ["message_start", "content_block_start", "content_block_delta", "content_block_delta"]


# ---- the transcoder's fast lane ---------------------------------------------------------------

FAST_LANE_PROFILES = [
    {},
    {"stream.thinking": "keep"},
    {"custom.tools": "wrap"},
    {"stream.text-calls": "parse"},
]


def _outcome(events, source, target, profile):
    out = []
    try:
        for event in translate_stream(events, source=source, target=target, profile=profile):
            out.append(event)
    except TranslationError as exc:
        out.append((exc.code, exc.path))
    return out


@pytest.mark.parametrize("profile", FAST_LANE_PROFILES, ids=lambda p: ",".join(p) or "default")
def test_the_fast_lane_changes_no_output(profile, monkeypatch):
    """Deltas of a block whose first delta passed every filter unchanged skip the filters: the same events
    (or the same refusal) as through the filters, for every capture, target and filter profile."""
    monkeypatch.setattr(time, "time", lambda: 1_800_000_000.0)  # the targets' created / created_at
    fast = {
        (label, target): _outcome(events, source, target, profile) for label, source, events, target in PAIRS
    }
    monkeypatch.setattr(transcode, "_PLAIN_DELTAS", frozenset())  # no block is ever plain
    for label, source, events, target in PAIRS:
        assert _outcome(events, source, target, profile) == fast[(label, target)], (label, target)


def test_the_fast_lane_is_taken_by_a_text_block_and_left_at_its_end():
    def event(kind, **members):
        return {"event": kind, "data": {"type": kind, **members}}

    transcoder = transcode.StreamTranscoder("anthropic", "openai-chat")
    start = event("message_start", message={"id": "msg_1", "model": "m", "usage": {}})
    transcoder.feed(start)
    transcoder.feed(event("content_block_start", index=0, content_block={"type": "text", "text": ""}))
    for text in ("a", "b", "c"):
        transcoder.feed(event("content_block_delta", index=0, delta={"type": "text_delta", "text": text}))
        assert transcoder.plain == {0: "text_delta"}
    transcoder.feed(event("content_block_stop", index=0))
    assert transcoder.plain == {}


# ---- truncation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "source", "events", "target"), PAIRS, ids=[f"{p[0]}->{p[3]}" for p in PAIRS]
)
def test_truncated_streams_raise_after_emitting(label, source, events, target):
    cut = events[: len(events) // 2]
    out = []
    with pytest.raises(TranslationError) as info:
        for event in translate_stream(cut, source=source, target=target):
            out.append(event)
    assert info.value.code == "stream.truncated"
    assert info.value.path == ""
    assert out or target == "gemini"  # what could be sent was sent


@pytest.mark.parametrize("source", DIALECTS)
def test_empty_stream_is_truncated(source):
    with pytest.raises(TranslationError) as info:
        list(translate_stream([], source=source, target="anthropic"))
    assert info.value.code == "stream.truncated"


def test_chat_without_done_after_finish_is_complete():
    label, source, events = next(s for s in STREAMS if s[0].endswith("08_stream_single_tool_call_strict.sse"))
    assert events[-1]["data"] == "[DONE]"
    out = list(translate_stream(events[:-1], source=source, target="anthropic"))
    assert out[-1]["event"] == "message_stop"


# ---- memory -----------------------------------------------------------------------------------


def _long_chat_stream(n):
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    yield {"data": {**head, "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}}
    yield {
        "data": {
            **head,
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {"index": 0, "id": "call_1", "function": {"name": "f", "arguments": '{"a":"'}}
                        ]
                    },
                    "finish_reason": None,
                }
            ],
        }
    }
    for _ in range(n):
        delta = {"tool_calls": [{"index": 0, "function": {"arguments": "xxxxxxxxxx"}}]}
        yield {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}}
    delta = {"tool_calls": [{"index": 0, "function": {"arguments": '"}'}}]}
    yield {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": "tool_calls"}]}}
    yield {"data": "[DONE]"}


def _peak(n, target):
    tracemalloc.start()
    count = 0
    for _ in translate_stream(_long_chat_stream(n), source="openai-chat", target=target):
        count += 1
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert count >= n
    return peak


@pytest.mark.parametrize("target", ["anthropic", "canonical", "openai-chat"])
def test_memory_is_flat_in_the_stream_length(target):
    small, large = _peak(10_000, target), _peak(100_000, target)
    assert large < small * 2 + 200_000, (small, large)
    assert large < 1_000_000  # 100k fragments of 10 characters would be > 1 MB if kept


# ---- errors mid-stream ------------------------------------------------------------------------

ERRORS = {
    "anthropic": {
        "event": "error",
        "data": {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    },
    "openai-chat": {"data": {"error": {"message": "Overloaded", "type": "overloaded_error", "code": None}}},
    "openai-responses": {
        "event": "error",
        "data": {"type": "error", "code": "overloaded_error", "message": "Overloaded"},
    },
    "gemini": {"data": {"error": {"code": 503, "message": "Overloaded", "status": "overloaded_error"}}},
    "canonical": {"data": {"type": "error", "error": {"code": "overloaded_error", "message": "Overloaded"}}},
    "bedrock-converse": {"event": "serviceUnavailableException", "data": {"message": "Overloaded"}},
    # Mistral's mid-stream error is not documented: the Chat-family decoder reads OpenAI's form
    "mistral": {"data": {"error": {"message": "Overloaded", "type": "overloaded_error", "code": None}}},
}
#: an overload's code: Bedrock names it by its own closed set of exception events
OVERLOADED = ("overloaded_error", "serviceUnavailableException")


@pytest.mark.parametrize("source", DIALECTS)
@pytest.mark.parametrize("target", DIALECTS)
def test_error_event_mid_stream(source, target):
    label, _, events = (
        next(s for s in STREAMS if s[1] == source) if source != "canonical" else (None, None, None)
    )
    if source == "canonical":
        events = [
            {"data": {"type": "message_start", "id": "x"}},
            {"data": {"type": "text_delta", "index": 0, "text": "Hi"}},
        ]
    else:
        events = events[: min(3, len(events) - 1)]
    out = list(translate_stream([*events, ERRORS[source]], source=source, target=target))
    assert check_stream(out, target) == []
    body = accumulate(out, target)
    assert "error" in body
    text = json.dumps(body["error"])
    assert "Overloaded" in text and any(code in text for code in OVERLOADED)


def test_chat_done_after_an_error_is_accepted():
    events = [ERRORS["openai-chat"], {"data": "[DONE]"}]
    out = list(translate_stream(events, source="openai-chat", target="anthropic"))
    assert data(out) == [{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}]


# ---- shapes -----------------------------------------------------------------------------------


def _responses(*items):
    seq = [{"type": "response.created", "response": {"id": "resp_1", "model": "m", "output": []}}]
    seq += items
    seq.append(
        {"type": "response.completed", "response": {"id": "resp_1", "model": "m", "status": "completed"}}
    )
    return [{"event": d["type"], "data": d} for d in seq]


def test_responses_arguments_only_in_done():
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}
    events = _responses(
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {
            "type": "response.function_call_arguments.done",
            "output_index": 0,
            "item_id": "fc_1",
            "arguments": '{"a":1}',
        },
        {"type": "response.output_item.done", "output_index": 0, "item": {**item, "arguments": '{"a":1}'}},
    )
    out = data(translate_stream(events, source="openai-responses", target="canonical"))
    assert out[1:4] == [
        {"type": "tool_call_start", "index": 0, "id": "call_1", "name": "f"},
        {"type": "tool_call_delta", "index": 0, "arguments": '{"a":1}'},
        {"type": "block_end", "index": 0},
    ]
    assert out[-1] == {"type": "message_end", "stop_reason": "tool_use"}


def test_no_arguments_become_an_empty_object_everywhere():
    events = [
        {"data": {"type": "message_start"}},
        {"data": {"type": "tool_call_start", "index": 0, "id": "call_1", "name": "f"}},
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "message_end", "stop_reason": "tool_use"}},
    ]
    chat = accumulate(list(translate_stream(events, source="canonical", target="openai-chat")), "openai-chat")
    assert chat["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == "{}"
    resp = accumulate(
        list(translate_stream(events, source="canonical", target="openai-responses")), "openai-responses"
    )
    assert resp["output"][0]["arguments"] == "{}"
    anth = accumulate(list(translate_stream(events, source="canonical", target="anthropic")), "anthropic")
    assert anth["content"][0]["input"] == {}
    gem = accumulate(list(translate_stream(events, source="canonical", target="gemini")), "gemini")
    assert gem["candidates"][0]["content"]["parts"][0]["functionCall"]["args"] == {}


def test_interleaved_calls_into_anthropic_are_serialised():
    events = [
        {"data": {"type": "message_start", "id": "m1"}},
        {"data": {"type": "tool_call_start", "index": 0, "id": "call_a", "name": "a"}},
        {"data": {"type": "tool_call_start", "index": 1, "id": "call_b", "name": "b"}},
        {"data": {"type": "tool_call_delta", "index": 0, "arguments": '{"x":'}},
        {"data": {"type": "tool_call_delta", "index": 1, "arguments": '{"y":2}'}},
        {"data": {"type": "tool_call_delta", "index": 0, "arguments": "1}"}},
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "block_end", "index": 1}},
        {"data": {"type": "message_end", "stop_reason": "tool_use"}},
    ]
    for target in DIALECTS:
        out = list(translate_stream(events, source="canonical", target=target))
        assert check_stream(out, target) == [], target
    out = list(translate_stream(events, source="canonical", target="anthropic"))
    body = accumulate(out, "anthropic")
    assert [(b["id"], b["input"]) for b in body["content"]] == [("call_a", {"x": 1}), ("call_b", {"y": 2})]


def test_chat_interleaved_fragments_and_early_call_ends():
    head = {"id": "c", "object": "chat.completion.chunk", "model": "m"}

    def chunk(*calls, finish=None):
        delta = {"tool_calls": list(calls)} if calls else {}
        return {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}

    events = [
        chunk({"index": 0, "id": "call_a", "function": {"name": "a", "arguments": ""}}),
        chunk({"index": 1, "id": "call_b", "function": {"name": "b", "arguments": '{"y":'}}),
        chunk({"index": 0, "function": {"arguments": '{"x":1}'}}),
        chunk({"index": 1, "function": {"arguments": "2}"}}),
        chunk(finish="tool_calls"),
        {"data": "[DONE]"},
    ]
    out = data(translate_stream(events, source="openai-chat", target="canonical"))
    # call a closes as soon as its arguments are a complete object, before call b does
    assert [(e["type"], e.get("index")) for e in out[1:-1]] == [
        ("tool_call_start", 0),
        ("tool_call_start", 1),
        ("tool_call_delta", 1),
        ("tool_call_delta", 0),
        ("block_end", 0),
        ("tool_call_delta", 1),
        ("block_end", 1),
    ]
    late = [*events[:3], chunk({"index": 0, "function": {"arguments": "}"}})]
    with pytest.raises(TranslationError) as info:
        list(translate_stream(late, source="openai-chat", target="canonical"))
    assert (info.value.code, info.value.path) == (
        "stream.invalid_event",
        "/3/data/choices/0/delta/tool_calls/0/function/arguments",
    )


def test_invalid_events_are_coded_with_their_position():
    events = [
        {"event": "message_start", "data": {"type": "message_start", "message": {"id": "m", "content": []}}},
        {"nope": 1},
    ]
    with pytest.raises(TranslationError) as info:
        list(translate_stream(events, source="anthropic", target="canonical"))
    assert (info.value.code, info.value.path) == ("stream.invalid_event", "/1")
    bad = [
        events[0],
        {"event": "content_block_delta", "data": {"type": "content_block_delta", "index": 4, "delta": {}}},
    ]
    with pytest.raises(TranslationError) as info:
        list(translate_stream(bad, source="anthropic", target="canonical"))
    assert info.value.code == "stream.invalid_event" and info.value.path.startswith("/1/data")


def test_gemini_target_refuses_arguments_that_are_not_an_object():
    events = [
        {"data": {"type": "message_start"}},
        {"data": {"type": "tool_call_start", "index": 0, "id": "call_1", "name": "f"}},
        {"data": {"type": "tool_call_delta", "index": 0, "arguments": "[1"}},
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "message_end", "stop_reason": "tool_use"}},
    ]
    with pytest.raises(TranslationError) as info:
        list(translate_stream(events, source="canonical", target="gemini"))
    assert info.value.code == "call.invalid_arguments"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([{"jsonPath": "$.a", "stringValue": "x"}], {"a": "x"}),
        (
            [
                {"jsonPath": "$.a.b", "stringValue": "he", "willContinue": True},
                {"jsonPath": "$.a.b", "stringValue": 'l"lo'},
                {"jsonPath": "$.a.c", "numberValue": 2.5},
                {"jsonPath": "$.d[0]", "boolValue": True},
                {"jsonPath": "$.d[1]", "nullValue": None},
                {"jsonPath": "$['e f']", "structValue": {"k": [1]}},
            ],
            {"a": {"b": 'hel"lo', "c": 2.5}, "d": [True, None], "e f": {"k": [1]}},
        ),
        ([], None),
    ],
)
def test_vertex_partial_args_writer(args, expected):
    writer = PartialArgsWriter()
    text = "".join(writer.feed(a) for a in args) + writer.close()
    assert (json.loads(text) if text else None) == expected


# ---- SSE and the CLI --------------------------------------------------------------------------


def test_sse_reader():
    text = ': comment\r\nevent: a\r\ndata: {"x":\r\ndata:  1}\r\n\r\ndata: [DONE]\n\ndata: {"y": 2}   '
    assert list(read_sse(text)) == [{"event": "a", "data": {"x": 1}}, {"data": "[DONE]"}, {"data": {"y": 2}}]
    chunks = ['data: {"a"', ":1}\r", "\n\r", "\n"]
    assert list(read_sse(chunks)) == [{"data": {"a": 1}}]
    with pytest.raises(TranslationError) as info:
        list(read_sse("data: {oops\n\n"))
    assert info.value.code == "stream.invalid_event"


def test_sse_writer_round_trips():
    events = [{"event": "x", "data": {"t": "a\nb"}}, {"data": "[DONE]"}]
    assert list(read_sse("".join(format_event(e) for e in events))) == events


def _cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "translate", "--kind", "stream", *args],
        input=stdin,
        capture_output=True,
        check=False,
    )


def test_cli_reads_a_json_event_list_and_writes_sse():
    events = [
        {"data": {"type": "message_start", "id": "m1", "model": "x"}},
        {"data": {"type": "text_delta", "index": 0, "text": "Hi"}},
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "message_end", "stop_reason": "end_turn"}},
    ]
    run = _cli("--from", "canonical", "--to", "openai-chat", stdin=json.dumps(events).encode())
    assert run.returncode == 0, run.stderr
    out = list(read_sse(run.stdout.decode()))
    assert out[-1] == {"data": "[DONE]"}
    assert accumulated(out, "openai-chat")["choices"][0]["message"]["content"] == "Hi"


def test_cli_truncated_stream_exits_1_with_the_error():
    run = _cli("--from", "openai-chat", "--to", "anthropic", stdin=b'data: {"id":"c","choices":[]}\n\n')
    assert run.returncode == 1
    assert (
        json.loads(run.stdout.decode()[run.stdout.decode().index("{\n") :])["error"]["code"]
        == "stream.truncated"
    )


def test_capabilities_list_streams():
    caps = Translator().capabilities()
    assert caps["kinds"]["stream"] == [["*", "*"]]
    assert caps["profiles"]["stream.thinking"] == ["drop", "keep"]
    out = Translator().translate_stream("canonical", "canonical", iter([]), None)
    with pytest.raises(TranslationError):
        list(out)


def _thinking_stream(signature_at):
    events = [{"data": {"type": "message_start", "id": "m1"}}]
    for i, text in enumerate(["Let ", "me ", "think."]):
        event = {"type": "thinking_delta", "index": 0, "text": text}
        if i == signature_at:
            event["signature"] = "sig"
        events.append({"data": event})
    events += [
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "text_delta", "index": 1, "text": "Hi"}},
        {"data": {"type": "block_end", "index": 1}},
        {"data": {"type": "message_end", "stop_reason": "end_turn"}},
    ]
    return events


def test_anthropic_target_gets_only_signed_thinking():
    keep = {"stream.thinking": "keep"}
    unsigned = list(
        translate_stream(_thinking_stream(None), source="canonical", target="anthropic", profile=keep)
    )
    assert check_stream(unsigned, "anthropic") == []
    assert [b["type"] for b in accumulate(unsigned, "anthropic")["content"]] == ["text"]
    late = list(translate_stream(_thinking_stream(2), source="canonical", target="anthropic", profile=keep))
    body = accumulate(late, "anthropic")
    assert body["content"][0] == {"type": "thinking", "thinking": "Let me think.", "signature": "sig"}
    assert check_stream(late, "anthropic") == []


def _anthropic(*events: dict) -> list[dict]:
    usage = {"input_tokens": 1, "output_tokens": 1}
    message = {"id": "m", "type": "message", "role": "assistant", "model": "c", "content": [], "usage": usage}
    start = {"type": "message_start", "message": message}
    return [{"event": e["type"], "data": e} for e in (start, *events)]


def _text_block(index: int) -> dict:
    return {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}


_END = ({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
        {"type": "message_stop"})  # fmt: skip


@pytest.mark.parametrize(
    ("source", "events", "position"),
    [
        # Anthropic: a block started twice; message_stop with a block still open
        ("anthropic", _anthropic(_text_block(0), _text_block(0), *_END), 2),
        ("anthropic", _anthropic(_text_block(0), *_END), 3),
        # Bedrock: a text delta for block 0 while tool block 1 is open (blocks come in order, each once)
        ("bedrock-converse", [
            {"event": "messageStart", "data": {"role": "assistant"}},
            {"event": "contentBlockStart", "data": {"contentBlockIndex": 1,
                                                    "start": {"toolUse": {"toolUseId": "t1", "name": "f"}}}},
            {"event": "contentBlockDelta", "data": {"contentBlockIndex": 0, "delta": {"text": "hi"}}},
        ], 2),
    ],
)  # fmt: skip
def test_streams_against_their_grammar_are_invalid_events(source: str, events: list, position: int) -> None:
    with pytest.raises(TranslationError) as info:
        list(translate_stream(events, source=source, target="canonical"))
    assert info.value.code == "stream.invalid_event" and info.value.path.startswith(f"/{position}/"), (
        info.value
    )
