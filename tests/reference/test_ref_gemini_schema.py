"""gemini target: declarations envelope and the OpenAPI-subset rewrite (gemini.schema=openapi)."""

import pytest
from ref_helpers import obj, refusal, run, tool


def params_of(params, **profile):
    decl = run("tools", tool(params), "canonical", "gemini", **profile)[0]["functionDeclarations"][0]
    return decl.get("parameters", decl.get("parametersJsonSchema"))


def test_all_declarations_in_one_entry():
    out = run("tools", [{"name": "a"}, {"name": "b", "description": "B"}], "canonical", "gemini")
    assert out == [{"functionDeclarations": [{"name": "a"}, {"name": "b", "description": "B"}]}]


def test_json_schema_profile_passes_unchanged():
    params = obj({"a": {"type": ["string", "null"]}}, additionalProperties=False, **{"$defs": {"x": {}}})
    out = run("tools", tool(params), "canonical", "gemini", gemini="json-schema")
    assert out[0]["functionDeclarations"][0]["parametersJsonSchema"] == params


def test_root_without_properties_has_no_parameters():
    for params in (obj(), {"type": "object"}, obj(additionalProperties=False)):
        assert (
            "parameters"
            not in run("tools", tool(params), "canonical", "gemini")[0]["functionDeclarations"][0]
        )


def test_nullable_rewrites():
    params = obj(
        {
            "a": {"type": ["string", "null"]},
            "b": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "B", "default": None},
            "c": {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
            "d": {"type": ["string", "null"], "enum": ["x", None]},
            "e": {"type": ["string", "integer"]},
            "f": {"oneOf": [{"type": "string"}, {"type": "null"}]},
        }
    )
    out = params_of(params)["properties"]
    assert out["a"] == {"type": "string", "nullable": True}
    assert out["b"] == {"type": "integer", "nullable": True, "description": "B", "default": None}
    assert out["c"] == {"anyOf": [{"type": "integer"}, {"type": "string"}], "nullable": True}
    assert out["d"] == {"type": "string", "nullable": True, "enum": ["x"]}
    assert out["e"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert out["f"] == {"type": "string", "nullable": True}


def test_keywords_kept_removed_rewritten():
    params = obj(
        {
            "s": {
                "type": "string",
                "const": "only",
                "title": "S",
                "minLength": 1,
                "maxLength": 9,
                "pattern": "^o",
                "examples": ["only"],
                "deprecated": True,
                "readOnly": True,
                "x-vendor": 1,
                "$comment": "c",
            },
            "n": {"type": "number", "minimum": 0, "maximum": 1, "format": "double", "example": 0.5},
            "i": {"type": "integer", "format": "int64"},
            "t": {"type": "string", "format": "date-time"},
            "u": {"type": "string", "format": "uuid"},
            "w": {"type": "integer", "format": "float"},
            "l": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            "m": obj(
                {"k": {"type": "string"}}, ["k"], additionalProperties={"type": "string"}, minProperties=1
            ),
        },
        ["s"],
        additionalProperties=False,
        strict=True,
        **{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "x"},
    )
    out = params_of(params)
    assert out == {
        "type": "object",
        "properties": {
            "s": {
                "type": "string",
                "enum": ["only"],
                "title": "S",
                "minLength": 1,
                "maxLength": 9,
                "pattern": "^o",
            },
            "n": {"type": "number", "minimum": 0, "maximum": 1, "format": "double", "example": 0.5},
            "i": {"type": "integer", "format": "int64"},
            "t": {"type": "string", "format": "date-time"},
            "u": {"type": "string"},
            "w": {"type": "integer"},
            "l": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            "m": {
                "type": "object",
                "properties": {"k": {"type": "string"}},
                "required": ["k"],
                "minProperties": 1,
            },
        },
        "required": ["s"],
    }


def test_refs_inlined():
    params = obj(
        {"a": {"$ref": "#/$defs/addr"}, "b": {"type": "array", "items": {"$ref": "#/definitions/n"}}},
        **{"$defs": {"addr": obj({"city": {"type": "string"}})}, "definitions": {"n": {"type": "integer"}}},
    )
    assert params_of(params) == obj(
        {"a": obj({"city": {"type": "string"}}), "b": {"type": "array", "items": {"type": "integer"}}}
    )


def test_ref_errors():
    recursive = obj(
        {"n": {"$ref": "#/$defs/node"}}, **{"$defs": {"node": obj({"next": {"$ref": "#/$defs/node"}})}}
    )
    assert refusal("tools", tool(recursive), "canonical", "gemini") == (
        "schema.recursive_ref",
        "/0/parameters/$defs/node/properties/next/$ref",
    )
    assert refusal("tools", tool(obj({"a": {"$ref": "#/$defs/x"}})), "canonical", "gemini") == (
        "schema.unresolvable_ref",
        "/0/parameters/properties/a/$ref",
    )


@pytest.mark.parametrize(
    "keyword, value",
    [
        ("allOf", [{"type": "string"}]),
        ("not", {"type": "integer"}),
        ("if", {}),
        ("then", {}),
        ("else", {}),
        ("patternProperties", {"x": {}}),
        ("dependentRequired", {}),
        ("dependentSchemas", {}),
        ("uniqueItems", True),
        ("multipleOf", 2),
        ("exclusiveMinimum", 0),
        ("exclusiveMaximum", 9),
        ("prefixItems", [{}]),
        ("contains", {}),
        ("minContains", 1),
        ("maxContains", 2),
        ("unevaluatedProperties", False),
        ("unevaluatedItems", False),
        ("propertyNames", {"pattern": "^a"}),
    ],
)
def test_unsupported_keywords(keyword, value):
    params = obj({"p": {"type": "integer", keyword: value}})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        f"/0/parameters/properties/p/{keyword}",
    )
    assert params_of(params, unsupported="degrade") == obj({"p": {"type": "integer"}})


def test_non_string_enum_and_const():
    params = obj({"p": {"type": "integer", "enum": [1, 2]}})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        "/0/parameters/properties/p/enum",
    )
    assert params_of(params, unsupported="degrade") == obj({"p": {"type": "integer"}})
    params = obj({"p": {"const": 3}})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        "/0/parameters/properties/p/const",
    )


def test_required_not_in_properties():
    params = obj({"a": {"type": "string"}}, ["a", "b"])
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.required_not_in_properties",
        "/0/parameters/required/1",
    )
    assert params_of(params, unsupported="degrade")["required"] == ["a"]


def test_gemini_round_trip_of_nullable():
    wire = [
        {
            "functionDeclarations": [
                {
                    "name": "a",
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"x": {"type": "STRING", "nullable": True, "enum": ["p", "q"]}},
                        "required": ["x"],
                    },
                }
            ]
        }
    ]
    canonical = run("tools", wire, "gemini", "canonical")
    assert canonical[0]["parameters"]["properties"]["x"] == {
        "type": ["string", "null"],
        "enum": ["p", "q", None],
    }
    again = run("tools", canonical, "canonical", "gemini")
    assert again[0]["functionDeclarations"][0]["parameters"]["properties"]["x"] == {
        "type": "string",
        "nullable": True,
        "enum": ["p", "q"],
    }


def test_boolean_subschemas():
    params = obj({"any": True, "l": {"type": "array", "items": True}})
    assert params_of(params) == obj({"any": {}, "l": {"type": "array", "items": {}}})
    params = obj({"never": False})
    assert refusal("tools", tool(params), "canonical", "gemini") == (
        "schema.unsupported_keyword",
        "/0/parameters/properties/never",
    )


def test_null_keyword_values_are_refused_default_kept():
    # a null keyword is not JSON Schema: refused for Gemini as for every target (corpus/RULES.md)
    params = obj({"a": {"type": "string", "description": None, "default": None}})
    assert refusal("tools", [{"name": "f", "parameters": params}], "canonical", "gemini") == (
        "schema.null_value",
        "/0/parameters/properties/a/description",
    )
    params = obj({"a": {"type": "string", "default": None}})
    assert params_of(params) == obj({"a": {"type": "string", "default": None}})


def test_errors_from_an_openai_source_point_into_it():
    wire = [{"type": "function", "function": {"name": "a", "parameters": obj({"p": {"allOf": [{}]}})}}]
    assert refusal("tools", wire, "openai-chat", "gemini") == (
        "schema.unsupported_keyword",
        "/0/function/parameters/properties/p/allOf",
    )
    wire = [{"name": "a", "input_schema": obj({"p": {"type": "integer", "exclusiveMinimum": 0}})}]
    assert refusal("tools", wire, "anthropic", "gemini") == (
        "schema.unsupported_keyword",
        "/0/input_schema/properties/p/exclusiveMinimum",
    )


@pytest.mark.parametrize(
    "params, path",
    [
        (obj({"tags": {"type": "array"}}), "/0/parameters/properties/tags"),
        (obj({"tags": {"type": ["array", "null"]}}), "/0/parameters/properties/tags"),
        (obj({"m": {"type": "array", "items": {"type": "array"}}}), "/0/parameters/properties/m/items"),
        (obj({"o": obj({"l": {"type": "array"}})}), "/0/parameters/properties/o/properties/l"),
        (
            obj({"u": {"anyOf": [{"type": "array"}, {"type": "string"}]}}),
            "/0/parameters/properties/u/anyOf/0",
        ),
        (
            obj({"r": {"$ref": "#/$defs/l"}}, **{"$defs": {"l": {"type": "array"}}}),
            "/0/parameters/$defs/l",
        ),
    ],
)
@pytest.mark.parametrize("unsupported", ["error", "degrade"])
def test_array_without_items_refused_under_every_profile(params, path, unsupported):
    assert refusal("tools", tool(params), "canonical", "gemini", unsupported=unsupported) == (
        "schema.array_missing_items",
        path,
    )


def test_array_without_items_passes_as_json_schema_and_with_items():
    params = obj({"tags": {"type": "array"}})
    assert params_of(params, gemini="json-schema") == params
    params = obj({"tags": {"type": "array", "items": {"type": "string"}}})
    assert params_of(params) == params


def test_array_without_items_from_a_gemini_source_points_into_it():
    wire = [
        {
            "function_declarations": [
                {"name": "a", "parameters": {"type": "OBJECT", "properties": {"t": {"type": "ARRAY"}}}}
            ]
        }
    ]
    assert refusal("tools", wire, "gemini", "gemini") == (
        "schema.array_missing_items",
        "/0/function_declarations/0/parameters/properties/t",
    )
    assert run("tools", wire, "gemini", "canonical")[0]["parameters"] == obj({"t": {"type": "array"}})
