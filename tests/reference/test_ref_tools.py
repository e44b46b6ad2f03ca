"""Tool decoding per dialect and the checks made for every target."""

import pytest
from ref_helpers import obj, refusal, run, tool
from toolwire_reference.registry import NAMES as DIALECTS

SCHEMA = obj({"city": {"type": "string"}}, ["city"])


# ---- decoding ---------------------------------------------------------------------------------


def test_openai_chat_decode_and_null_strict():
    wire = [
        {
            "type": "function",
            "function": {"name": "a", "description": "d", "parameters": SCHEMA, "strict": None},
        }
    ]
    assert run("tools", wire, "openai-chat", "canonical") == [
        {"name": "a", "description": "d", "parameters": SCHEMA}
    ]


def test_openai_chat_custom_tool_unsupported():
    wire = [{"type": "function", "function": {"name": "a"}}, {"type": "custom", "custom": {"name": "g"}}]
    assert refusal("tools", wire, "openai-chat", "anthropic") == ("tool.unsupported_type", "/1/type")


@pytest.mark.parametrize(
    "wire, path",
    [
        ([{"function": {"name": "a"}}], "/0/type"),
        ([{"type": "function"}], "/0/function"),
        ([{"type": "function", "function": "a"}], "/0/function"),
        ([{"type": "function", "function": {"name": "a", "description": 3}}], "/0/function/description"),
        ([{"type": "function", "function": {"name": "a", "strict": "yes"}}], "/0/function/strict"),
        ([["a"]], "/0"),
        ({"type": "function"}, ""),
    ],
)
def test_openai_chat_bad_shapes(wire, path):
    assert refusal("tools", wire, "openai-chat", "canonical") == ("payload.invalid", path)


def test_openai_responses_decode_absent_strict_is_undeclared():
    wire = [{"type": "function", "name": "a", "parameters": SCHEMA}]
    assert run("tools", wire, "openai-responses", "canonical") == [{"name": "a", "parameters": SCHEMA}]
    wire[0]["strict"] = False
    assert run("tools", wire, "openai-responses", "canonical")[0]["strict"] is False


@pytest.mark.parametrize("kind", ["web_search", "file_search", "mcp"])
def test_openai_responses_hosted_tools_unsupported(kind):
    assert refusal("tools", [{"type": kind}], "openai-responses", "openai-chat") == (
        "tool.unsupported_type",
        "/0/type",
    )


def test_anthropic_decode_drops_hints_and_accepts_custom_type():
    wire = [
        {
            "type": "custom",
            "name": "a",
            "input_schema": SCHEMA,
            "cache_control": {"type": "ephemeral"},
            "defer_loading": True,
            "input_examples": [{"city": "x"}],
            "eager_input_streaming": True,
            "allowed_callers": ["direct"],
            "strict": True,
        }
    ]
    assert run("tools", wire, "anthropic", "canonical") == [
        {"name": "a", "parameters": SCHEMA, "strict": True}
    ]


def test_anthropic_server_tool_and_missing_input_schema():
    wire = [{"type": "web_search_20250305", "name": "web_search"}]
    assert refusal("tools", wire, "anthropic", "openai-chat") == ("tool.unsupported_type", "/0/type")
    assert refusal("tools", [{"name": "a"}], "anthropic", "canonical") == (
        "payload.invalid",
        "/0/input_schema",
    )
    wire = [{"name": "a", "input_schema": None}]
    assert refusal("tools", wire, "anthropic", "canonical") == ("tool.invalid_parameters", "/0/input_schema")


def test_gemini_decode_several_entries_and_snake_case():
    wire = [
        {"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT", "properties": {}}}]},
        {"function_declarations": [{"name": "b", "parameters_json_schema": SCHEMA}, {"name": "c"}]},
    ]
    assert run("tools", wire, "gemini", "canonical") == [
        {"name": "a", "parameters": {"type": "object", "properties": {}}},
        {"name": "b", "parameters": SCHEMA},
        {"name": "c"},
    ]


def test_gemini_decode_openapi_schema():
    params = {
        "type": "OBJECT",
        "properties": {
            "n": {"type": "INTEGER", "nullable": True, "format": "int32"},
            "e": {"type": "string", "enum": ["a", "b"], "nullable": True},
            "l": {"type": "ARRAY", "items": {"type": "STRING"}, "min_items": "1"},
            "u": {"any_of": [{"type": "STRING"}, {"type": "NUMBER"}], "nullable": True},
        },
        "required": ["n"],
        "propertyOrdering": ["n", "e", "l", "u"],
    }
    out = run(
        "tools", [{"functionDeclarations": [{"name": "a", "parameters": params}]}], "gemini", "canonical"
    )
    assert out[0]["parameters"] == {
        "type": "object",
        "properties": {
            "n": {"type": ["integer", "null"], "format": "int32"},
            "e": {"type": ["string", "null"], "enum": ["a", "b", None]},
            "l": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "u": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]},
        },
        "required": ["n"],
    }


def test_gemini_error_paths_mirror_the_source_schema():
    params = {"type": "OBJECT", "properties": {"u": {"any_of": [{"type": "TEXT"}]}}}
    wire = [{"functionDeclarations": [{"name": "a", "parameters": params}]}]
    assert refusal("tools", wire, "gemini", "anthropic") == (
        "schema.invalid_type",
        "/0/functionDeclarations/0/parameters/properties/u/any_of/0/type",
    )


def test_gemini_other_tools_and_shapes():
    wire = [{"functionDeclarations": []}, {"googleSearch": {}}]
    assert refusal("tools", wire, "gemini", "canonical") == ("tool.unsupported_type", "/1/googleSearch")
    assert refusal("tools", [{}], "gemini", "canonical") == ("payload.invalid", "/0/functionDeclarations")
    wire = [{"functionDeclarations": [{"name": "a", "parameters": SCHEMA, "parametersJsonSchema": SCHEMA}]}]
    assert refusal("tools", wire, "gemini", "canonical") == (
        "payload.invalid",
        "/0/functionDeclarations/0/parametersJsonSchema",
    )
    wire = [{"functionDeclarations": [{"name": "a", "parameters": ["x"]}]}]
    assert refusal("tools", wire, "gemini", "canonical") == (
        "tool.invalid_parameters",
        "/0/functionDeclarations/0/parameters",
    )


def test_canonical_is_closed():
    assert refusal("tools", tool(SCHEMA, input_schema={}), "canonical", "canonical") == (
        "payload.invalid",
        "/0/input_schema",
    )


# ---- checks for every target -----------------------------------------------------------------


@pytest.mark.parametrize("target", DIALECTS)
def test_missing_name(target):
    assert refusal("tools", [{"parameters": SCHEMA}], "canonical", target) == ("tool.missing_name", "/0/name")
    assert refusal("tools", [{"name": 7}], "canonical", target) == ("tool.missing_name", "/0/name")


@pytest.mark.parametrize("target", DIALECTS)
def test_duplicate_name_points_at_the_second(target):
    tools = [{"name": "a"}, {"name": "b"}, {"name": "a"}]
    assert refusal("tools", tools, "canonical", target) == ("tool.duplicate_name", "/2/name")


def test_duplicate_name_across_gemini_entries():
    wire = [
        {"functionDeclarations": [{"name": "a"}]},
        {"functionDeclarations": [{"name": "b"}, {"name": "a"}]},
    ]
    assert refusal("tools", wire, "gemini", "openai-chat") == (
        "tool.duplicate_name",
        "/1/functionDeclarations/1/name",
    )


@pytest.mark.parametrize(
    "name, ok",
    {
        "canonical": [("a b.c:d", True), ("", False)],
        "openai-chat": [("a" * 64, True), ("a" * 65, False), ("a.b", False), ("a b", False), ("9a", True)],
        "openai-responses": [("a" * 128, True), ("a" * 129, False), ("a:b", False)],
        "anthropic": [("get-weather_2", True), ("a" * 128, True), ("a" * 129, False), ("a\n", False)],
        "gemini": [("a.b:c-d", True), ("9a", False), ("_a", True), ("a" * 128, True), ("a" * 129, False)],
    }.items(),
)
def test_target_name_rules(name, ok):
    target = name
    for candidate, valid in ok:
        if valid:
            assert run("tools", [{"name": candidate}], "canonical", target)
        else:
            assert refusal("tools", [{"name": candidate}], "canonical", target) == (
                "tool.invalid_name",
                "/0/name",
            )


def test_description_profiles():
    assert run("tools", [{"name": "a"}], "canonical", "anthropic") == [
        {"name": "a", "input_schema": {"type": "object", "properties": {}}}
    ]
    assert refusal("tools", [{"name": "a"}], "canonical", "anthropic", description="required") == (
        "tool.missing_description",
        "/0",
    )
    wire = [{"type": "function", "function": {"name": "a", "description": ""}}]
    assert refusal("tools", wire, "openai-chat", "gemini", description="required") == (
        "tool.missing_description",
        "/0",
    )
    assert refusal("tools", [{"name": "a", "description": None}], "canonical", "canonical") == (
        "payload.invalid",
        "/0/description",
    )


@pytest.mark.parametrize("params", ['{"type": "object"}', None, [], 3])
def test_parameters_not_an_object(params):
    assert refusal("tools", [{"name": "a", "parameters": params}], "canonical", "openai-chat") == (
        "tool.invalid_parameters",
        "/0/parameters",
    )


@pytest.mark.parametrize("target", DIALECTS)
@pytest.mark.parametrize(
    "params",
    [
        {"properties": {}},
        {"type": "array", "items": {"type": "string"}},
        {"type": ["object", "null"], "properties": {}},
        {"anyOf": [obj(), obj()]},
    ],
)
def test_root_must_be_object(target, params):
    assert refusal("tools", [{"name": "a", "parameters": params}], "canonical", target) == (
        "schema.root_not_object",
        "/0/parameters",
    )


@pytest.mark.parametrize("target", DIALECTS)
def test_invalid_types_anywhere(target):
    params = obj({"a": {"type": "array", "items": {"type": ["string", "float"]}}})
    assert refusal("tools", tool(params), "canonical", target) == (
        "schema.invalid_type",
        "/0/parameters/properties/a/items/type",
    )
    params = obj({"$defs": {}}, **{"$defs": {"x": {"type": "str"}}})
    assert refusal("tools", tool(params), "canonical", target) == (
        "schema.invalid_type",
        "/0/parameters/$defs/x/type",
    )


@pytest.mark.parametrize(
    "params, path",
    [
        (obj(required="city"), "/0/parameters/required"),
        (obj({"a": {"type": "string"}}, [1]), "/0/parameters/required/0"),
        ({"type": "object", "properties": []}, "/0/parameters/properties"),
        (obj({"a": 3}), "/0/parameters/properties/a"),
        (obj({"a": {"anyOf": {"type": "string"}}}), "/0/parameters/properties/a/anyOf"),
        (obj({"a": {"enum": "x"}}), "/0/parameters/properties/a/enum"),
        (obj({"a": {"description": 5}}), "/0/parameters/properties/a/description"),
    ],
)
def test_schema_shape_is_payload_invalid(params, path):
    assert refusal("tools", tool(params), "canonical", "anthropic") == ("payload.invalid", path)


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf", "allOf"])
@pytest.mark.parametrize("unsupported", ["error", "degrade"])
def test_anthropic_refuses_a_root_combinator_next_to_object(keyword, unsupported):
    params = obj({"a": {"type": "string"}, "b": {"type": "string"}}, **{keyword: [{"required": ["a"]}]})
    assert refusal("tools", tool(params), "canonical", "anthropic", unsupported=unsupported) == (
        "schema.root_not_object",
        f"/0/parameters/{keyword}",
    )
    # only Anthropic has the rule; a nested combinator is fine for Anthropic too
    assert run("tools", tool(params), "canonical", "canonical")[0]["parameters"] == params
    nested = obj({"a": {keyword: [{"type": "string"}, {"type": "integer"}]}})
    assert run("tools", tool(nested), "canonical", "anthropic")[0]["input_schema"] == nested


def test_anthropic_root_combinator_paths_point_into_the_source():
    schema = obj({"a": {"type": "string"}}, oneOf=[{"required": ["a"]}])
    wire = [{"name": "a", "input_schema": schema}]
    assert refusal("tools", wire, "anthropic", "anthropic") == (
        "schema.root_not_object",
        "/0/input_schema/oneOf",
    )
    wire = [{"type": "function", "function": {"name": "a", "parameters": schema}}]
    assert refusal("tools", wire, "openai-chat", "anthropic") == (
        "schema.root_not_object",
        "/0/function/parameters/oneOf",
    )
    gemini = {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "any_of": [{"required": ["a"]}]}
    wire = [{"functionDeclarations": [{"name": "a", "parameters": gemini}]}]
    assert refusal("tools", wire, "gemini", "anthropic") == (
        "schema.root_not_object",
        "/0/functionDeclarations/0/parameters/any_of",
    )


def test_annotations_and_unknown_keywords_kept_for_canonical_and_anthropic():
    params = obj(
        {"a": {"type": "string", "title": "A", "x-foo": 1, "examples": ["q"]}}, additionalProperties=True
    )
    for target in ("canonical", "anthropic"):
        out = run("tools", tool(params), "canonical", target)
        assert out[0].get("parameters", out[0].get("input_schema")) == params


def test_strict_flag_passes_to_anthropic_and_canonical_not_gemini():
    assert run("tools", tool(SCHEMA, strict=True), "canonical", "anthropic")[0]["strict"] is True
    assert (
        "strict"
        not in run("tools", tool(SCHEMA, strict=True), "canonical", "gemini")[0]["functionDeclarations"][0]
    )
