"""Real translators are judged on everything they translate (INTERPRETING.md 1.4.0): canonical sources
projected into every provider dialect, tools and tool choices lifted into requests, profiles that skip only
what they affect, capabilities checked, refusals judged as refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fake_translators import Oracle
from toolwire.adapters import PythonAdapter
from toolwire.adapters.http import client_refusal
from toolwire.corpus import load_corpus
from toolwire.corpus.capabilities import problems
from toolwire.corpus.projection import project_choice, project_path, project_tools
from toolwire.judge import applicable, run_check
from toolwire_reference.translator import Translator

CORPUS = load_corpus()
LIFT = {name: d["lift"] for name, d in CORPUS.dialects.items() if "lift" in d}
WEATHER = {
    "name": "get_weather",
    "description": "Weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


class Declaring(Translator):
    """The reference, declaring what the test says (and refusing with its own codes unless told): for the
    checks lifted into requests, which need a translator of whole requests; the other tests use fakes."""

    def __init__(
        self,
        kinds: dict[str, list[list[str]]],
        profiles: dict[str, list[str]] | None = None,
        codes: str = "toolwire",
    ) -> None:
        self.kinds, self.profiles, self.codes = kinds, profiles or {}, codes

    def capabilities(self) -> dict[str, Any]:
        return {
            **super().capabilities(),
            "kinds": self.kinds,
            "profiles": self.profiles,
            "error_codes": self.codes,
        }


class GatewayError(Exception):
    """A third-party refusal: its own code, never one of toolwire's."""

    code = "gateway.rejected"


def run_all(impl: Any) -> list[tuple[Any, Any]]:
    adapter = PythonAdapter("python:test", impl, timeout=None)
    return [(check, run_check(adapter, check, CORPUS.profiles)) for check in CORPUS.checks()]


# -- projection ---------------------------------------------------------------------------------------


def test_a_canonical_tool_is_spelled_in_each_provider_dialect() -> None:
    assert project_tools([WEATHER], LIFT["openai-chat"]) == [{"type": "function", "function": WEATHER}]
    assert project_tools([WEATHER], LIFT["openai-responses"]) == [{"type": "function", **WEATHER}]
    assert project_tools([WEATHER], LIFT["anthropic"]) == [
        {"name": "get_weather", "description": "Weather", "input_schema": WEATHER["parameters"]}
    ]
    assert project_tools([WEATHER], LIFT["gemini"]) == [{"functionDeclarations": [WEATHER]}]


def test_a_member_with_no_slot_or_a_reinterpreted_keyword_is_not_projected() -> None:
    assert project_tools([{**WEATHER, "strict": True}], LIFT["anthropic"]) is None  # no strict there
    assert project_tools([{"name": "ping"}], LIFT["anthropic"]) is None  # input_schema is required
    nullable = {
        **WEATHER,
        "parameters": {"type": "object", "properties": {"c": {"type": "string", "nullable": True}}},
    }
    assert project_tools([nullable], LIFT["gemini"]) is None  # `nullable` means null is valid there
    assert project_tools([nullable], LIFT["openai-chat"]) is not None  # a mere annotation in JSON Schema


def test_tool_choice_forms() -> None:
    named = {"tool_choice": {"mode": "required", "tools": ["f"]}, "parallel_tool_calls": False}
    assert project_choice(named, LIFT["openai-chat"]) == {
        "tool_choice": {"type": "function", "function": {"name": "f"}},
        "parallel_tool_calls": False,
    }
    assert project_choice(named, LIFT["anthropic"]) == {
        "tool_choice": {"type": "tool", "name": "f", "disable_parallel_tool_use": True}
    }
    assert project_choice(named, LIFT["gemini"]) is None  # Gemini has no parallel flag
    several = {"tool_choice": {"mode": "auto", "tools": ["f", "g"]}}
    assert project_choice(several, LIFT["anthropic"]) is None
    assert project_choice(several, LIFT["openai-responses"]) == {
        "tool_choice": {
            "type": "allowed_tools",
            "mode": "auto",
            "tools": [{"type": "function", "name": "f"}, {"type": "function", "name": "g"}],
        }
    }
    assert project_choice({"parallel_tool_calls": False}, LIFT["anthropic"]) is None  # needs a choice


def test_error_paths_move_with_the_projection() -> None:
    assert project_path("/0/parameters/properties/a", "tools", LIFT["openai-chat"]) == (
        "/0/function/parameters/properties/a"
    )
    assert project_path("/1/parameters", "tools", LIFT["anthropic"]) == "/1/input_schema"
    assert project_path("/2/name", "tools", LIFT["gemini"]) == "/0/functionDeclarations/2/name"
    assert project_path("/parallel_tool_calls", "tool_choice", LIFT["anthropic"]) == (
        "/tool_choice/disable_parallel_tool_use"
    )
    assert project_path("/tool_choice/mode", "tool_choice", LIFT["gemini"]) is None  # not compared


def test_every_canonical_tools_case_reaches_real_dialects() -> None:
    checks = CORPUS.checks()
    projected = [c for c in checks if c.projected_from == "canonical"]
    providers = {"openai-chat", "openai-responses", "anthropic", "gemini", "mistral"}
    assert {c.source for c in projected} == providers
    assert all(c.target != c.source and not c.round_trip for c in projected)
    canonical_tools = {c.id for c in CORPUS.cases if c.kind == "tools" and c.source_dialect == "canonical"}
    reached = {c.case_id for c in projected if c.kind == "tools"}
    assert len(reached) >= 0.8 * len(canonical_tools), sorted(canonical_tools - reached)
    # schema and validation features now have checks from a provider source
    features = {f for c in projected for f in c.features}
    assert any(f.startswith("schema.") for f in features)
    assert any(f.startswith("validation.") for f in features)


def test_an_invalid_projection_is_used_only_for_refusal_cases() -> None:
    for check in CORPUS.checks():
        if check.projection is not None and check.projection.invalid:
            others = [e for e in check.case.expect if e["dialect"] != check.source]
            assert all("error" in e for e in others), check.id


# -- lifted kinds, scoped profiles -----------------------------------------------------------------------


def test_a_request_only_translator_gets_the_tools_and_tool_choice_checks_of_its_pair() -> None:
    impl = Declaring({"request": [["anthropic", "openai-chat"]]})
    results = run_all(impl)
    ran = [(c, r) for c, r in results if r.outcome != "skipped"]
    kinds = Counter(c.kind for c, _ in ran)
    assert kinds["tools"] > 30 and kinds["tool_choice"] > 10, kinds
    assert all(r.unit == "request" for c, r in ran if c.kind in ("tools", "tool_choice"))
    assert all((c.source, c.target) == ("anthropic", "openai-chat") for c, _ in ran)
    failed = [(c.id, r.message) for c, r in ran if r.outcome != "passed"]
    assert not failed, failed[:5]


def test_a_lifted_check_fails_a_request_translator_that_loses_the_tools() -> None:
    class DropsTools(Declaring):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            out = super().translate(kind, source, target, payload, profile)
            return {k: v for k, v in out.items() if k != "tools"}

    results = run_all(DropsTools({"request": [["anthropic", "openai-chat"]]}))
    lifted = [r for c, r in results if c.kind == "tools" and r.outcome != "skipped"]
    assert lifted and sum(r.outcome == "failed" for r in lifted) >= len(lifted) // 2


def test_a_strict_policy_does_not_hide_tool_choice_checks() -> None:
    pair = [["anthropic", "openai-chat"]]
    caps = Declaring({"tools": pair, "tool_choice": pair}, {"openai.strict": ["all-required"]}).capabilities()
    of_pair = [c for c in CORPUS.checks() if (c.source, c.target) == tuple(pair[0])]
    choice = [c for c in of_pair if c.kind == "tool_choice"]
    assert choice and all(applicable(c, caps, CORPUS.profiles) is None for c in choice)
    tools = [c for c in of_pair if c.kind == "tools"]
    skipped = [applicable(c, caps, CORPUS.profiles) for c in tools]
    assert any(s and "openai.strict=as-is" in s for s in skipped)  # where it matters, it still counts


# -- capabilities and refusals -------------------------------------------------------------------------


def test_misspelt_capabilities_name_the_closest_valid_entry() -> None:
    found = problems(
        {
            "kinds": {"tool": [["Anthropic", "openai"]]},
            "profiles": {"openai.stric": ["off"], "openai.strict": ["of"]},
        },
        CORPUS,
    )
    text = "\n".join(found)
    assert "unknown kind 'tool' (did you mean 'tools'?)" in text
    assert "unknown dialect 'Anthropic'" in text and "'anthropic'" in text
    assert "unknown dialect 'openai'" in text
    assert "unknown profile key 'openai.stric' (did you mean 'openai.strict'?)" in text
    assert "unknown value 'of' (did you mean 'off'?)" in text
    assert problems(Translator().capabilities(), CORPUS) == []


def _toolwire_run(cwd: Path, adapter: str) -> subprocess.CompletedProcess[str]:
    """``toolwire run`` of the translator module in ``cwd``, its report in ``cwd/out``."""
    return subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "run", "--adapter", adapter, "--report", "out"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("declared", "code"),
    [
        ('{"kinds": {"tool": [["anthropic", "openai-chat"]]}}', 2),
        ('{"kinds": {}}', 1),
    ],
)
def test_a_typo_exits_2_and_a_run_where_nothing_applies_does_not_pass(
    tmp_path: Path, declared: str, code: int
) -> None:
    (tmp_path / "declared.py").write_text(
        "class T:\n"
        f"    def capabilities(self):\n        return {{'name': 't', 'version': '1', **{declared}}}\n"
        "    def translate(self, *args):\n        return []\n",
        encoding="utf-8",
    )
    run = _toolwire_run(tmp_path, "python:declared:T")
    assert run.returncode == code, run.stdout[-2000:] + run.stderr[-2000:]
    assert ("did you mean 'tools'" if code == 2 else "no check applied") in run.stderr


def test_a_foreign_refusal_passes_where_a_refusal_is_expected_and_codes_count_when_declared() -> None:
    class Foreign(Oracle):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            try:
                return super().translate(kind, source, target, payload, profile)
            except Exception as exc:
                raise GatewayError(f"cannot translate: {exc}") from None

    pair = {"tools": [["canonical", "gemini"]]}
    own = {c.id: r for c, r in run_all(Foreign(CORPUS, kinds=pair, codes="own")) if r.outcome != "skipped"}
    strict = {
        c.id: r for c, r in run_all(Foreign(CORPUS, kinds=pair, codes="toolwire")) if r.outcome != "skipped"
    }
    refusals = [i for i, r in own.items() if r.actual_error is not None]
    assert refusals
    assert all(own[i].outcome == "passed" for i in refusals)
    assert all("refused as expected" in (own[i].message or "") for i in refusals)
    assert all(strict[i].outcome == "failed" for i in refusals)  # its code is not the corpus's


def test_a_4xx_error_body_over_http_is_a_refusal() -> None:
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": "tools.0: bad"}}
    assert client_refusal(body, 400) == {
        "code": "http.400.invalid_request_error",
        "message": "tools.0: bad",
        "path": None,
    }
    assert client_refusal(body, 500)["code"].startswith("http.500")  # the client gets an error all the same
    assert client_refusal(body, 302) is None  # no error status
    assert client_refusal({"id": "x"}, 400) is None  # nor a body that is no error


def test_the_report_names_features_a_declared_pair_carries_but_a_policy_kept_out() -> None:
    from toolwire.reports.markdown import _unreached

    checks = [
        {
            "features": ["text.malformed"],
            "outcome": "skipped",
            "message": "profile stream.text-calls=parse not supported (declares only the default 'off')",
        },
        {"features": ["schema.refs"], "outcome": "skipped", "message": "kind 'tools' not declared by it"},
        {"features": ["tools.wrapper"], "outcome": "passed"},
    ]
    rows = [line for line in _unreached(checks) if line.startswith("| `")]
    assert rows == [
        "| `text.malformed` | profile stream.text-calls: the value the check needs is not implemented |"
    ]


def test_a_translator_that_mutates_its_input_fails_even_when_its_output_is_right() -> None:
    class Mutating(Oracle):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            out = super().translate(kind, source, target, payload, profile)
            if isinstance(payload, list) and payload:
                payload.pop()  # like a converter that consumes its caller's list
            return out

    pair = {"tools": [["openai-chat", "anthropic"]]}
    results = [(c, r) for c, r in run_all(Mutating(CORPUS, kinds=pair)) if r.outcome != "skipped"]
    # every check whose translation returned (and so popped) fails; a refusal happens before the pop
    popped = [r for c, r in results if c.source_payload and r.actual_error is None]
    assert popped and all(r.outcome == "failed" for r in popped)
    assert all(
        "mutated its input" in (r.message or "") and "differs afterwards at /" in (r.message or "")
        for r in popped
    )
    honest = [r for c, r in run_all(Oracle(CORPUS, kinds=pair)) if r.outcome != "skipped"]
    assert honest and all(r.outcome == "passed" for r in honest)


def test_declaring_a_thinking_policy_keeps_every_stream_check_without_thinking() -> None:
    pair = {"stream": [["anthropic", "openai-chat"]]}
    keep = Declaring(pair, {"stream.thinking": ["keep"]}).capabilities()
    default = Declaring(pair).capabilities()
    streams = [c for c in CORPUS.checks() if c.kind == "stream" and c.source == "anthropic"]
    others = [c for c in streams if "streams.thinking" not in c.features and c.target == "openai-chat"]
    same = [applicable(c, keep, CORPUS.profiles) == applicable(c, default, CORPUS.profiles) for c in others]
    assert others and all(same) and any(applicable(c, keep, CORPUS.profiles) is None for c in others)
    # a check about thinking written for the default policy is skipped for a translator that keeps it
    about = [c for c in streams if "streams.thinking" in c.features and not c.when]
    assert about and all(applicable(c, keep, CORPUS.profiles) is not None for c in about)


def test_declaring_an_error_flag_policy_keeps_every_request_check_without_an_error_result() -> None:
    pair = {"request": [["anthropic", "openai-chat"]]}
    drop = Declaring(pair, {"results.error-flag": ["drop"]}).capabilities()
    default = Declaring(pair).capabilities()
    requests = [
        c for c in CORPUS.checks() if c.kind == "request" and [c.source, c.target] == pair["request"][0]
    ]
    others = [c for c in requests if "results.error-flag" not in c.features]
    same = [applicable(c, drop, CORPUS.profiles) == applicable(c, default, CORPUS.profiles) for c in others]
    assert others and all(same) and any(applicable(c, drop, CORPUS.profiles) is None for c in others)
    # a check about the flag written for the default policy is skipped for a translator that drops it
    about = [
        c
        for c in requests
        if c.when.get("results.error-flag", "text-prefix") == "text-prefix"
        and "results.error-flag" in c.features
    ]
    assert about and all(applicable(c, drop, CORPUS.profiles) is not None for c in about)


def test_every_request_case_with_an_error_result_names_the_error_flag_feature() -> None:
    # the profile's `affects` reaches a request check only through this feature
    def error_results(value: Any) -> bool:
        if isinstance(value, dict):
            flagged = value.get("is_error") is True or value.get("status") == "error"
            return flagged or any(error_results(v) for v in value.values())
        return isinstance(value, list) and any(error_results(v) for v in value)

    missing = {
        c.case.id
        for c in CORPUS.checks()
        if c.kind == "request"
        and "results.error-flag" not in c.features
        and error_results(c.case.source_payload)
    }
    assert not missing


def test_declaring_a_gemini_schema_policy_keeps_the_request_checks_without_a_schema() -> None:
    pair = {"request": [["anthropic", "gemini"]]}
    json_schema = Declaring(pair, {"gemini.schema": ["json-schema"]}).capabilities()
    requests = [
        c for c in CORPUS.checks() if c.kind == "request" and [c.source, c.target] == pair["request"][0]
    ]
    kept = [c for c in requests if not c.when and applicable(c, json_schema, CORPUS.profiles) is None]
    skipped = [c for c in requests if not c.when and c not in kept]

    def schema_or_refusal(check: Any) -> bool:
        text = json.dumps([check.expectation.get("payload"), check.case.source_payload])
        schema = any(f'"{m}"' in text for m in ("parameters", "input_schema", "responseSchema"))
        return "payload" not in check.expectation or schema

    # a check whose expected Gemini body holds no schema does not depend on the schema policy
    assert kept and not any(schema_or_refusal(c) for c in kept)
    assert skipped and all(schema_or_refusal(c) for c in skipped)


@pytest.mark.parametrize("values", [["degrade"], ["error", "degrade"]])
def test_declaring_an_unsupported_policy_keeps_every_check_it_does_not_affect(values: list[str]) -> None:
    """``unsupported`` decides what happens to what has no target form: it affects the checks that expect a
    refusal and those whose case names it toward their target, no other. A proxy declaring its honest
    ``unsupported = ["degrade"]`` was judged on 2 of 8,484 checks."""
    every = {kind: [["*", "*"]] for kind in ("tools", "tool_choice", "request", "response", "stream")}
    declared = Declaring(every, {"unsupported": values}).capabilities()
    default = Declaring(every).capabilities()
    checks = [c for c in CORPUS.checks() if c.kind in every]

    def names_it(check: Any) -> bool:
        return any(
            "unsupported" in (e.get("when") or {})
            for e in check.case.expect
            if e.get("dialect") == check.target
        )

    plain = [
        c for c in checks if "error" not in c.expectation and not names_it(c) and "unsupported" not in c.when
    ]
    assert len(plain) > 3000
    assert [
        c.id
        for c in plain
        if applicable(c, declared, CORPUS.profiles) != applicable(c, default, CORPUS.profiles)
    ] == []
    variants = [c for c in checks if c.when == {"unsupported": "degrade"}]
    assert variants and all(applicable(c, declared, CORPUS.profiles) is None for c in variants)
    refusals = [
        c
        for c in checks
        if "error" in c.expectation and not c.when and applicable(c, default, CORPUS.profiles) is None
    ]
    kept = [c for c in refusals if applicable(c, declared, CORPUS.profiles) is None]
    # a refusal written for the default policy is judged only when the translator declares that policy too
    assert refusals and (kept == refusals if "error" in values else kept == [])


def test_a_lifted_legacy_function_call_offers_functions_not_tools() -> None:
    """Chat's deprecated ``function_call`` names a tool of ``functions``: OpenAI refuses it beside ``tools``
    alone, so a request built that way would be the harness's invalid input, not the proxy's problem."""
    from toolwire.judge.lifting import lift_request

    checks = {c.id: c for c in CORPUS.checks()}
    legacy = lift_request(checks["choice/legacy-function-call-named[openai-chat>gemini]"])
    assert "tools" not in legacy
    assert [f["name"] for f in legacy["functions"]] == [legacy["function_call"]["name"]]
    modern = lift_request(checks["choice/openai-chat-none[openai-chat>anthropic]"])
    assert "functions" not in modern and modern["tools"][0]["type"] == "function"


def test_a_translator_reading_another_payload_shape_is_told_what_the_payload_is(tmp_path: Path) -> None:
    """A first translator that takes a tool_choice payload for the bare choice refuses nearly every check of
    that kind: the run says what the kind's payload is, instead of leaving 18 false refusals to puzzle."""
    (tmp_path / "shape.py").write_text(
        "class Refusal(Exception):\n"
        "    code, path = 'bad_choice', ''\n"
        "    message = 'expected a string or {\"type\": …}'\n"
        "class T:\n"
        "    def capabilities(self):\n"
        "        pair = [['openai-chat', 'anthropic']]\n"
        "        return {'name': 't', 'version': '1', 'kinds': {'tool_choice': pair}}\n"
        "    def translate(self, kind, source, target, payload, profile):\n"
        "        if not isinstance(payload, str) and 'type' not in payload:\n"
        "            raise Refusal(Refusal.message)\n"
        "        return payload\n",
        encoding="utf-8",
    )
    run = _toolwire_run(tmp_path, "python:shape:T")
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    assert "tool_choice checks were refused or crashed where a payload was expected" in run.stdout
    assert '{"tool_choice": …}' in run.stdout
    # where the results went is said once
    assert run.stdout.count("t.results.jsonl") == 1, run.stdout[-1500:]
