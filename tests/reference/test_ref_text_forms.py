"""Kind `text`: the forms, precedence, whitespace and malformed-call rules (corpus/RULES.md)."""

import pytest
from toolwire_reference import TranslationError, translate
from toolwire_reference.text import OPENERS, parse_text
from toolwire_reference.text.forms import FORM_NAMES, parameter_value


def calls(text, **profile):
    return [(p["name"], p["arguments"]) for p in parse_text(text, profile) if p["type"] == "tool_call"]


def texts(text, **profile):
    return [p["text"] for p in parse_text(text, profile) if p["type"] == "text"]


def code(text, **profile):
    with pytest.raises(TranslationError) as info:
        parse_text(text, profile)
    assert info.value.path == ""
    return info.value.code


def test_registry_literals_are_prefix_free_and_every_form_is_reachable():
    literals = [o.literal for o in OPENERS]
    for a in literals:
        for b in literals:
            assert a == b or not b.startswith(a)
    assert {f.name for o in OPENERS for _, f in o.starters} == set(FORM_NAMES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>', [("f", {"a": 1})]),
        ('<tool_call> \n{"name": "f", "parameters": {"a": 1}}\n </tool_call>', [("f", {"a": 1})]),
        ('<tool_call>{"name": "f", "arguments": null}</tool_call>', [("f", {})]),
        ('<tool_call>{"name": "f", "arguments": "  "}</tool_call>', [("f", {})]),
        ('<tool_call>{"name": "f", "id": "x"}</tool_call>', [("f", {})]),
        ('<tool_call>[{"name": "f"}, {"name": "g"}]</tool_call>', [("f", {}), ("g", {})]),
        ("<tool_call><name> f </name></tool_call>", [("f", {})]),
        ("<tool_call><name>f</name><arguments> </arguments></tool_call>", [("f", {})]),
        ('<x.ai:tool_call>{"name": "f"}</x.ai:tool_call>', [("f", {})]),
        ('<tool>[{"name": "f"}]</tool>', [("f", {})]),
        ("<xai:function_call name = 'f' ></xai:function_call>", [("f", {})]),
        ("<function=a.b:c-d_1>\n</function>", [("a.b:c-d_1", {})]),
        (
            "<function=f><parameter=x>1</parameter>  <parameter=y>\r\nz\r\n</parameter></function>",
            [("f", {"x": 1, "y": "z"})],
        ),
    ],
)
def test_forms(text, expected):
    assert calls(text) == expected


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("\n42\n", 42),
        ("3.5", 3.5),
        ("null", None),
        ("false", False),
        ('"42"', "42"),
        ("007", "007"),
        ("\n\nx\n\n", "\nx\n"),
        ("a < b", "a < b"),
        (" [1, 2] ", [1, 2]),
        ("", ""),
    ],
)
def test_parameter_values(raw, value):
    assert parameter_value(raw) == value


@pytest.mark.parametrize(
    "text",
    [
        "use the <tool_call> tag",
        "<tool_call>not json</tool_call>",  # no starter: a mention, then a stray closing tag
        '`<tool>{"name": "f"}</tool>`',
        '``a ` <tool>{"name": "f"}</tool> ``',  # a single backtick inside a double-backtick span
        '```\n<tool>{"name": "f"}</tool>',  # an unclosed fence runs to the end
        "<function=has space><parameter=a>1</parameter></function>",
        "<function=f> then prose </function>",
        '<xai:function_call name="f"> prose </xai:function_call>',
        "<xai:function_call>no name</xai:function_call>",
        "<tool>ls -la</tool>",
        "<bash>ls</bash>",
        "</tool_call>",
        "<xai:function_call " + "x" * 300 + ">",  # too long for a tag
    ],
)
def test_mentions_stay_text_exactly(text):
    assert parse_text(text) == [{"type": "text", "text": text}]


def test_backticks_close_only_with_the_same_run_length():
    text = '``code ` here`` <tool>{"name": "f"}</tool>'
    assert calls(text) == [("f", {})]
    assert texts(text) == ["``code ` here``"]


def test_whitespace_rules():
    assert texts(' a \n<tool>{"name": "f"}</tool>\t b ') == [" a", "b "]
    assert (
        parse_text('\n<tool>{"name": "f"}</tool>\n \n<tool>{"name": "g"}</tool>\n')[0]["type"] == "tool_call"
    )
    assert len(parse_text('\n<tool>{"name": "f"}</tool>\n \n<tool>{"name": "g"}</tool>\n')) == 2
    assert texts("x <tool_call> y") == ["x <tool_call> y"]  # around a mention: unchanged


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('<tool_call>{"name": "f", "arguments": {"a": 1}</tool_call>', "text.malformed_call"),
        ('<tool_call>{"name": ""}</tool_call>', "text.malformed_call"),
        ('<tool_call>{"name": "f", "arguments": {}, "parameters": {}}</tool_call>', "text.malformed_call"),
        ('<tool_call>{"name": "f", "arguments": [1]}</tool_call>', "text.malformed_call"),
        ('<tool_call>{"name": "f", "arguments": "{oops"}</tool_call>', "text.malformed_call"),
        ("<tool_call>[]</tool_call>", "text.malformed_call"),
        ("<tool_call>[1]</tool_call>", "text.malformed_call"),
        ('<tool_call>{"name": "f"} trailing</tool_call>', "text.malformed_call"),
        ('<tool_call>{"name": "f</tool_call>', "text.malformed_call"),  # only inside a string
        ("<tool_call><name>f</name><arguments>{x}</arguments></tool_call>", "text.malformed_call"),
        ("<tool_call><name>f</name>junk</tool_call>", "text.malformed_call"),
        ("<tool_call><function=f></tool_call>", "text.malformed_call"),
        ("<tool_call><function=f></function>junk</tool_call>", "text.malformed_call"),
        ("<function=f><parameter=a>1</function>", "text.malformed_call"),
        ("<function=f><parameter=a>1</parameter>junk</function>", "text.malformed_call"),
        (
            "<function=f><parameter=a>1</parameter><parameter=a>2</parameter></function>",
            "text.malformed_call",
        ),
        ('<xai:function_call name=""></xai:function_call>', "text.malformed_call"),
        ('<xai:function_call name="f"><xai:parameter name="p">v</xai:function_call>', "text.malformed_call"),
        ('<tool_call>{"name": "f"', "text.unterminated_call"),
        ("<tool_call>", "text.unterminated_call"),
        ("<tool_call>\n <na", "text.unterminated_call"),
        ("<function=f>", "text.unterminated_call"),
        ("<function=f><parameter=a>1</parameter>", "text.unterminated_call"),
        ('<xai:function_call name="f', "text.unterminated_call"),
    ],
)
def test_malformed_and_unterminated(text, error):
    assert code(text) == error
    assert parse_text(text, {"text.malformed": "keep-text"}) == [{"type": "text", "text": text}]


def test_keep_text_goes_on_after_the_region():
    text = 'a <tool>{"name": 1}</tool> b <tool>{"name": "ok"}</tool>'
    parts = parse_text(text, {"text.malformed": "keep-text"})
    assert [p["type"] for p in parts] == ["text", "tool_call"]
    assert parts[0]["text"] == 'a <tool>{"name": 1}</tool> b'
    assert parts[1]["id"] == "call_1"


def test_error_message_gives_the_offset():
    with pytest.raises(TranslationError, match="character 6"):
        parse_text('hello <tool>{"x": 1}</tool>')


def test_ids_are_distinct_and_in_order():
    parts = parse_text('<tool>[{"name": "a"}, {"name": "b"}]</tool><tool>{"name": "c"}</tool>')
    assert [p["id"] for p in parts] == ["call_1", "call_2", "call_3"]


TEXT = 'Hi.\n<tool_call>{"name": "f", "arguments": {"a": "é"}}</tool_call>\nBye.'


def test_targets():
    assert translate("text", TEXT, source="text", target="canonical") == {
        "content": [
            {"type": "text", "text": "Hi."},
            {"type": "tool_call", "id": "call_1", "name": "f", "arguments": {"a": "é"}},
            {"type": "text", "text": "Bye."},
        ]
    }
    assert translate("text", TEXT, source="text", target="openai-chat") == {
        "role": "assistant",
        "content": "Hi.\n\nBye.",
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a":"é"}'}}
        ],
    }
    assert translate("text", TEXT, source="text", target="anthropic")[1] == {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "f",
        "input": {"a": "é"},
    }
    assert translate("text", TEXT, source="text", target="gemini") == [
        {"text": "Hi."},
        {"functionCall": {"name": "f", "args": {"a": "é"}}},
        {"text": "Bye."},
    ]
    items = translate("text", TEXT, source="text", target="openai-responses")
    assert [i["type"] for i in items] == ["message", "function_call", "message"]
    assert items[1]["call_id"] == "call_1" and items[1]["id"].startswith("fc_")
    assert translate("text", "", source="text", target="openai-chat") == {"role": "assistant", "content": ""}
    assert (
        translate("text", '<tool>{"name": "f"}</tool>', source="text", target="openai-chat")["content"]
        is None
    )


def test_payload_must_be_a_string():
    with pytest.raises(TranslationError) as info:
        translate("text", ["x"], source="text", target="canonical")
    assert info.value.code == "payload.invalid"


@pytest.mark.parametrize(
    ("kind", "source", "target"),
    [("text", "canonical", "anthropic"), ("tools", "text", "anthropic"), ("text", "text", "text")],
)
def test_text_is_decode_only(kind, source, target):
    with pytest.raises(ValueError):
        translate(kind, "x", source=source, target=target)
