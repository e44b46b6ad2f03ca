"""A gateway with three planted bugs gets three findings, each with its own example: no bug is merged into
another's finding or hidden behind it (issue: "no bug hidden behind another")."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import toolwire_reference
from toolwire.reports.bugs import find_bugs
from toolwire.results import read_results

ROUTE = ("anthropic", "openai-chat")


def _open_nested(schema: Any, depth: int = 0) -> Any:
    """Bug 1: ``additionalProperties: false`` kept on the root schema only (a shallow strict rewrite)."""
    if isinstance(schema, dict):
        out = {k: _open_nested(v, depth + 1) for k, v in schema.items()}
        if depth > 0 and out.get("additionalProperties") is False:
            del out["additionalProperties"]
        return out
    if isinstance(schema, list):
        return [_open_nested(v, depth) for v in schema]
    return schema


class PlantedGateway:
    """The reference as an Anthropic → Chat gateway, with three bugs a user planted in it."""

    def __init__(self) -> None:
        self.reference = toolwire_reference.Translator()

    def capabilities(self) -> dict[str, Any]:
        caps = self.reference.capabilities()
        caps["name"] = "planted-gateway"
        caps["kinds"] = {kind: [list(ROUTE)] for kind in ("tools", "tool_choice", "request")}
        return caps

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
        if kind == "request":  # bug 3: a tool result's is_error never read
            payload = copy.deepcopy(payload)
            for message in payload.get("messages") or ():
                for block in message.get("content") if isinstance(message.get("content"), list) else ():
                    if isinstance(block, dict):
                        block.pop("is_error", None)
        out = self.reference.translate(kind, source, target, payload, profile)
        tools = out if kind == "tools" else out.get("tools") if isinstance(out, dict) else None
        for tool in tools or ():
            function = tool.get("function") or {}
            if function.get("strict") and "parameters" in function:
                function["parameters"] = _open_nested(function["parameters"])
        if isinstance(out, dict) and out.get("tool_choice") == "required":
            out["tool_choice"] = "any"  # bug 2: Anthropic's "any" sent as it is
        return out

    def translate_stream(self, source: str, target: str, events: Any, profile: Any) -> Any:
        return self.reference.translate_stream(source, target, events, profile)


def test_three_planted_bugs_give_three_findings_each_with_its_own_example(tmp_path: Path) -> None:
    adapter = f"python:{Path(__file__).stem}:PlantedGateway"
    command = [sys.executable, "-m", "toolwire.cli", "run", "--adapter", adapter, "--report", str(tmp_path)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    proc = subprocess.run([*command, "--name", "planted", "-q"], capture_output=True, text=True, env=env)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    findings = find_bugs(read_results(tmp_path / "planted.results.jsonl").checks)
    titles = [f.plain_title() for f in findings]
    assert len(findings) == 3, titles
    marks = {"additionalProperties": "nested", '`"any"`': "any", "/messages/*/content": "is_error"}
    found = {}
    for finding in findings:
        bugs = [bug for mark, bug in marks.items() if mark in finding.plain_title()]
        assert len(bugs) == 1, finding.plain_title()
        found[bugs[0]] = finding
    assert set(found) == {"nested", "any", "is_error"}
    assert "additionalProperties" in found["nested"].example
    assert '"any"' in found["any"].example
    assert "Error" in found["is_error"].example and "additionalProperties" not in found["is_error"].example
