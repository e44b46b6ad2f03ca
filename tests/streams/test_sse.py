"""SSE framing per the WHATWG rules, incremental reading, and every real .sse capture."""

from __future__ import annotations

import json

import pytest
import stream_captures
from toolwire.streams.rechunk import sse_byte_chunks
from toolwire.streams.sse import (
    SSEError,
    SSEMessage,
    SSEParser,
    events_from_sse,
    parse_sse,
    sse_from_events,
    write_sse,
)


def datas(text: str | bytes) -> list[str]:
    return [m.data for m in parse_sse(text)]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_ends(newline: str) -> None:
    text = f"event: a{newline}data: 1{newline}{newline}data: 2{newline}{newline}"
    assert parse_sse(text) == [SSEMessage("1", "a"), SSEMessage("2")]


def test_mixed_line_ends_and_multi_line_data() -> None:
    assert datas("data: a\r\ndata: b\rdata: c\n\r\n") == ["a\nb\nc"]


def test_one_optional_space_after_the_colon() -> None:
    assert datas("data:x\n\ndata:  y\n\ndata: \n\n") == ["x", " y", ""]


def test_comments_unknown_fields_and_fields_without_colon() -> None:
    assert parse_sse(": keep-alive\nfoo: bar\ndata\n\n") == [SSEMessage("")]
    assert parse_sse(":\n\n") == []  # a comment alone dispatches nothing


def test_blank_line_without_data_dispatches_nothing_and_resets_event() -> None:
    assert parse_sse("event: x\n\ndata: 1\n\n") == [SSEMessage("1")]


def test_id_and_retry() -> None:
    msgs = parse_sse("id: 7\nretry: 3000\ndata: a\n\nid: x\0y\nretry: 1s\ndata: b\n\n")
    assert (msgs[0].id, msgs[0].retry) == ("7", 3000)
    assert (msgs[1].id, msgs[1].retry) == ("7", None)  # NUL id ignored (last id kept), bad retry ignored


def test_bom_is_dropped_once() -> None:
    assert parse_sse("\ufeffdata: a\n\n") == [SSEMessage("a")]
    assert parse_sse(b"\xef\xbb\xbfdata: a\n\n") == [SSEMessage("a")]


def test_end_of_input_without_blank_line() -> None:
    assert datas("data: a\n\ndata: b") == ["a", "b"]
    assert [m.data for m in parse_sse("data: a\n\ndata: b", flush_at_eof=False)] == ["a"]


def test_cr_at_a_chunk_boundary_is_one_line_end() -> None:
    parser = SSEParser()
    out = parser.feed("data: a\r")
    out += parser.feed("\ndata: b\r")
    out += parser.feed("\n\r")
    out += parser.feed("\n")
    out += parser.close()
    assert [m.data for m in out] == ["a\nb"]


def test_split_inside_utf8_sequences_byte_by_byte() -> None:
    text = 'data: {"t": "héllo wörld ✓ 😀"}\n\n'
    raw = text.encode("utf-8")
    parser = SSEParser()
    out = []
    for i in range(len(raw)):
        out += parser.feed(raw[i : i + 1])
    out += parser.close()
    assert [m.data for m in out] == ['{"t": "héllo wörld ✓ 😀"}']


def test_done_and_padding_and_invalid_json() -> None:
    events = events_from_sse('data: {"a": 1}      \n\ndata: [DONE]\n\n')
    assert events == [{"data": {"a": 1}}, {"data": "[DONE]"}]
    with pytest.raises(SSEError) as info:
        events_from_sse("data: {}\n\ndata: {nope\n\n")
    assert info.value.index == 1 and info.value.code == "stream.invalid_event"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_write_then_read_round_trip(newline: str) -> None:
    events = [
        {"event": "message_start", "data": {"type": "message_start", "t": "a\nb ✓"}},
        {"data": {"x": [1, 2]}},
        {"data": "[DONE]"},
    ]
    text = sse_from_events(events, newline=newline)
    assert events_from_sse(text) == events
    assert (
        write_sse([SSEMessage("l1\nl2", "e", "3", 10)])
        == "event: e\nid: 3\nretry: 10\ndata: l1\ndata: l2\n\n"
    )


@pytest.mark.parametrize("dialect,path", stream_captures.sse_files(), ids=lambda v: str(v).split("/")[-1])
def test_every_real_sse_capture_parses_whole_and_byte_by_byte(dialect: str, path) -> None:
    raw = path.read_bytes()
    whole = events_from_sse(raw)
    assert whole and all(isinstance(e["data"], dict) or e["data"] == "[DONE]" for e in whole)
    parser = SSEParser()
    messages = []
    for i in range(0, len(raw), 7):
        messages += parser.feed(raw[i : i + 7])
    messages += parser.close()
    assert [json.loads(m.data) if m.data != "[DONE]" else m.data for m in messages] == [
        e["data"] for e in whole
    ]
    # written back and read again, also split inside every multi-byte character
    assert events_from_sse(sse_byte_chunks(whole)) == whole
    assert events_from_sse(sse_from_events(whole, newline="\r\n")) == whole


def test_byte_chunks_split_inside_multibyte_characters() -> None:
    events = [{"data": {"t": "é✓😀"}}]
    chunks = sse_byte_chunks(events)
    assert len(chunks) > 3
    with pytest.raises(UnicodeDecodeError):
        for chunk in chunks:
            chunk.decode("utf-8")
    assert events_from_sse(chunks) == events
