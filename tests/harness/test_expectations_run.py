"""Expectation files in a run: pytest's xfail/xpass, strict mode, results records, reports, ``update``."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from core_support import make_corpus, write_translator

PLAIN = "tools/basic[canonical>openai-chat]"
STRICT = "tools/basic[canonical>openai-chat,openai.strict=all-required]"

LIST_BOTH = """\
[[known-failure]]
case = "tools/basic"
pair = "canonical>openai-chat"
reason = "we drop descriptions"
issue = "https://github.com/acme/gw/issues/12"
"""


@pytest.fixture
def work(tmp_path: Path) -> Path:
    make_corpus(tmp_path)
    write_translator(tmp_path)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    return tmp_path


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def pytest_run(cwd: Path, adapter: str, expectations: str | None, *extra: str):
    args = ["-m", "pytest", "-p", "no:cacheprovider", "-rxX", "--toolwire-adapter", adapter]
    args += ["--toolwire-corpus", "corpus", "--toolwire-results", "out/r.jsonl"]
    if expectations is not None:
        (cwd / "exp.toml").write_text(expectations)
        args += ["--toolwire-expectations", "exp.toml"]
    proc = run(cwd, *args, *extra)
    path = cwd / "out" / "r.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()] if path.is_file() else []
    return proc, lines


def by_id(lines: list[dict]) -> dict[str, dict]:
    return {rec["id"]: rec for rec in lines if rec.get("record") == "check"}


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(cwd, "-m", "toolwire.cli", *args)


def cli_run(cwd: Path, adapter: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return cli(
        cwd,
        "run",
        "--adapter",
        adapter,
        "--corpus",
        "corpus",
        "--report",
        "reports",
        "--name",
        "tiny",
        *extra,
    )


def test_listed_failures_are_xfailed_with_their_diff(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Wrong", LIST_BOTH)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "2 xfailed" in out and "XFAIL toolwire::tools/basic" in out and "we drop descriptions" in out
    head, recs, foot = lines[0], by_id(lines), lines[-1]
    assert head["expectations"] == {
        "path": str((work / "exp.toml").resolve()),
        "sha256": hashlib.sha256(LIST_BOTH.encode()).hexdigest(),
        "strict": False,
        "entries": 1,
        "unmatched": [],
    }
    for check_id in (PLAIN, STRICT):
        rec = recs[check_id]
        assert rec["outcome"] == "xfailed"
        assert rec["expected_failure"] == {
            "reason": "we drop descriptions",
            "issue": "https://github.com/acme/gw/issues/12",
        }
        assert "description" in rec["diff"]  # the failure is still recorded
    assert "expected_failure" not in recs["choice/auto[canonical>openai-chat]"]
    assert foot["counts"]["xfailed"] == 2 and foot["counts"]["failed"] == 0 and foot["complete"] is True
    from toolwire.corpus.wire import validate_file

    for line in lines:
        assert validate_file("results.schema.json", line) == [], line


def test_listed_passes_are_stale_xpasses_and_strict_fails(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Good", LIST_BOTH)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "2 xpassed" in out and "stale expectations entry" in out
    recs = by_id(lines)
    assert recs[PLAIN]["outcome"] == recs[STRICT]["outcome"] == "xpassed"
    assert recs[PLAIN]["expected_failure"]["reason"] == "we drop descriptions"

    proc, lines = pytest_run(work, "python:tiny_translator:Good", LIST_BOTH, "--toolwire-strict-expectations")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "XPASS(strict)" in out and "(strict: the run fails)" in out
    assert by_id(lines)[PLAIN]["outcome"] == "xpassed"  # the record says what happened
    assert lines[0]["expectations"]["strict"] is True


def test_an_entry_does_not_hide_a_crash(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Crashing", LIST_BOTH)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    rec = by_id(lines)[PLAIN]
    assert rec["outcome"] == "errored" and rec["expected_failure"]["reason"] == "we drop descriptions"
    assert "5 errors" in proc.stdout and "xfail" not in proc.stdout  # errors for pytest, not xfails


def test_narrowing_by_profile_and_pair(work: Path) -> None:
    strict_only = (
        '[[known-failure]]\ncase = "tools/basic"\nprofile = { "openai.strict" = "all-required" }\n'
        'reason = "strict is hard"\n'
    )
    proc, lines = pytest_run(work, "python:tiny_translator:Wrong", strict_only)
    recs = by_id(lines)
    assert proc.returncode == 1
    assert recs[STRICT]["outcome"] == "xfailed" and recs[PLAIN]["outcome"] == "failed"

    # the default value names the checks that set no profile key
    default_only = strict_only.replace("all-required", "as-is")
    proc, lines = pytest_run(work, "python:tiny_translator:Wrong", default_only)
    recs = by_id(lines)
    assert recs[PLAIN]["outcome"] == "xfailed" and recs[STRICT]["outcome"] == "failed"

    # another pair: the openai-chat failures stay failures; a skipped check stays skipped
    gemini = '[[known-failure]]\ncase = "tools/basic"\npair = "canonical>gemini"\nreason = "n/a"\n'
    proc, lines = pytest_run(work, "python:tiny_translator:Wrong", gemini, "-n", "2")
    recs = by_id(lines)
    assert proc.returncode == 1
    assert recs[PLAIN]["outcome"] == recs[STRICT]["outcome"] == "failed"
    assert recs["tools/basic[canonical>gemini]"]["outcome"] == "skipped"
    assert lines[-1]["complete"] is True


def test_unknown_case_id_is_a_clear_usage_error(work: Path) -> None:
    bad = '[[known-failure]]\ncase = "tools/basik"\nreason = "typo"\n'
    proc, lines = pytest_run(work, "python:tiny_translator:Good", bad)
    assert proc.returncode == 4 and not lines
    assert "known-failure #1, line 1 (case 'tools/basik'): unknown case id" in proc.stderr
    assert "Traceback" not in proc.stderr

    proc = cli_run(work, "python:tiny_translator:Good", "--expectations", "exp.toml")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "unknown case id 'tools/basik'" in proc.stderr and "did you mean 'tools/basic'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (work / "reports").exists()

    proc = cli_run(work, "python:tiny_translator:Good", "--expectations", "missing.toml")
    assert proc.returncode == 2 and "cannot read the expectations file" in proc.stderr


def test_strict_run_fails_on_an_entry_that_matches_no_check(work: Path) -> None:
    (work / "exp.toml").write_text(
        '[[known-failure]]\ncase = "tools/basic"\npair = "canonical>anthropic"\nreason = "typo in pair"\n'
    )
    proc = cli_run(work, "python:tiny_translator:Good", "--expectations", "exp.toml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = cli_run(work, "python:tiny_translator:Good", "--expectations", "exp.toml", "--strict")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "--strict: known-failure #1: case 'tools/basic'; pair canonical>anthropic: matches no check" in (
        proc.stderr
    )
    head = json.loads((work / "reports" / "tiny.results.jsonl").read_text().splitlines()[0])
    assert head["expectations"]["unmatched"] == [
        {"entry": 1, "case": "tools/basic", "pair": "canonical>anthropic", "reason": "typo in pair"}
    ]
    md = (work / "reports" / "tiny.md").read_text()
    assert "## Stale expectations entries" in md and "typo in pair" in md and "this fails the run" in md

    # the same under pytest: exit 1
    proc, _ = pytest_run(
        work, "python:tiny_translator:Good", (work / "exp.toml").read_text(), "--toolwire-strict-expectations"
    )
    assert proc.returncode == 1 and "matches no check of the corpus" in proc.stdout


def test_report_shows_reasons_issue_links_and_stale_entries(work: Path) -> None:
    (work / "exp.toml").write_text(LIST_BOTH)
    proc = cli_run(work, "python:tiny_translator:Wrong", "--expectations", "exp.toml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    md = (work / "reports" / "tiny.md").read_text()
    known = md.split("## Known failures", 1)[1].split("\n## ", 1)[0]
    assert (
        f"- `{PLAIN}` (must): we drop descriptions ([issue](https://github.com/acme/gw/issues/12))" in known
    )
    assert "  - failure: output differs from the expectation" in known
    assert "## Failing checks" in md and "None: every applicable check passed." in md

    proc = cli_run(work, "python:tiny_translator:Good", "--expectations", "exp.toml", "--strict")
    assert proc.returncode == 1
    assert f"--strict: unexpected pass (stale entry): {PLAIN} (we drop descriptions)" in proc.stderr
    md = (work / "reports" / "tiny.md").read_text()
    stale = md.split("## Unexpected passes", 1)[1].split("\n## ", 1)[0]
    assert "the entry is stale, remove it; under strict expectations each one fails the run" in stale
    assert f"- `{STRICT}` (must): we drop descriptions ([issue](" in stale


def test_update_round_trip(work: Path) -> None:
    proc = cli_run(work, "python:tiny_translator:Wrong")
    assert proc.returncode == 1
    results = work / "reports" / "tiny.results.jsonl"
    proc = cli(work, "expectations", "update", "--from", str(results), "-o", "exp.toml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (work / "exp.toml").read_text()
    assert text.count("[[known-failure]]") == 2 and text.count('reason = "TODO: triage"') == 2
    assert 'profile = { "openai.strict" = "as-is" }' in text
    assert 'profile = { "openai.strict" = "all-required" }' in text
    assert cli(work, "expectations", "check", "exp.toml", "--corpus", "corpus", "--strict").returncode == 0

    # triage one entry by hand, then run again: every failure is known
    (work / "exp.toml").write_text(text.replace('"TODO: triage"', '"descriptions are dropped"', 1))
    proc = cli_run(work, "python:tiny_translator:Wrong", "--expectations", "exp.toml", "--strict")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [json.loads(x) for x in results.read_text().splitlines()]
    assert lines[-1]["counts"]["xfailed"] == 2 and lines[-1]["counts"]["failed"] == 0

    # refreshing from that run changes nothing (the hand-written reason is kept)
    before = (work / "exp.toml").read_text()
    proc = cli(work, "expectations", "update", "--from", str(results))  # the run's file by default
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (work / "exp.toml").read_text() == before and "2 kept, 0 added, 0 removed" in proc.stdout

    # the implementation is fixed: the entries go, and are printed
    cli_run(work, "python:tiny_translator:Good", "--expectations", "exp.toml")
    proc = cli(work, "expectations", "update", "--from", str(results))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("removed (now passes)") == 2 and "descriptions are dropped" in proc.stdout
    assert "[[known-failure]]" not in (work / "exp.toml").read_text()


def test_update_says_why_errored_checks_are_not_listed(work: Path) -> None:
    proc = cli_run(work, "python:tiny_translator:Crashing")
    assert proc.returncode == 1
    proc = cli(work, "expectations", "update", "--from", "reports/tiny.results.jsonl", "-o", "exp.toml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "note: 5 errored checks are not listed (choice/auto[canonical>anthropic], " in proc.stdout
    assert "an errored check (a crash, a hang, a protocol error) is no known failure" in proc.stdout


def test_update_bad_input_exits_2(work: Path) -> None:
    proc = cli(work, "expectations", "update", "--from", "nope.jsonl")
    assert proc.returncode == 2 and "cannot read" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli(work, "expectations")
    assert proc.returncode == 2
