"""Findings whose titles name the defect (`toolwire.reports.bugs`), the "Input validation" section of the
Markdown report, the seeded sample of findings to verify (`toolwire findings`) and the audited false rate
`report combine` publishes from AUDIT.json (`toolwire.reports.audit`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from reports_support import header, peer_checks, write, write_corpus
from result_records import check_rec
from toolwire.reports.audit import AuditError, audit_section, read_audit, wilson
from toolwire.reports.bugs import find_bugs, split_variant
from toolwire.reports.combine import main as combine_main
from toolwire.reports.markdown import render
from toolwire.reports.sample import Drawn, collect, draw
from toolwire.reports.sample import main as findings_main
from toolwire.results import Results


def check(case: str, source: str = "anthropic", target: str = "openai-chat", **extra: Any) -> dict[str, Any]:
    kind = extra.pop("kind", "request")
    level = extra.pop("level", "must")
    variant = extra.pop("variant", "")
    outcome = extra.pop("outcome", "failed")
    return check_rec(
        case, source, target, outcome, kind=kind, level=level, features=["f.x"], variant=variant, **extra
    )


def titles(checks: list[dict[str, Any]]) -> list[str]:
    return [f.plain_title() for f in find_bugs(checks)]


# -- 1. titles that name the defect ------------------------------------------------------------------------


def test_a_member_missing_from_the_first_events_is_missing_not_appearing():
    grammar = (
        "openai-responses stream grammar: event 5: sequence_number appears mid-stream "
        "[openai-responses.sequence-number]"
    )
    found = titles([check("streams/a", "anthropic", "openai-responses", kind="stream", message=grammar)])
    assert found == [
        "anthropic→openai-responses streams: `sequence_number` missing from the first events (later events "
        "carry it) (`openai-responses.sequence-number`)"
    ]
    assert "appears" not in found[0]


def _keys(*recs: tuple[str, str, str]) -> list[dict[str, Any]]:
    return [
        {
            "pointer": f"/{key}",
            "kind": kind,
            "section": "accumulated",
            "key": key,
            ("expected" if kind == "missing-key" else "got"): value,
            "message": f"{kind} {key}",
        }
        for kind, key, value in recs
    ]


def test_a_lost_error_event_is_named_not_listed_as_keys():
    differences = _keys(
        ("missing-key", "error", '{"type": "overloaded_error"}'),
        ("unexpected-key", "content", "[]"),
        ("unexpected-key", "role", '"assistant"'),
        ("unexpected-key", "stop_reason", '"end_turn"'),
        ("unexpected-key", "type", '"message"'),
    )
    found = titles([check("streams/e", "gemini", "anthropic", kind="stream", differences=differences)])
    assert found == [
        "gemini→anthropic streams (accumulated output): no `error` event where the stream must end in one "
        "(the "
        "stream ends as a normal `message`)"
    ]


def test_an_added_error_event_is_named():
    differences = _keys(("unexpected-key", "error", '{"code": "server_error"}'))
    found = titles([check("streams/e", "gemini", "openai-responses", kind="stream", differences=differences)])
    assert found == [
        "gemini→openai-responses streams (accumulated output): an `error` event where the stream must end "
        "normally"
    ]


def test_an_invalid_stream_event_is_named_by_its_type():
    wire = [
        "/3/data: {'type': 'response.output_item.added', 'item': {'id': 'x'}} is not valid under any of the "
        "given schemas",
    ]
    done = ["/9/data: '[DONE]' is not of type 'object'"]
    found = titles(
        [
            check("streams/a", "anthropic", "openai-responses", kind="stream", wire_errors=wire),
            check("streams/b", "anthropic", "openai-responses", kind="stream", wire_errors=done),
        ]
    )
    assert sorted(found) == [
        "anthropic→openai-responses streams: the `data: [DONE]` line is invalid for the openai-responses "
        "stream schema: string is not of type 'object'",
        "anthropic→openai-responses streams: the `response.output_item.added` event is invalid for the "
        "openai-responses stream schema: object is not valid under any of the given schemas",
    ]


def test_wire_errors_from_the_callers_invalid_input_are_the_callers():
    wire = ["/messages/0/content: 'x' is not of type 'array'"]
    found = titles(
        [
            check("validation/a", wire_errors=wire, source_invalid=True),
            check("validation/b", wire_errors=wire),
        ]
    )
    assert len(found) == 2
    caller = [t for t in found if "caller" in t]
    assert caller == [
        "anthropic→openai-chat requests: the caller's input is invalid in anthropic; "
        "the output carries it on, "
        "invalid for the openai-chat wire schema at `/messages/*/content`: string is not of type 'array'"
    ]
    assert any(
        t.startswith("anthropic→openai-chat requests: output invalid for the openai-chat wire") for t in found
    )


def test_one_http_status_per_finding():
    def crash(case: str, status: int) -> dict[str, Any]:
        return check(
            case,
            outcome="errored",
            message=f"RuntimeError: the proxy answered HTTP {status} without calling the upstream",
        )

    found = find_bugs([crash("a/1", 422), crash("a/2", 500), crash("a/3", 500), crash("a/4", 400)])
    assert sorted((f.count, f.plain_title().split("HTTP ")[1][:3]) for f in found) == [
        (1, "400"),
        (1, "422"),
        (2, "500"),
    ]


def test_variants_of_one_stream_case_count_once():
    grammar = (
        "openai-chat stream grammar: event 0: object must be 'chat.completion.chunk' (got None) "
        "[openai-chat.chunk-object]"
    )
    variants = ["", "rechunk=chars", "rechunk=utf8", "delivery=split", "incremental"]
    cosmetic = [check("streams/a", kind="stream", variant=v, message=grammar) for v in variants]
    other = [
        check(f"streams/{c}", kind="stream", message=grammar.replace("object must", "object must"))
        for c in "bc"
    ]
    real = [
        check(f"r/{i}", diff='1 difference (JSON Pointer into the output):\n  /model: expected "a", got "b"')
        for i in range(2)
    ]
    found = find_bugs(cosmetic + other + real)
    grammar_finding = next(f for f in found if "chunk-object" in f.plain_title())
    assert grammar_finding.count == 3  # streams/a once, b, c
    assert grammar_finding.runs == 7
    assert grammar_finding.variants() == ["delivery=split", "incremental", "rechunk=chars", "rechunk=utf8"]
    assert split_variant("s/a[x>y,fresh-ids]") == ("s/a[x>y]", "fresh-ids")
    assert split_variant("s/a[x>y,openai.strict=off]") == ("s/a[x>y,openai.strict=off]", "")
    # one cosmetic difference seven runs over does not outrank a finding in more cases
    lone = find_bugs(cosmetic + real)
    assert [f.count for f in lone] == [2, 1]


def test_variants_are_listed_in_the_markdown_report():
    grammar = (
        "openai-chat stream grammar: event 0: object must be 'chat.completion.chunk' (got None) "
        "[openai-chat.chunk-object]"
    )
    checks = [check("streams/a", kind="stream", variant=v, message=grammar) for v in ("", "rechunk=whole")]
    text = render(Results({"adapter": {"name": "x"}}, checks, None))
    assert (
        "**1 check** (1 must), features `f.x`; also in the variants `rechunk=whole` (2 runs in all)." in text
    )


def test_keys_of_different_objects_are_different_findings():
    diff = (
        "2 differences (JSON Pointer into the output):\n  /a/x: unexpected key 'x', value 1\n"
        "  /b/y: unexpected key 'y', value 1"
    )
    assert len(find_bugs([check("r/1", diff=diff), check("r/2", diff=diff)])) == 2


# -- 3. input validation: information, never findings ------------------------------------------------------


def test_input_validation_section_and_no_findings():
    checks = [
        check("validation/a", outcome="passed", source_invalid=True, handled="refused"),
        check("validation/b", outcome="passed", source_invalid=True, handled="forwarded"),
        check("validation/c", outcome="passed", source_invalid=True, handled="forwarded"),
        check("validation/d", outcome="passed", source_invalid=True, handled="translated"),
        check("tools/e", outcome="passed", handled="left-to-provider"),
        check("tools/f", outcome="passed"),  # no new field: tolerated
    ]
    assert find_bugs(checks) == []
    text = render(Results({"adapter": {"name": "x"}}, checks, None))
    section = text.split("## Input validation", 1)[1].split("\n## ", 1)[0]
    assert "| refused | 1 | `validation/a[anthropic>openai-chat]` |" in section
    assert "| passed on (the target rejects it in turn) | 2 |" in section
    assert "| translated (the target's wire schema accepts the output) | 1 |" in section
    assert "Left to the provider: 1 check" in section
    plain = render(Results({"adapter": {"name": "x"}}, [check("tools/f", outcome="passed")], None))
    assert "Input validation" not in plain


# -- 2. the sample of findings to verify -------------------------------------------------------------------


def _results(tmp_path: Path) -> list[Path]:
    corpus = write_corpus(tmp_path / "corpus")
    out = tmp_path / "in"
    out.mkdir()
    paths = []
    for name in ("alpha", "beta", "gamma"):
        checks = []
        for area in ("tools", "messages", "streams"):
            for i in range(6):
                key = f"{area}{i}"
                diff = (
                    f"1 difference (JSON Pointer into the output):\n  /{key}: unexpected key '{key}', value 1"
                )
                level = ("must", "should", "may")[i % 3]
                checks.append(
                    check_rec(
                        f"{area}/c{i}",
                        "anthropic",
                        "openai-chat",
                        "failed",
                        kind="request",
                        level=level,
                        features=[f"{area}.x"],
                        diff=diff,
                    )
                )
        paths.append(write(out / f"{name}.results.jsonl", header(name, corpus), checks))
    return paths


def _ids(sample: list[Drawn]) -> list[tuple[str, str]]:
    return [(d.implementation, d.finding.plain_title()) for d in sample]


def test_sample_is_seeded_and_stratified(tmp_path: Path):
    found = collect(_results(tmp_path))
    assert len(found) == 54
    one, again, other = draw(found, 12, 7), draw(found, 12, 7), draw(found, 12, 8)
    assert _ids(one) == _ids(again)
    assert _ids(one) != _ids(other)
    # 3 implementations x 3 areas x 3 levels: 27 strata, 12 drawn from 12 different strata
    assert len({d.stratum for d in one}) == 12
    big = draw(found, 30, 1)
    assert {d.stratum for d in big} == {d.stratum for d in found}  # every stratum covered
    assert len(draw(found, 100, 1)) == 54
    # must weighs more: over many seeds, must strata come first more often than may
    levels = [d.level for seed in range(40) for d in draw(found, 3, seed)]
    assert levels.count("must") > levels.count("may")


def test_findings_sample_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    paths = [str(p) for p in _results(tmp_path)]
    out = tmp_path / "sample.md"
    assert findings_main(["sample", *paths, "--seed", "3", "--size", "5", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("\nverdict:\n") == 5 and text.count("\nevidence:\n") == 5
    assert "example `" in text
    assert findings_main(["sample", *paths, "--seed", "3", "--size", "5", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["seed"] == 3 and len(doc["findings"]) == 5
    first = doc["findings"][0]
    assert first["verdict"] == "" and first["evidence"] == []
    assert {"implementation", "version", "finding", "check", "context"} <= set(first)
    assert findings_main(["list", paths[0], "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["findings"]) == 18


# -- 4. the published false rate ---------------------------------------------------------------------------


def test_wilson_interval():
    low, high = wilson(3, 10)
    assert round(low, 3) == 0.108 and round(high, 3) == 0.603
    assert wilson(0, 0) == (0.0, 1.0)


def _audit(tmp_path: Path) -> Path:
    def f(verdict: str, cls: str | None = None) -> dict[str, Any]:
        return {
            "implementation": "shallow",
            "version": "1",
            "finding": "t",
            "check": "c[a>b]",
            "verdict": verdict,
            "evidence": ["x.py:1"],
            "class": cls,
        }

    doc = {
        "samples": [
            {"seed": 1, "drawn_at": "0.3.0", "findings": [f("true"), f("false", "policy"), f("unsure")]},
            {"seed": 2, "drawn_at": "0.3.0", "findings": [f("true"), f("true"), f("false", "harness")]},
        ]
    }
    path = tmp_path / "AUDIT.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_audit_section(tmp_path: Path):
    text = audit_section(_audit(tmp_path))
    assert "| seed 1, corpus 0.3.0 | 3 | 1 | 1 | 1 | 50% (9%–91%) |" in text
    assert "| **all samples** | 6 | 3 | 2 | 1 | 40% (12%–77%) |" in text
    assert "harness (1), policy (1)" in text
    assert audit_section(tmp_path / "absent.json") == ""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"findings": [{"verdict": "maybe"}]}]), encoding="utf-8")
    with pytest.raises(AuditError):
        read_audit(bad)


def test_audit_section_counts_blind_second_verdicts(tmp_path: Path):
    """A second auditor's blind verdict is shown beside the rate, which stays the first auditors'."""
    path = _audit(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    first, second = doc["samples"]
    first["findings"][1]["second"] = {"verdict": "false", "why": "agrees"}
    second["findings"][2]["second"] = {"verdict": "true", "why": "the provider rejects it"}
    second["findings"][0]["second"] = {"verdict": "true"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    text = audit_section(path)
    assert "| **all samples** | 6 | 3 | 2 | 1 | 40% (12%–77%) |" in text
    assert "verified 3 of these findings again" in text and "1 true, 2 false" in text
    assert "the two agree on 2; both judge 1 false" in text
    assert "third auditor" not in text
    # where the two disagree a third decides: by majority, the first sample's false is confirmed and the
    # second sample's false overturned (2 of 6 false by the first auditors, 1 by majority)
    second["findings"][2]["third"] = {"verdict": "true"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    text = audit_section(path)
    assert "| **all samples** | 6 | 3 | 2 | 1 | 40% (12%–77%) |" in text
    assert "a third auditor decided (1 finding)" in text and "1 of 6 are false: 20%" in text
    second["findings"][0]["second"] = {"verdict": "maybe"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(AuditError):
        read_audit(path)


def test_combine_publishes_the_audit(tmp_path: Path):
    corpus = write_corpus(tmp_path / "corpus")
    out = tmp_path / "out"
    out.mkdir()
    path = write(out / "shallow.results.jsonl", header("shallow", corpus), peer_checks())
    assert combine_main([str(path), "-o", str(out), "--corpus", str(corpus)]) == 0
    assert "Audited findings" not in (out / "README.md").read_text(encoding="utf-8")
    _audit(out)
    assert combine_main([str(path), "-o", str(out), "--corpus", str(corpus)]) == 0
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "## Audited findings" in readme
    assert "| **all samples** | 6 | 3 | 2 | 1 | 40% (12%–77%) |" in readme
