"""Corpus loading, check ids, applicability, outcomes, and the results file."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from core_support import CASES, make_corpus, write_translator
from toolwire import paths
from toolwire.adapters import AdapterError, load_adapter
from toolwire.corpus import CorpusError, check_id, load_corpus
from toolwire.judge import applicable, run_check
from toolwire.results import (
    ResultsError,
    check_record,
    footer,
    header,
    read_results,
    summary_line,
    write_results,
)


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    return make_corpus(tmp_path)


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    directory = tmp_path / "mods"
    directory.mkdir()
    name = write_translator(directory, f"tiny_{abs(hash(str(tmp_path)))}")
    monkeypatch.syspath_prepend(str(directory))
    return name


def by_id(corpus_dir: Path):
    return {c.id: c for c in load_corpus(corpus_dir).checks()}


# -- corpus -----------------------------------------------------------------------------------------------


def test_check_id_format() -> None:
    assert check_id("tools/x", "canonical", "openai-chat") == "tools/x[canonical>openai-chat]"
    assert (
        check_id(
            "tools/x", "canonical", "openai-chat", {"tool.description": "required", "openai.strict": "off"}
        )
        == "tools/x[canonical>openai-chat,openai.strict=off,tool.description=required]"
    )


def test_load_corpus(corpus_dir: Path) -> None:
    corpus = load_corpus(corpus_dir)
    assert corpus.version == "1.2.3" and corpus.interpreting_version == "1.0.0"
    assert [c.id for c in corpus.cases] == sorted(CASES)
    assert set(corpus.features) == {"tools.wrapper", "tools.names", "choice.modes"}
    assert corpus.profiles["openai.strict"]["default"] == "as-is"
    ids = [c.id for c in corpus.checks()]
    assert ids[:2] == ["choice/auto[canonical>openai-chat]", "choice/auto[canonical>anthropic]"]
    assert "tools/basic[canonical>openai-chat,openai.strict=all-required]" in ids
    check = by_id(corpus_dir)["choice/auto[canonical>anthropic]"]
    assert check.level == "may" and check.area == "choice" and check.kind == "tool_choice"
    assert check.features == ["choice.modes"]
    strict = by_id(corpus_dir)["tools/basic[canonical>openai-chat,openai.strict=all-required]"]
    assert strict.profile == {"openai.strict": "all-required", "tool.description": "optional"}
    assert strict.when == {"openai.strict": "all-required"}


def test_corpus_hash_follows_the_definition(tmp_path: Path, corpus_dir: Path) -> None:
    files = sorted(
        [("corpus/" + p.relative_to(corpus_dir).as_posix(), p) for p in corpus_dir.rglob("*") if p.is_file()]
        + [
            ("schemas/" + p.relative_to(tmp_path / "schemas").as_posix(), p)
            for p in (tmp_path / "schemas").rglob("*")
            if p.is_file()
        ]
    )
    h = hashlib.sha256()
    for name, p in files:
        h.update(name.encode() + b"\0" + p.read_bytes() + b"\0")
    assert load_corpus(corpus_dir).hash == h.hexdigest()
    (tmp_path / "schemas" / "common.schema.json").write_text("{}")
    assert load_corpus(corpus_dir).hash != h.hexdigest()


def test_bundled_corpus_loads() -> None:
    corpus = load_corpus()  # its load time is the benchmark's business (bench/), never a test's
    assert corpus.root == paths.corpus_dir()
    assert len({c.id for c in corpus.checks()}) == len(corpus.checks())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda root: (root / "cases" / "tools" / "basic.json").write_text("{oops"), "invalid JSON"),
        (
            lambda root: (root / "cases" / "tools" / "basic.json").write_text(
                json.dumps({**CASES["tools/basic"], "id": "tools/other"})
            ),
            "does not equal its path",
        ),
        (lambda root: (root / "VERSION").unlink(), "VERSION"),
        (
            lambda root: (root / "cases" / "tools" / "basic.json").write_text(
                json.dumps({"id": "tools/basic"})
            ),
            "kind",
        ),
    ],
)
def test_unreadable_corpus_is_a_corpus_error(corpus_dir: Path, change, message: str) -> None:
    change(corpus_dir)
    with pytest.raises(CorpusError) as info:
        load_corpus(corpus_dir)
    assert message in str(info.value)


def test_missing_corpus_dir(tmp_path: Path) -> None:
    with pytest.raises(CorpusError):
        load_corpus(tmp_path / "nope")


# -- applicability ----------------------------------------------------------------------------------------


def test_applicability(corpus_dir: Path) -> None:
    corpus = load_corpus(corpus_dir)
    checks = by_id(corpus_dir)
    caps = {
        "kinds": {"tools": [["canonical", "openai-chat"]], "tool_choice": [["*", "anthropic"]]},
        "profiles": {"openai.strict": ["as-is", "all-required"]},
    }
    assert applicable(checks["tools/basic[canonical>openai-chat]"], caps, corpus.profiles) is None
    assert applicable(checks["tools/basic[canonical>openai-chat,openai.strict=all-required]"], caps) is None
    reason = applicable(checks["tools/basic[canonical>openai-chat,openai.strict=off]"], caps, corpus.profiles)
    assert reason and "openai.strict=off" in reason
    reason = applicable(checks["tools/basic[canonical>gemini]"], caps, corpus.profiles)
    assert reason and "canonical>gemini" in reason
    assert applicable(checks["choice/auto[canonical>anthropic]"], caps, corpus.profiles) is None
    reason = applicable(checks["choice/auto[canonical>openai-chat]"], caps, corpus.profiles)
    assert reason and "pair" in reason
    reason = applicable(checks["tools/basic[canonical>openai-chat]"], {"kinds": {}}, corpus.profiles)
    assert reason and "kind 'tools'" in reason
    # wildcard on both sides
    assert applicable(checks["tools/basic[canonical>gemini]"], {"kinds": {"tools": [["*", "*"]]}}) is None


def test_undeclared_profile_key_supports_only_its_default(corpus_dir: Path) -> None:
    checks = by_id(corpus_dir)
    caps = {"kinds": {"tools": [["*", "*"]]}}  # no profiles at all
    assert applicable(checks["tools/basic[canonical>openai-chat]"], caps) is None
    assert "openai.strict=all-required" in applicable(
        checks["tools/basic[canonical>openai-chat,openai.strict=all-required]"], caps
    )
    # listing a key without its default makes the default checks inapplicable
    caps = {"kinds": {"tools": [["*", "*"]]}, "profiles": {"openai.strict": ["off"]}}
    assert "openai.strict=as-is" in applicable(checks["tools/basic[canonical>openai-chat]"], caps)


# -- outcomes ---------------------------------------------------------------------------------------------


def outcomes(adapter_spec: str, corpus_dir: Path) -> dict[str, object]:
    adapter = load_adapter(adapter_spec)
    corpus = load_corpus(corpus_dir)
    return {c.id: run_check(adapter, c, corpus.profiles) for c in corpus.checks()}


def test_good_translator(tiny: str, corpus_dir: Path) -> None:
    res = outcomes(f"python:{tiny}:Good", corpus_dir)
    got = {k: r.outcome for k, r in res.items()}
    assert got == {
        "choice/auto[canonical>anthropic]": "passed",
        "choice/auto[canonical>openai-chat]": "passed",
        "tools/basic[canonical>gemini]": "skipped",
        "tools/basic[canonical>openai-chat]": "passed",
        "tools/basic[canonical>openai-chat,openai.strict=all-required]": "passed",
        "tools/basic[canonical>openai-chat,openai.strict=off]": "skipped",
        "tools/missing-name[canonical>openai-chat]": "passed",
    }
    ok = res["tools/basic[canonical>openai-chat]"]
    assert ok.wire_valid is True and ok.wire_errors == []
    assert res["choice/auto[canonical>openai-chat]"].wire_valid is None  # no schema for it
    assert res["tools/missing-name[canonical>openai-chat]"].actual_error["code"] == "tool.missing_name"
    assert "openai.strict=off" in res["tools/basic[canonical>openai-chat,openai.strict=off]"].message


def test_wrong_translator_fails_with_a_diff(tiny: str, corpus_dir: Path) -> None:
    res = outcomes(f"python:{tiny}:Wrong", corpus_dir)
    bad = res["tools/basic[canonical>openai-chat]"]
    assert bad.outcome == "failed"
    assert "/0/function/description" in bad.diff and "missing key" in bad.diff
    assert bad.wire_valid is True and "valid for the openai-chat wire schema" in bad.message


def test_crashing_translator_errors(tiny: str, corpus_dir: Path) -> None:
    res = outcomes(f"python:{tiny}:Crashing", corpus_dir)
    crash = res["tools/basic[canonical>openai-chat]"]
    assert crash.outcome == "errored"
    assert crash.message.startswith("KeyError: 'boom'")
    assert "Traceback" in crash.message and "translate" in crash.message
    assert res["tools/basic[canonical>gemini]"].outcome == "skipped"


def test_refusing_translator(tiny: str, corpus_dir: Path) -> None:
    res = outcomes(f"python:{tiny}:Erroring", corpus_dir)
    payload_expected = res["tools/basic[canonical>openai-chat]"]
    assert payload_expected.outcome == "failed"
    assert (
        "payload.invalid" in payload_expected.message
        and "where a payload was expected" in payload_expected.message
    )
    wrong_code = res["tools/missing-name[canonical>openai-chat]"]
    assert wrong_code.outcome == "failed" and "wrong error code" in wrong_code.message
    assert wrong_code.actual_error == {
        "code": "payload.invalid",
        "message": "I refuse everything",
        "path": "",
    }


def test_payload_where_error_expected(tiny: str, corpus_dir: Path) -> None:
    cases = {
        "tools/missing-name": {
            **CASES["tools/missing-name"],
            "source": {"dialect": "canonical", "payload": [{"name": "x"}]},
        }
    }
    root = make_corpus(corpus_dir.parent / "other", cases)
    res = outcomes(f"python:{tiny}:Good", root)["tools/missing-name[canonical>openai-chat]"]
    assert res.outcome == "failed" and "tool.missing_name" in res.message and "was expected" in res.message
    assert res.wire_valid is True


def test_wrong_error_path(tiny: str, corpus_dir: Path) -> None:
    case = json.loads(json.dumps(CASES["tools/missing-name"]))
    case["expect"][0]["error"]["path"] = "/0"
    root = make_corpus(corpus_dir.parent / "other", {"tools/missing-name": case})
    res = outcomes(f"python:{tiny}:Good", root)["tools/missing-name[canonical>openai-chat]"]
    assert res.outcome == "failed" and "wrong path" in res.message and "/0/name" in res.message
    del case["expect"][0]["error"]["path"]  # no path: any path is accepted
    root = make_corpus(corpus_dir.parent / "third", {"tools/missing-name": case})
    assert (
        outcomes(f"python:{tiny}:Good", root)["tools/missing-name[canonical>openai-chat]"].outcome == "passed"
    )


def test_non_json_output_errors(tiny: str, corpus_dir: Path) -> None:
    res = outcomes(f"python:{tiny}:NotJson", corpus_dir)["tools/basic[canonical>openai-chat]"]
    assert res.outcome == "errored" and "/0/function/name" in res.message and "not JSON" in res.message


def test_wire_invalid_output_fails(tiny: str, corpus_dir: Path) -> None:
    case = json.loads(json.dumps(CASES["tools/basic"]))
    case["expect"] = [
        {"dialect": "openai-chat", "payload": [{"type": {"$any": True}, "function": {"$any": True}}]}
    ]
    root = make_corpus(corpus_dir.parent / "other", {"tools/basic": case})
    res = outcomes(f"python:{tiny}:BadWire", root)["tools/basic[canonical>openai-chat]"]
    assert res.outcome == "failed" and res.wire_valid is False
    assert res.wire_errors and res.wire_errors[0].startswith("/0/type: ")
    assert "invalid for the openai-chat wire schema" in res.message


def test_input_is_not_mutated(tmp_path: Path, corpus_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mutating.py").write_text(
        "from tiny_x import Good\n"
        "class Mutating(Good):\n"
        "    def translate(self, kind, source, target, payload, profile):\n"
        "        out = super().translate(kind, source, target, payload, profile)\n"
        "        if kind == 'tools': payload.clear()\n"
        "        return out\n"
    )
    write_translator(tmp_path, "tiny_x")
    monkeypatch.syspath_prepend(str(tmp_path))
    corpus = load_corpus(corpus_dir)
    adapter = load_adapter("python:mutating:Mutating")
    for check in corpus.checks():
        run_check(adapter, check, corpus.profiles)
    assert corpus.cases[1].source_payload  # tools/basic still has its tool


# -- adapters ---------------------------------------------------------------------------------------------


def test_load_adapter_forms(tiny: str) -> None:
    assert load_adapter(f"python:{tiny}:Good").name == "toolwire-tiny"
    assert load_adapter(f"python:{tiny}:factory").name == "toolwire-tiny"
    adapter = load_adapter(f"python:{tiny}:instance")
    assert adapter.language == "python" and adapter.version == "0.0.1"
    assert adapter.metadata()["capabilities"]["kinds"]["tools"] == [["canonical", "openai-chat"]]
    for bad in ("nonsense", f"python:{tiny}:Missing", "python:no_such_module_xyz:X", "ftp:x", "cmd:./x"):
        with pytest.raises(AdapterError):
            load_adapter(bad)


def test_harness_modules_never_import_the_reference() -> None:
    code = (
        "import sys, toolwire.corpus, toolwire.corpus.matchers, toolwire.corpus.wire, toolwire.protocol,"
        " toolwire.adapters,"
        " toolwire.judge.checks, toolwire.results, toolwire.plugin, toolwire.cli;"
        " sys.exit('toolwire_reference' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0
    from toolwire.adapters import ALIASES

    assert ALIASES["reference"] == "python:toolwire_reference:Translator"


# -- results file -----------------------------------------------------------------------------------------


def test_results_roundtrip(tiny: str, corpus_dir: Path, tmp_path: Path) -> None:
    corpus = load_corpus(corpus_dir)
    adapter = load_adapter(f"python:{tiny}:Wrong")
    records = [check_record(c, run_check(adapter, c, corpus.profiles)) for c in reversed(corpus.checks())]
    head = header(corpus, adapter.metadata(), argv=["toolwire", "run"])
    foot = footer(records, complete=True)
    path = write_results(tmp_path / "out" / "r.results.jsonl", head, records, foot)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["record"] == "header" and lines[-1]["record"] == "footer"
    assert [r["id"] for r in lines[1:-1]] == sorted(r["id"] for r in records)
    assert lines[0]["corpus"] == {
        "version": "1.2.3",
        "hash": corpus.hash,
        "interpreting_version": "1.0.0",
        "path": str(corpus.root),
    }
    assert lines[0]["run"]["selection"] is None
    assert lines[-1]["total"] == 7 and lines[-1]["counts"]["skipped"] == 2 and lines[-1]["complete"] is True
    failed = next(r for r in lines if r.get("id") == "tools/basic[canonical>openai-chat]")
    assert failed["outcome"] == "failed" and "description" in failed["diff"]
    assert failed["wire_valid"] is True
    refused = next(r for r in lines if r.get("id", "").startswith("tools/missing-name"))
    assert refused["expected_error"] == {"code": "tool.missing_name", "path": "/0/name"}
    assert refused["actual_error"]["code"] == "tool.missing_name"
    results = read_results(path)
    assert results.complete and len(results.checks) == 7 and results.counts()["failed"] == 2
    assert summary_line(results.checks) == (
        "toolwire: 3 passed, 2 failed, 0 errored, 2 skipped (must 1/3, should 1/1, may 1/1)"
    )
    schema = paths.schemas_dir() / "results.schema.json"
    if schema.is_file():
        from toolwire.corpus.wire import validate_file

        for line in lines:
            assert validate_file("results.schema.json", line) == [], line


def test_partial_results_file(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(
        json.dumps({"record": "header", "format": 1})
        + "\n"
        + json.dumps({"record": "check", "id": "a", "outcome": "passed"})
        + "\n"
    )
    results = read_results(path)
    assert results.footer is None and not results.complete
    path.write_text(json.dumps({"record": "check", "id": "a"}) + "\n")
    with pytest.raises(ResultsError):
        read_results(path)


def test_hung_translator_errors_and_the_run_goes_on(tiny: str, corpus_dir: Path) -> None:
    corpus = load_corpus(corpus_dir)
    adapter = load_adapter(f"python:{tiny}:Sleeper", timeout=0.2)
    check = by_id(corpus_dir)["tools/basic[canonical>openai-chat]"]
    res = run_check(adapter, check, corpus.profiles)
    # "hung" is said only when the timeout cut it off (uncut, the Sleeper answers after 3 s and passes)
    assert res.outcome == "errored" and "hung" in res.message
