"""A new user's whole path, on the bundled corpus, with the commands the README and ``toolwire init`` give:
init a project, put a translator behind the adapter it wrote, run the generated workflow's steps (red on
real failures), list those as known failures with ``expectations update``, run green (also ``--strict``,
as the README suggests for CI), fix a bug, see the stale entries, update again, green again."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("xdist")

#: the user's own gateway code: OpenAI Chat tool definitions to Anthropic's; ``DROPS_DESCRIPTIONS`` is the bug
#: that the path finds, lists, and then fixes
GATEWAY = '''\
"""acme-gw's tool translation."""

DROPS_DESCRIPTIONS = True


class UnsupportedTool(Exception):
    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


def tools_to_anthropic(tools: list) -> list:
    out = []
    for i, tool in enumerate(tools):
        if tool.get("type") != "function":
            raise UnsupportedTool("only function tools", i)
        function = tool["function"]
        one = {"name": function["name"]}
        if "description" in function and not DROPS_DESCRIPTIONS:
            one["description"] = function["description"]
        one["input_schema"] = function.get("parameters") or {"type": "object", "properties": {}}
        out.append(one)
    return out
'''

#: what the user writes in place of the TODO of the adapter `toolwire init` wrote (which declares tools
#: openai-chat -> anthropic already): a call of their code, its error as the adapter's Refusal
CALL = """\
        import acme_gw

        try:
            return acme_gw.tools_to_anthropic(payload)
        except acme_gw.UnsupportedTool as exc:
            raise Refusal("tool.unsupported_type", str(exc), f"/{exc.index}/type") from exc
"""


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command as a user (or the workflow) types it, with this environment's python and toolwire first
    on PATH."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return subprocess.run(
        command, shell=True, cwd=cwd, env={**os.environ, "PATH": path}, capture_output=True, text=True,
        timeout=900,
    )  # fmt: skip


def _steps(workflow: Path) -> dict[str, str]:
    """The ``run:`` commands of the workflow's named steps."""
    found = re.findall(r"- name: (.+)\n(?:\s+if: .*\n)?\s+run: (.+)\n", workflow.read_text())
    return dict(found)


def _counts(results: Path) -> dict[str, int]:
    return json.loads(results.read_text().splitlines()[-1])["counts"]


def test_init_translate_list_known_failures_run_strict_fix_and_update(tmp_path: Path) -> None:
    project = tmp_path / "acme-gw"
    project.mkdir()
    ok = _shell("toolwire init --name acme-gw", project)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    adapter = project / "toolwire_adapter.py"
    written = adapter.read_text()
    todo = re.search(r" +# TODO: call your translator here.*\n +raise NotImplementedError\(.*\)\n", written)
    assert todo, written
    adapter.write_text(written.replace(todo.group(0), CALL))
    gateway = project / "acme_gw.py"
    gateway.write_text(GATEWAY)
    steps = _steps(project / ".github" / "workflows" / "toolwire.yml")
    assert set(steps) >= {"Install", "Run the corpus", "Report"}, steps
    assert "pip install" in steps["Install"]  # needs the network: run by CI, checked in test_sample_project
    results = project / "reports" / "acme-gw.results.jsonl"
    strict = "toolwire run --adapter python:toolwire_adapter:Translator --report reports"
    strict += " --expectations toolwire-expectations.toml --strict"

    # 1. red: the generated workflow's run fails on the translator's real failures, and reports them
    red = _shell(steps["Run the corpus"], project)
    assert red.returncode == 1, red.stdout[-3000:] + red.stderr
    counts = _counts(results)
    assert counts["failed"] > 0 and counts["errored"] == 0, counts
    report = _shell(steps["Report"], project)
    assert report.returncode == 0 and "acme-gw" in (project / "reports" / "acme-gw.md").read_text()

    # 2. the failures become known failures (the command the generated test file names)
    update = _shell("toolwire expectations update --from reports/acme-gw.results.jsonl", project)
    assert update.returncode == 0, update.stdout + update.stderr
    listed = (project / "toolwire-expectations.toml").read_text()
    assert listed.count("[[known-failure]]") > 0

    # 3. green: the workflow's run and a --strict run pass, with every failure expected and none stale
    green = _shell(steps["Run the corpus"], project)
    assert green.returncode == 0, green.stdout[-3000:] + green.stderr
    assert _counts(results)["xfailed"] == counts["failed"] and _counts(results)["xpassed"] == 0
    again = _shell(strict, project)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr
    assert _counts(results)["xpassed"] == 0 and _counts(results)["failed"] == 0

    # 4. the description bug is fixed: its entries are stale, which --strict reports, and update drops
    gateway.write_text(GATEWAY.replace("DROPS_DESCRIPTIONS = True", "DROPS_DESCRIPTIONS = False"))
    stale = _shell(strict, project)
    assert stale.returncode == 1, stale.stdout[-3000:] + stale.stderr
    fixed = _counts(results)["xpassed"]
    assert fixed > 0
    update = _shell("toolwire expectations update --from reports/acme-gw.results.jsonl", project)
    assert update.returncode == 0 and "removed (now passes)" in update.stdout, update.stdout + update.stderr
    assert (project / "toolwire-expectations.toml").read_text().count("[[known-failure]]") < listed.count(
        "[[known-failure]]"
    )
    final = _shell(strict, project)
    assert final.returncode == 0, final.stdout[-3000:] + final.stderr
    assert _counts(results)["xpassed"] == 0 and _counts(results)["failed"] == 0
    assert _shell(steps["Run the corpus"], project).returncode == 0
