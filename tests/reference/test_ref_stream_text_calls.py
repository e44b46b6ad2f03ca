"""`stream.text-calls=parse`: tool calls printed in a stream's text become real tool-call blocks.

The filter (toolwire_reference/streams/text_calls.py) runs on canonical events, so it is tested once
through canonical sources, plus a few dialect sources and targets for the wiring. The oracle for the
content is the `text` kind (`parse_text`): a stream's text, split anywhere, gives the same parts.
"""

from __future__ import annotations

import pytest
from stream_helpers import DIALECTS
from toolwire.streams.dialects import accumulate, check_stream
from toolwire_reference import TranslationError, Translator, translate_stream
from toolwire_reference.text import parse_text

PARSE = {"stream.text-calls": "parse"}
CALL = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
TEXTS = [
    "Let me check.\n" + CALL + "\nDone.",
    CALL,
    "Use `" + CALL + "` to call a tool.",
    "the <tool_call> tag, then " + CALL + " and " + CALL.replace("Paris", "Oslo"),
    '<xai:function_call name="search"><xai:parameter name="q">a &lt; b</xai:parameter>'
    "</xai:function_call> ok",
    "<function=run>\n<parameter=cmd>\nls -la\n</parameter>\n</function>",
    "no calls here, only < and ` and <tool",
]


def canonical_stream(pieces, stop="end_turn", extra=()):
    events = [{"data": {"type": "message_start", "id": "m1", "model": "m"}}]
    events += [{"data": {"type": "text_delta", "index": 0, "text": p}} for p in pieces]
    events.append({"data": {"type": "block_end", "index": 0}})
    events += [{"data": e} for e in extra]
    events.append({"data": {"type": "message_end", "stop_reason": stop}})
    return events


def run(events, target="canonical", profile=PARSE, source="canonical"):
    out = list(translate_stream(events, source=source, target=target, profile=profile))
    assert check_stream(out, target) == []
    return out


def content(pieces, **kw):
    return accumulate(run(canonical_stream(pieces), **kw), "canonical")["content"]


def splits(text):
    yield [text]
    yield list(text)  # one character at a time
    for cut in range(1, len(text)):
        yield [text[:cut], text[cut:]]
    for cut in range(1, len(text) - 2, 3):
        yield [text[:cut], text[cut : cut + 2], text[cut + 2 :]]


@pytest.mark.parametrize("text", TEXTS)
def test_chunk_boundaries_anywhere_give_the_text_kind_result(text):
    expected = parse_text(text)
    for pieces in splits(text):
        assert content(pieces) == expected, pieces


@pytest.mark.parametrize("text", TEXTS)
def test_default_off_keeps_text_verbatim(text):
    out = content([text[:7], text[7:]], profile=None)
    assert out == [{"type": "text", "text": text}]


def test_blocks_in_order_with_renumbered_indices():
    out = run(canonical_stream(["Let me check.\n<tool_", CALL[6:], "\nDone."]))
    types = [(e["data"]["type"], e["data"].get("index")) for e in out]
    assert types == [
        ("message_start", None),
        ("text_delta", 0),
        ("block_end", 0),
        ("tool_call_start", 1),
        ("tool_call_delta", 1),
        ("block_end", 1),
        ("text_delta", 2),
        ("block_end", 2),
        ("message_end", None),
    ]
    assert out[3]["data"]["id"] == "call_1" and out[3]["data"]["name"] == "get_weather"
    assert out[4]["data"]["arguments"] == '{"city":"Paris"}'


def test_blocks_after_the_text_are_renumbered():
    native = [
        {"type": "tool_call_start", "index": 1, "id": "call_n1", "name": "lookup"},
        {"type": "tool_call_delta", "index": 1, "arguments": "{}"},
        {"type": "block_end", "index": 1},
    ]
    events = canonical_stream(["a " + CALL], stop="tool_use", extra=native)
    body = accumulate(run(events), "canonical")
    assert [p["type"] for p in body["content"]] == ["text", "tool_call", "tool_call"]
    assert [p["id"] for p in body["content"][1:]] == ["call_1", "call_n1"]
    starts = [e["data"] for e in run(events) if e["data"]["type"] == "tool_call_start"]
    assert [s["index"] for s in starts] == [1, 2]


def test_generated_ids_skip_the_ids_the_source_used():
    events = [
        {"data": {"type": "message_start", "id": "m1"}},
        {"data": {"type": "tool_call_start", "index": 0, "id": "call_1", "name": "lookup"}},
        {"data": {"type": "tool_call_delta", "index": 0, "arguments": "{}"}},
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "text_delta", "index": 1, "text": CALL}},
        {"data": {"type": "block_end", "index": 1}},
        {"data": {"type": "message_end", "stop_reason": "tool_use"}},
    ]
    ids = [p["id"] for p in accumulate(run(events), "canonical")["content"]]
    assert ids == ["call_1", "call_2"]


@pytest.mark.parametrize(
    ("stop", "text", "expected"),
    [("end_turn", CALL, "tool_use"), ("end_turn", "plain", "end_turn"), ("max_tokens", CALL, "max_tokens")],
)
def test_stop_reason(stop, text, expected):
    out = run(canonical_stream([text], stop=stop))
    assert out[-1]["data"]["stop_reason"] == expected


@pytest.mark.parametrize("target", DIALECTS)
def test_every_target_gets_a_real_call(target):
    source = [
        {
            "data": {
                "id": "c1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
            }
        }
        for piece in ["Hi. <tool_", CALL[6:30], CALL[30:]]
    ]
    source.append(
        {
            "data": {
                "id": "c1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            }
        }
    )
    source.append({"data": "[DONE]"})
    body = accumulate(run(source, target=target, source="openai-chat"), target)
    flat = repr(body)
    assert "<tool_call>" not in flat and "get_weather" in flat and "Paris" in flat
    if target == "anthropic":
        assert [b["type"] for b in body["content"]] == ["text", "tool_use"]
        assert body["content"][1]["input"] == {"city": "Paris"} and body["stop_reason"] == "tool_use"
    if target == "openai-chat":
        assert body["choices"][0]["finish_reason"] == "tool_calls"
        assert body["choices"][0]["message"]["content"] == "Hi."


@pytest.mark.parametrize(
    ("pieces", "code"),
    [
        (["ok <tool_call>{", '"name": "f"'], "text.unterminated_call"),
        (["<tool_call>{not json}</tool", "_call>"], "text.malformed_call"),
    ],
)
def test_malformed_and_unterminated(pieces, code):
    with pytest.raises(TranslationError) as exc:
        content(pieces)
    assert exc.value.code == code
    kept = content(pieces, profile={**PARSE, "text.malformed": "keep-text"})
    assert kept == [{"type": "text", "text": "".join(pieces)}]


def test_error_event_ends_the_stream_without_markup():
    events = [
        {"data": {"type": "message_start", "id": "m1"}},
        {"data": {"type": "text_delta", "index": 0, "text": 'Working <tool_call>{"na'}},
        {"data": {"type": "error", "error": {"code": "overloaded_error", "message": "busy"}}},
    ]
    out = [e["data"] for e in run(events)]
    assert out[-1]["type"] == "error"
    assert "".join(e.get("text", "") for e in out) == "Working"


def test_thinking_filter_and_text_calls_together():
    events = [
        {"data": {"type": "message_start", "id": "m1"}},
        {"data": {"type": "thinking_delta", "index": 0, "text": "hmm", "signature": "s"}},
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "text_delta", "index": 1, "text": "x " + CALL}},
        {"data": {"type": "block_end", "index": 1}},
        {"data": {"type": "message_end", "stop_reason": "end_turn"}},
    ]
    dropped = accumulate(run(events), "canonical")["content"]
    assert [p["type"] for p in dropped] == ["text", "tool_call"]
    kept = accumulate(run(events, profile={**PARSE, "stream.thinking": "keep"}), "canonical")["content"]
    assert [p["type"] for p in kept] == ["thinking", "text", "tool_call"]


def test_capabilities_list_the_profile():
    assert Translator().capabilities()["profiles"]["stream.text-calls"] == ["off", "parse"]
