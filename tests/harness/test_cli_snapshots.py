"""Snapshots of what the CLI prints: a translation, a refusal, usage errors and the lint summary."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from toolwire.paths import corpus_dir

CASE = corpus_dir() / "cases" / "tools" / "ikigai-file-edit-translation-summary.json"


def _toolwire(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "toolwire.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_translate_tools_to_openai_strict(snapshot, tmp_path: Path) -> None:
    source = json.loads(CASE.read_text(encoding="utf-8"))["source"]["payload"]
    rc, out, err = _toolwire(
        "translate",
        "--kind",
        "tools",
        "--from",
        "canonical",
        "--to",
        "openai-chat",
        "--profile",
        "openai.strict=all-required",
        stdin=json.dumps(source),
    )
    assert (rc, err) == (0, "")
    assert out == snapshot


def test_translate_refusal_prints_the_coded_error(snapshot) -> None:
    tools = [{"name": "get.weather", "parameters": {"type": "object", "properties": {}}}]
    rc, out, _ = _toolwire(
        "translate", "--kind", "tools", "--from", "canonical", "--to", "anthropic", stdin=json.dumps(tools)
    )
    assert rc == 1
    assert out == snapshot


def test_translate_malformed_json_is_exit_2(snapshot) -> None:
    rc, out, err = _toolwire(
        "translate", "--kind", "tools", "--from", "canonical", "--to", "gemini", stdin='[{"name": '
    )
    assert (rc, out) == (2, "")
    assert err == snapshot


def test_lint_summary(snapshot) -> None:
    rc, out, _ = _toolwire("lint")
    assert rc == 0
    # the case count changes with every new case; the snapshot pins the shape of the line
    assert re.sub(r"\d+ cases", "N cases", out) == snapshot
