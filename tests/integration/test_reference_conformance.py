"""The reference translator passes every applicable check of the shipped corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from toolwire.corpus import load_corpus


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "run", "--report", str(tmp_path), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_reference_passes_whole_corpus(tmp_path: Path) -> None:
    proc = _run(tmp_path)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    records = _records(tmp_path / "reference.results.jsonl")
    header, checks, footer = records[0], records[1:-1], records[-1]
    assert header["record"] == "header" and footer["record"] == "footer"
    assert footer["complete"] is True
    corpus = load_corpus()
    assert header["corpus"]["version"] == corpus.version
    assert header["corpus"]["hash"] == corpus.hash
    assert len(checks) == len(corpus.checks()) == footer["total"]
    bad = [c["id"] for c in checks if c["outcome"] not in ("passed", "skipped")]
    assert bad == []
    # the reference declares every kind, pair and profile: nothing may be skipped
    assert [c["id"] for c in checks if c["outcome"] == "skipped"] == []
    report = (tmp_path / "reference.md").read_text(encoding="utf-8")
    assert "PARTIAL" not in report
    for feature in corpus.features:
        assert feature in report or corpus.features[feature]["title"] in report


def test_filtered_run_is_marked_partial(tmp_path: Path) -> None:
    proc = _run(tmp_path, "-k", "choice/")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    records = _records(tmp_path / "reference.results.jsonl")
    footer = records[-1]
    assert footer["complete"] is False
    assert records[0]["run"]["selection"]
    assert all(r["case"].startswith("choice/") for r in records[1:-1])
    assert "PARTIAL" in (tmp_path / "reference.md").read_text(encoding="utf-8")
