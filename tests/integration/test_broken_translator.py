"""A translator that breaks one rule gets a report naming the failing feature, with the diff."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

BROKEN = textwrap.dedent(
    '''
    """The reference, except that nested objects lose `additionalProperties: false` (a shallow rewrite)."""
    import toolwire_reference


    def _shallow(schema, depth=0):
        if isinstance(schema, dict):
            out = {k: _shallow(v, depth + 1) for k, v in schema.items()}
            if depth > 1 and out.get("additionalProperties") is False:
                del out["additionalProperties"]
            return out
        if isinstance(schema, list):
            return [_shallow(v, depth + 1) for v in schema]
        return schema


    class Shallow:
        def capabilities(self):
            caps = toolwire_reference.Translator().capabilities()
            caps["name"] = "shallow-strict"
            return caps

        def translate(self, kind, source, target, payload, profile):
            out = toolwire_reference.translate(kind, payload, source=source, target=target, profile=profile)
            if kind == "tools" and target in ("openai-chat", "openai-responses"):
                out = [_shallow(tool) for tool in out]
            return out

        def translate_stream(self, source, target, events, profile):
            raise NotImplementedError
    '''
)


def test_broken_translator_report_names_feature_and_diff(tmp_path: Path) -> None:
    (tmp_path / "shallow_adapter.py").write_text(BROKEN, encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolwire.cli",
            "run",
            "--adapter",
            "python:shallow_adapter:Shallow",
            "--report",
            str(out),
            "-k",
            "tools/",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)},
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    records = [json.loads(x) for x in (out / "shallow-strict.results.jsonl").read_text().splitlines()]
    failed = [r for r in records[1:-1] if r["outcome"] == "failed"]
    assert failed, "the shallow translator must fail some checks"
    assert all("additionalProperties" in r["diff"] for r in failed)
    assert any("schema.additional-properties-deep" in r["features"] for r in failed)
    report = (out / "shallow-strict.md").read_text(encoding="utf-8")
    fix_first = report[report.index("Fix first") :]
    title = "additionalProperties:false at every depth"
    assert "schema.additional-properties-deep" in fix_first or title in fix_first
    assert "additionalProperties" in report
