"""The incremental text scanner: every corpus text case gives the same result whatever the chunks."""

import json
import random
from pathlib import Path

import pytest
from toolwire_reference import TranslationError
from toolwire_reference.calls import IdGenerator
from toolwire_reference.text import TextCallScanner, merge_parts, parse_text

CASES = sorted((Path(__file__).resolve().parents[2] / "corpus" / "cases" / "text").glob("*.json"))
PROFILES = ({}, {"text.malformed": "keep-text"})


def _texts():
    out = []
    for path in CASES:
        case = json.loads(path.read_text())
        out.append(pytest.param(case["source"]["payload"], id=case["id"]))
    return out


def outcome(chunks, profile):
    """Merged parts of feeding ``chunks`` then closing, or the error code."""
    scanner = TextCallScanner(profile)
    parts = []
    try:
        for chunk in chunks:
            parts += scanner.feed(chunk)
        parts += scanner.close()
    except TranslationError as exc:
        return ("error", exc.code, exc.path)
    return merge_parts(parts)


def whole(text, profile):
    try:
        return parse_text(text, profile)
    except TranslationError as exc:
        return ("error", exc.code, exc.path)


def test_there_are_enough_text_cases():
    assert len(CASES) >= 28


@pytest.mark.parametrize("profile", PROFILES, ids=["error", "keep-text"])
@pytest.mark.parametrize("text", _texts())
def test_every_split_point_gives_the_same_result(text, profile):
    expected = whole(text, profile)
    for i in range(len(text) + 1):
        assert outcome([text[:i], text[i:]], profile) == expected, f"split at {i}"


@pytest.mark.parametrize("profile", PROFILES, ids=["error", "keep-text"])
@pytest.mark.parametrize("text", _texts())
def test_one_character_at_a_time_and_random_chunks(text, profile):
    expected = whole(text, profile)
    assert outcome(list(text), profile) == expected
    rnd = random.Random(text)
    for _ in range(20):
        cuts = sorted(rnd.sample(range(len(text) + 1), min(len(text) + 1, rnd.randint(1, 6))))
        chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        assert outcome(chunks, profile) == expected, cuts


def test_empty_chunks_are_harmless():
    text = 'a <tool>{"name": "x"}</tool> b'
    assert outcome(["", text[:5], "", "", text[5:], ""], {}) == whole(text, {})


@pytest.mark.parametrize(
    ("chunks", "emitted", "held"),
    [
        (["Hello <tool_c"], "Hello", " <tool_c"),  # could still be <tool_call>
        (["Hello <b>"], "Hello <b>", ""),  # no form starts with <b
        (["Hello <tool_call>"], "Hello", " <tool_call>"),  # mention or call: undecided
        (["Hello <tool_call> x"], "Hello <tool_call> x", ""),  # a mention, decided
        (["a ``"], "a", " ``"),  # the run could still grow
        (["plain text   "], "plain text", "   "),  # trailing whitespace waits for what follows
        (['x <tool>{"name": "a"'], "x", ' <tool>{"name": "a"'),  # a call is held whole
    ],
)
def test_holds_back_only_what_could_still_change(chunks, emitted, held):
    scanner = TextCallScanner()
    parts = []
    for chunk in chunks:
        parts += scanner.feed(chunk)
    assert "".join(p["text"] for p in parts if p["type"] == "text") == emitted
    assert scanner.pending == held


def test_text_is_emitted_before_the_call_completes_and_the_call_whole():
    scanner = TextCallScanner()
    assert scanner.feed('Checking the weather.\n<tool_call>{"name": "get_w') == [
        {"type": "text", "text": "Checking the weather."}
    ]
    assert scanner.feed('eather", "arguments": {"city": "Oslo"}}') == []
    assert scanner.feed("</tool_call>\nDone ") == [
        {"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Oslo"}},
        {"type": "text", "text": "Done"},
    ]
    assert scanner.close() == [{"type": "text", "text": " "}]


def test_closing_tag_split_inside_and_outside_strings():
    text = '<tool_call>{"name": "w", "arguments": {"s": "</tool_call>\\"</tool"}}</tool_call>z'
    expected = [
        {"type": "tool_call", "id": "call_1", "name": "w", "arguments": {"s": '</tool_call>"</tool'}},
        {"type": "text", "text": "z"},
    ]
    assert whole(text, {}) == expected
    for i in range(len(text) + 1):
        for j in range(i, len(text) + 1):
            assert outcome([text[:i], text[i:j], text[j:]], {}) == expected


def test_shared_id_generator():
    ids = IdGenerator(["call_1"])
    parts = TextCallScanner(ids=ids).feed('<tool>{"name": "a"}</tool>')
    assert parts[0]["id"] == "call_2"
    assert ids.new() == "call_3"


def test_feed_after_close_is_a_programming_error():
    scanner = TextCallScanner()
    scanner.close()
    assert scanner.close() == []
    with pytest.raises(ValueError):
        scanner.feed("x")


def test_long_input_is_linear_enough():
    text = ("word <b> `x` " * 2000) + '<tool>{"name": "a", "arguments": {"s": "' + "y" * 20000 + '"}}</tool>'
    scanner = TextCallScanner()
    parts = []
    for i in range(0, len(text), 7):
        parts += scanner.feed(text[i : i + 7])
    parts += scanner.close()
    merged = merge_parts(parts)
    assert merged[-1]["name"] == "a" and len(merged[-1]["arguments"]["s"]) == 20000
