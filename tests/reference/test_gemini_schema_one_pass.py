"""gemini target, gemini.schema=openapi: type lists split by type, nested empty objects, untyped enums,
and the one-pass encoder's checks (order, ``false`` subschemas, no mutation of the source)."""

import copy

import pytest
from ref_helpers import obj, refusal, run, tool
from toolwire_reference.dialects.gemini.schema import to_gemini_schema


def params_of(params, **profile):
    decl = run("tools", tool(params), "canonical", "gemini", **profile)[0]["functionDeclarations"][0]
    return decl.get("parameters")


def prop(schema, **profile):
    return params_of(obj({"p": schema}), **profile)["properties"]["p"]


def test_type_list_with_array_and_null_keeps_items_on_the_node():
    out = prop({"type": ["array", "null"], "items": {"type": "string"}, "maxItems": 3})
    assert out == {"type": "array", "nullable": True, "items": {"type": "string"}, "maxItems": 3}


def test_type_list_branches_take_the_keywords_of_their_type():
    out = prop(
        {
            "type": ["string", "array", "integer", "number", "object", "boolean", "null"],
            "description": "d",
            "items": {"type": ["string", "null"]},
            "minItems": 1,
            "pattern": "^a",
            "minimum": 0,
            "properties": {"k": {"type": "string"}},
            "required": ["k"],
            "format": "int32",
            "default": None,
        }
    )
    assert out == {
        "description": "d",
        "default": None,
        "nullable": True,
        "anyOf": [
            {"type": "string", "pattern": "^a"},
            {"type": "array", "items": {"type": "string", "nullable": True}, "minItems": 1},
            {"type": "integer", "minimum": 0, "format": "int32"},
            {"type": "number", "minimum": 0},
            {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
            {"type": "boolean"},
        ],
    }


def test_type_list_inside_items_and_anyof_branches():
    schema = {"type": ["integer", "array"], "items": {"type": "integer"}}
    split = {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]}
    assert prop({"type": "array", "items": schema}) == {"type": "array", "items": split}
    assert prop({"anyOf": [schema, {"type": "string"}]}) == {"anyOf": [split, {"type": "string"}]}


def test_type_list_next_to_anyof_is_unchanged():
    params = obj({"p": {"type": ["string", "integer"], "anyOf": [{"minimum": 1}, {"maxLength": 2}]}})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        "/0/parameters/properties/p/type",
    )
    assert params_of(params, unsupported="degrade")["properties"]["p"] == {
        "type": "string",
        "anyOf": [{"minimum": 1}, {"maxLength": 2}],
    }


def test_nested_empty_properties_are_removed_at_every_depth():
    empty = {"type": "object", "properties": {}}
    params = obj(
        {
            "o": empty,
            "n": {"type": ["object", "null"], "properties": {}, "required": []},
            "l": {"type": "array", "items": empty},
            "u": {"anyOf": [empty, {"type": "string"}]},
            "keep": obj({"x": {"type": "string"}}),
        }
    )
    assert params_of(params)["properties"] == {
        "o": {"type": "object"},
        "n": {"type": "object", "nullable": True, "required": []},
        "l": {"type": "array", "items": {"type": "object"}},
        "u": {"anyOf": [{"type": "object"}, {"type": "string"}]},
        "keep": obj({"x": {"type": "string"}}),
    }


def test_empty_root_still_gets_no_parameters():
    assert params_of(obj()) is None
    assert params_of(obj({"p": {"type": "string"}}, additionalProperties=False)) is not None


def test_untyped_string_enum_and_const_get_type_string():
    assert prop({"enum": ["a", "b"]}) == {"type": "string", "enum": ["a", "b"]}
    assert prop({"enum": ["a", None]}) == {"type": "string", "enum": ["a"], "nullable": True}
    assert prop({"const": "a"}) == {"type": "string", "enum": ["a"]}
    assert prop({"enum": ["a"], "format": "int64"}) == {"type": "string", "enum": ["a"]}
    assert prop({"type": "string", "enum": ["a"]}) == {"type": "string", "enum": ["a"]}


def test_untyped_non_string_enum_is_refused_or_dropped():
    params = obj({"p": {"enum": [1, "a"], "description": "d"}})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        "/0/parameters/properties/p/enum",
    )
    assert params_of(params, unsupported="degrade")["properties"]["p"] == {"description": "d"}


def test_false_inside_an_items_schema_is_a_value_not_a_subschema():
    out = prop({"type": "array", "items": {"type": "object", "additionalProperties": False}})
    assert out == {"type": "array", "items": {"type": "object"}}


@pytest.mark.parametrize(
    "schema, path",
    [
        ({"type": "array", "items": False}, "/0/parameters/properties/p/items"),
        ({"anyOf": [{}, False]}, "/0/parameters/properties/p/anyOf/1"),
        ({"type": "object", "properties": {"a": {}, "b": False}}, "/0/parameters/properties/p/properties/b"),
    ],
)
def test_false_subschemas_are_refused_where_they_are(schema, path):
    assert refusal("tools", tool(obj({"p": schema})), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        path,
    )


def test_a_ref_to_false_is_refused_at_the_definition_or_degraded():
    params = obj({"p": {"$ref": "#/$defs/never"}}, **{"$defs": {"never": False}})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        "/0/parameters/$defs/never",
    )
    assert params_of(params, unsupported="degrade") == obj({"p": {}})


def test_node_problems_come_before_its_subschemas_problems():
    params = obj({"p": obj({"a": {"allOf": [{}]}}, ["zz"])})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.required_not_in_properties",
        "/0/parameters/properties/p/required/0",
    )
    params = obj({"p": {"type": "object", "properties": {"a": {"allOf": [{}]}}, "not": {}}})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        "/0/parameters/properties/p/not",
    )


def test_the_source_schema_is_not_modified_and_not_shared():
    schema = obj(
        {
            "a": {"type": ["array", "string", "null"], "items": {"enum": ["x", None]}, "maxLength": 3},
            "b": {"anyOf": [{"type": "object", "properties": {}}, {"type": "null"}]},
            "c": {"$ref": "#/$defs/c"},
            "d": {"type": "string", "default": {"k": [1]}},
        },
        ["a"],
        **{"$defs": {"c": {"const": "k", "examples": ["k"]}}},
    )
    before = copy.deepcopy(schema)
    for degrade in (False, True):
        out = to_gemini_schema(schema, degrade=degrade)
        assert schema == before
        out["properties"]["d"]["default"]["k"].append(2)
        out["required"].append("b")
        assert schema == before
