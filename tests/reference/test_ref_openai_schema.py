"""openai-chat / openai-responses targets: envelope, `strict` flag, the four openai.strict profiles, refs."""

import pytest
from ref_helpers import obj, refusal, run, tool

STRICT = ["all-required", "nullable-optional"]


def chat(params, **profile):
    return run("tools", tool(params), "canonical", "openai-chat", **profile)[0]["function"]


def chat_schema(params, **profile):
    return chat(params, **profile)["parameters"]


# ---- envelope and strict flag ---------------------------------------------------------------


def test_strict_flag_per_profile():
    cases = {
        "as-is": (None, False),
        "all-required": (True, True),
        "nullable-optional": (True, True),
        "off": (False, False),
    }
    for strict, (chat_flag, responses_flag) in cases.items():
        out = run("tools", [{"name": "a"}], "canonical", "openai-chat", strict=strict)[0]["function"]
        assert out.get("strict") is chat_flag
        out = run("tools", [{"name": "a"}], "canonical", "openai-responses", strict=strict)[0]
        assert out["strict"] is responses_flag


def test_as_is_keeps_declared_strict():
    assert chat(obj()) == {"name": "get_weather", "description": "Get the weather.", "parameters": obj()}
    for flag in (True, False):
        assert (
            run("tools", tool(obj(), strict=flag), "canonical", "openai-chat")[0]["function"]["strict"]
            is flag
        )
        assert run("tools", tool(obj(), strict=flag), "canonical", "openai-responses")[0]["strict"] is flag


def test_chat_to_responses_without_strict_sends_false_and_back():
    wire = [{"type": "function", "function": {"name": "a", "parameters": obj()}}]
    out = run("tools", wire, "openai-chat", "openai-responses")
    assert out == [{"type": "function", "name": "a", "parameters": obj(), "strict": False}]
    # a Responses tool without strict declares nothing: chat must not get strict:true for it
    wire = [{"type": "function", "name": "a", "parameters": obj()}]
    assert "strict" not in run("tools", wire, "openai-responses", "openai-chat")[0]["function"]


def test_no_parameters():
    empty_strict = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
    for strict in ("as-is", "off"):
        assert (
            "parameters"
            not in run("tools", [{"name": "a"}], "canonical", "openai-chat", strict=strict)[0]["function"]
        )
        out = run("tools", [{"name": "a"}], "canonical", "openai-responses", strict=strict)[0]
        assert out["parameters"] == {"type": "object", "properties": {}}
    for strict in STRICT:
        assert (
            run("tools", [{"name": "a"}], "canonical", "openai-chat", strict=strict)[0]["function"][
                "parameters"
            ]
            == empty_strict
        )
        assert (
            run("tools", [{"name": "a"}], "canonical", "openai-responses", strict=strict)[0]["parameters"]
            == empty_strict
        )


# ---- strict rewrite ---------------------------------------------------------------------------

NESTED = obj(
    {
        "user": obj(
            {"name": {"type": "string"}, "tags": {"type": "array", "items": obj({"k": {"type": "string"}})}},
            ["name"],
        ),
        "note": {"type": "string", "format": "markdown"},
        "when": {"type": "string", "format": "date-time"},
    },
    ["user"],
)


def test_all_required_rewrites_every_depth():
    assert chat_schema(NESTED, strict="all-required") == {
        "type": "object",
        "properties": {
            "user": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "tags": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"k": {"type": "string"}},
                            "required": ["k"],
                            "additionalProperties": False,
                        },
                    },
                },
                "required": ["name", "tags"],
                "additionalProperties": False,
            },
            "note": {"type": "string"},
            "when": {"type": "string", "format": "date-time"},
        },
        "required": ["user", "note", "when"],
        "additionalProperties": False,
    }


def test_object_without_properties_and_anyof_branches_and_defs():
    params = obj(
        {
            "o": {"type": "object"},
            "u": {"oneOf": [obj({"x": {"type": "integer"}}), {"type": "string"}]},
            "r": {"$ref": "#/$defs/p"},
        },
        **{"$defs": {"p": obj({"q": {"type": "string"}})}},
    )
    out = chat_schema(params, strict="all-required")
    assert out["properties"]["o"] == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }
    assert out["properties"]["u"] == {
        "anyOf": [
            {
                "type": "object",
                "properties": {"x": {"type": "integer"}},
                "required": ["x"],
                "additionalProperties": False,
            },
            {"type": "string"},
        ]
    }
    assert out["$defs"]["p"]["additionalProperties"] is False and out["$defs"]["p"]["required"] == ["q"]
    assert out["properties"]["r"] == {"$ref": "#/$defs/p"}


def test_nullable_keyword_becomes_union():
    params = obj(
        {
            "a": {"type": "string", "nullable": True},
            "b": {"type": "string", "enum": ["x"], "nullable": True},
            "c": {"type": "integer", "nullable": False},
        },
        ["a", "b", "c"],
    )
    out = chat_schema(params, strict="all-required")["properties"]
    assert out == {
        "a": {"type": ["string", "null"]},
        "b": {"type": ["string", "null"], "enum": ["x", None]},
        "c": {"type": "integer"},
    }


def test_nullable_optional():
    params = obj(
        {
            "req": {"type": "string"},
            "s": {"type": "string"},
            "l": {"type": ["string", "integer"]},
            "e": {"type": "string", "enum": ["a", "b"]},
            "u": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "r": {"$ref": "#/$defs/x", "description": "ref"},
            "n": {"type": ["string", "null"]},
            "o": obj({"deep": {"type": "integer"}}),
        },
        ["req"],
        **{"$defs": {"x": {"type": "string"}}},
    )
    out = chat_schema(params, strict="nullable-optional")
    props = out["properties"]
    assert props["req"] == {"type": "string"}
    assert props["s"] == {"type": ["string", "null"]}
    assert props["l"] == {"type": ["string", "integer", "null"]}
    assert props["e"] == {"type": ["string", "null"], "enum": ["a", "b", None]}
    assert props["u"] == {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
    assert props["r"] == {"anyOf": [{"$ref": "#/$defs/x", "description": "ref"}, {"type": "null"}]}
    assert props["n"] == {"type": ["string", "null"]}
    assert props["o"] == {
        "type": ["object", "null"],
        "properties": {"deep": {"type": ["integer", "null"]}},
        "required": ["deep"],
        "additionalProperties": False,
    }
    assert out["required"] == list(props)


@pytest.mark.parametrize("strict", STRICT)
@pytest.mark.parametrize(
    "params, code, path",
    [
        (obj({"a": {"type": "array"}}), "schema.array_missing_items", "/0/function/parameters/properties/a"),
        (
            obj({"a": {"type": "string", "description": None}}),
            "schema.null_value",
            "/0/function/parameters/properties/a/description",
        ),
        (obj({"a": None}), "schema.null_value", "/0/function/parameters/properties/a"),
        (
            obj({"a": {"type": "string"}}, ["a", "b"]),
            "schema.required_not_in_properties",
            "/0/function/parameters/required/1",
        ),
        (
            obj({"a": {"type": "string", "not": {"const": "x"}}}),
            "schema.unsupported_keyword",
            "/0/function/parameters/properties/a/not",
        ),
        (
            obj({"a": {"allOf": [{"type": "string"}]}}),
            "schema.unsupported_keyword",
            "/0/function/parameters/properties/a/allOf",
        ),
        (obj(**{"if": {}, "then": {}}), "schema.unsupported_keyword", "/0/function/parameters/if"),
        (
            obj(patternProperties={"^x": {}}),
            "schema.unsupported_keyword",
            "/0/function/parameters/patternProperties",
        ),
        (
            obj(dependentRequired={"a": ["b"]}),
            "schema.unsupported_keyword",
            "/0/function/parameters/dependentRequired",
        ),
        (
            obj(additionalProperties=True),
            "schema.unsupported_keyword",
            "/0/function/parameters/additionalProperties",
        ),
        (
            obj({"m": obj(additionalProperties={"type": "string"})}),
            "schema.unsupported_keyword",
            "/0/function/parameters/properties/m/additionalProperties",
        ),
        (
            obj({"a": {"$ref": "#/$defs/missing"}}),
            "schema.unresolvable_ref",
            "/0/function/parameters/properties/a/$ref",
        ),
        (
            obj({"a": {"$ref": "https://example.com/s.json"}}),
            "schema.unresolvable_ref",
            "/0/function/parameters/properties/a/$ref",
        ),
    ],
)
def test_strict_errors(strict, params, code, path):
    wire = [{"type": "function", "function": {"name": "a", "parameters": params}}]
    assert refusal("tools", wire, "openai-chat", "openai-chat", strict=strict) == (code, path)


def test_strict_degrade_drops_or_closes():
    params = obj(
        {"a": {"type": "string", "not": {"const": "x"}}, "m": obj(additionalProperties=True)},
        allOf=[{"required": ["a"]}],
    )
    out = chat_schema(params, strict="all-required", unsupported="degrade")
    assert "allOf" not in out and out["properties"]["a"] == {"type": "string"}
    assert out["properties"]["m"]["additionalProperties"] is False


def test_strict_errors_are_not_made_under_as_is_and_off():
    params = obj({"a": {"type": "object"}, "b": {"allOf": [{"type": "string"}]}}, ["a", "zzz"])
    assert chat_schema(params) == params
    assert chat_schema(params, strict="off")["properties"] == params["properties"]


def test_an_array_without_items_is_refused_in_every_mode():
    """OpenAI answers 400 to it strict or not (`array schema missing items`)."""
    params = obj({"a": {"type": "array"}})
    for strict in ("as-is", "off", "all-required"):
        code, path = refusal("tools", tool(params), "canonical", "openai-chat", strict=strict)
        assert (code, path) == ("schema.array_missing_items", "/0/parameters/properties/a")


def _nest(levels):
    schema = {"type": "string"}
    for i in range(levels, 0, -1):
        schema = obj({f"l{i + 1}": schema}) if i < levels else obj({"leaf": schema})
    return schema


def test_depth_limit():
    assert chat_schema(_nest(10), strict="all-required")
    code, path = refusal("tools", tool(_nest(11)), "canonical", "openai-chat", strict="all-required")
    assert code == "schema.too_deep"
    assert path == "/0/parameters" + "".join(f"/properties/l{i}" for i in range(2, 12))
    assert chat_schema(_nest(11))  # as-is: no limit


def test_property_and_enum_limits():
    many = obj({f"p{i}": {"type": "string"} for i in range(2500)})
    ok = obj({"a": many, "b": obj({f"p{i}": {"type": "string"} for i in range(2498)})})
    assert chat_schema(ok, strict="all-required")
    too_many = obj({"a": many, "b": many})
    assert refusal("tools", tool(too_many), "canonical", "openai-chat", strict="all-required") == (
        "schema.too_many_properties",
        "/0/parameters/properties/b/properties",
    )
    enums = obj(
        {
            "a": {"type": "string", "enum": [str(i) for i in range(600)]},
            "b": {"type": "string", "enum": [str(i) for i in range(400)]},
        }
    )
    assert chat_schema(enums, strict="all-required")
    enums["properties"]["c"] = {"type": "string", "enum": ["x"]}
    assert refusal("tools", tool(enums), "canonical", "openai-chat", strict="all-required") == (
        "schema.enum_too_large",
        "/0/parameters/properties/c/enum",
    )


# ---- refs -------------------------------------------------------------------------------------

DEFS = obj(
    {"a": {"$ref": "#/$defs/addr"}, "b": {"$ref": "#/definitions/n", "description": "B"}},
    **{"$defs": {"addr": obj({"city": {"type": "string"}})}, "definitions": {"n": {"type": "integer"}}},
)


@pytest.mark.parametrize("strict", ["as-is", "all-required", "off"])
def test_refs_inline(strict):
    out = chat_schema(DEFS, strict=strict, refs="inline")
    assert "$defs" not in out and "definitions" not in out
    assert out["properties"]["b"] == {"type": "integer", "description": "B"}
    assert out["properties"]["a"]["properties"] == {"city": {"type": "string"}}


def test_refs_keep_is_default():
    assert chat_schema(DEFS) == DEFS
    assert chat_schema(DEFS, strict="all-required")["$defs"]["addr"]["additionalProperties"] is False


RECURSIVE = obj(
    {"root": {"$ref": "#/$defs/node"}},
    **{"$defs": {"node": obj({"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}})}},
)


def test_recursive_ref():
    assert chat_schema(RECURSIVE, strict="all-required")  # kept: fine
    assert refusal("tools", tool(RECURSIVE), "canonical", "openai-chat", refs="inline") == (
        "schema.recursive_ref",
        "/0/parameters/$defs/node/properties/children/items/$ref",
    )
    root = obj({"again": {"$ref": "#"}})
    assert refusal("tools", tool(root), "canonical", "openai-responses", refs="inline") == (
        "schema.recursive_ref",
        "/0/parameters/properties/again/$ref",
    )


def test_unresolvable_ref_when_inlining():
    params = obj({"a": {"$ref": "#/$defs/nope"}})
    assert refusal("tools", tool(params), "canonical", "openai-chat", refs="inline") == (
        "schema.unresolvable_ref",
        "/0/parameters/properties/a/$ref",
    )


# ---- off (CLASP) ----------------------------------------------------------------------------


def test_off_filters_required_at_every_depth():
    params = obj(
        {
            "path": {"type": "string", "description": "File path."},
            "offset": {"type": "integer", "description": "Only provide if file is too large."},
            "limit": {"type": "integer", "default": 100},
            "n": {"type": "string", "nullable": True},
            "flag": {"type": "boolean"},
            "mode": {"type": "string", "description": "Optional mode"},
            "unit": {"type": "string", "description": "Defaults to celsius."},
            "inner": obj({"x": {"type": "boolean"}}, ["x"]),
            "when": {"type": "string", "format": "ipv4"},
            "date": {"type": "string", "format": "color"},
        },
        ["path", "offset", "limit", "n", "flag", "mode", "unit", "inner"],
    )
    out = chat_schema(params, strict="off")
    assert out["required"] == ["path", "inner"]
    assert out["properties"]["inner"]["required"] == []
    assert out["properties"]["when"]["format"] == "ipv4" and "format" not in out["properties"]["date"]
    assert "additionalProperties" not in out


@pytest.mark.parametrize(
    "phrase",
    [
        "optional",
        "defaults to",
        "if not specified",
        "set to true to",
        "set to false to",
        "if provided",
        "when provided",
        "can be omitted",
        "not required",
        "only provide",
    ],
)
def test_off_phrases(phrase):
    params = obj({"a": {"type": "string", "description": f"X. {phrase.upper()} y."}}, ["a"])
    assert chat_schema(params, strict="off")["required"] == []


def test_limits_follow_inlined_refs():
    defs = {"$defs": {"e": {"type": "string", "enum": [str(i) for i in range(400)]}}}
    params = obj({"a": {"$ref": "#/$defs/e"}, "b": {"$ref": "#/$defs/e"}, "c": {"$ref": "#/$defs/e"}}, **defs)
    assert chat_schema(params, strict="all-required")  # kept: 400 values written once
    assert refusal(
        "tools", tool(params), "canonical", "openai-chat", strict="all-required", refs="inline"
    ) == ("schema.enum_too_large", "/0/parameters/$defs/e/enum")


def test_errors_from_a_responses_source_point_into_it():
    wire = [{"type": "function", "name": "a", "strict": True, "parameters": obj({"t": {"type": "array"}})}]
    assert refusal("tools", wire, "openai-responses", "openai-chat", strict="all-required") == (
        "schema.array_missing_items",
        "/0/parameters/properties/t",
    )
