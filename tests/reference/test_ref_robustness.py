"""Any malformed input gives a TranslationError (never another exception) and is never modified."""

import copy
import json
import pathlib
import random

import pytest
from ref_helpers import obj
from toolwire_reference import TranslationError, translate
from toolwire_reference._json import MAX_DEPTH
from toolwire_reference.registry import NAMES as DIALECTS
from toolwire_reference.rules import PROFILE_VALUES

CASES = pathlib.Path(__file__).resolve().parents[2] / "corpus" / "cases"
WEIRD = [
    None,
    True,
    0,
    -1,
    1.5,
    "",
    "x",
    "OBJECT",
    "null",
    [],
    {},
    [None],
    ["x"],
    {"type": None},
    {"$ref": "#"},
    {"$ref": "#/nope"},
    {"type": "array"},
    {"anyOf": None},
    {"type": {}},
]
KEYS = [
    "type",
    "items",
    "properties",
    "required",
    "enum",
    "nullable",
    "$ref",
    "oneOf",
    "additionalProperties",
    "format",
    "const",
    "default",
    "tool_choice",
    "mode",
    "name",
    "function",
    "parameters",
]
BUILTIN = [
    (
        "tools",
        "canonical",
        [
            {
                "name": "a",
                "description": "d",
                "parameters": obj(
                    {
                        "x": {"type": "array", "items": {"$ref": "#/$defs/i"}},
                        "y": {"anyOf": [{"type": "string"}]},
                    },
                    ["x"],
                    **{"$defs": {"i": obj({"z": {"type": "integer", "enum": [1]}})}},
                ),
            }
        ],
    ),
    (
        "tools",
        "gemini",
        [
            {
                "functionDeclarations": [
                    {
                        "name": "a",
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {"n": {"type": "STRING", "nullable": True}},
                        },
                    }
                ]
            }
        ],
    ),
    (
        "tool_choice",
        "openai-chat",
        {
            "tool_choice": {
                "type": "allowed_tools",
                "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "function": {"name": "a"}}]},
            },
            "parallel_tool_calls": False,
        },
    ),
    (
        "tool_choice",
        "gemini",
        {"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["a"]}}},
    ),
    (
        "tool_choice",
        "anthropic",
        {"tool_choice": {"type": "tool", "name": "a", "disable_parallel_tool_use": True}},
    ),
]


def _seeds():
    seeds = list(BUILTIN)
    for path in sorted(CASES.glob("*/*.json")):
        case = json.loads(path.read_text())
        if case.get("kind") in ("tools", "tool_choice"):
            seeds.append((case["kind"], case["source"]["dialect"], case["source"]["payload"]))
    return seeds


def _mutate(rnd, value):
    value = copy.deepcopy(value)
    places = [()]
    stack = [((), value)]
    while stack:
        path, node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, sub in items:
            places.append(path + (key,))
            stack.append((path + (key,), sub))
    path = rnd.choice(places)
    if not path:
        return copy.deepcopy(rnd.choice(WEIRD))
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    roll = rnd.random()
    if roll < 0.6 or not isinstance(parent, dict):
        parent[path[-1]] = copy.deepcopy(rnd.choice(WEIRD))
    elif roll < 0.8:
        del parent[path[-1]]
    else:
        parent[rnd.choice(KEYS)] = copy.deepcopy(rnd.choice(WEIRD))
    return value


def test_fuzzed_payloads_only_raise_translation_errors():
    rnd = random.Random(20240601)
    seeds = _seeds()
    for _ in range(3000):
        kind, source, payload = rnd.choice(seeds)
        for _ in range(rnd.randint(1, 3)):
            payload = _mutate(rnd, payload)
        before = copy.deepcopy(payload)
        profile = {key: rnd.choice(values) for key, values in PROFILE_VALUES.items()}
        target = rnd.choice(DIALECTS)
        try:
            json.dumps(translate(kind, payload, source=source, target=target, profile=profile))
        except TranslationError as err:
            assert err.path == "" or err.path.startswith("/")
            assert err.message
        assert payload == before


# ---- reproducers of the fuzzing campaign (issue 13): each is a coded error with a path, or a translation

TARGETS = DIALECTS


def _refusal(kind, payload, source, target, profile=None) -> TranslationError:
    with pytest.raises(TranslationError) as info:
        translate(kind, payload, source=source, target=target, profile=profile)
    assert info.value.path == "" or info.value.path.startswith("/")
    return info.value


def _canonical_stream(*events):
    return [{"data": {"type": "message_start", "id": "m", "model": "x"}}] + [{"data": e} for e in events]


def _anthropic_stream(block, *deltas):
    def event(data):
        return {"event": data["type"], "data": data}

    start = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [],
        "stop_reason": None,
    }
    return [
        event(
            {"type": "message_start", "message": {**start, "usage": {"input_tokens": 1, "output_tokens": 1}}}
        ),
        event({"type": "content_block_start", "index": 0, "content_block": block}),
        *(event({"type": "content_block_delta", "index": 0, "delta": d}) for d in deltas),
        event({"type": "content_block_stop", "index": 0}),
        event({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}}),
        event({"type": "message_stop"}),
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_lone_surrogates_are_translated(target):
    out = translate("text", "\ud800", source="text", target=target)
    json.dumps(out)
    stream = _canonical_stream(
        {"type": "tool_call_start", "index": 0, "id": "\udc00", "name": "f"},
        {"type": "block_end", "index": 0},
        {"type": "message_end", "stop_reason": "tool_use"},
    )
    stream[0]["data"]["model"] = "\ud800"
    json.dumps(translate("stream", stream, source="canonical", target=target))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("usage", [{}, {"input_tokens": 1}, {"output_tokens": 1}])
def test_canonical_message_end_usage_needs_both_counts(target, usage):
    stream = _canonical_stream({"type": "message_end", "stop_reason": "end_turn", "usage": usage})
    err = _refusal("stream", stream, "canonical", target)
    assert (err.code, err.path.rsplit("/", 1)[0]) == ("stream.invalid_event", "/1/data/usage")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("block", "delta"),
    [
        ({"type": "text", "text": ""}, {"type": "text_delta", "text": 1}),
        (
            {"type": "tool_use", "id": "t", "name": "f", "input": {}},
            {"type": "input_json_delta", "partial_json": 1.5},
        ),
        (
            {"type": "tool_use", "id": "t", "name": "f", "input": {}},
            {"type": "input_json_delta", "partial_json": [","]},
        ),
        ({"type": "thinking", "thinking": ""}, {"type": "thinking_delta", "thinking": -1}),
        ({"type": "tool_use", "id": True, "name": "f", "input": {}}, None),
    ],
)
def test_stream_fragments_of_the_wrong_type(target, block, delta):
    stream = _anthropic_stream(block, *([delta] if delta else []))
    err = _refusal("stream", stream, "anthropic", target, {"stream.thinking": "keep"})
    assert err.code == "stream.invalid_event"
    assert err.path == ("/2/data" if delta else "/1/data")


@pytest.mark.parametrize("target", TARGETS)
def test_responses_done_arguments_must_be_a_string(target):
    def event(data):
        return {"event": data["type"], "data": data}

    item = {
        "type": "function_call",
        "id": "fc",
        "call_id": "c",
        "name": "f",
        "arguments": "",
        "status": "in_progress",
    }
    response = {
        "id": "r",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "status": "in_progress",
        "output": [],
    }
    stream = [
        event({"type": "response.created", "sequence_number": 0, "response": response}),
        event({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item}),
        event(
            {
                "type": "response.function_call_arguments.done",
                "sequence_number": 2,
                "output_index": 0,
                "item_id": "fc",
                "arguments": ["{"],
            }
        ),
    ]
    err = _refusal("stream", stream, "openai-responses", target)
    assert (err.code, err.path) == ("stream.invalid_event", "/2/data")


@pytest.mark.parametrize("payload", [{"a": 1}, 5, "events", None])
def test_a_stream_is_an_array(payload):
    err = _refusal("stream", payload, "canonical", "anthropic")
    assert (err.code, err.path) == ("payload.invalid", "")


_STARTS = {
    "anthropic": {"data": {"type": "message_start", "message": {"id": "msg_1", "model": "m", "usage": {}}}},
    "bedrock-converse": {"event": "messageStart", "data": {"role": "assistant"}},
    "openai-responses": {"data": {"type": "response.created", "response": {"id": "resp_1", "model": "m"}}},
}
_NAMING_A_METHOD = {  # event types that once named a decoder's own method (``"_" + type``)
    "anthropic": [{"data": {"type": "_init__"}}, {"data": {"type": "_class__"}}],
    "bedrock-converse": [{"event": "_init__", "data": {}}, {"event": "index", "data": {}}],
    "openai-responses": [{"data": {"type": "response._init__"}}, {"data": {"type": "response.item"}}],
}


@pytest.mark.parametrize("source", sorted(_STARTS))
def test_an_event_type_names_no_method_of_the_decoder(source):
    for event in _NAMING_A_METHOD[source]:
        err = _refusal("stream", [_STARTS[source], event], source, "openai-chat")
        # Anthropic and Bedrock refuse an unknown event; Responses ignores it (then the stream is cut short)
        assert err.code in ("stream.invalid_event", "stream.truncated"), (event, err)
        assert err.code == "stream.truncated" or err.path.startswith("/1/data"), (event, err)


def _gemini_format(schema):
    return {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"responseMimeType": "application/json", "responseSchema": schema},
    }


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini"])
@pytest.mark.parametrize("required", [[[]], [{}]])
def test_response_format_schemas_get_the_shape_checks(target, required):
    schema = {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "required": required}
    err = _refusal("request", _gemini_format(schema), "gemini", target)
    assert (err.code, err.path) == ("payload.invalid", "/generationConfig/responseSchema/required/0")
    fmt = {"type": "json_schema", "name": "x", "schema": obj({"a": {"type": ["string", {}]}})}
    err = _refusal(
        "request", {"model": "m", "input": "hi", "text": {"format": fmt}}, "openai-responses", target
    )
    assert (err.code, err.path) == ("schema.invalid_type", "/text/format/schema/properties/a/type")


@pytest.mark.parametrize("target", TARGETS)
def test_a_tool_type_that_is_not_a_string(target):
    # found by the property test: an unhashable `type` was looked up in the hosted-tool types
    err = _refusal(
        "request",
        {"model": "m", "input": "hi", "tools": [{"type": ["web_search"]}]},
        "openai-responses",
        target,
    )
    assert (err.code, err.path) == ("payload.invalid", "/tools/0/type")


@pytest.mark.parametrize("target", TARGETS)
def test_request_parts_of_the_wrong_shape(target):
    chat = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": {}}]}]}
    err = _refusal("request", chat, "openai-chat", target)
    assert (err.code, err.path) == ("payload.invalid", "/messages/1/content/0/type")
    gemini = {"contents": [{"role": "user", "parts": [{"text": "hm", "thought": True}]}]}
    err = _refusal("request", gemini, "gemini", target)
    assert (err.code, err.path) == ("message.invalid_role", "/contents/0/parts/0/thought")
    call = {"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}
    result = {"type": "tool_result", "call_id": "c1", "content": [{"type": "json"}]}
    canonical = {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [result]},
        ]
    }
    err = _refusal("request", canonical, "canonical", target)
    assert (err.code, err.path) == ("payload.invalid", "/messages/2/content/0/content/0/value")


def _nested(levels: int, leaf=None):
    value = {} if leaf is None else leaf
    for _ in range(levels - 1):
        value = [value]
    return value


def _deep_payloads(levels: int):
    """A payload of every kind whose deepest container is ``levels`` levels below the root."""
    args = "[" * levels + "]" * levels
    chat_call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": '{"a":' + args + "}"}}
    return [
        ("tools", "canonical", [{"name": "f", "parameters": _nested(levels - 2)}]),
        ("tool_choice", "anthropic", {"tool_choice": _nested(levels - 1)}),
        ("request", "canonical", {"messages": _nested(levels - 1)}),
        ("response", "openai-chat", {"choices": _nested(levels - 1)}),
        ("stream", "canonical", [{"data": _nested(levels - 2)}]),
        ("text", "text", '<tool_call>{"name":"f","arguments":' + args + "}</tool_call>"),
        ("request", "openai-chat", {"messages": [{"role": "assistant", "tool_calls": [chat_call]}]}),
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_ten_thousand_levels_deep_is_payload_too_deep(target):
    for kind, source, payload in _deep_payloads(10_000):
        err = _refusal(kind, payload, source, target)
        assert err.code == "payload.too_deep", (kind, source, err)
        assert str(MAX_DEPTH) in err.message


def test_the_depth_limit_is_the_same_in_every_kind():
    for kind, source, payload in _deep_payloads(MAX_DEPTH + 1)[:5]:
        assert _refusal(kind, payload, source, "canonical").code == "payload.too_deep", kind
    for kind, source, payload in _deep_payloads(MAX_DEPTH)[:5]:
        try:
            translate(kind, payload, source=source, target="canonical")
        except TranslationError as err:
            assert err.code != "payload.too_deep", (kind, err)


@pytest.mark.parametrize("target", TARGETS)
def test_deep_but_allowed_schemas_and_arguments_translate(target):
    schema = {"type": "string"}
    for _ in range(MAX_DEPTH - 6):
        schema = {"type": "array", "items": schema}
    tools = [{"type": "function", "function": {"name": "f", "parameters": obj({"x": schema})}}]
    profile = {"openai.strict": "off"}
    json.dumps(translate("tools", tools, source="openai-chat", target=target, profile=profile))
    args = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)  # the call object and its arguments are 2 levels
    text = '<tool_call>{"name":"f","arguments":{"a":' + args + "}}</tool_call>"
    json.dumps(translate("text", text, source="text", target=target))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("source", "payload", "path"),
    [
        ("anthropic", {"type": "any"}, "/type"),
        ("anthropic", {"tool_choice": {"type": "any"}, "bogus": 1}, "/bogus"),
        ("openai-chat", {"tool_choice": "auto", "foo": 1}, "/foo"),
        ("gemini", {"mode": "ANY"}, "/mode"),
    ],
)
def test_tool_choice_members_are_checked(target, source, payload, path):
    err = _refusal("tool_choice", payload, source, target)
    assert (err.code, err.path) == ("payload.invalid", path)


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "anthropic", "gemini"])
def test_tool_choice_names_follow_the_target_name_rule(target):
    err = _refusal("tool_choice", {"tool_choice": {"type": "tool", "name": "a b!"}}, "anthropic", target)
    assert (err.code, err.path) == ("tool.invalid_name", "/tool_choice")


@pytest.mark.parametrize(
    ("source", "payload", "target"),
    [
        ("anthropic", {"model": "m", "max_tokens": 50, "messages": []}, "openai-chat"),
        ("anthropic", {"model": "m", "max_tokens": 50, "messages": []}, "gemini"),
        ("canonical", {"system": [{"type": "text", "text": "be brief"}], "messages": []}, "anthropic"),
    ],
)
def test_a_request_without_a_message_is_refused_where_the_target_needs_one(source, payload, target):
    # found by `make fuzz`: the output was an empty `messages` / `contents`, which the target rejects
    with pytest.raises(TranslationError) as caught:
        translate("request", payload, source=source, target=target)
    assert caught.value.code == "payload.invalid" and "requires at least one" in str(caught.value)
    # a system prompt is a message in OpenAI Chat; Responses takes an empty input
    assert translate("request", payload, source=source, target="openai-responses")["input"] == []


# -- found by `make fuzz`: an accepted output must be valid for the target's wire schema ---------------------
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("parameters", "path"),
    [
        ({"type": "object", "properties": None, "required": ["city"]}, "/0/parameters/properties"),
        ({"type": "object", "properties": {"city": None}}, "/0/parameters/properties/city"),
        (
            {"type": "object", "properties": {"city": {"type": "string", "description": None}}},
            "/0/parameters/properties/city/description",
        ),
        ({"type": "object", "anyOf": [{"type": "object"}, None]}, "/0/parameters/anyOf/1"),
        (
            {"type": "object", "properties": {"city": {"type": "array", "items": None}}},
            "/0/parameters/properties/city/items",
        ),
    ],
)
def test_a_null_schema_keyword_is_refused(target, parameters, path):
    err = _refusal("tools", [{"name": "get_weather", "parameters": parameters}], "canonical", target)
    assert (err.code, err.path) == ("schema.null_value", path)


@pytest.mark.parametrize("target", ["canonical", "openai-chat", "openai-responses", "anthropic"])
def test_null_values_of_values_stay(target):
    unit = {"const": None, "default": None, "enum": [None, "c"]}
    schema = {"type": "object", "properties": {"unit": unit}}
    out = translate("tools", [{"name": "f", "parameters": schema}], source="canonical", target=target)
    assert json.dumps(unit) in json.dumps(out)


@pytest.mark.parametrize("name", ["", "first name", "a" * 65, "naïve"])
def test_anthropic_refuses_property_names_it_does_not_take(name):
    tools = [{"name": "f", "parameters": {"type": "object", "properties": {"ok": {}, name: {}}}}]
    err = _refusal("tools", tools, "canonical", "anthropic")
    assert (err.code, err.path) == ("schema.invalid_property_name", "/0/parameters/properties/" + name)
    assert translate("tools", tools, source="canonical", target="openai-chat")  # (Anthropic's rule only)


@pytest.mark.parametrize("target", TARGETS)
def test_an_empty_stop_list_is_absent(target):
    chat = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Count to ten."}], "stop": []}
    out = translate("request", chat, source="openai-chat", target=target)
    assert not {"stop", "stop_sequences"} & set(out)
    assert "stopSequences" not in out.get("generationConfig", {})


def test_an_empty_turn_is_left_out_for_anthropic():
    gemini = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": []},
            {"role": "user", "parts": [{"text": "and?"}]},
        ]
    }
    out = translate("request", gemini, source="gemini", target="anthropic")
    assert [m["role"] for m in out["messages"]] == ["user", "user"]
    assert all(m["content"] for m in out["messages"])


@pytest.mark.parametrize("target", TARGETS)
def test_a_type_list_naming_a_type_twice_is_refused(target):
    tools = [{"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": ["null", "null"]}}}}]
    err = _refusal("tools", tools, "canonical", target)
    assert (err.code, err.path) == ("schema.invalid_type", "/0/parameters/properties/a/type")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("budget", [0, -2])
def test_a_token_budget_below_one_is_refused(target, budget):
    body = {"model": "m", "max_tokens": budget, "messages": [{"role": "user", "content": "hi"}]}
    err = _refusal("request", body, "anthropic", target)
    assert (err.code, err.path) == ("payload.invalid", "/max_tokens")


def test_responses_takes_sixteen_output_tokens_or_more():
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    err = _refusal("request", body, "anthropic", "openai-responses")
    assert (err.code, err.path) == ("request.unsupported_field", "/max_tokens")
    degrade = {"unsupported": "degrade"}
    out = translate("request", body, source="anthropic", target="openai-responses", profile=degrade)
    assert out["max_output_tokens"] == 16


def test_more_of_what_make_fuzz_found():
    # an empty `anyOf` (JSON Schema asks for at least one schema), an empty model name, an item id that
    # is not a Responses one
    tools = [{"name": "f", "parameters": {"type": "object", "properties": {"k": {"anyOf": []}}}}]
    err = _refusal("tools", tools, "canonical", "anthropic")
    assert (err.code, err.path) == ("payload.invalid", "/0/parameters/properties/k/anyOf")
    chat = {"model": "", "messages": [{"role": "user", "content": "hi"}]}
    assert "model" not in translate("request", chat, source="openai-chat", target="openai-responses")
    call = {"type": "function_call", "id": "null", "call_id": "call_1", "name": "f", "arguments": "{}"}
    response = {"id": "resp_1", "object": "response", "model": "m", "status": "completed", "output": [call]}
    out = translate("response", response, source="openai-responses", target="openai-responses")
    assert out["output"][0]["id"].startswith("fc_")


@pytest.mark.parametrize("call_id", ["call:1", "tool|x", "fc.1", "\U000aa917qZ"])
def test_anthropic_gets_ids_it_takes_paired_with_their_results(call_id):
    call = {"type": "tool_call", "id": call_id, "name": "f", "arguments": {}}
    result = {"type": "tool_result", "call_id": call_id, "content": [{"type": "text", "text": "ok"}]}
    canonical = {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [result]},
        ]
    }
    out = translate("request", canonical, source="canonical", target="anthropic")
    use, answer = out["messages"][1]["content"][0], out["messages"][2]["content"][0]
    assert use["id"].startswith("toolu_") and use["id"] == answer["tool_use_id"]
    assert all(c.isascii() and (c.isalnum() or c in "_-") for c in use["id"])


def test_what_a_million_random_inputs_found():
    # a nameless call in a response; a non-boolean `nullable` for Gemini; an empty text block for Anthropic
    use = {"type": "tool_use", "id": "toolu_1", "name": "", "input": {}}
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [use],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    err = _refusal("response", message, "anthropic", "gemini")
    assert (err.code, err.path) == ("response.invalid", "/content/0/name")
    nickname = {"type": "string", "nullable": -1}
    tools = [{"name": "f", "parameters": {"type": "object", "properties": {"n": nickname}}}]
    err = _refusal("tools", tools, "canonical", "gemini")
    assert (err.code, err.path) == ("payload.invalid", "/0/parameters/properties/n/nullable")
    empty = {"role": "user", "content": [{"type": "text", "text": ""}]}
    body = {"model": "m", "max_tokens": 50, "messages": [empty, {"role": "user", "content": "hi"}]}
    out = translate("request", body, source="anthropic", target="anthropic")
    assert out["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]


def test_bedrock_refuses_a_history_call_to_a_tool_it_cannot_name():
    call = {"type": "tool_call", "id": "c1", "name": "files.read", "arguments": {}}
    result = {"type": "tool_result", "call_id": "c1", "content": [{"type": "text", "text": "ok"}]}
    canonical = {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [result]},
        ]
    }
    err = _refusal("request", canonical, "canonical", "bedrock-converse")
    assert (err.code, err.path) == ("tool.invalid_name", "/messages/1/content/0")


@pytest.mark.parametrize("name", ["\ud800", "a b", "x" * 65, ""])
@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_a_response_format_name_openai_does_not_take_is_refused(name, target):
    # OpenAI's rule holds for the response format's name as for a function's: 1 to 64 of [a-zA-Z0-9_-]
    fmt = {"type": "json_schema", "name": name, "schema": {"type": "object", "": []}, "strict": True}
    body = {"model": "gpt-4.1", "input": "Extract: Ann is 31.", "text": {"format": fmt}}
    err = _refusal("request", body, "openai-responses", target)
    assert (err.code, err.path) == ("request.unsupported_field", "/text/format/name")
    degrade = {"unsupported": "degrade"}
    out = translate("request", body, source="openai-responses", target=target, profile=degrade)
    written = out["text"]["format"] if target == "openai-responses" else out["response_format"]["json_schema"]
    assert written["name"] == "response"
    mistral = translate("request", body, source="openai-responses", target="mistral")
    assert mistral["response_format"]["json_schema"]["name"] == name  # Mistral takes any string


@pytest.mark.parametrize(("target", "most"), [("anthropic", 1), ("bedrock-converse", 1), ("gemini", 2)])
def test_a_temperature_above_the_targets_maximum_is_refused(target, most):
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"temperature": 7}}
    err = _refusal("request", body, "gemini", target)
    assert (err.code, err.path) == ("request.unsupported_field", "/generationConfig/temperature")
    degrade = {"unsupported": "degrade"}
    out = translate("request", body, source="gemini", target=target, profile=degrade)
    assert most in (
        out.get("temperature"),
        out.get("inferenceConfig", {}).get("temperature"),
        out.get("generationConfig", {}).get("temperature"),
    )
    assert translate("request", body, source="gemini", target="mistral")["temperature"] == 7  # no maximum


@pytest.mark.parametrize(
    ("member", "value"), [("temperature", -1), ("top_p", 1.5), ("top_p", -0.1), ("top_k", -3)]
)
def test_a_setting_outside_its_canonical_range_is_invalid(member, value):
    body = {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": "hi"}], member: value}
    err = _refusal("request", body, "anthropic", "canonical")
    assert (err.code, err.path) == ("payload.invalid", f"/{member}")


def test_a_gemini_signature_is_base64():
    # refused in a Gemini source (at the member, whatever the kind), never written to Gemini from elsewhere
    bad = "\udbd1\udcf5th!"
    part = {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": bad}
    candidate = {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
    err = _refusal("response", {"candidates": [candidate]}, "gemini", "gemini")
    assert (err.code, err.path) == ("response.invalid", "/candidates/0/content/parts/0/thoughtSignature")
    err = _refusal("stream", [{"data": {"candidates": [candidate]}}], "gemini", "gemini")
    where = "/0/data/candidates/0/content/parts/0/thoughtSignature"
    assert (err.code, err.path) == ("stream.invalid_event", where)
    contents = [{"role": "user", "parts": [{"text": "hi"}]}, {"role": "model", "parts": [part]}]
    err = _refusal("request", {"contents": contents}, "gemini", "gemini")
    assert (err.code, err.path) == ("payload.invalid", "/contents/1/parts/0/thoughtSignature")
    call = {"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}
    call.update(signature=bad, origin="gemini")
    response = {"id": "r", "model": "m", "stop_reason": "tool_use", "content": [call]}
    out = translate("response", response, source="canonical", target="gemini")
    assert "thoughtSignature" not in out["candidates"][0]["content"]["parts"][0]


@pytest.mark.parametrize("name", [{"a": 1}, 3, ""])
def test_a_canonical_result_name_is_a_string(name):
    call = {"type": "tool_call", "id": "call_1", "name": "f", "arguments": {}}
    result = {"type": "tool_result", "call_id": "call_1", "name": name, "content": []}
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": [call]},
        {"role": "user", "content": [result]},
    ]
    err = _refusal("request", {"messages": messages}, "canonical", "gemini")
    assert (err.code, err.path) == ("payload.invalid", "/messages/2/content/0/name")


def test_a_canonical_redacted_flag_is_a_boolean():
    thinking = {"type": "thinking", "text": "x", "signature": "s", "origin": "anthropic", "redacted": "yes"}
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": [thinking, {"type": "text", "text": "ok"}]},
    ]
    err = _refusal("request", {"messages": messages}, "canonical", "canonical")
    assert (err.code, err.path) == ("payload.invalid", "/messages/1/content/0/redacted")


@pytest.mark.parametrize(
    ("source", "payload", "path"),
    [
        (
            "gemini",
            {
                "contents": [
                    {
                        "role": "user",
                        "parts": [{"inlineData": {"mimeType": "application/pdf", "data": "\udb2a\udc27C"}}],
                    }
                ]
            },
            "/contents/0/parts/0/inlineData/data",
        ),
        (
            "anthropic",
            {
                "model": "m",
                "max_tokens": 5,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image",
                                "source": {"type": "base64", "media_type": "image/png", "data": "ab!c"},
                            }
                        ],
                    }
                ],
            },
            "/messages/0/content/0/source/data",
        ),
        (
            "bedrock-converse",
            {
                "messages": [
                    {"role": "user", "content": [{"image": {"format": "png", "source": {"bytes": ""}}}]}
                ]
            },
            "/messages/0/content/0/image/source/bytes",
        ),
        (
            "openai-chat",
            {
                "model": "m",
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "image_url", "image_url": {"url": "data:image/png;base64,a b!"}}
                        ],
                    }
                ],
            },
            "/messages/0/content/0/image_url",
        ),
        (
            "canonical",
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "document", "media_type": "application/pdf", "data": "{}"}],
                    }
                ]
            },
            "/messages/0/content/0/data",
        ),
    ],
)
def test_media_data_is_base64(source, payload, path):
    err = _refusal("request", payload, source, "canonical")
    assert (err.code, err.path[: len(path)]) == ("payload.invalid", path)


def test_gemini_gets_its_bytes_without_line_breaks():
    image = {"type": "image", "media_type": "image/png", "data": "iVBO\nRw0K"}
    out = translate(
        "request", {"messages": [{"role": "user", "content": [image]}]}, source="canonical", target="gemini"
    )
    assert out["contents"][0]["parts"][0]["inlineData"]["data"] == "iVBORw0K"


def test_a_call_without_an_id_in_a_response_is_invalid():
    use = {"type": "tool_use", "id": "", "name": "f", "input": {}}
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [use],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    err = _refusal("response", message, "anthropic", "canonical")
    assert (err.code, err.path) == ("response.invalid", "/content/0/id")


def test_an_empty_call_id_is_refused_in_every_kind():
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "", "name": "f", "input": {}}]},
    ]
    err = _refusal("request", {"model": "m", "max_tokens": 5, "messages": messages}, "anthropic", "canonical")
    assert (err.code, err.path) == ("payload.invalid", "/messages/1/content/0/id")
    start = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "tool_use", "id": "", "name": "f", "input": {}},
    }
    message = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    events = [
        {"event": "message_start", "data": {"type": "message_start", "message": message}},
        {"event": "content_block_start", "data": start},
    ]
    err = _refusal("stream", events, "anthropic", "canonical")
    assert (err.code, err.path) == ("stream.invalid_event", "/1/data")


def test_a_nameless_call_in_a_request_is_refused():
    call = {"type": "function_call", "call_id": "call_1", "name": "", "arguments": "{}"}
    body = {"model": "m", "input": [{"role": "user", "content": "hi"}, call]}
    err = _refusal("request", body, "openai-responses", "anthropic")
    assert (err.code, err.path) == ("payload.invalid", "/input/1/name")


def test_a_text_document_gemini_cannot_have_as_bytes():
    doc = {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "a\udc00b"}}
    body = {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": [doc]}]}
    err = _refusal("request", body, "anthropic", "gemini")
    assert (err.code, err.path) == ("content.unsupported", "/messages/0/content/0")


@pytest.mark.parametrize("item_id", ["xyz", "", "\ud8d6\udf26Nr"])
def test_responses_gets_back_only_fc_item_ids(item_id):
    call = {"type": "function_call", "id": item_id, "call_id": "call_1", "name": "f", "arguments": "{}"}
    body = {
        "model": "m",
        "input": [
            {"role": "user", "content": "hi"},
            call,
            {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        ],
    }
    out = translate("request", body, source="openai-responses", target="openai-responses")
    assert "id" not in out["input"][1]


@pytest.mark.parametrize(
    ("event", "member"),
    [({"type": "message_start", "id": ""}, "id"), ({"type": "message_start", "model": ""}, "model")],
)
def test_a_canonical_stream_member_is_not_empty(event, member):
    events = [{"data": event}, {"data": {"type": "message_end", "stop_reason": "end_turn"}}]
    err = _refusal("stream", events, "canonical", "canonical")
    assert (err.code, err.path) == ("stream.invalid_event", f"/0/data/{member}")


@pytest.mark.parametrize(
    ("source", "payload", "path"),
    [
        (
            "anthropic",
            {
                "model": "m",
                "max_tokens": 5,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image",
                                "source": {"type": "base64", "media_type": "png", "data": "iVBO"},
                            }
                        ],
                    }
                ],
            },
            "/messages/0/content/0/source/media_type",
        ),
        (
            "gemini",
            {
                "contents": [
                    {"role": "user", "parts": [{"inlineData": {"mimeType": "image/a/b", "data": "iVBO"}}]}
                ]
            },
            "/contents/0/parts/0/inlineData/mimeType",
        ),
        (
            "openai-chat",
            {
                "model": "m",
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "image_url", "image_url": {"url": "data:image/\ud800;base64,iVBO"}}
                        ],
                    }
                ],
            },
            "/messages/0/content/0/image_url",
        ),
        (
            "canonical",
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "image", "url": "https://x/y.png", "media_type": "IMAGE/png"}],
                    }
                ]
            },
            "/messages/0/content/0/media_type",
        ),
    ],
)
def test_a_media_type_is_type_and_subtype(source, payload, path):
    err = _refusal("request", payload, source, "canonical")
    assert (err.code, err.path[: len(path)]) == ("payload.invalid", path)


def test_an_empty_signature_signs_nothing():
    call = {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": ""}
    parts = [{"text": "ok", "thoughtSignature": ""}, call]
    body = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}
    out = translate("response", body, source="gemini", target="canonical")
    assert not any("signature" in part for part in out["content"])


def test_anthropic_gets_no_empty_system_block():
    system = [{"type": "text", "text": t} for t in ("", "Be brief.", "Ok.")]
    body = {"model": "m", "max_tokens": 9, "system": system, "messages": [{"role": "user", "content": "hi"}]}
    out = translate("request", body, source="anthropic", target="anthropic")
    assert out["system"] == [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Ok."}]
    body["system"] = [{"type": "text", "text": ""}]
    assert "system" not in translate("request", body, source="anthropic", target="anthropic")


def test_an_empty_responses_item_id_is_none():
    reasoning = {"type": "reasoning", "id": "", "summary": [], "encrypted_content": "gAAA"}
    call = {"type": "function_call", "id": "", "call_id": "call_1", "name": "f", "arguments": "{}"}
    body = {
        "model": "m",
        "input": [
            {"role": "user", "content": "hi"},
            reasoning,
            call,
            {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        ],
    }
    out = translate("request", body, source="openai-responses", target="canonical")
    assert not any("item_id" in part for part in out["messages"][1]["content"])


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
@pytest.mark.parametrize("key", ["anyOf", "oneOf"])
def test_openai_strict_mode_refuses_a_root_union(target, key):
    params = {"type": "object", "properties": {"a": {"type": "string"}}, key: [{}, {}]}
    profile = {"openai.strict": "all-required"}
    with pytest.raises(TranslationError) as caught:
        translate(
            "tools", [{"name": "f", "parameters": params}], source="canonical", target=target, profile=profile
        )
    assert (caught.value.code, caught.value.path) == ("schema.root_not_object", f"/0/parameters/{key}")


def test_no_output_the_targets_wire_schema_rejects():
    """What a fuzzing trial found accepted and written in a form the target refuses: an Anthropic image URL
    that is no URL, or a base64 "image" of another media type (both invalid Anthropic input: refused);
    ``properties`` on a string node toward Gemini (it constrains nothing there: dropped); a call's item id
    that is not an ``fc`` one toward a Responses client (one is derived)."""
    from toolwire.corpus import wire

    def image(source: dict) -> dict:
        return {"model": "m", "max_tokens": 5,
                "messages": [{"role": "user", "content": [{"type": "image", "source": source}]}]}  # fmt: skip

    err = _refusal("request", image({"type": "url", "url": "not a url"}), "anthropic", "openai-chat")
    assert (err.code, err.path) == ("payload.invalid", "/messages/0/content/0/source/url")
    plain = image({"type": "base64", "media_type": "text/plain", "data": "aGk="})
    err = _refusal("request", plain, "anthropic", "openai-chat")
    assert (err.code, err.path) == ("payload.invalid", "/messages/0/content/0/source/media_type")
    good = image({"type": "url", "url": "https://example.com/a.png"})
    assert (
        wire.validate(
            "openai-chat", "request", translate("request", good, source="anthropic", target="openai-chat")
        )
        == []
    )

    node = {"type": "string", "required": ["b"], "properties": {"b": {"type": "string"}}}
    tools = [{"name": "f", "parameters": {"type": "object", "properties": {"a": node}}}]
    out = translate("tools", tools, source="canonical", target="gemini")
    assert out[0]["functionDeclarations"][0]["parameters"]["properties"]["a"] == {"type": "string"}
    assert wire.validate("gemini", "tools", out) == []

    call = {"type": "tool_call", "id": "call_1", "name": "f", "arguments": {}, "item_id": "xyz"}
    body = {"id": "r1", "model": "m", "content": [call], "stop_reason": "tool_use",
            "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    out = translate("response", body, source="canonical", target="openai-responses")
    assert (
        out["output"][0]["id"].startswith("fc_") and wire.validate("openai-responses", "response", out) == []
    )
