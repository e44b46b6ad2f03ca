"""``toolwire init`` and the sample project (examples/sample-project): what init writes runs, and the CI
workflow it writes passes on the sample's green translator and fails on a regression."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from toolwire import paths
from toolwire.init_cmd import main as init

SAMPLE = paths.examples_dir() / "sample-project"


def shell(command: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A workflow step's command, with this environment's python and toolwire first on PATH."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return subprocess.run(
        command,
        shell=True,
        cwd=cwd,
        env={**os.environ, "PATH": path, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


def step(workflow: Path, name: str) -> str:
    """The ``run:`` command of the workflow step called ``name``."""
    found = re.search(rf"- name: {re.escape(name)}\n(?:\s+if: .*\n)?\s+run: (.+)\n", workflow.read_text())
    assert found, f"{workflow} has no step {name!r}"
    return found.group(1)


def test_init_writes_a_project_whose_suite_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init([str(tmp_path), "--name", "acme gw"]) == 0
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written == [
        ".github/workflows/toolwire.yml",
        "tests/test_toolwire.py",
        "toolwire-expectations.toml",
        "toolwire_adapter.py",
    ]
    assert "class TestAcmeGw(ToolwireSuite):" in (tmp_path / "tests" / "test_toolwire.py").read_text()
    (tmp_path / "toolwire_adapter.py").write_text("# mine\n")
    capsys.readouterr()
    assert init([str(tmp_path), "--name", "acme-gw"]) == 0  # what exists is kept
    assert (tmp_path / "toolwire_adapter.py").read_text() == "# mine\n" and "kept" in capsys.readouterr().out
    assert init([str(tmp_path), "--name", "acme-gw", "--force"]) == 0

    # the workflow's command runs the skeleton: its checks error (nothing is translated yet), no usage error
    command = step(tmp_path / ".github" / "workflows" / "toolwire.yml", "Run the corpus")
    proc = shell(command + " -k 'validation/duplicate-name'", tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "NotImplementedError: toolwire_adapter.py: translate tools openai-chat -> anthropic" in proc.stdout
    assert (tmp_path / "reports" / "acme-gw.results.jsonl").is_file()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_init_for_node_writes_a_harness_that_runs(tmp_path: Path) -> None:
    assert init([str(tmp_path), "--language", "node", "--name", "acme"]) == 0
    assert "actions/setup-node" in (tmp_path / ".github" / "workflows" / "toolwire.yml").read_text()
    proc = shell(
        "python -m pytest tests/test_toolwire.py -p no:cacheprovider -q -k 'tools/ and canonical'",
        tmp_path,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # judged, whatever the verdicts
    assert re.search(r"\d+ passed", proc.stdout) and " error" not in proc.stdout.splitlines()[-1]


def test_the_sample_projects_workflow_passes_green_and_fails_on_a_regression(tmp_path: Path) -> None:
    project = tmp_path / "sample-project"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("reports", "__pycache__"))
    workflow = project / ".github" / "workflows" / "toolwire.yml"
    run, report = step(workflow, "Run the corpus"), step(workflow, "Report")

    green = shell(run, project)
    assert green.returncode == 0, green.stdout[-3000:] + green.stderr
    assert "14 xfailed" in green.stdout  # the known failures, listed in toolwire-expectations.toml
    made = shell(report, project)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "sample-gateway" in (project / "reports" / "sample-gateway.md").read_text()

    red = shell(run, project, SAMPLE_GATEWAY_REGRESSION="1")
    assert red.returncode == 1, red.stdout[-3000:] + red.stderr
    assert "missing key 'description'" in red.stdout
