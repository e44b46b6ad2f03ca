"""Equivalent spellings and the judged scope (toolwire.corpus.equivalence, INTERPRETING.md "Equivalent
spellings"), with the bundled dialect descriptors, and how a check uses them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fake_translators import Oracle
from toolwire.adapters import Answer
from toolwire.corpus import load_corpus, wire
from toolwire.corpus.equivalence import empty_is_absent, normalize, scoped
from toolwire.corpus.matchers import compare
from toolwire.judge.checks import judge
from toolwire.reports.bugs import find_bugs


@pytest.fixture(scope="module")
def corpus() -> Any:
    return load_corpus()


@pytest.fixture(scope="module")
def dialects(corpus: Any) -> dict[str, dict[str, Any]]:
    return corpus.dialects


def one_text(text: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text, **extra}]


# -- rules ------------------------------------------------------------------------------------------------


def test_empty_schema_keywords_read_as_none_inside_opaque_schemas(dialects: dict[str, Any]) -> None:
    # Portkey's gateway rebuilds every input_schema with `required: []` and `$defs: {}`: the same schema
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    padded = {**schema, "required": [], "$defs": {}}
    nested = {"type": "object", "properties": {"a": {"type": "object", "properties": {}, "required": []}}}
    tools = {
        "anthropic": lambda s: {"tools": [{"name": "f", "input_schema": s}]},
        "openai-chat": lambda s: {
            "tools": [{"type": "function", "function": {"name": "f", "parameters": s}}]
        },
        "openai-responses": lambda s: {"tools": [{"type": "function", "name": "f", "parameters": s}]},
        "gemini": lambda s: {"tools": [{"functionDeclarations": [{"name": "f", "parametersJsonSchema": s}]}]},
    }
    for name, wrap in tools.items():
        assert normalize(dialects[name], "request", wrap(padded)) == normalize(
            dialects[name], "request", wrap(schema)
        ), name
        assert normalize(dialects[name], "request", wrap(nested))["tools"] != wrap(nested)["tools"], name
    # a non-empty `required` keeps its meaning; a property named like a keyword is a name, not a keyword
    required = {**schema, "required": ["city"]}
    assert normalize(dialects["anthropic"], "tools", [{"name": "f", "input_schema": required}]) == [
        {"name": "f", "input_schema": required}
    ]
    named = {"type": "object", "properties": {"required": {}, "$defs": {}}}
    assert normalize(dialects["anthropic"], "tools", [{"name": "f", "input_schema": named}]) == [
        {"name": "f", "input_schema": named}
    ]


def test_anthropic_empty_system_list_is_no_system(dialects: dict[str, Any]) -> None:
    anthropic = dialects["anthropic"]
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    assert normalize(anthropic, "request", {**body, "system": []}) == normalize(anthropic, "request", body)
    assert normalize(anthropic, "request", {**body, "system": "Be brief."})["system"] == "Be brief."


def test_anthropic_string_content_is_one_text_block(dialects: dict[str, Any]) -> None:
    anthropic = dialects["anthropic"]
    blocks = {
        "system": one_text("Be brief."),
        "messages": [
            {"role": "user", "content": one_text("Hi")},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": one_text("22C")}],
            },
        ],
    }
    strings = {
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "22C"}]},
        ],
    }
    assert normalize(anthropic, "request", blocks) == strings
    assert normalize(anthropic, "request", strings) == strings
    # a block with more than type and text, or two blocks, are not the shorthand
    cached = {"messages": [{"role": "user", "content": one_text("Hi", cache_control={"type": "ephemeral"})}]}
    assert normalize(anthropic, "request", cached) == cached
    two = {"messages": [{"role": "user", "content": one_text("a") + one_text("b")}]}
    assert normalize(anthropic, "request", two) == two
    # the input stays as it was
    assert blocks["system"] == one_text("Be brief.")


def test_documented_defaults_are_no_member(dialects: dict[str, Any]) -> None:
    anthropic = dialects["anthropic"]
    request = {
        "stream": False,
        "tools": [{"type": "custom", "name": "f", "input_schema": {"type": "object"}}],
        "messages": [
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x", "is_error": False}],
            }
        ],
    }
    assert normalize(anthropic, "request", request) == {
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]}
        ],
    }
    kept = {
        "stream": True,
        "messages": [{"role": "user", "content": [{"type": "tool_result", "is_error": True}]}],
    }
    assert normalize(anthropic, "request", kept) == kept


def test_openai_max_tokens_is_max_completion_tokens_except_for_reasoning_models(
    dialects: dict[str, Any],
) -> None:
    chat = dialects["openai-chat"]
    assert normalize(chat, "request", {"model": "gpt-4o", "max_tokens": 5}) == {
        "model": "gpt-4o",
        "max_completion_tokens": 5,
    }
    for model in ("o3-mini", "gpt-5"):
        assert normalize(chat, "request", {"model": model, "max_tokens": 5}) == {
            "model": model,
            "max_tokens": 5,
        }
    both = {"model": "gpt-4o", "max_tokens": 5, "max_completion_tokens": 6}
    assert normalize(chat, "request", both) == both


def test_gemini_snake_case_names_are_camel_case_but_user_data_is_kept(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]
    snake = {
        "contents": [
            {"role": "model", "parts": [{"function_call": {"name": "f", "args": {"user_id": 1, "x": None}}}]},
            {
                "role": "user",
                "parts": [{"function_response": {"name": "f", "response": {"output": {"a_b": 1}}}}],
            },
        ],
        "tools": [
            {
                "function_declarations": [
                    {
                        "name": "f",
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {"user_id": {"type": "INTEGER", "min_items": 0}},
                            "required": [],
                        },
                    },
                    {"name": "g", "parameters_json_schema": {"type": "object", "x_y": 1}},
                ]
            }
        ],
        "tool_config": {"function_calling_config": {"mode": "ANY"}},
    }
    camel = normalize(gemini, "request", snake)
    assert camel == {
        "contents": [
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"user_id": 1, "x": None}}}]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "f", "response": {"output": {"a_b": 1}}}}],
            },
        ],
        "tools": [
            {
                "functionDeclarations": [
                    # type names compared in lower case; an empty `required` is no member
                    {
                        "name": "f",
                        "parameters": {
                            "type": "object",
                            "properties": {"user_id": {"type": "integer", "minItems": 0}},
                        },
                    },
                    {"name": "g", "parametersJsonSchema": {"type": "object", "x_y": 1}},
                ]
            }
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
    }


def test_gemini_placeholder_signatures_carry_nothing(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]
    for signature in ("skip_thought_signature_validator", "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I="):
        part = {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": signature}
        assert normalize(gemini, "request", {"contents": [{"parts": [part]}]}) == {
            "contents": [{"parts": [{"functionCall": {"name": "f", "args": {}}}]}]
        }
    real = {"contents": [{"parts": [{"functionCall": {"name": "f"}, "thoughtSignature": "CiQBjz1rX2"}]}]}
    assert normalize(gemini, "request", real) == real


def test_a_responses_message_with_only_empty_text_is_no_item(dialects: dict[str, Any]) -> None:
    responses = dialects["openai-responses"]
    blank = {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "", "annotations": []}],
    }
    call = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
    assert normalize(responses, "response", {"output": [blank, call]}) == normalize(
        responses, "response", {"output": [call]}
    )
    # a message that says something, or refuses, stays
    said = {**blank, "content": [{"type": "output_text", "text": "ok", "annotations": []}]}
    assert len(normalize(responses, "response", {"output": [said, call]})["output"]) == 2
    refusal = {**blank, "content": [{"type": "refusal", "refusal": ""}]}
    assert len(normalize(responses, "response", {"output": [refusal]})["output"]) == 1
    anthropic = dialects["anthropic"]
    use = {"type": "tool_use", "id": "t", "name": "f", "input": {}}
    empty = {"type": "text", "text": ""}
    assert normalize(anthropic, "response", {"content": [empty, use]}) == {"content": [use]}
    assert normalize(anthropic, "response", {"content": [{**empty, "text": " "}]})["content"]


def test_anthropic_tool_result_blocks_read_as_their_joined_text(dialects: dict[str, Any]) -> None:
    anthropic = dialects["anthropic"]
    blocks = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]

    def request(content: Any) -> Any:
        result = {"type": "tool_result", "tool_use_id": "t", "content": content}
        return {"messages": [{"role": "user", "content": [result]}]}

    expected = normalize(anthropic, "request", request(blocks), expected=True)
    assert not compare(expected, normalize(anthropic, "request", request("a\nb")))
    assert not compare(expected, normalize(anthropic, "request", request(blocks)))
    # joined with nothing between them: how Anthropic reads a message's blocks; other text stays a difference
    assert not compare(expected, normalize(anthropic, "request", request("ab")))
    assert compare(expected, normalize(anthropic, "request", request("a b")))
    chat = dialects["openai-chat"]
    tool = {"messages": [{"role": "tool", "tool_call_id": "t", "content": blocks}]}
    parts = normalize(chat, "request", tool, expected=True)
    for text, same in (("a\nb", True), ("ab", True), ("a b", False)):
        spelled = {"messages": [{**tool["messages"][0], "content": text}]}
        assert (not compare(parts, normalize(chat, "request", spelled))) is same, text
    # a message's own text blocks are not joined
    two = normalize(anthropic, "request", {"messages": [{"role": "user", "content": blocks}]}, expected=True)
    assert compare(two, {"messages": [{"role": "user", "content": "a\nb"}]})


def test_responses_null_parameters_are_an_empty_parameter_list(dialects: dict[str, Any]) -> None:
    responses = dialects["openai-responses"]
    tool = {"type": "function", "name": "f", "strict": False}
    empty = normalize(responses, "tools", [{**tool, "parameters": {"type": "object", "properties": {}}}])
    assert normalize(responses, "tools", [{**tool, "parameters": None}]) == empty
    some = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert normalize(responses, "tools", [{**tool, "parameters": some}]) != empty


def test_chat_empty_object_parameters_are_no_parameters(dialects: dict[str, Any]) -> None:
    """Chat documents an omitted ``parameters`` as an empty parameter list; an empty object schema says the
    same (the Vercel AI SDK always sends one)."""
    chat = dialects["openai-chat"]
    bare = [{"type": "function", "function": {"name": "f"}}]
    for spelled in ({"type": "object"}, {"type": "object", "properties": {}}):
        declared = [{"type": "function", "function": {"name": "f", "parameters": spelled}}]
        assert normalize(chat, "tools", declared) == normalize(chat, "tools", bare)
    some = {"type": "object", "properties": {"a": {"type": "string"}}}
    with_some = [{"type": "function", "function": {"name": "f", "parameters": some}}]
    assert normalize(chat, "tools", with_some) != normalize(chat, "tools", bare)
    closed = {"type": "object", "properties": {}, "additionalProperties": False}
    with_closed = [{"type": "function", "function": {"name": "f", "parameters": closed}}]
    assert normalize(chat, "tools", with_closed) != normalize(chat, "tools", bare)


def test_gemini_bare_object_parameters_are_no_parameters(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]
    bare = [{"functionDeclarations": [{"name": "f"}]}]
    for spelled in ({"type": "object"}, {"type": "OBJECT"}):
        declared = [{"functionDeclarations": [{"name": "f", "parameters": spelled}]}]
        assert normalize(gemini, "tools", declared) == normalize(gemini, "tools", bare)
    some = {"type": "object", "properties": {"a": {"type": "string"}}}
    with_some = [{"functionDeclarations": [{"name": "f", "parameters": some}]}]
    assert normalize(gemini, "tools", with_some) != normalize(gemini, "tools", bare)
    # the bare OBJECT is valid on the wire; an empty properties map is what Gemini refuses
    assert (
        wire.validate(
            "gemini", "tools", [{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT"}}]}]
        )
        == []
    )
    empty = {"type": "OBJECT", "properties": {}}
    assert wire.validate("gemini", "tools", [{"functionDeclarations": [{"name": "f", "parameters": empty}]}])


def test_a_combinator_of_one_subschema_is_that_subschema(dialects: dict[str, Any]) -> None:
    """LiteLLM writes a nullable object for Gemini as a one-branch anyOf: it accepts what the branch does."""
    gemini = dialects["gemini"]

    def tools(sort: Any) -> Any:
        params = {"type": "object", "properties": {"sort": sort}}
        return [{"functionDeclarations": [{"name": "f", "parameters": params}]}]

    inner = {"type": "object", "properties": {"field": {"type": "string"}}, "nullable": True}
    expected = {**inner, "description": "order"}
    one_of_one = {"anyOf": [inner], "description": "order"}
    for spelled in (one_of_one, {"allOf": [{**inner, "description": "order"}]}):
        assert normalize(gemini, "tools", tools(spelled)) == normalize(gemini, "tools", tools(expected))
    # two branches, or a keyword the branch contradicts, stay what they are
    two = {"anyOf": [inner, {"type": "string"}]}
    assert normalize(gemini, "tools", tools(two)) != normalize(gemini, "tools", tools(expected))
    clash = {"anyOf": [inner], "type": "string"}
    assert "anyOf" in json.dumps(normalize(gemini, "tools", tools(clash)))


def test_an_annotation_repeated_in_every_anyof_branch_is_the_annotation_beside_it(
    dialects: dict[str, Any],
) -> None:
    """Vertex refuses keywords beside ``any_of`` (BerriAI/litellm#11164), so LiteLLM moves a node's
    description into each branch of its anyOf: the same annotation; one branch without it, a differing text,
    or one the node already has stay what they are."""
    gemini = dialects["gemini"]

    def tools(prop: Any) -> Any:
        return [
            {
                "functionDeclarations": [
                    {"name": "f", "parameters": {"type": "object", "properties": {"p": prop}}}
                ]
            }
        ]

    branches = [{"type": "string", "maxLength": 20}, {"type": "array", "items": {"type": "string"}}]
    beside = {"description": "Pages.", "anyOf": branches}
    inside = {"anyOf": [{**b, "description": "Pages."} for b in branches]}
    assert normalize(gemini, "tools", tools(inside)) == normalize(gemini, "tools", tools(beside))
    one_missing = {"anyOf": [{**branches[0], "description": "Pages."}, branches[1]]}
    differing = {
        "anyOf": [{**branches[0], "description": "Pages."}, {**branches[1], "description": "Other."}]
    }
    both = {"description": "Pages.", "anyOf": inside["anyOf"]}
    for other in (one_missing, differing, both):
        assert normalize(gemini, "tools", tools(other)) != normalize(gemini, "tools", tools(beside))


def test_a_gemini_json_result_wrapped_in_output_is_the_result_itself(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]

    def turn(response: Any) -> Any:
        part = {"functionResponse": {"name": "f", "response": response}}
        return {"contents": [{"role": "user", "parts": [part]}]}

    plain = normalize(gemini, "request", turn({"mean": 1.5, "n": 3}))
    assert normalize(gemini, "request", turn({"output": {"mean": 1.5, "n": 3}})) == plain
    # the Vercel AI SDK's {name, content: X}
    assert normalize(gemini, "request", turn({"name": "f", "content": {"mean": 1.5, "n": 3}})) == plain
    # an inner object that names the output or an error keeps its wrapper: the meaning would change
    flagged = normalize(gemini, "request", turn({"output": {"error": "boom", "code": 2}}))
    assert flagged != normalize(gemini, "request", turn({"error": "boom", "code": 2}))


def test_a_request_tool_calls_index_is_read_past(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    request = {"messages": [{"role": "assistant", "tool_calls": [call]}]}
    indexed = {"messages": [{"role": "assistant", "tool_calls": [{**call, "index": 0}]}]}
    assert normalize(chat, "request", indexed) == normalize(chat, "request", request)
    assert (
        wire.validate(
            "openai-chat",
            "request",
            {
                **indexed,
                "messages": [*indexed["messages"], {"role": "tool", "tool_call_id": "c", "content": "ok"}],
            },
        )
        == []
    )
    renamed = {"messages": [{"role": "assistant", "tool_calls": [{**call, "id": "d", "index": 0}]}]}
    assert normalize(chat, "request", renamed) != normalize(chat, "request", request)


def test_a_gemini_error_result_may_be_its_text_prefixed_as_output(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]

    def request(response: Any) -> Any:
        part = {"functionResponse": {"name": "f", "response": response}}
        return {"contents": [{"role": "user", "parts": [part]}]}

    expected = normalize(gemini, "request", request({"error": "boom"}), expected=True)
    assert not compare(expected, normalize(gemini, "request", request({"error": "boom"})))
    assert not compare(expected, normalize(gemini, "request", request({"result": "Error: boom"})))
    assert compare(expected, normalize(gemini, "request", request({"output": "boom"})))  # the flag dropped
    ok = normalize(gemini, "request", request({"output": "fine"}), expected=True)
    assert compare(ok, normalize(gemini, "request", request({"error": "fine"})))


def test_null_is_no_member_in_responses_but_not_in_tool_arguments(dialects: dict[str, Any]) -> None:
    anthropic = dialects["anthropic"]
    response = {
        "stop_sequence": None,
        "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"unit": None}}],
    }
    assert normalize(anthropic, "response", response) == {
        "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"unit": None}}]
    }
    # requests keep their nulls (the rule is for responses)
    assert normalize(anthropic, "request", {"metadata": None}) == {"metadata": None}


def test_an_expectation_that_accepts_the_default_accepts_no_member(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]
    expected = {"choices": [{"message": {"role": "assistant", "content": {"$oneOf": [None, ""]}}}]}
    normalized = normalize(chat, "response", expected)
    assert normalized["choices"][0]["message"]["content"] == {"$optional": {"$oneOf": [None, ""]}}
    assert compare(normalized, {"choices": [{"message": {"role": "assistant"}}]}) == []
    assert compare(normalized, {"choices": [{"message": {"role": "assistant", "content": "x"}}]}) != []


def test_scope_loosens_members_of_unlisted_features_only(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]
    expected = {"id": "msg_1", "model": "m", "usage": {"prompt_tokens": 1}, "choices": []}
    loose = scoped(chat, "response", ["calls.single"], expected)
    assert loose["id"] == {"$optional": {"$any": True}}
    assert loose["usage"] == {"$optional": {"$any": True}}
    assert loose["choices"] == []
    assert scoped(chat, "response", ["response.identity"], expected)["id"] == "msg_1"
    assert scoped(chat, "response", ["response.usage"], expected)["usage"] == {"prompt_tokens": 1}
    # in a request the model is routing and the end-user ids are no instruction: compared by the cases
    # about them, also when the expectation leaves them out
    lenient = {"$optional": {"$any": True}}
    loose = scoped(chat, "request", ["calls.single"], expected)
    assert loose["model"] == lenient and loose["user"] == lenient and loose["choices"] == []
    assert compare(loose, {**expected, "model": "other", "user": "u-1"}) == []
    assert scoped(chat, "request", ["request.model-carried", "request.metadata"], expected) == expected
    events = [{"data": {"id": "chatcmpl-1", "choices": []}}, {"data": {"id": "chatcmpl-1", "choices": []}}]
    assert all(e["data"]["id"] == {"$optional": {"$any": True}} for e in scoped(chat, "stream", [], events))


def test_gemini_function_response_output_under_any_name_but_error(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]

    def request(response: Any) -> Any:
        part = {"functionResponse": {"name": "f", "response": response}}
        return normalize(gemini, "request", {"contents": [{"role": "user", "parts": [part]}]})

    assert request({"return_value": {"temp": 22}}) == request({"output": {"temp": 22}})
    assert request({"content": "22C"}) == request({"output": "22C"})
    assert request({"error": "boom"}) != request({"output": "boom"})
    # "If 'output' and 'error' keys are not specified, then whole 'response' is treated as function output"
    assert request({"a": 1, "b": 2}) == request({"output": {"a": 1, "b": 2}})
    assert request({"a": 1, "b": 2}) != request({"output": {"a": 1}})
    # the value is user data: only the name changes
    assert request({"result": {"snake_case": 1}}) == request({"output": {"snake_case": 1}})
    assert request({"result": {"snake_case": 1}}) != request({"output": {"snakeCase": 1}})


def test_a_responses_response_is_not_judged_on_settings_it_echoes(dialects: dict[str, Any]) -> None:
    responses = dialects["openai-responses"]
    expected = {"output": [], "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    loose = scoped(responses, "response", ["response.content"], expected)
    for echoed in ("parallel_tool_calls", "tool_choice", "tools"):
        assert loose[echoed] == {"$optional": {"$any": True}}
    assert compare(loose, {"output": [], "parallel_tool_calls": False, "tool_choice": "required"}) == []
    judged = scoped(responses, "response", ["response.echoed-settings"], expected)
    assert {k: judged[k] for k in expected} == expected
    events = [{"event": "response.completed", "data": {"response": expected}}]
    assert scoped(responses, "stream", [], events)[0]["data"]["response"]["parallel_tool_calls"] == {
        "$optional": {"$any": True}
    }


def test_an_expected_empty_member_may_be_absent_from_what_a_client_reads(dialects: dict[str, Any]) -> None:
    anthropic = dialects["anthropic"]
    expected = {
        "usage": {"input_tokens": 5, "cache_read_input_tokens": 0, "cache_creation": {"ephemeral_5m": 0}},
        "stop_sequence": None,
        "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"n": 0, "flag": False}}],
    }
    loose = empty_is_absent(anthropic, expected)
    got = {
        "usage": {"input_tokens": 5},
        "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"n": 0, "flag": False}}],
    }
    assert compare(loose, got) == []
    assert compare(loose, {**got, "usage": {"input_tokens": 6}}) != []
    # tool arguments are user data: a zero there is no empty member
    args_dropped = {**got, "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]}
    assert compare(loose, args_dropped) != []


def test_tool_arguments_are_compared_as_json_not_as_text(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]

    def request(arguments: str) -> Any:
        call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
        return normalize(chat, "request", {"messages": [{"role": "assistant", "tool_calls": [call]}]})

    assert request('{"city": "Paris", "n": [1, 2]}') == request('{"n":[1,2],"city":"Paris"}')
    assert request('{"city": "Paris"}') != request('{"city": "Lyon"}')
    assert request("not json") == request("not json") != request("not  json")
    responses = dialects["openai-responses"]
    item = {"type": "function_call", "call_id": "c", "name": "f", "arguments": '{"a": 1}'}
    assert normalize(responses, "response", {"output": [item]}) == normalize(
        responses, "response", {"output": [{**item, "arguments": '{"a":1}'}]}
    )


def test_descriptors_state_a_source_and_a_reason_for_every_rule(dialects: dict[str, Any]) -> None:
    for name, descriptor in dialects.items():
        for rule in (descriptor.get("equivalent") or {}).get("rules", []):
            assert rule["why"] and rule["sources"], (name, rule)


# -- in a check -------------------------------------------------------------------------------------------


def response_check(corpus: Any, case_id: str, target: str) -> Any:
    return next(
        c
        for c in corpus.checks()
        if c.case_id == case_id and c.target == target and not c.round_trip and c.variant is None
    )


def test_a_response_judged_on_what_its_case_is_about(corpus: Any) -> None:
    check = response_check(corpus, "calls/response-anthropic-parallel-with-text-capture", "openai-chat")
    assert "response.identity" not in check.features
    expected = check.expectation["payload"]
    good = {
        "id": "chatcmpl-minted-here",  # not the source's id: out of this case's scope
        "object": "chat.completion",
        "created": 1,
        "model": "claude-haiku-4-5-20251001",
        "system_fingerprint": None,
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": expected["choices"][0]["message"]["content"],
                    "refusal": None,
                    "tool_calls": [
                        {
                            "id": call["id"],
                            "type": "function",
                            "function": {
                                "name": call["function"]["name"],
                                "arguments": json.dumps(call["function"]["arguments"]["$json"]),
                            },
                        }
                        for call in expected["choices"][0]["message"]["tool_calls"]
                    ],
                },
                "finish_reason": "tool_calls",
                "provider_specific_fields": {"native_finish_reason": "tool_use"},  # a vendor extension
            }
        ],
    }
    result = judge(check, Answer("payload", payload=good))
    assert result.outcome == "passed", result.diff or result.message

    wrong = copy.deepcopy(good)
    wrong["choices"][0]["message"]["tool_calls"].pop()  # a call lost: always judged
    result = judge(check, Answer("payload", payload=wrong))
    assert result.outcome == "failed" and "/choices/0/message/tool_calls/3" in (result.diff or "")

    invented = copy.deepcopy(good)
    invented["choices"][0]["message"]["function_call"] = {
        "name": "x",
        "arguments": "{}",
    }  # declared, not empty
    result = judge(check, Answer("payload", payload=invented))
    assert result.outcome == "failed" and "function_call" in (result.diff or "")


def test_the_scope_and_empty_members_reach_into_the_alternatives_of_an_expectation(corpus: Any) -> None:
    """An expected response given as a ``$oneOf`` of whole payloads (text kept, or withheld) is judged on
    what its case is about in each alternative: the response id and usage stay out of scope."""
    check = next(c for c in corpus.checks() if c.id == "responses/gemini-finish-recitation[gemini>anthropic]")
    assert "$oneOf" in check.expectation["payload"]
    withheld = {
        "id": "msg_minted",
        "type": "message",
        "role": "assistant",
        "model": "gemini-2.5-flash",
        "content": [],
        "stop_reason": "refusal",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 0},
    }
    record = judge(check, Answer("payload", payload=withheld))
    assert record.outcome == "passed", record.message


def test_requests_stay_strict_about_members_the_provider_rejects(corpus: Any) -> None:
    check = next(
        c
        for c in corpus.checks()
        if c.kind == "request"
        and c.target == "openai-chat"
        and "error" not in c.expectation
        and not c.round_trip
    )
    oracle = Oracle(corpus)
    payload = oracle.translate("request", check.source, check.target, check.source_payload, check.profile)
    assert judge(check, Answer("payload", payload=payload)).outcome == "passed"
    payload["messages"][-1]["id"] = None  # a member the wire schema rejects ('id' was unexpected), even null
    result = judge(check, Answer("payload", payload=payload))
    assert result.outcome == "failed" and "unexpected key 'id'" in (result.diff or "")


def test_wire_tolerance_finds_unknown_members_inside_one_branch_of_a_oneof() -> None:
    response = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    assert wire.validate_tolerant("anthropic", "response", response) == ([], set())
    names = wire.declared_names("anthropic", "response")
    assert {"stop_reason", "input_tokens"} <= names and "provider_specific_fields" not in names
    broken = dict(response, content="not a list")
    errors, _ = wire.validate_tolerant("anthropic", "response", broken) or ([], set())
    assert errors


def test_a_vendor_member_of_chat_usage_is_an_extension_even_where_its_name_is_declared_elsewhere() -> None:
    response = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2, "service_tier": "standard"},
    }
    errors, extensions = wire.validate_tolerant("openai-chat", "response", response) or (["no schema"], set())
    assert errors == [] and extensions == {"/usage/service_tier"}


def test_a_chat_tool_message_must_answer_a_call_of_the_message_before_it() -> None:
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    answered = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c", "content": "ok"},
    ]
    assert wire.validate("openai-chat", "request", {"messages": answered}) == []
    lone = [{"role": "tool", "tool_call_id": "c", "content": "ok"}]
    assert any("tool_call_id" in e for e in wire.validate("openai-chat", "request", {"messages": lone}) or [])
    wrong = [*answered[:2], {"role": "tool", "tool_call_id": "x", "content": "ok"}]
    assert wire.validate("openai-chat", "request", {"messages": wrong})
    after_user = [
        *answered,
        {"role": "user", "content": "again"},
        {"role": "tool", "tool_call_id": "c", "content": "x"},
    ]
    assert wire.validate("openai-chat", "request", {"messages": after_user})


def test_what_a_client_ignores_is_empty_or_an_extension_at_any_depth() -> None:
    from toolwire.judge.checks import WireVerdict

    verdict = WireVerdict(
        None, [], {"/x/rejected"}, frozenset({"usage", "completion_tokens_details", "tool_calls"})
    )
    assert verdict.tolerate("/x/rejected", {"anything": 1})  # the schema rejects it as unknown
    assert verdict.tolerate("/provider_specific_fields", {"native_finish_reason": "STOP"})  # undeclared
    assert verdict.tolerate("/usage/completion_tokens_details", {"reasoning_tokens": 0, "text_tokens": 38})
    assert verdict.tolerate("/tool_calls", [])
    assert not verdict.tolerate("/usage/completion_tokens_details", {"completion_tokens_details": 3})
    assert not verdict.tolerate("/tool_calls", [{"tool_calls": {"usage": 1}}])


def test_null_strict_and_description_are_no_member_for_openai(dialects: dict[str, Any]) -> None:
    responses, chat = dialects["openai-responses"], dialects["openai-chat"]
    spelled = [
        {
            "type": "function",
            "name": "f",
            "parameters": {"type": "object"},
            "strict": None,
            "description": None,
        }
    ]
    plain = [{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": False}]
    assert normalize(responses, "tools", spelled) == normalize(responses, "tools", plain)
    null = [{"type": "function", "function": {"name": "f", "strict": None}}]
    bare = [{"type": "function", "function": {"name": "f"}}]
    assert normalize(chat, "tools", null) == normalize(chat, "tools", bare)


def test_an_empty_object_a_client_reads_may_lack_some_of_its_empty_members(dialects: dict[str, Any]) -> None:
    expected = {"usage": {"input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0}}}
    loose = empty_is_absent(dialects["openai-responses"], expected)
    assert not compare(loose, {"usage": {"input_tokens_details": {"cached_tokens": 0}}})
    assert not compare(loose, {"usage": {}})
    assert compare(loose, {"usage": {"input_tokens_details": {"cached_tokens": 3}}})


def test_a_response_tool_call_index_is_read_past(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    plain = {"choices": [{"message": {"role": "assistant", "tool_calls": [call]}}]}
    indexed = {"choices": [{"message": {"role": "assistant", "tool_calls": [{**call, "index": 1}]}}]}
    assert normalize(chat, "response", indexed) == normalize(chat, "response", plain)


def test_several_text_parts_are_their_joined_text_on_either_side(dialects: dict[str, Any]) -> None:
    """A system message of two text parts says what the two texts on separate lines, or one after the other
    with nothing between them, say, whichever side holds the parts (OpenAI documents no separator; Anthropic
    reads a message's blocks back to back); other text between them stays a difference."""
    chat = dialects["openai-chat"]
    parts = {
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
        ]
    }
    joined = {"messages": [{"role": "system", "content": "a\nb"}]}
    expected = normalize(chat, "request", joined, expected=True)
    assert not compare(expected, normalize(chat, "request", parts))
    glued = {"messages": [{"role": "system", "content": "ab"}]}
    assert not compare(normalize(chat, "request", parts, expected=True), normalize(chat, "request", glued))
    spaced = {"messages": [{"role": "system", "content": "a b"}]}
    assert compare(normalize(chat, "request", parts, expected=True), normalize(chat, "request", spaced))


def test_a_function_call_output_of_one_input_text_part_is_its_text(dialects: dict[str, Any]) -> None:
    responses = dialects["openai-responses"]
    item = {"type": "function_call_output", "call_id": "c"}
    text = {"input": [{**item, "output": "ok"}]}
    part = {"input": [{**item, "output": [{"type": "input_text", "text": "ok"}]}]}
    assert normalize(responses, "request", part) == normalize(responses, "request", text)


def test_an_empty_gemini_text_part_is_no_part(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]
    call = {"functionCall": {"name": "f", "args": {}}}
    plain = {"contents": [{"role": "model", "parts": [call]}]}
    blank = {"contents": [{"role": "model", "parts": [{"text": ""}, call]}]}
    assert normalize(gemini, "request", blank) == normalize(gemini, "request", plain)
    said = {"contents": [{"role": "model", "parts": [{"text": " "}, call]}]}
    assert normalize(gemini, "request", said) != normalize(gemini, "request", plain)


def test_reasoning_handed_back_on_a_chat_message_is_read_past(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]
    plain = {"messages": [{"role": "assistant", "content": "Yes."}]}
    handed_back = (
        ("reasoning_content", "Check 31."),
        ("thinking", {"content": "Check 31.", "signature": "E"}),
    )
    for member, value in handed_back:
        handed = {"messages": [{"role": "assistant", "content": "Yes.", member: value}]}
        assert normalize(chat, "request", handed) == normalize(chat, "request", plain)
        assert wire.validate("openai-chat", "request", handed) == []
    leaked = {"messages": [{"role": "assistant", "content": "Check 31.\n\nYes."}]}
    assert normalize(chat, "request", leaked) != normalize(chat, "request", plain)


def test_reasoning_on_a_chat_response_message_is_read_past(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]
    plain = {"choices": [{"message": {"role": "assistant", "content": "Yes."}}]}
    extra = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": "Yes.",
                    "reasoning_content": "Hm.",
                    "thinking_blocks": [{"type": "thinking", "thinking": "Hm."}],
                }
            }
        ]
    }
    assert normalize(chat, "response", extra) == normalize(chat, "response", plain)


def test_a_chat_response_service_tier_is_read_past(dialects: dict[str, Any]) -> None:
    chat = dialects["openai-chat"]
    plain = {"choices": [{"message": {"role": "assistant", "content": "Yes."}}]}
    served = {**plain, "service_tier": "default", "system_fingerprint": "fp_1"}
    assert normalize(chat, "response", served) == normalize(chat, "response", plain)
    assert normalize(chat, "request", {"service_tier": "flex"}) != normalize(chat, "request", {})


def test_a_gemini_system_instruction_with_the_sdks_user_role_is_the_system_instruction(
    dialects: dict[str, Any],
) -> None:
    gemini = dialects["gemini"]
    plain = {"systemInstruction": {"parts": [{"text": "Be brief."}]}}
    as_sdk = {"systemInstruction": {"role": "user", "parts": [{"text": "Be brief."}]}}
    assert normalize(gemini, "request", as_sdk) == normalize(gemini, "request", plain)
    as_model = {"systemInstruction": {"role": "model", "parts": [{"text": "Be brief."}]}}
    assert normalize(gemini, "request", as_model) != normalize(gemini, "request", plain)


def test_a_completed_status_on_a_responses_output_item_says_what_none_says(dialects: dict[str, Any]) -> None:
    responses = dialects["openai-responses"]
    item = {"type": "reasoning", "id": "rs_1", "summary": []}
    plain = {"status": "completed", "output": [item]}
    assert normalize(responses, "response", {**plain, "output": [{**item, "status": "completed"}]}) == (
        normalize(responses, "response", plain)
    )
    cut = {**plain, "output": [{**item, "status": "incomplete"}]}
    assert normalize(responses, "response", cut) != normalize(responses, "response", plain)


def test_a_blank_bedrock_tool_description_is_none(dialects: dict[str, Any]) -> None:
    bedrock = dialects["bedrock-converse"]
    spec = {"name": "f", "inputSchema": {"json": {"type": "object"}}}
    blank = [{"toolSpec": {**spec, "description": " "}}]
    assert normalize(bedrock, "tools", blank) == normalize(bedrock, "tools", [{"toolSpec": spec}])
    named = [{"toolSpec": {**spec, "description": "f"}}]
    assert normalize(bedrock, "tools", named) != normalize(bedrock, "tools", [{"toolSpec": spec}])


def test_an_empty_gemini_function_calling_config_is_the_automatic_default(dialects: dict[str, Any]) -> None:
    gemini = dialects["gemini"]
    empty = {"toolConfig": {"functionCallingConfig": {}}}
    assert normalize(gemini, "tool_choice", empty) == normalize(gemini, "tool_choice", {})
    forced = {"toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}
    assert normalize(gemini, "tool_choice", forced) != normalize(gemini, "tool_choice", empty)


def test_a_mutated_input_does_not_hide_a_wrong_output(corpus: Any) -> None:
    """A translator that alters the caller's payload and also gets the output wrong fails on both: the
    mutation is one finding, the output's difference another (neither hides behind the other)."""
    check = response_check(corpus, "calls/response-anthropic-parallel-with-text-capture", "openai-chat")
    wrong = copy.deepcopy(check.expectation["payload"])
    wrong["choices"][0]["finish_reason"] = "stop"
    wrong["created"] = 1
    for call in wrong["choices"][0]["message"]["tool_calls"]:
        call["function"]["arguments"] = json.dumps(call["function"]["arguments"]["$json"])
    result = judge(check, Answer("payload", payload=wrong, mutated="/content/0/text"))
    assert result.outcome == "failed"
    assert "/choices/0/finish_reason" in str(result.diff)
    assert str(result.message).endswith(
        "mutated its input: the payload it was handed differs afterwards at /content/0/text"
    )
    record = {
        "id": check.id,
        "kind": check.kind,
        "source": check.source,
        "target": check.target,
        "outcome": "failed",
        "message": result.message,
        "differences": result.differences,
    }
    found = find_bugs([record])
    assert {f.signature[0] for f in found} == {"diff", "mutated"}
    assert any("finish_reason" in f.plain_title() for f in found)
