"""Public API, capabilities, profiles, rules constants, non-mutation, round trips."""

import copy
import json
import pathlib
import re

import pytest
import toolwire_reference
from ref_helpers import obj, refusal, run
from toolwire_reference import TranslationError, Translator, translate
from toolwire_reference.dialects.anthropic.rules import PROPERTY_NAME_PATTERN
from toolwire_reference.dialects.gemini.rules import FORMATS as GEMINI_FORMATS
from toolwire_reference.dialects.gemini.rules import KEPT_KEYWORDS as GEMINI_KEPT_KEYWORDS
from toolwire_reference.dialects.gemini.rules import REMOVED_KEYWORDS as GEMINI_REMOVED_KEYWORDS
from toolwire_reference.dialects.gemini.rules import UNSUPPORTED_KEYWORDS as GEMINI_UNSUPPORTED_KEYWORDS
from toolwire_reference.registry import BY_NAME
from toolwire_reference.registry import NAMES as DIALECTS
from toolwire_reference.request import SETTING_RANGES
from toolwire_reference.rules import (
    OPENAI_STRICT_FORMATS,
    OPENAI_STRICT_LIMITS,
    OPENAI_STRICT_UNSUPPORTED,
    PROFILE_DEFAULTS,
    PROFILE_VALUES,
)

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "corpus"
SIMPLE = [
    {
        "name": "get_weather",
        "description": "Get the weather.",
        "parameters": obj({"city": {"type": "string"}, "days": {"type": "integer"}}, ["city"]),
    }
]


def test_public_api():
    assert toolwire_reference.__version__ == "0.1.0"
    assert set(toolwire_reference.__all__) == {
        "TranslationError",
        "Translator",
        "translate",
        "translate_stream",
        "__version__",
    }


def test_capabilities_list_every_profile_value():
    caps = Translator().capabilities()
    assert caps["name"] == "toolwire-reference" and caps["language"] == "python"
    assert caps["version"] == toolwire_reference.__version__
    assert caps["kinds"] == {
        **{kind: [["*", "*"]] for kind in ("tools", "tool_choice", "request", "response", "stream")},
        "text": [["text", "*"]],
    }
    profiles = json.loads((CORPUS / "profiles.json").read_text())
    assert caps["profiles"] == {key: list(spec["values"]) for key, spec in profiles.items()}


def test_rules_match_profiles_json():
    profiles = json.loads((CORPUS / "profiles.json").read_text())
    assert {key: spec["default"] for key, spec in profiles.items()} == PROFILE_DEFAULTS
    assert {key: tuple(spec["values"]) for key, spec in profiles.items()} == PROFILE_VALUES


def _descriptor(dialect):
    path = CORPUS / "dialects" / f"{dialect}.json"
    if not path.exists():
        pytest.skip(f"no corpus/dialects/{dialect}.json yet")
    return json.loads(path.read_text())


@pytest.mark.parametrize("dialect", DIALECTS)
def test_name_rules_match_dialect_descriptors(dialect):
    assert _descriptor(dialect)["tool_name"]["pattern"] == BY_NAME[dialect].rules.tool_name_pattern


@pytest.mark.parametrize("dialect", DIALECTS)
def test_endpoints_and_call_id_prefixes_match_dialect_descriptors(dialect):
    """A provider dialect's path is its descriptor's `request.endpoint` (after the method); canonical has
    none."""
    rules, desc = BY_NAME[dialect].rules, _descriptor(dialect)
    endpoint = desc["request"].get("endpoint") if "http_errors" in desc else None
    assert rules.endpoint == (endpoint.split()[1] if endpoint else None)
    assert rules.call_id_prefix == desc["call_id_prefix"]


@pytest.mark.parametrize("dialect", ["openai-chat", "openai-responses"])
def test_openai_strict_rules_match_dialect_descriptors(dialect):
    desc = _descriptor(dialect)
    limits = desc["strict_limits"]
    assert {k: limits[k] for k in OPENAI_STRICT_LIMITS} == OPENAI_STRICT_LIMITS
    keywords = desc["schema_keywords"]
    assert set(keywords["formats"]) == OPENAI_STRICT_FORMATS
    assert set(keywords["unsupported"]) == set(OPENAI_STRICT_UNSUPPORTED)


def test_gemini_rules_match_dialect_descriptor():
    keywords = _descriptor("gemini")["schema_keywords"]
    assert set(keywords["supported"]) == GEMINI_KEPT_KEYWORDS
    assert set(keywords["removed"]) == set(GEMINI_REMOVED_KEYWORDS)
    assert set(keywords["unsupported"]) == set(GEMINI_UNSUPPORTED_KEYWORDS)
    assert set(keywords["formats"]) == set().union(*GEMINI_FORMATS.values())


def test_translator_protocol_delegates():
    t = Translator()
    assert (
        t.translate("tools", "canonical", "anthropic", SIMPLE, None)[0]["input_schema"]
        == SIMPLE[0]["parameters"]
    )
    events = t.translate_stream("openai-chat", "anthropic", [], None)  # lazy: nothing read yet
    with pytest.raises(TranslationError) as info:
        list(events)
    assert info.value.code == "stream.truncated"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "messages", "source": "canonical", "target": "canonical"},
        {"kind": "tools", "source": "cohere", "target": "canonical"},
        {"kind": "tools", "source": "canonical", "target": "bedrock"},
        {"kind": "tools", "source": "canonical", "target": "canonical", "profile": {"openai.strikt": "off"}},
        {
            "kind": "tools",
            "source": "canonical",
            "target": "canonical",
            "profile": {"openai.strict": "maybe"},
        },
    ],
)
def test_unknown_kind_dialect_profile_are_value_errors(kwargs):
    kind = kwargs.pop("kind")
    with pytest.raises(ValueError, match="unknown"):
        translate(kind, SIMPLE, **kwargs)


def test_error_attributes():
    with pytest.raises(TranslationError) as info:
        translate("tools", [{"description": "x"}], source="canonical", target="anthropic")
    err = info.value
    assert (err.code, err.path) == ("tool.missing_name", "/0/name")
    assert isinstance(err.message, str) and err.message
    assert "tool.missing_name" in str(err)


@pytest.mark.parametrize("source", DIALECTS)
@pytest.mark.parametrize("target", DIALECTS)
@pytest.mark.parametrize("strict", ["as-is", "all-required", "nullable-optional", "off"])
def test_never_mutates_the_input(source, target, strict):
    canonical = SIMPLE + [{"name": "b", "parameters": obj({"x": {"oneOf": [{"type": "string"}]}})}]
    payload = translate("tools", canonical, source="canonical", target=source)
    before = copy.deepcopy(payload)
    out = translate("tools", payload, source=source, target=target, profile={"openai.strict": strict})
    assert payload == before
    # the output shares no container with the input
    ids = {id(x) for x in _containers(payload)}
    assert not ids & {id(x) for x in _containers(out)}


def _containers(value):
    if isinstance(value, (dict, list)):
        yield value
        for sub in value.values() if isinstance(value, dict) else value:
            yield from _containers(sub)


LOSSLESS = {
    "canonical": SIMPLE,
    "openai-chat": SIMPLE,
    "anthropic": SIMPLE,
    "gemini": SIMPLE,
    "bedrock-converse": SIMPLE,
    # Responses always carries `strict`: lossless when the source declared it
    "openai-responses": [dict(SIMPLE[0], strict=False)],
    "mistral": SIMPLE,
}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_tools_round_trip_through_every_dialect(dialect):
    canonical = LOSSLESS[dialect]
    wire = run("tools", canonical, "canonical", dialect)
    assert run("tools", wire, dialect, "canonical") == canonical
    assert run("tools", wire, dialect, dialect) == wire


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(
    "choice",
    [
        {},
        {"tool_choice": {"mode": "auto"}},
        {"tool_choice": {"mode": "none"}},
        {"tool_choice": {"mode": "required"}},
        {"tool_choice": {"mode": "required", "tools": ["get_weather"]}},
    ],
)
def test_choice_round_trip_through_every_dialect(dialect, choice):
    if dialect == "bedrock-converse" and choice.get("tool_choice") == {"mode": "none"}:
        # Converse has no none choice: a request leaves its tools out instead (RULES.md)
        assert refusal("tool_choice", choice, "canonical", dialect) == ("choice.unsupported", "/tool_choice")
        return
    wire = run("tool_choice", choice, "canonical", dialect)
    assert run("tool_choice", wire, dialect, "canonical") == choice
    assert run("tool_choice", wire, dialect, dialect) == wire


@pytest.mark.parametrize("source", DIALECTS)
@pytest.mark.parametrize("target", DIALECTS)
def test_every_pair_translates_a_simple_tool_list_and_named_choice(source, target):
    wire = run("tools", LOSSLESS["openai-responses"], "canonical", source)
    out = run("tools", wire, source, target)
    back = run("tools", out, target, "canonical")
    assert [t["name"] for t in back] == ["get_weather"]
    assert back[0]["parameters"] == SIMPLE[0]["parameters"]
    choice = run(
        "tool_choice", {"tool_choice": {"mode": "required", "tools": ["get_weather"]}}, "canonical", source
    )
    named = run("tool_choice", choice, source, target)
    assert run("tool_choice", named, target, "canonical") == {
        "tool_choice": {"mode": "required", "tools": ["get_weather"]}
    }


def test_empty_tool_list_and_empty_choice():
    for dialect in DIALECTS:
        assert run("tools", [], "canonical", dialect) == []
        assert run("tool_choice", {}, "canonical", dialect) == {}
        assert run("tool_choice", {}, dialect, "canonical") == {}


def test_no_description_means_no_member():
    for dialect in DIALECTS:
        out = run("tools", [{"name": "a", "parameters": obj()}], "canonical", dialect)
        assert "description" not in json.dumps(out)
        assert run("tools", out, dialect, "canonical")[0].keys() <= {"name", "parameters", "strict"}


def test_name_patterns_are_anchored():
    for pattern in (d.rules.tool_name_pattern for d in BY_NAME.values()):
        assert pattern.startswith("^") and pattern.endswith("$")
        assert re.compile(pattern)


def test_anthropic_property_name_rule_matches_its_descriptor():
    assert _descriptor("anthropic")["parameter_name"]["pattern"] == PROPERTY_NAME_PATTERN


def test_response_format_name_rules_match_the_wire_schemas():
    """The rule a response format's name is held to is the one the target's wire schema states."""
    schemas = CORPUS.parent / "schemas" / "wire"

    def name_schema(dialect, *steps):
        node = json.loads((schemas / dialect / "request.schema.json").read_text())
        for step in steps:
            node = node[step]
        return node

    chat = name_schema("openai-chat", "properties", "response_format", "oneOf", 2)
    chat = chat["properties"]["json_schema"]
    responses = name_schema("openai-responses", "properties", "text", "properties", "format", "oneOf", 2)
    mistral = name_schema("mistral", "$defs", "responseFormat", "properties", "json_schema", "anyOf", 1)
    for dialect, fmt in (("openai-chat", chat), ("openai-responses", responses), ("mistral", mistral)):
        assert fmt["properties"]["name"].get("pattern") == BY_NAME[dialect].rules.format_name_pattern


def test_setting_ranges_match_the_schemas():
    """The canonical ranges are the canonical schema's; a target's maxima, its wire schema's."""
    canonical = json.loads((CORPUS.parent / "schemas" / "canonical" / "request.schema.json").read_text())
    for name, (least, most) in SETTING_RANGES.items():
        spec = canonical["properties"][name]
        assert (spec.get("minimum"), spec.get("maximum")) == (least, most)
    where = {
        "gemini": ("$defs", "generationConfig", "properties"),
        "bedrock-converse": ("properties", "inferenceConfig", "properties"),
    }
    for dialect in DIALECTS:
        if dialect == "canonical":
            continue
        node = json.loads((CORPUS.parent / "schemas" / "wire" / dialect / "request.schema.json").read_text())
        for step in where.get(dialect, ("properties",)):
            node = node[step]
        spec = node["temperature"]
        spec = next((s for s in spec.get("anyOf", [spec]) if "maximum" in s or "minimum" in s), spec)
        assert spec.get("maximum") == BY_NAME[dialect].rules.setting_maxima.get("temperature"), dialect
