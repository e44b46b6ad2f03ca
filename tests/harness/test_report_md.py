"""The Markdown compatibility report (`toolwire report`), snapshot-tested on a hand-built results file."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from result_records import check_rec
from toolwire.reports import markdown as report_md
from toolwire.reports.markdown import percent, render
from toolwire.results import read_results

FEATURES = [
    {"key": "tools.wrapper", "title": "Tool definition wrapper", "area": "tools", "description": "d"},
    {"key": "tools.multiple", "title": "Several tools, order kept", "area": "tools", "description": "d"},
    {
        "key": "schema.additional-properties-deep",
        "title": "additionalProperties:false at every depth",
        "area": "tools",
        "description": "d",
    },
    {"key": "choice.auto", "title": "auto", "area": "choice", "description": "d"},
    {"key": "choice.none", "title": "none", "area": "choice", "description": "d"},
    {
        "key": "validation.duplicate-name",
        "title": "Duplicate tool names",
        "area": "validation",
        "description": "d",
    },
]


def _header(corpus: Path, selection: str | None = None) -> dict[str, Any]:
    return {
        "record": "header",
        "format": 1,
        "toolwire_version": "0.1.0",
        "corpus": {
            "version": "0.3.0",
            "hash": "sha256:0123abcd",
            "interpreting_version": "1.0.0",
            "path": str(corpus),
        },
        "adapter": {
            "spec": "python:shallow_adapter:Shallow",
            "name": "shallow-strict",
            "version": "2.4.1",
            "language": "python",
            "capabilities": {"kinds": {"tools": [["*", "*"]]}},
        },
        "run": {
            "started": "2026-01-02T03:04:05Z",
            "python": "3.11.9",
            "platform": "linux",
            "argv": ["toolwire", "run"],
            "selection": selection,
        },
    }


def _check(
    case: str,
    source: str,
    target: str,
    outcome: str,
    *,
    level: str = "must",
    features: list[str],
    kind: str = "tools",
    profile: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    return check_rec(
        case,
        source,
        target,
        outcome,
        kind=kind,
        level=level,
        features=features,
        profile=profile,
        duration_ms=1.5,
        **extra,
    )


CHECKS: list[dict[str, Any]] = [
    _check("tools/basic", "canonical", "openai-chat", "passed", features=["tools.wrapper"]),
    _check("tools/basic", "canonical", "anthropic", "passed", features=["tools.wrapper", "tools.multiple"]),
    _check(
        "tools/nested",
        "canonical",
        "openai-chat",
        "failed",
        features=["schema.additional-properties-deep"],
        profile={"openai.strict": "all-required"},
        wire_valid=True,
        wire_errors=[],
        message="the output differs from the expectation",
        diff="/0/function/parameters/properties/loc/additionalProperties: missing (expected false)",
    ),
    _check(
        "tools/nested",
        "canonical",
        "openai-responses",
        "failed",
        features=["schema.additional-properties-deep"],
        profile={"openai.strict": "all-required"},
        wire_valid=False,
        wire_errors=["/0/parameters: 'type' is a required property"],
        diff="/0/parameters/type: missing (expected 'object')\n/0/strict: expected true, got false\n```",
    ),
    _check(
        "tools/nested",
        "canonical",
        "openai-chat",
        "skipped",
        level="may",
        features=["schema.additional-properties-deep"],
        profile={"openai.strict": "nullable-optional"},
        message="profile openai.strict=nullable-optional not supported",
    ),
    _check(
        "choice/auto",
        "canonical",
        "gemini",
        "errored",
        level="should",
        kind="tool_choice",
        features=["choice.auto"],
        message="Traceback (most recent call last):\n  File \"x.py\", line 3\nKeyError: 'mode'",
    ),
    _check("choice/auto", "canonical", "anthropic", "passed", kind="tool_choice", features=["choice.auto"]),
    _check(
        "choice/auto",
        "canonical",
        "openai-responses",
        "skipped",
        kind="tool_choice",
        features=["choice.auto"],
        message="pair canonical>openai-responses not declared",
    ),
    _check(
        "choice/none",
        "canonical",
        "anthropic",
        "xfailed",
        kind="tool_choice",
        features=["choice.none"],
        message="known: none is sent as auto (issue #12)",
    ),
    _check(
        "choice/none",
        "canonical",
        "openai-chat",
        "xpassed",
        kind="tool_choice",
        features=["choice.none"],
        message="listed as a known failure",
    ),
    _check(
        "validation/duplicate-names",
        "canonical",
        "anthropic",
        "failed",
        features=["validation.duplicate-name"],
        expected_error={"code": "tool.duplicate_name", "path": "/1/name"},
        actual_error=None,
        wire_valid=True,
        message="expected an error, got a payload",
        diff="expected error tool.duplicate_name at /1/name, got a payload",
    ),
    _check(
        "validation/duplicate-names",
        "canonical",
        "gemini",
        "failed",
        features=["validation.duplicate-name"],
        expected_error={"code": "tool.duplicate_name"},
        actual_error={"code": "tool.invalid_name", "message": "bad name", "path": "/0/name"},
        message="error code differs",
        diff="error code: expected 'tool.duplicate_name', got 'tool.invalid_name'",
    ),
]


def _footer(checks: list[dict[str, Any]], complete: bool = True) -> dict[str, Any]:
    counts = {
        o: sum(c["outcome"] == o for c in checks)
        for o in ("passed", "failed", "errored", "skipped", "xfailed", "xpassed")
    }
    return {
        "record": "footer",
        "complete": complete,
        "total": len(checks),
        "counts": counts,
        "finished": "2026-01-02T03:05:00Z",
    }


def write_results(
    path: Path, header: dict[str, Any], checks: list[dict[str, Any]], footer: dict[str, Any] | None
) -> Path:
    records = [header, *checks, *([footer] if footer else [])]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "features.json").write_text(json.dumps(FEATURES), encoding="utf-8")
    return root


def test_complete_report(tmp_path: Path, corpus: Path, snapshot: Any) -> None:
    path = write_results(tmp_path / "r.jsonl", _header(corpus), CHECKS, _footer(CHECKS))
    text = render(read_results(path))
    assert "PARTIAL" not in text
    assert text == snapshot


def test_partial_report_without_footer(tmp_path: Path, corpus: Path, snapshot: Any) -> None:
    checks = CHECKS[:4]
    path = write_results(tmp_path / "r.jsonl", _header(corpus), checks, None)
    text = render(read_results(path))
    assert "**PARTIAL**" in text and "no footer" in text
    assert text == snapshot


def test_filtered_run_is_partial(tmp_path: Path, corpus: Path) -> None:
    checks = [c for c in CHECKS if c["area"] == "choice"]
    path = write_results(tmp_path / "r.jsonl", _header(corpus, "-k choice/"), checks, _footer(checks, False))
    text = render(read_results(path))
    assert "**PARTIAL**: a filtered run (`-k choice/`)" in text
    assert "## Area: tools" not in text  # a partial run shows what ran, not the whole vocabulary


def test_sections_and_content(tmp_path: Path, corpus: Path) -> None:
    text = render(read_results(write_results(tmp_path / "r.jsonl", _header(corpus), CHECKS, _footer(CHECKS))))
    assert text.startswith("# toolwire compatibility report: shallow-strict 2.4.1\n")
    order = [
        "## Summary",
        "## Area: tools",
        "## Area: choice",
        "## Area: validation",
        "## Failing checks",
        "## Unexpected passes",
        "## Known failures",
        "## Fix first",
    ]
    assert [text.index(h) for h in order] == sorted(text.index(h) for h in order)
    # level scores: must = 4 passed (incl. the xpassed one) of 9 applicable (the xfailed one counts)
    assert "| must | 4 | 9 | 44.4% |" in text
    assert "| should | 0 | 1 | 0% |" in text
    # status per feature, with a row for the covered-by-nothing feature in a complete run
    assert (
        "| ✅ | Tool definition wrapper (`tools.wrapper`) | 2 | 2 | 0 | 0 | 0 | 100% (2/2) | — | — |" in text
    )
    assert "| ❌ | additionalProperties:false at every depth (`schema.additional-properties-deep`)" in text
    assert "| ⚠️ | none (`choice.none`)" in text
    # the diff with a backtick fence in it is fenced with a longer fence
    assert (
        "````diff\n/0/parameters/type: missing (expected 'object')\n"
        "/0/strict: expected true, got false\n```\n````" in text
    )
    assert "the output is **not valid** for the openai-responses wire schema" in text
    assert "the output is valid for the openai-chat wire schema" in text
    fix_first = text[text.index("## Fix first") :]
    assert fix_first.index("schema.additional-properties-deep") < fix_first.index("validation.duplicate-name")
    assert "choice.auto" not in fix_first  # its failure is a `should`


def test_feature_titles_fall_back_to_keys(tmp_path: Path) -> None:
    header = _header(tmp_path / "gone")
    header["corpus"]["version"] = "99.0.0"  # not the bundled corpus either
    text = render(read_results(write_results(tmp_path / "r.jsonl", header, CHECKS, _footer(CHECKS))))
    assert "| ✅ | `tools.wrapper` | 2 |" in text
    assert "1. **`schema.additional-properties-deep`**: 2 of 2 `must` checks fail" in text


def test_deterministic_whatever_the_record_order(tmp_path: Path, corpus: Path) -> None:
    first = render(
        read_results(write_results(tmp_path / "a.jsonl", _header(corpus), CHECKS, _footer(CHECKS)))
    )
    shuffled = CHECKS[:]
    random.Random(7).shuffle(shuffled)
    second = render(
        read_results(write_results(tmp_path / "b.jsonl", _header(corpus), shuffled, _footer(CHECKS)))
    )
    assert first == second


def test_all_passing_has_nothing_to_fix(tmp_path: Path, corpus: Path) -> None:
    checks = [c for c in CHECKS if c["outcome"] == "passed"]
    text = render(read_results(write_results(tmp_path / "r.jsonl", _header(corpus), checks, _footer(checks))))
    assert "None: every applicable check passed." in text
    assert "Nothing: every applicable `must` check passes." in text
    assert "| ➖ | Several tools" not in text  # tools.multiple has a passing check
    # a feature no check of the implementation's declared kinds and pairs reaches has no row (issue 11)
    assert "Duplicate tool names" not in text


def test_main_writes_file_and_stdout(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_results(tmp_path / "r.jsonl", _header(corpus), CHECKS, _footer(CHECKS))
    out = tmp_path / "report.md"
    assert report_md.main([str(path), "-o", str(out)]) == 0
    expected = render(read_results(path))
    assert out.read_text(encoding="utf-8") == expected
    assert report_md.main([str(path)]) == 0
    assert capsys.readouterr().out == expected


def test_main_bad_results_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert report_md.main([str(tmp_path / "missing.jsonl")]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    assert report_md.main([str(bad)]) == 2
    assert "bad.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("passed", "applicable", "text"),
    [
        (0, 0, "—"),
        (3, 3, "100%"),
        (0, 5, "0%"),
        (1, 2, "50%"),
        (2, 3, "66.6%"),
        (999, 1000, "99.9%"),
        (1999, 2000, "99.9%"),
        (1, 3000, "0.1%"),
    ],
)
def test_percent_never_rounds_to_a_false_100(passed: int, applicable: int, text: str) -> None:
    assert percent(passed, applicable) == text


def test_messages_are_shown_as_written(tmp_path: Path, corpus: Path) -> None:
    check = _check(
        "text/tagged",
        "text",
        "openai-chat",
        "failed",
        features=["tools.wrapper"],
        message="a <tool_call> *was* left in the text_",
    )
    checks = [*CHECKS, check]
    text = render(read_results(write_results(tmp_path / "r.jsonl", _header(corpus), checks, _footer(checks))))
    assert r"- message: a \<tool_call> \*was\* left in the text\_" in text
    assert "- message: a <tool_call>" not in text


def test_a_long_streak_of_errored_checks_is_called_out(tmp_path: Path, corpus: Path) -> None:
    def rec(n: int, outcome: str, case: str | None = None) -> dict[str, Any]:
        return check_rec(
            case or f"tools/c{n:02d}",
            "canonical",
            "openai-chat",
            outcome,
            kind="tools",
            level="must",
            features=["tools.wrapper"],
            variant=f"rechunk=v{n}" if case else "",
            message="boom" if outcome == "errored" else None,
        )

    passed = [rec(n, "passed") for n in range(5)]
    dead = [rec(n, "errored") for n in range(5, 17)]  # twelve cases in a row: the proxy stopped working

    def report(checks: list[dict[str, Any]]) -> str:
        path = write_results(tmp_path / "r.jsonl", _header(corpus), checks, _footer(checks))
        return render(read_results(path))

    text = report(passed + dead)
    first = "`tools/c05[canonical>openai-chat]`"
    assert f"> **Warning**: 12 checks errored to the end of the run from {first}" in text
    # nine in a row, or many checks of one case (one bug), are no streak
    few = passed + dead[:9] + [rec(20, "passed")]
    one_case = passed + [rec(n, "errored", case="tools/same") for n in range(12)]
    for checks in (few, one_case):
        assert "**Warning**" not in report(checks)
    # every check errored: it never worked, which is no cooldown
    never = report(dead)
    assert "> **Warning**: all 12 checks that ran errored: the implementation may not work at all" in never
    assert "cooldown" not in never
