"""Custom (free-form) tools: shapes refused with a path, the Chat and Responses spellings, calls in every
kind, streamed input (corpus/RULES.md "Custom (free-form) tools")."""

import pytest
from ref_helpers import refusal, run
from toolwire_reference import translate_stream

GRAMMAR_R = {"type": "grammar", "syntax": "regex", "definition": "SELECT .+"}
GRAMMAR_C = {"type": "grammar", "grammar": {"definition": "SELECT .+", "syntax": "regex"}}


@pytest.mark.parametrize(
    "fmt, path",
    [
        ("text", "/0/format"),
        ({"type": "cfg"}, "/0/format/type"),
        ({"type": "grammar", "syntax": "ebnf", "definition": "x"}, "/0/format/syntax"),
        ({"type": "grammar", "syntax": "lark", "definition": 3}, "/0/format/definition"),
        ({"type": "grammar", "syntax": "lark", "definition": "x", "extra": 1}, "/0/format/extra"),
        ({"type": "text", "strict": True}, "/0/format/strict"),
        (GRAMMAR_C, "/0/format/grammar"),  # the Chat spelling is not Responses'
    ],
)
def test_responses_format_shape_is_checked(fmt, path):
    wire = [{"type": "custom", "name": "q", "format": fmt}]
    assert refusal("tools", wire, "openai-responses", "openai-chat") == ("payload.invalid", path)


def test_chat_grammar_is_nested_and_responses_flat():
    chat = [{"type": "custom", "custom": {"name": "q", "format": GRAMMAR_C}}]
    responses = [{"type": "custom", "name": "q", "format": GRAMMAR_R}]
    assert run("tools", chat, "openai-chat", "openai-responses") == responses
    assert run("tools", responses, "openai-responses", "openai-chat") == chat
    flat_in_chat = [{"type": "custom", "custom": {"name": "q", "format": GRAMMAR_R}}]
    assert refusal("tools", flat_in_chat, "openai-chat", "canonical") == (
        "payload.invalid",
        "/0/custom/format/syntax",
    )


def test_canonical_custom_tool_is_closed():
    assert refusal(
        "tools", [{"type": "custom", "name": "q", "parameters": {}}], "canonical", "openai-chat"
    ) == (
        "payload.invalid",
        "/0/parameters",
    )
    assert refusal("tools", [{"type": "function", "name": "q"}], "canonical", "openai-chat") == (
        "payload.invalid",
        "/0/type",
    )


def test_custom_names_are_checked_like_function_names():
    wire = [{"type": "custom", "name": "bad name"}]
    assert refusal("tools", wire, "openai-responses", "openai-chat") == ("tool.invalid_name", "/0/name")


def test_canonical_choice_custom_must_name_listed_tools():
    choice = {"tool_choice": {"mode": "required", "tools": ["a"], "custom": ["b"]}}
    assert refusal("tool_choice", choice, "canonical", "openai-chat") == (
        "choice.invalid",
        "/tool_choice/custom",
    )


def test_a_result_of_a_custom_call_is_a_custom_output_only_for_its_call():
    chat = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "custom", "custom": {"name": "q", "input": "x"}},
                    {"id": "c2", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "r1"},
            {"role": "tool", "tool_call_id": "c2", "content": "r2"},
        ],
    }
    items = run("request", chat, "openai-chat", "openai-responses")["input"]
    assert [i.get("type") for i in items] == [
        None,
        "custom_tool_call",
        "function_call",
        "custom_tool_call_output",
        "function_call_output",
    ]
    assert items[1] == {"type": "custom_tool_call", "call_id": "c1", "name": "q", "input": "x"}
    assert (
        run(
            "request",
            run("request", chat, "openai-chat", "openai-responses"),
            "openai-responses",
            "openai-chat",
        )
        == chat
    )


def test_custom_call_input_must_be_a_string():
    chat = {
        "messages": [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "tool_calls": [{"id": "c1", "type": "custom", "custom": {"name": "q", "input": 1}}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "r"},
        ]
    }
    assert refusal("request", chat, "openai-chat", "canonical") == (
        "payload.invalid",
        "/messages/1/tool_calls/0/custom/input",
    )


def _stream(*deltas: str, done: bool = True) -> list[dict]:
    item = {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "q", "input": ""}
    events = [
        {
            "type": "response.created",
            "response": {
                "id": "resp_1",
                "object": "response",
                "model": "m",
                "status": "in_progress",
                "output": [],
            },
        },
        {"type": "response.output_item.added", "output_index": 0, "item": item},
    ]
    events += [
        {"type": "response.custom_tool_call_input.delta", "item_id": "ctc_1", "output_index": 0, "delta": d}
        for d in deltas
    ]
    whole = "".join(deltas) or "SELECT 1"
    if done:
        events.append(
            {
                "type": "response.custom_tool_call_input.done",
                "item_id": "ctc_1",
                "output_index": 0,
                "input": whole,
            }
        )
    events += [
        {"type": "response.output_item.done", "output_index": 0, "item": {**item, "input": whole}},
        {
            "type": "response.completed",
            "response": {
                "id": "resp_1",
                "object": "response",
                "model": "m",
                "status": "completed",
                "output": [{**item, "input": whole}],
            },
        },
    ]
    return [{"event": e["type"], "data": e} for e in events]


def test_streamed_input_reaches_canonical_and_responses_as_it_comes():
    canonical = [
        e["data"]
        for e in translate_stream(_stream("SELECT ", "1"), source="openai-responses", target="canonical")
    ]
    assert canonical[1] == {
        "type": "tool_call_start",
        "index": 0,
        "id": "call_1",
        "name": "q",
        "custom": True,
    }
    assert canonical[2:4] == [
        {"type": "tool_call_delta", "index": 0, "input": "SELECT "},
        {"type": "tool_call_delta", "index": 0, "input": "1"},
    ]
    out = [
        e["data"]
        for e in translate_stream(
            _stream("SELECT ", "1"), source="openai-responses", target="openai-responses"
        )
    ]
    kinds = [e["type"] for e in out]
    assert kinds.count("response.custom_tool_call_input.delta") == 2
    done = next(e for e in out if e["type"] == "response.custom_tool_call_input.done")
    assert done["input"] == "SELECT 1"
    assert "response.function_call_arguments.delta" not in kinds


def test_input_only_in_the_done_event_is_sent_then():
    canonical = [
        e["data"] for e in translate_stream(_stream(), source="openai-responses", target="canonical")
    ]
    assert {"type": "tool_call_delta", "index": 0, "input": "SELECT 1"} in canonical


@pytest.mark.parametrize("target", ["anthropic", "gemini", "mistral"])
def test_streamed_custom_call_refused_where_there_is_none(target):
    assert refusal("stream", _stream("x"), "openai-responses", target) == ("content.unsupported", "/1/data")


def test_chat_streams_a_custom_call_as_custom_fragments_and_reads_them_back():
    """openai-node's ``ChatCompletionChunk`` types a streamed custom call (``type: custom``, ``custom.name``,
    then ``custom.input`` fragments): Chat gets the call, not a refusal, and reads it back unchanged."""
    chat = list(translate_stream(_stream("SELECT ", "1"), source="openai-responses", target="openai-chat"))
    calls = [c for e in chat if isinstance(e["data"], dict) for ch in e["data"]["choices"]
             for c in ch["delta"].get("tool_calls") or []]  # fmt: skip
    assert calls[0] == {"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "q", "input": ""}}
    assert [c["custom"]["input"] for c in calls[1:]] == ["SELECT ", "1"]
    assert all(set(c) == {"index", "custom"} for c in calls[1:])
    back = [e["data"] for e in translate_stream(chat, source="openai-chat", target="canonical")]
    assert [e["input"] for e in back if e["type"] == "tool_call_delta"] == ["SELECT ", "1"]
    assert next(e for e in back if e["type"] == "tool_call_start")["custom"] is True


def test_canonical_stream_custom_deltas_carry_input_only():
    events = [
        {"data": {"type": "message_start"}},
        {"data": {"type": "tool_call_start", "index": 0, "id": "c", "name": "q", "custom": True}},
        {"data": {"type": "tool_call_delta", "index": 0, "arguments": "{}"}},
    ]
    assert refusal("stream", events, "canonical", "openai-responses") == ("stream.invalid_event", "/2/data")


WRAP = {"custom.tools": "wrap"}


def test_wrap_makes_the_tool_a_function_with_one_string_parameter():
    from toolwire_reference import translate

    wire = [{"type": "custom", "name": "q", "description": "Run SQL.", "format": GRAMMAR_R}]
    (tool,) = translate("tools", wire, source="openai-responses", target="anthropic", profile=WRAP)
    assert tool["input_schema"] == {
        "type": "object",
        "properties": {"input": {"type": "string"}},
        "required": ["input"],
    }
    assert tool["description"].startswith("Run SQL.\n\n") and "SELECT .+" in tool["description"]
    choice = {"tool_choice": {"type": "custom", "name": "q"}}
    assert translate("tool_choice", choice, source="openai-responses", target="anthropic", profile=WRAP) == {
        "tool_choice": {"type": "tool", "name": "q"}
    }


def test_wrap_streams_the_input_as_json_arguments():
    import json

    from toolwire_reference import translate

    text = 'say "hi"\n\\'
    out = translate(
        "stream", _stream('say "hi"', "\n\\"), source="openai-responses", target="anthropic", profile=WRAP
    )
    fragments = [e["data"]["delta"]["partial_json"] for e in out if e["event"] == "content_block_delta"]
    assert json.loads("".join(fragments)) == {"input": text}
    assert len(fragments) == 4  # the opening, one per input fragment, the closing
