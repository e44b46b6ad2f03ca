"""`toolwire report diff OLD NEW`: regressions, fixes, new and removed checks, the corpus guard."""

from __future__ import annotations

from pathlib import Path

from reports_support import check, header, write
from toolwire.cli import main as cli
from toolwire.reports.diff import compare
from toolwire.results import read_results

OLD = [
    check("tools/a", "openai-chat", "passed", features=["tools.wrapper"]),
    check("tools/b", "openai-chat", "failed", features=["tools.wrapper"]),
    check("tools/c", "openai-chat", "passed", features=["tools.wrapper"], level="should"),
    check("tools/d", "openai-chat", "failed", features=["tools.wrapper"]),
    check("tools/gone", "openai-chat", "passed", features=["tools.wrapper"]),
    check("tools/same", "openai-chat", "failed", features=["tools.wrapper"]),
    check("choice/s", "gemini", "skipped", features=["choice.auto"]),
]
NEW = [
    check("tools/a", "openai-chat", "failed", features=["tools.wrapper"]),  # regressed
    check("tools/b", "openai-chat", "passed", features=["tools.wrapper"]),  # fixed
    check("tools/c", "openai-chat", "errored", features=["tools.wrapper"], level="should"),  # regressed
    check("tools/d", "openai-chat", "errored", features=["tools.wrapper"]),  # changed
    check("tools/same", "openai-chat", "failed", features=["tools.wrapper"]),
    check("tools/new", "openai-chat", "passed", features=["tools.wrapper"]),
    check("choice/s", "gemini", "passed", features=["choice.auto"]),  # newly applicable
]


def _files(tmp_path: Path, old=OLD, new=NEW, **new_header) -> tuple[Path, Path]:
    return (
        write(tmp_path / "old.results.jsonl", header("lib"), old),
        write(tmp_path / "new.results.jsonl", header("lib", **new_header), new),
    )


def test_diff_categories(tmp_path: Path):
    old, new = _files(tmp_path)
    diff = compare(read_results(old), read_results(new))
    assert diff.regressed == [
        ("tools/a[canonical>openai-chat]", "passed", "failed"),
        ("tools/c[canonical>openai-chat]", "passed", "errored"),
    ]
    assert diff.fixed == [("tools/b[canonical>openai-chat]", "failed", "passed")]
    assert diff.changed == [
        ("choice/s[canonical>gemini]", "skipped", "passed"),
        ("tools/d[canonical>openai-chat]", "failed", "errored"),
    ]
    assert diff.new == [("tools/new[canonical>openai-chat]", "passed")]
    assert diff.removed == [("tools/gone[canonical>openai-chat]", "passed")]
    assert diff.unchanged == 1


def test_diff_exits_1_on_a_regression(tmp_path: Path, capsys):
    old, new = _files(tmp_path)
    assert cli(["report", "diff", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "REGRESSED (passing -> failing) (2):" in out
    assert "  tools/a[canonical>openai-chat]: passed -> failed (must)" in out
    assert "  tools/c[canonical>openai-chat]: passed -> errored (should)" in out
    assert "fixed (failing -> passing) (1):\n  tools/b[canonical>openai-chat]: failed -> passed (must)" in out
    assert "removed checks (1):\n  tools/gone[canonical>openai-chat]: was passed (must)" in out
    assert out.rstrip().endswith("2 regressed, 1 fixed, 2 changed, 1 new, 1 removed, 1 unchanged")


def test_diff_exits_0_on_a_fix_only(tmp_path: Path, capsys):
    old, new = _files(tmp_path, old=OLD[1:2], new=NEW[1:2])
    assert cli(["report", "diff", str(old), str(new)]) == 0
    out = capsys.readouterr().out
    assert "REGRESSED" not in out and "1 fixed" in out
    # and back again: the fix undone is a regression
    assert cli(["report", "diff", str(new), str(old)]) == 1


def test_known_failure_counts_as_failing(tmp_path: Path):
    old, new = _files(
        tmp_path,
        old=[check("tools/a", "gemini", "passed", features=["tools.wrapper"])],
        new=[check("tools/a", "gemini", "xfailed", features=["tools.wrapper"])],
    )
    assert compare(read_results(old), read_results(new)).regressed


def test_diff_refuses_another_corpus(tmp_path: Path, capsys):
    old, new = _files(tmp_path, version="0.4.0")
    assert cli(["report", "diff", str(old), str(new)]) == 2
    assert "different corpus versions" in capsys.readouterr().err
    assert cli(["report", "diff", str(old), str(new), "--allow-corpus-change"]) == 1
    assert "the corpus changed between the runs" in capsys.readouterr().out
    old, new = _files(tmp_path, hash_="ff" * 32)
    assert cli(["report", "diff", str(old), str(new)]) == 2
    assert "different corpus hashes" in capsys.readouterr().err


def test_diff_of_a_partial_run_says_so(tmp_path: Path, capsys):
    old = write(tmp_path / "old.results.jsonl", header("lib"), OLD)
    new = write(tmp_path / "new.results.jsonl", header("lib"), OLD[:2], complete=None)
    assert cli(["report", "diff", str(old), str(new)]) == 0
    out = capsys.readouterr().out
    assert "removed checks (or not run in new: a partial run) (5):" in out
    assert "[PARTIAL: the run did not finish (no footer)]" in out


def test_diff_unreadable_file(tmp_path: Path, capsys):
    old, _new = _files(tmp_path)
    assert cli(["report", "diff", str(old), str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
