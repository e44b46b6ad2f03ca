"""`toolwire lint`: a clean corpus passes, and every rule fires on a corpus broken in exactly that way."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from toolwire.corpus import lint as lint_mod
from toolwire.corpus.lint import Problem, lint
from toolwire.paths import corpus_dir

REAL = corpus_dir()

FEATURES = [
    {"key": "tools.wrapper", "title": "Tool definition wrapper", "area": "tools", "description": "envelopes"},
    {"key": "choice.auto", "title": "auto", "area": "choice", "description": "let the model decide"},
]

TOOLS_CASE: dict[str, Any] = {
    "id": "tools/basic",
    "title": "a tool gets each dialect's envelope",
    "features": ["tools.wrapper"],
    "level": "must",
    "kind": "tools",
    "source": {
        "dialect": "canonical",
        "payload": [
            {
                "name": "get_weather",
                "description": "Weather for a city",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            }
        ],
    },
    "expect": [
        {
            "dialect": "openai-chat",
            "payload": [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": {"$type": "string"},
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                        "strict": {"$absent": True},
                    },
                }
            ],
        },
        {
            "dialect": "openai-chat",
            "when": {"openai.strict": "off"},
            "payload": [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "Weather for a city",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                        "strict": False,
                    },
                }
            ],
        },
        {
            "dialect": "anthropic",
            "payload": [
                {
                    "name": "get_weather",
                    "description": "Weather for a city",
                    "input_schema": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}},
                        "required": ["city"],
                    },
                }
            ],
        },
        {"dialect": "gemini", "when": {"unsupported": "degrade"}, "error": {"code": "tool.invalid_name"}},
    ],
    "refs": ["https://example.com/docs"],
}

CHOICE_CASE: dict[str, Any] = {
    "id": "choice/auto",
    "title": "auto in every dialect",
    "features": ["choice.auto"],
    "level": "must",
    "kind": "tool_choice",
    "source": {"dialect": "canonical", "payload": {"tool_choice": {"mode": "auto"}}},
    "expect": [
        {"dialect": "openai-chat", "payload": {"tool_choice": "auto"}},
        {"dialect": "anthropic", "payload": {"tool_choice": {"type": "auto"}}},
        {"dialect": "gemini", "payload": {"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}}},
    ],
    "refs": ["https://example.com/docs"],
}


def write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def edit(path: Path, change: Callable[[Any], Any]) -> None:
    """Apply `change` (which mutates its argument; its return value is ignored) to a JSON file."""
    value = read(path)
    change(value)
    write(path, value)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A small clean corpus: the shipped vocabularies, descriptors, documents and captures, two features,
    two cases."""
    root = tmp_path / "corpus"
    # the shipped corpus without its cases: descriptors and profiles cite its documents and captures
    shutil.copytree(REAL, root, ignore=shutil.ignore_patterns("cases", "regressions.json"))
    (root / "VERSION").write_text("1.2.3\n", encoding="utf-8")
    for descriptor in (root / "dialects").glob("*.json"):  # their `judged` names features of the real corpus
        edit(descriptor, lambda d: d.pop("judged", None))
    write(root / "features.json", FEATURES)
    write(root / "cases" / "tools" / "basic.json", TOOLS_CASE)
    write(root / "cases" / "choice" / "auto.json", CHOICE_CASE)
    return root


def lines(root: Path) -> list[str]:
    return [str(p) for p in lint(root)]


def one(root: Path, needle: str) -> str:
    """The single problem line containing `needle` (fails with every line shown otherwise)."""
    found = [line for line in lines(root) if needle in line]
    assert len(found) == 1, "\n".join(lines(root))
    return found[0]


def test_clean_corpus_has_no_problems(corpus: Path) -> None:
    assert lines(corpus) == []


def test_main_clean_exit_0(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lint_mod.main([str(corpus)]) == 0
    out = capsys.readouterr().out
    assert "2 cases" in out and "no problems" in out


def test_main_problems_exit_1_one_line_each(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(corpus / "cases/tools/basic.json", lambda c: c["features"].append("tools.nope"))
    (corpus / "VERSION").write_text("one\n", encoding="utf-8")
    assert lint_mod.main([str(corpus)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{corpus}/VERSION: 'one' is not a semantic version (MAJOR.MINOR.PATCH)",
        f"{corpus}/cases/tools/basic.json:/features/1: unknown feature 'tools.nope' (not in features.json)",
    ]


def test_main_missing_directory_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lint_mod.main([str(tmp_path / "nope")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_problem_str() -> None:
    assert str(Problem("cases/a/b.json", "/id", "bad")) == "cases/a/b.json:/id: bad"
    assert str(Problem("VERSION", "", "bad")) == "VERSION: bad"


# -- one test per rule ---------------------------------------------------------------------------------


def test_case_not_valid_for_case_schema(corpus: Path) -> None:
    edit(corpus / "cases/choice/auto.json", lambda c: c.pop("title"))
    line = one(corpus, "case.schema.json")
    assert line.startswith("cases/choice/auto.json") and "'title' is a required property" in line


def test_id_must_equal_path(corpus: Path) -> None:
    edit(corpus / "cases/choice/auto.json", lambda c: c.update(id="choice/automatic"))
    assert one(corpus, "does not equal the file's path") == (
        "cases/choice/auto.json:/id: id 'choice/automatic' does not equal the file's path 'choice/auto'"
    )


def test_ids_unique(corpus: Path) -> None:
    write(corpus / "cases/choice/auto-copy.json", CHOICE_CASE)  # claims id choice/auto too
    line = one(corpus, "duplicate id")
    assert line.startswith("cases/choice/auto.json:/id:") and "also in cases/choice/auto-copy.json" in line


def test_a_field_regression_names_a_case_that_cites_its_report(corpus: Path) -> None:
    issue = "https://github.com/acme/gateway/issues/7"
    entry = {
        "case": "tools/basic",
        "issue": issue,
        "implementation": "acme-gateway 1.0",
        "pattern": "other",
        "affected_version": "1.0",
        "affected_outcome": "tools/basic[canonical>openai-chat] failed",
        "provider_evidence": ["https://platform.openai.com/docs/api-reference/chat/create"],
    }
    write(corpus / "regressions.json", [entry, {**entry, "case": "tools/missing"}])
    problems = lines(corpus)
    cites = "regressions.json:/0/issue: the case 'tools/basic' cites neither the report nor its fix"
    assert cites in problems
    assert "regressions.json:/1/case: no case 'tools/missing'" in problems
    edit(corpus / "cases/tools/basic.json", lambda c: c.update(refs=[issue]))
    write(corpus / "regressions.json", [entry, {**entry, "affected_outcome": ""}])
    assert [p for p in lines(corpus) if p.startswith("regressions.json")] == [
        "regressions.json:/1/affected_outcome: not valid for regressions.schema.json: '' should be non-empty"
    ]


def test_unknown_feature(corpus: Path) -> None:
    edit(corpus / "cases/choice/auto.json", lambda c: c.update(features=["choice.automatic"]))
    problems = lines(corpus)
    assert (
        "cases/choice/auto.json:/features/0: unknown feature 'choice.automatic' (not in features.json)"
        in problems
    )


def test_feature_covered_by_no_case(corpus: Path) -> None:
    edit(
        corpus / "features.json",
        lambda f: f.append(
            {"key": "choice.none", "title": "none", "area": "choice", "description": "forbid calls"}
        ),
    )
    assert (
        one(corpus, "covered by no case")
        == "features.json:/2/key: feature 'choice.none' is covered by no case"
    )


def test_source_payload_invalid_for_source_dialect(corpus: Path) -> None:
    edit(
        corpus / "cases/choice/auto.json",
        lambda c: c["source"].update(dialect="openai-chat", payload={"tool_choice": "sometimes"}),
    )
    line = one(corpus, "/source/payload")
    assert line.startswith(
        "cases/choice/auto.json:/source/payload/tool_choice: not valid for the openai-chat wire"
    )


def test_expected_payload_invalid_for_target_dialect(corpus: Path) -> None:
    edit(
        corpus / "cases/choice/auto.json",
        lambda c: c["expect"][1].update(payload={"tool_choice": {"type": "maybe"}}),
    )
    line = one(corpus, "/expect/1/payload")
    assert line.startswith("cases/choice/auto.json:/expect/1/payload/tool_choice")
    assert "not valid for the anthropic wire schema (tool_choice)" in line


def test_expected_payload_with_matchers_is_instantiated(corpus: Path) -> None:
    # `$absent` removes the member, `$id`/`$json` give concrete strings, `$any` is never judged
    def change(case: dict[str, Any]) -> None:
        fn = case["expect"][0]["payload"][0]["function"]
        fn["name"] = {"$any": True}
        fn["parameters"] = {"$oneOf": [{"type": "object"}, {"type": "object", "properties": {}}]}
        fn["description"] = {"$absent": True}

    edit(corpus / "cases/tools/basic.json", change)
    assert lines(corpus) == []
    # …but a matcher that instantiates to a wrong type is still caught
    edit(
        corpus / "cases/tools/basic.json",
        lambda c: c["expect"][2]["payload"][0].update(name={"$id": {}}, type=5),
    )
    assert one(corpus, "/expect/2/payload/0/type").startswith(
        "cases/tools/basic.json:/expect/2/payload/0/type: "
    )


def test_a_literal_object_whose_only_key_starts_with_dollar_must_be_written_as_literal(corpus: Path) -> None:
    """``{"$ref": …}`` alone in an expectation is read as a matcher, which no name fits: lint says so (a
    case once expected a schema's ``$ref`` unescaped, which an oracle rendered as null)."""
    ref = {"$ref": "#/$defs/city"}

    def change(case: dict[str, Any]) -> None:
        case["expect"][0]["payload"][0]["function"]["parameters"]["properties"]["city"] = ref

    edit(corpus / "cases/tools/basic.json", change)
    line = one(corpus, "unknown matcher")
    head = "cases/tools/basic.json:/expect/0/payload: invalid matcher: unknown matcher '$ref'"
    assert line.startswith(head)
    assert "/0/function/parameters/properties/city" in line and '{"$literal": …}' in line
    edit(
        corpus / "cases/tools/basic.json",
        lambda c: c["expect"][0]["payload"][0]["function"]["parameters"]["properties"].update(
            city={"$literal": ref}
        ),
    )
    assert not [line for line in lines(corpus) if "matcher" in line]


def test_every_case_needs_refs(corpus: Path) -> None:
    edit(corpus / "cases/choice/auto.json", lambda c: c.update(refs=["  "]))
    assert "cases/choice/auto.json:/refs: every case needs `refs`" in one(corpus, "every case needs `refs`")
    edit(corpus / "cases/choice/auto.json", lambda c: c.pop("refs"))
    assert one(corpus, "every case needs `refs`").startswith("cases/choice/auto.json:/refs:")


def test_refs_resolve_to_a_url_or_a_path_that_exists(corpus: Path) -> None:
    refs = [
        "https://example.com/docs",
        "corpus/captures/anthropic/01_tool_choice_auto.request.json",
        "corpus/RULES.md#tool-choice-tool_choice",
        "corpus/RULES.md#Tool choice (`tool_choice`)",
        "corpus/profiles.json#openai.strict",
        "schemas/case.schema.json",
    ]
    edit(corpus / "cases/choice/auto.json", lambda c: c.update(refs=refs))
    assert lint(corpus) == []
    broken = [
        "captures/anthropic/01_tool_choice_auto.request.json",  # not from the top of the repository
        "../beside/NOTES.md#Ids",
        "/etc/passwd",
        "corpus/RULES.md#no-such-heading",
        "corpus/profiles.json#no.such.key",
        "ftp://example.com/x",
        "https://example.com/docs (a quote after the URL)",
    ]
    edit(corpus / "cases/choice/auto.json", lambda c: c.update(refs=broken))
    found = [line for line in lines(corpus) if "dangling reference" in line]
    assert [line.split(":", 2)[1] for line in found] == [f"/refs/{i}" for i in range(len(broken))], found
    assert "does not exist in the repository" in found[0]
    assert "leaves the repository" in found[1] and "leaves the repository" in found[2]
    assert "no heading 'no-such-heading'" in found[3]
    assert "no member 'no.such.key'" in found[4]


def test_descriptor_and_profile_sources_resolve(corpus: Path) -> None:
    edit(corpus / "dialects/anthropic.json", lambda d: d["tool_name"]["sources"].append("notes/x.txt"))
    edit(corpus / "profiles.json", lambda p: p["openai.strict"]["refs"].append("PLAN.md"))
    assert one(corpus, "notes/x.txt").startswith("dialects/anthropic.json:/tool_name/sources/")
    assert one(corpus, "'PLAN.md'").startswith("profiles.json:/openai.strict/refs/")


def test_markdown_paths_resolve(corpus: Path) -> None:
    rules = corpus / "RULES.md"
    rules.write_text(
        rules.read_text(encoding="utf-8")
        + "\nSee [captures](captures/README.md), [gone](captures/nope.md) and corpus/captures/gone.sse.\n",
        encoding="utf-8",
    )
    found = [line for line in lines(corpus) if "dangling reference" in line]
    assert len(found) == 2 and all(line.startswith("RULES.md: line ") for line in found), found
    assert "'corpus/captures/nope.md'" in found[0] and "'corpus/captures/gone.sse'" in found[1]


def test_every_capture_has_provenance(corpus: Path) -> None:
    (corpus / "captures/anthropic/99_new.response.json").write_text("{}", encoding="utf-8")
    assert one(corpus, "without provenance").startswith("captures/anthropic/99_new.response.json:")
    (corpus / "captures/anthropic/99_new.response.json").unlink()
    edit(corpus / "captures/provenance.json", lambda p: p["captures"].append(dict(p["captures"][0])))
    assert "is listed twice" in one(corpus, "listed twice")
    edit(corpus / "captures/provenance.json", lambda p: p["captures"][-1].update(file="anthropic/gone.json"))
    assert one(corpus, "does not exist under captures/").startswith("captures/provenance.json:/captures/")
    edit(corpus / "captures/provenance.json", lambda p: p["captures"][-1].update(licence="GPL-3.0"))
    assert "captures.schema.json" in one(corpus, "licence")


def test_unknown_profile_key(corpus: Path) -> None:
    edit(
        corpus / "cases/choice/auto.json", lambda c: c["expect"][0].update(when={"openai.strictness": "off"})
    )
    assert one(corpus, "unknown profile key").startswith(
        "cases/choice/auto.json:/expect/0/when/openai.strictness: unknown profile key 'openai.strictness'"
    )


def test_unknown_profile_value(corpus: Path) -> None:
    edit(
        corpus / "cases/choice/auto.json",
        lambda c: c["expect"][0].update(when={"openai.strict": "sometimes"}),
    )
    assert one(corpus, "unknown value").startswith(
        "cases/choice/auto.json:/expect/0/when/openai.strict: unknown value 'sometimes' for 'openai.strict'"
    )


def test_unknown_error_code(corpus: Path) -> None:
    edit(corpus / "cases/tools/basic.json", lambda c: c["expect"][3].update(error={"code": "tool.bad_name"}))
    assert one(corpus, "unknown error code") == (
        "cases/tools/basic.json:/expect/3/error/code: unknown error code 'tool.bad_name' (not in errors.json)"
    )


def test_area_directory_unknown(corpus: Path) -> None:
    write(corpus / "cases/widgets/auto.json", {**CHOICE_CASE, "id": "widgets/auto"})
    assert one(corpus, "unknown area directory") == (
        "cases/widgets/auto.json: unknown area directory 'widgets' (known: tools, choice, calls, results, "
        "streams, messages, responses, validation, text)"
    )


def test_area_directory_equals_id_first_segment(corpus: Path) -> None:
    write(corpus / "cases/tools/auto.json", {**CHOICE_CASE, "id": "choice/auto"})
    assert one(corpus, "the id's area") == (
        "cases/tools/auto.json:/id: the id's area 'choice' does not equal the directory 'tools'"
    )


def test_case_outside_an_area_directory(corpus: Path) -> None:
    write(corpus / "cases/auto.json", {**CHOICE_CASE, "id": "auto"})
    assert (
        one(corpus, "area directory:")
        == "cases/auto.json: a case must live in an area directory: cases/<area>/<slug>.json"
    )


def test_invalid_source_must_be_rejected_by_wire_schema(corpus: Path) -> None:
    edit(
        corpus / "cases/choice/auto.json",
        lambda c: c["source"].update(dialect="openai-chat", payload={"tool_choice": "auto"}, invalid=True),
    )
    assert one(corpus, "marked invalid") == (
        "cases/choice/auto.json:/source/payload: marked invalid, but the openai-chat wire schema for "
        "'tool_choice' accepts it (a provider rule no schema states goes in `invalid_because`)"
    )
    # a payload the schema does reject is fine when marked invalid (and only then)
    edit(
        corpus / "cases/choice/auto.json", lambda c: c["source"].update(payload={"tool_choice": "sometimes"})
    )
    assert lines(corpus) == []


def test_invalid_because_names_a_rule_no_schema_states(corpus: Path) -> None:
    """A source the wire schema accepts may be marked invalid only with the provider rule it breaks."""
    because = "the provider refuses it (a rule no schema states)"
    edit(
        corpus / "cases/choice/auto.json",
        lambda c: c["source"].update(payload={"tool_choice": "auto"}, invalid=True, invalid_because=because),
    )
    assert lines(corpus) == []
    edit(corpus / "cases/choice/auto.json", lambda c: c["source"].pop("invalid"))
    assert one(corpus, "invalid_because") == (
        "cases/choice/auto.json:/source/invalid_because: given, but the source is not marked invalid"
    )


def test_duplicate_dialect_when_expectations(corpus: Path) -> None:
    def change(case: dict[str, Any]) -> None:
        case["expect"].append({"dialect": "anthropic", "when": {"unsupported": "error"}, "payload": {}})

    edit(corpus / "cases/choice/auto.json", change)  # `unsupported: error` is the default: same profile as /1
    assert one(corpus, "duplicate expectation") == (
        "cases/choice/auto.json:/expect/3: duplicate expectation: 'anthropic' under the same profile as "
        "/expect/1 (profile keys not named take their default)"
    )


def test_features_keys_unique(corpus: Path) -> None:
    edit(corpus / "features.json", lambda f: f.append(dict(FEATURES[1], title="auto again")))
    assert one(corpus, "duplicate feature key") == (
        "features.json:/2/key: duplicate feature key 'choice.auto' (first at /1)"
    )


def test_features_area_valid(corpus: Path) -> None:
    edit(corpus / "features.json", lambda f: f[0].update(area="widgets"))
    assert "features.json:/0/area: unknown area 'widgets'" in one(corpus, "unknown area 'widgets'")


def test_dialect_descriptor_valid(corpus: Path) -> None:
    descriptor = corpus / "dialects" / "anthropic.json"
    edit(descriptor, lambda d: d.update(surprise=True))
    line = one(corpus, "dialect.schema.json")
    assert line.startswith("dialects/anthropic.json") and "surprise" in line


def test_dialect_descriptor_name_equals_file(corpus: Path) -> None:
    edit(corpus / "dialects" / "anthropic.json", lambda d: d.update(name="gemini"))
    assert "dialects/anthropic.json:/name: name 'gemini' does not equal the file name 'anthropic'" in lines(
        corpus
    )


def test_unknown_dialect(corpus: Path) -> None:
    (corpus / "dialects" / "gemini.json").unlink()
    found = [line for line in lines(corpus) if "unknown dialect 'gemini'" in line]
    assert found == [
        "cases/choice/auto.json:/expect/2/dialect: unknown dialect 'gemini' (no dialects/gemini.json)",
        "cases/tools/basic.json:/expect/3/dialect: unknown dialect 'gemini' (no dialects/gemini.json)",
    ]


def test_version_is_semver(corpus: Path) -> None:
    for bad in ("1.2", "v1.2.3", "01.2.3", "1.2.3-"):
        (corpus / "VERSION").write_text(bad + "\n", encoding="utf-8")
        assert one(corpus, "VERSION") == f"VERSION: {bad!r} is not a semantic version (MAJOR.MINOR.PATCH)"
    (corpus / "VERSION").write_text("2.0.0-rc.1+build.5\n", encoding="utf-8")
    assert lines(corpus) == []
    (corpus / "VERSION").unlink()
    assert one(corpus, "VERSION").startswith("VERSION: missing")


def test_malformed_json_reported_with_line_and_column(corpus: Path) -> None:
    (corpus / "cases/choice/auto.json").write_text(
        '{\n  "id": "choice/auto",\n  "title": oops\n}\n', encoding="utf-8"
    )
    (corpus / "profiles.json").write_text("{\n", encoding="utf-8")
    problems = lines(corpus)
    assert "cases/choice/auto.json: malformed JSON at line 3 column 12: Expecting value" in problems
    assert any(p.startswith("profiles.json: malformed JSON at line 2 column 1") for p in problems)


def test_not_utf8_is_a_problem_not_a_traceback(corpus: Path) -> None:
    (corpus / "cases/choice/auto.json").write_bytes(b'{"id": "\xff"}')
    assert one(corpus, "not UTF-8").startswith("cases/choice/auto.json: not UTF-8 text")


def test_duplicate_json_member(corpus: Path) -> None:
    text = json.dumps(CHOICE_CASE, indent=2).replace('"level": "must"', '"level": "must", "level": "may"')
    (corpus / "cases/choice/auto.json").write_text(text, encoding="utf-8")
    assert one(corpus, "appears twice") == (
        "cases/choice/auto.json: member 'level' appears twice in one object (JSON parsers keep only one)"
    )


def test_profile_default_must_be_a_value(corpus: Path) -> None:
    edit(corpus / "profiles.json", lambda p: p["unsupported"].update(default="shrug"))
    assert (
        "profiles.json:/unsupported/default: default 'shrug' is not one of the values of 'unsupported'"
        in lines(corpus)
    )


def test_vocabulary_files_valid_for_their_schemas(corpus: Path) -> None:
    edit(corpus / "errors.json", lambda e: e.update({"Not A Code": "x"}))
    assert one(corpus, "errors.schema.json").startswith("errors.json")


def _kind_without_schema(dialect: str) -> str:
    from toolwire.corpus import wire

    for kind in ("text", "stream", "response", "request"):
        if not wire.schema_path(dialect, kind).is_file():
            return kind
    pytest.skip(f"every kind has a {dialect} wire schema")


def test_dialect_kinds_have_wire_schemas(corpus: Path) -> None:
    kind = _kind_without_schema("anthropic")

    def change(descriptor: dict[str, Any]) -> None:
        descriptor["kinds"] = [k for k in descriptor["kinds"] if k != kind] + [kind]

    edit(corpus / "dialects" / "anthropic.json", change)
    line = one(corpus, "has no wire schema")
    assert line.startswith("dialects/anthropic.json:/kinds/")
    assert line.endswith(f"kind {kind!r} has no wire schema (schemas/wire/anthropic/{kind}.schema.json)")


def test_invalid_source_needs_a_wire_schema(corpus: Path) -> None:
    kind = _kind_without_schema("anthropic")

    def change(case: dict[str, Any]) -> None:
        case.update(kind=kind, source={"dialect": "anthropic", "payload": {}, "invalid": True})
        case["expect"] = [{"dialect": "canonical", "error": {"code": "payload.invalid"}}]

    edit(corpus / "cases/choice/auto.json", change)
    assert one(corpus, "marked invalid") == (
        "cases/choice/auto.json:/source/invalid: marked invalid, but there is no anthropic wire schema "
        f"for kind {kind!r} to reject it"
    )


def test_non_json_file_in_cases(corpus: Path) -> None:
    (corpus / "cases/choice/auto.jsonc").write_text("{}", encoding="utf-8")
    (corpus / "cases/choice/.DS_Store").write_text("", encoding="utf-8")
    assert lines(corpus) == [
        "cases/choice/auto.jsonc: not a case: cases are `.json` files (this file is ignored)",
    ]


def test_judged_scope_names_known_features(corpus: Path) -> None:
    def change(d: dict) -> None:
        d["judged"] = [{"at": "/id", "features": ["response.identity", "response.idz"]}]

    edit(corpus / "dialects" / "anthropic.json", change)
    assert (
        "dialects/anthropic.json:/judged/0/features/1: unknown feature 'response.idz' (not in features.json)"
        in lines(corpus)
    )
