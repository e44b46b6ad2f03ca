"""The checked-in reports/ stay current.

The reference's results and Markdown report must be exactly what a reproducible run gives today (else:
`make run`). The peers' results may lag a corpus change until `make reports` is run, but then the combined
README.md and index.html must say so, and those, like the badges, must be exactly what
`toolwire report combine` makes of the checked-in results files.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from toolwire.corpus import load_corpus
from toolwire.reports.combine import combine, write_outputs
from toolwire.reports.matrix import STALE_TEXT, CorpusId
from toolwire.results import read_results

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"

pytestmark = pytest.mark.skipif(
    not (ROOT / "corpus").is_dir() or not (ROOT / "Makefile").is_file(), reason="needs a checkout"
)


def _first_difference(name: str, expected: str, actual: str) -> str:
    diff = difflib.unified_diff(
        expected.splitlines(),
        actual.splitlines(),
        f"reports/{name} (checked in)",
        "regenerated",
        lineterm="",
        n=0,
    )
    lines = [line[:300] for _, line in zip(range(12), diff, strict=False)]
    return "\n".join(lines)


def test_reference_report_is_current(tmp_path: Path) -> None:
    for name in ("reference.results.jsonl", "reference.md"):
        assert (REPORTS / name).is_file(), f"reports/{name} is missing: run `make run`"
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env["PYTHONHASHSEED"] = "0"  # as the Makefile
    proc = subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "run", "--report", str(tmp_path), "--reproducible"],
        cwd=ROOT,  # the corpus path is recorded relative to it, as `make run` does
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr[-3000:]
    for name in ("reference.results.jsonl", "reference.md"):
        checked = (REPORTS / name).read_text(encoding="utf-8")
        fresh = (tmp_path / name).read_text(encoding="utf-8")
        assert fresh == checked, (
            f"reports/{name} is stale: run `make run` (or `make reports`)\n"
            + _first_difference(name, checked, fresh)
        )


def _checked_in_results() -> list[Path]:
    files = sorted(REPORTS.glob("*.results.jsonl"))
    assert files, "reports/ holds no results: run `make reports`"
    return files


def test_combined_reports_match_the_results_files(tmp_path: Path) -> None:
    matrix = combine(_checked_in_results(), allow_stale=True, output=REPORTS)
    if (REPORTS / "AUDIT.json").is_file():  # the verified samples the README publishes beside the matrix
        (tmp_path / "AUDIT.json").write_bytes((REPORTS / "AUDIT.json").read_bytes())
    written = write_outputs(matrix, tmp_path)
    for path in written:
        checked = REPORTS / path.name
        assert checked.is_file(), f"reports/{path.name} is missing: run `make reports`"
        fresh = path.read_text(encoding="utf-8")
        assert checked.read_text(encoding="utf-8") == fresh, (
            f"reports/{path.name} does not match the results files: run `make reports` (or `make run`)\n"
            + _first_difference(path.name, checked.read_text(encoding="utf-8"), fresh)
        )
    badges = {p.name for p in REPORTS.glob("*.badge.svg")}
    assert badges == {p.name for p in written if p.name.endswith(".badge.svg")}, "a badge without results"


def test_lagging_results_say_they_are_stale() -> None:
    corpus = load_corpus()
    current = CorpusId(corpus.version, corpus.hash)
    readme = (REPORTS / "README.md").read_text(encoding="utf-8")
    for path in _checked_in_results():
        name = path.name.removesuffix(".results.jsonl")
        stale = CorpusId.of(read_results(path)) != current
        marked = f"**{name}: {STALE_TEXT}**" in readme
        assert marked == stale, (
            f"reports/README.md {'does not say' if stale else 'says'} {name} is stale: "
            + ("run `make reports`" if stale else "run `make run`")
        )
        if name == "reference":
            assert not stale, "reports/reference.results.jsonl is stale: run `make run`"
