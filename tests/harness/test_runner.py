"""``toolwire run``'s own loop (toolwire.runner): the same verdicts as the pytest plugin, pytest's ``-k``,
worker processes that die."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression
from core_support import make_work, run_python
from toolwire.corpus import load_corpus
from toolwire.runner import markers, select
from toolwire.selection import SelectionError, compile_keyword


@pytest.fixture
def work(tmp_path: Path) -> Path:
    # takes its interpreter down, as a segfaulting extension would
    return make_work(tmp_path, killer="if kind == 'tool_choice' and target == 'anthropic':\n    os._exit(3)")


def _records(path: Path) -> dict[str, dict]:
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    return {r["id"]: r for r in lines[1:-1]}


def _verdicts(records: dict[str, dict]) -> dict[str, tuple]:
    return {i: (r["outcome"], r.get("message"), r.get("diff")) for i, r in records.items()}


def test_toolwire_run_and_the_pytest_plugin_give_the_same_records(work: Path) -> None:
    loop = run_python(
        work,
        "-m",
        "toolwire.cli",
        "run",
        "--adapter",
        "python:tiny_translator:Wrong",
        "--corpus",
        "corpus",
        "--report",
        "out",
    )
    assert loop.returncode == 1, loop.stdout + loop.stderr
    plugin = run_python(
        work,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--toolwire-adapter",
        "python:tiny_translator:Wrong",
        "--toolwire-corpus",
        "corpus",
        "--toolwire-results",
        "p.jsonl",
    )
    assert plugin.returncode == 1, plugin.stdout + plugin.stderr
    ours, theirs = _records(work / "out" / "wrong.results.jsonl"), _records(work / "p.jsonl")
    assert _verdicts(ours) == _verdicts(theirs)
    failed = sorted(i for i, r in ours.items() if r["outcome"] == "failed")
    assert failed and all(f"FAILED toolwire::{i}" in loop.stdout for i in failed)


@pytest.mark.parametrize(
    "expression",
    [
        "tools",
        "RESPONSES/canonical-stop",
        "not gemini",
        "choice or missing",
        "tools and not (gemini or strict)",
        "toolwire_must",
        "openai-chat and toolwire_tools",
        "refusal-delta[openai-chat",
    ],
)
def test_k_selects_what_pytest_selects(expression: str) -> None:
    corpus = load_corpus(None)
    ours = [c.id for c in select(corpus, expression)]
    compiled = Expression.compile(expression)
    theirs = [
        c.id
        for c in corpus.checks()
        if compiled.evaluate(lambda word, c=c: any(word.lower() in n.lower() for n in [c.id, *markers(c)]))
    ]
    assert ours == theirs and ours


@pytest.mark.parametrize(
    "expression", ["toolwire_must", "toolwire_should or toolwire_may", "toolwire_tools and not toolwire_must"]
)
def test_m_selects_what_pytest_selects(expression: str) -> None:
    corpus = load_corpus(None)
    ours = [c.id for c in select(corpus, None, expression)]
    compiled = Expression.compile(expression)
    theirs = [c.id for c in corpus.checks() if compiled.evaluate(lambda name, c=c: name in markers(c))]
    assert ours == theirs and ours
    assert select(corpus, None, "must") == []  # a marker name is matched whole


def test_a_malformed_k_is_a_usage_error(work: Path) -> None:
    with pytest.raises(SelectionError, match="expected"):
        compile_keyword("tools and")
    with pytest.raises(SelectionError, match="expected '\\)'"):
        compile_keyword("(tools")
    with pytest.raises(SelectionError, match="unexpected"):
        compile_keyword("tools)")
    proc = run_python(work, "-m", "toolwire.cli", "run", "--corpus", "corpus", "-k", "not", "--report", "out")
    assert proc.returncode == 2 and "-k 'not'" in proc.stderr


def test_a_worker_that_dies_blames_the_check_that_killed_it(work: Path) -> None:
    proc = run_python(
        work,
        "-m",
        "toolwire.cli",
        "run",
        "--adapter",
        "python:killer:Killer",
        "--corpus",
        "corpus",
        "--report",
        "out",
        "-n",
        "2",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    records = _records(work / "out" / "tiny.results.jsonl")
    errored = sorted(i for i, r in records.items() if r["outcome"] == "errored")
    assert errored == ["choice/auto[canonical>anthropic]"]
    assert "worker process running it died" in records[errored[0]]["message"]
    assert {r["outcome"] for i, r in records.items() if i not in errored} <= {"passed", "skipped"}
    foot = json.loads((work / "out" / "tiny.results.jsonl").read_text().splitlines()[-1])
    assert foot["complete"] is True


def test_a_worker_that_cannot_load_the_implementation_stops_the_run_with_the_reason(work: Path) -> None:
    (work / "only_main.py").write_text(
        "import multiprocessing\n"
        "from tiny_translator import Good\n"
        "class OnlyMain(Good):\n"
        "    def __init__(self):\n"
        "        if multiprocessing.current_process().name != 'MainProcess':\n"
        "            raise RuntimeError('this translator cannot start twice')\n"
    )
    proc = run_python(
        work,
        "-m",
        "toolwire.cli",
        "run",
        "--adapter",
        "python:only_main:OnlyMain",
        "--corpus",
        "corpus",
        "--report",
        "out",
        "-n",
        "2",
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "a worker process could not load the implementation" in proc.stderr
    assert "this translator cannot start twice" in proc.stderr


def test_a_pool_that_breaks_while_checks_are_handed_out_loses_no_check(monkeypatch) -> None:
    """A worker can die after ``wait`` returned and before the next batch is handed out: ``submit`` then
    raises BrokenProcessPool. The batch goes back to the queue and every check still gets its record."""
    from concurrent.futures import ThreadPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from toolwire import runner
    from toolwire.adapters import load_adapter

    class BreaksOnce(ThreadPoolExecutor):  # worker "processes" as threads: the same worker state, in-process
        submitted = 0

        def submit(self, *args, **kwargs):
            BreaksOnce.submitted += 1
            if BreaksOnce.submitted in (3, 4):  # once with batches pending, once more right after
                raise BrokenProcessPool("A child process terminated abruptly")
            return super().submit(*args, **kwargs)

    def start(pool):
        return BreaksOnce(max_workers=pool.workers, initializer=runner._worker_start, initargs=pool.args)

    monkeypatch.setattr(runner._Pool, "_start", start)
    monkeypatch.setattr(runner, "_BATCH", 4)
    corpus = load_corpus(None)
    run = runner.Run(corpus, load_adapter("reference"))
    options = runner.RunOptions("reference", keyword="choice/openai-chat", workers=2)
    wanted = {c.id for c in select(corpus, options.keyword)}
    runner.run_checks(run, options, out=io.StringIO())
    assert BreaksOnce.submitted > 4
    assert set(run.records) == wanted and len(wanted) > 8
    assert {r["outcome"] for r in run.records.values()} <= {"passed", "skipped"}


@pytest.mark.parametrize("command", [["run", "--report", "tmp"], ["lint"]])
def test_ctrl_c_before_the_checks_is_one_line_and_exit_2(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while the corpus loads (before any check runs, or in a delegated command) ends the command
    with one line and the exit code of an interrupted run, not a 120-line traceback."""
    from toolwire import cli
    from toolwire.corpus import lint as lint_mod

    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run", interrupted)
    monkeypatch.setattr(lint_mod, "main", interrupted)
    assert cli.main(command) == 2
    err = capsys.readouterr().err
    assert err == "toolwire: interrupted\n"


def test_quiet_prints_no_progress_letters_but_the_failures_and_the_summary(work: Path) -> None:
    """``-q``: the 60–100 lines of progress letters of a full run are gone; what failed, and the counts,
    are printed as without it."""
    args = ["-m", "toolwire.cli", "run", "--adapter", "python:killer:Killer", "--corpus", "corpus", "-n", "2"]
    loud = run_python(work, *args, "--report", "loud")
    quiet = run_python(work, *args, "-q", "--report", "quiet")
    assert loud.returncode == quiet.returncode == 1, quiet.stdout + quiet.stderr
    letters = [line for line in loud.stdout.splitlines() if line.endswith("%]")]
    assert letters and not [line for line in quiet.stdout.splitlines() if line.endswith("%]")]
    def summary(text: str) -> list[str]:
        return re.sub(r" in [\d.]+s$", "", text.replace("loud", "quiet"), flags=re.M).splitlines()[-3:]

    assert summary(quiet.stdout) == summary(loud.stdout)
    assert "ERRORED toolwire::" in quiet.stdout
    both = run_python(work, *args, "-q", "-v", "--report", "both")
    assert both.returncode == 2 and "not allowed with" in both.stderr
