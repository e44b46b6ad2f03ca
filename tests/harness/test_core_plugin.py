"""The pytest plugin and ``toolwire run``, in subprocesses on a temporary corpus and a tiny translator."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from core_support import make_work, run_python
from toolwire.cli import main

ALL_IDS = {
    "choice/auto[canonical>anthropic]",
    "choice/auto[canonical>openai-chat]",
    "tools/basic[canonical>gemini]",
    "tools/basic[canonical>openai-chat]",
    "tools/basic[canonical>openai-chat,openai.strict=all-required]",
    "tools/basic[canonical>openai-chat,openai.strict=off]",
    "tools/missing-name[canonical>openai-chat]",
}


@pytest.fixture
def work(tmp_path: Path) -> Path:
    # Ctrl-C while a translation runs: SIGINT reaches the main thread, which waits for the translation (a
    # KeyboardInterrupt the translator raises itself is its crash, tests/harness/test_fake_outcomes.py)
    ctrl_c = "if kind == 'tools':\n    import signal, time\n"
    ctrl_c += "    os.kill(os.getpid(), signal.SIGINT)\n    time.sleep(5)"
    return make_work(tmp_path, interrupting=ctrl_c)


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_python(cwd, *args, timeout=120)


def pytest_run(cwd: Path, adapter: str, *extra: str, results: str = "out/r.jsonl"):
    proc = run(
        cwd,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--toolwire-adapter",
        adapter,
        "--toolwire-corpus",
        "corpus",
        "--toolwire-results",
        results,
        *extra,
    )
    path = cwd / results
    lines = [json.loads(x) for x in path.read_text().splitlines()] if path.is_file() else []
    return proc, lines


def test_plugin_writes_one_results_file(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Wrong", "-q")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    head, checks, foot = lines[0], lines[1:-1], lines[-1]
    assert head["record"] == "header" and head["adapter"]["name"] == "toolwire-wrong"
    assert head["run"]["selection"] is None
    assert [c["id"] for c in checks] == sorted(ALL_IDS)
    assert foot["complete"] is True and foot["total"] == 7
    assert foot["counts"] == {
        "passed": 3,
        "failed": 2,
        "errored": 0,
        "skipped": 2,
        "xfailed": 0,
        "xpassed": 0,
    }
    assert "toolwire: 3 passed, 2 failed, 0 errored, 2 skipped (must 1/3, should 1/1, may 1/1)" in proc.stdout
    assert "/0/function/description" in proc.stdout  # the diff is in pytest's failure report


def test_plugin_under_xdist_merges_records(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Wrong", "-q", "-n", "2")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert [rec["record"] for rec in lines] == ["header"] + ["check"] * 7 + ["footer"]
    assert {c["id"] for c in lines[1:-1]} == ALL_IDS
    assert lines[-1]["complete"] is True
    single, single_lines = pytest_run(work, "python:tiny_translator:Wrong", "-q", results="out/single.jsonl")
    strip = [{k: v for k, v in rec.items() if k != "duration_ms"} for rec in lines[1:-1]]
    strip_single = [{k: v for k, v in rec.items() if k != "duration_ms"} for rec in single_lines[1:-1]]
    assert strip == strip_single


def test_selection_makes_the_run_partial(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Good", "-q", "-k", "choice/")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert {c["case"] for c in lines[1:-1]} == {"choice/auto"}
    assert lines[0]["run"]["selection"] == "-k choice/"
    assert lines[-1]["complete"] is False
    assert "PARTIAL" in proc.stdout
    proc, lines = pytest_run(work, "python:tiny_translator:Good", "-q", "-m", "toolwire_must")
    assert {c["level"] for c in lines[1:-1]} == {"must"} and lines[-1]["complete"] is False


def test_exitfirst_and_interrupt_make_the_run_partial(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Wrong", "-q", "-x")
    assert proc.returncode == 1
    assert lines[-1]["record"] == "footer" and lines[-1]["complete"] is False
    assert lines[0]["run"]["selection"] is None
    proc, lines = pytest_run(work, "python:interrupting:Interrupting", "-q")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert lines[-1]["complete"] is False and lines[-1]["total"] < 7


def test_crashes_do_not_abort_the_run(work: Path) -> None:
    proc, lines = pytest_run(work, "python:tiny_translator:Crashing", "-q")
    assert proc.returncode == 1
    outcomes = {c["id"]: c["outcome"] for c in lines[1:-1]}
    assert set(outcomes) == ALL_IDS and lines[-1]["complete"] is True
    assert set(outcomes.values()) == {"errored", "skipped"}
    errored = next(c for c in lines[1:-1] if c["outcome"] == "errored")
    assert errored["message"].startswith("KeyError")


def test_worker_crash_under_xdist_is_an_errored_record(work: Path) -> None:
    (work / "dying.py").write_text(
        "import os\n"
        "from tiny_translator import Good\n"
        "class Dying(Good):\n"
        "    def translate(self, kind, source, target, payload, profile):\n"
        "        if kind == 'tool_choice' and target == 'anthropic':\n"
        "            os._exit(3)\n"
        "        return super().translate(kind, source, target, payload, profile)\n"
    )
    proc, lines = pytest_run(work, "python:dying:Dying", "-q", "-n", "2")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    records = {c["id"]: c for c in lines[1:-1]}
    assert set(records) == ALL_IDS and lines[-1]["complete"] is True
    crashed = records["choice/auto[canonical>anthropic]"]
    assert crashed["outcome"] == "errored" and "crashed" in crashed["message"]


def test_plugin_inactive_without_adapter_and_bad_adapter_is_a_usage_error(work: Path) -> None:
    (work / "test_plain.py").write_text("def test_ok():\n    pass\n")
    proc = run(work, "-m", "pytest", "-p", "no:cacheprovider", "-q", "test_plain.py")
    assert proc.returncode == 0 and "1 passed" in proc.stdout and "toolwire:" not in proc.stdout
    proc = run(
        work, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--toolwire-adapter", "python:nope_mod:X"
    )
    assert proc.returncode == 4 and "nope_mod" in proc.stderr


# -- the CLI ---------------------------------------------------------------------------------------------


def test_toolwire_run_end_to_end(work: Path) -> None:
    # a hostile pytest config and a failing test file in the cwd must not be picked up
    (work / "pytest.ini").write_text("[pytest]\naddopts = --no-such-option\n")
    (work / "test_broken.py").write_text("def test_fail():\n    assert False\n")
    out = work / "reports"
    proc = run(
        work,
        "-m",
        "toolwire.cli",
        "run",
        "--adapter",
        "python:tiny_translator:Good",
        "--corpus",
        "corpus",
        "--report",
        str(out),
        "-n",
        "2",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = out / "tiny.results.jsonl"
    assert f"results written to {results}" in proc.stdout and proc.stdout.count(str(results)) == 1
    lines = [json.loads(x) for x in results.read_text().splitlines()]
    assert lines[-1]["complete"] is True and lines[-1]["counts"]["passed"] == 5
    assert lines[0]["run"]["argv"][:2] == ["toolwire", "run"]
    try:
        import toolwire.reports.markdown  # noqa: F401
    except ModuleNotFoundError:
        assert "no Markdown report" in proc.stdout
    else:
        assert (out / "tiny.md").is_file() and f"wrote {out / 'tiny.md'}" in proc.stdout

    proc = run(
        work,
        "-m",
        "toolwire.cli",
        "run",
        "--adapter",
        "python:tiny_translator:Wrong",
        "--corpus",
        "corpus",
        "--report",
        str(out),
        "--name",
        "w",
        "-k",
        "tools/basic",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = [json.loads(x) for x in (out / "w.results.jsonl").read_text().splitlines()]
    assert lines[-1]["complete"] is False and lines[0]["run"]["selection"] == "-k tools/basic"
    assert {c["case"] for c in lines[1:-1]} == {"tools/basic"}


def test_toolwire_run_bad_adapter(work: Path) -> None:
    proc = run(work, "-m", "toolwire.cli", "run", "--adapter", "python:nope_mod:X", "--corpus", "corpus")
    assert proc.returncode == 2 and "nope_mod" in proc.stderr


def test_cli_usage_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: toolwire" in capsys.readouterr().out
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "run" in out and "lint" in out and "report" in out
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("toolwire 0.1.0")
    assert main(["run", "--help"]) == 0
    assert "--adapter" in capsys.readouterr().out


def test_a_selection_never_replaces_a_complete_run_in_the_default_report_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``toolwire run -k …`` without ``--report`` would overwrite ``reports/NAME.results.jsonl``: where that
    file holds a complete run (a published report), the selection is refused with a way out, not written."""
    monkeypatch.chdir(tmp_path)
    selection = ["run", "--adapter", "reference", "-k", "canonical-none"]
    assert main([*selection, "--report", "reports"]) in (0, 1)
    published = tmp_path / "reports" / "reference.results.jsonl"
    lines = published.read_text(encoding="utf-8").splitlines()
    footer = json.loads(lines[-1])
    assert footer["record"] == "footer" and footer["complete"] is False
    lines[-1] = json.dumps({**footer, "complete": True})  # as a run of every check leaves it
    published.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = published.read_bytes()

    assert main(selection) == 2
    assert "holds a complete run" in capsys.readouterr().err
    assert published.read_bytes() == before
    assert main([*selection, "--report", str(tmp_path / "elsewhere")]) in (0, 1)
    assert (tmp_path / "elsewhere" / "reference.results.jsonl").is_file()
