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
from toolwire.install_source import extra_install_command_from, requirement_from

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


def _origin(remote: str | None) -> object:
    return lambda directory: (remote, "c0ffee") if remote else None


@pytest.mark.parametrize(
    ("direct_url", "remote", "wanted"),
    [
        (None, None, "toolwire==0.1.0"),
        (
            {"url": "https://github.com/acme/toolwire", "vcs_info": {"vcs": "git", "commit_id": "abc123"}},
            None,
            "toolwire @ git+https://github.com/acme/toolwire@abc123",
        ),
        (
            {"url": "https://example.com/toolwire-0.1.0-py3-none-any.whl", "archive_info": {}},
            None,
            "toolwire @ https://example.com/toolwire-0.1.0-py3-none-any.whl",
        ),
        (
            {"url": "file:///src/toolwire", "dir_info": {"editable": True}},
            "https://github.com/acme/toolwire.git",
            "toolwire @ git+https://github.com/acme/toolwire.git@c0ffee",
        ),
        (
            {"url": "file:///src/toolwire", "dir_info": {}},
            "git@github.com:acme/toolwire.git",
            "toolwire @ git+ssh://git@github.com/acme/toolwire.git@c0ffee",
        ),
        ({"url": "file:///src/toolwire", "dir_info": {"editable": True}}, "/home/me/toolwire", None),
        ({"url": "file:///src/toolwire", "dir_info": {"editable": True}}, None, None),
        ({"url": "file:///tmp/toolwire-0.1.0-py3-none-any.whl", "archive_info": {}}, None, None),
    ],
)
def test_the_workflow_installs_toolwire_as_it_was_installed_here(
    direct_url: dict | None, remote: str | None, wanted: str | None
) -> None:
    """From its git repository at this commit, its wheel's URL or the index's release; never a bare
    ``toolwire`` (not this project on the index, or someone else's), and nothing a path of this machine."""
    found, why = requirement_from(direct_url, "0.1.0", _origin(remote))
    assert found == wanted, why
    assert why


@pytest.mark.parametrize(
    ("direct_url", "wanted"),
    [
        (None, "pip install 'toolwire[litellm]==0.1.0'"),
        (
            {"url": "file:///src/toolwire", "dir_info": {"editable": True}},
            "pip install -e '/src/toolwire[litellm]'",
        ),
        ({"url": "file:///src/toolwire", "dir_info": {}}, "pip install '/src/toolwire[litellm]'"),
        ({"url": "file:///tmp/toolwire-0.1.0-py3-none-any.whl", "archive_info": {}}, None),
        (
            {"url": "https://github.com/acme/toolwire", "vcs_info": {"vcs": "git", "commit_id": "abc"}},
            "pip install 'toolwire[litellm] @ git+https://github.com/acme/toolwire@abc'",
        ),
    ],
)
def test_a_missing_peer_library_names_the_install_that_works_here(
    direct_url: dict | None, wanted: str | None
) -> None:
    """``peer:litellm`` without LiteLLM says how to add the extra to this toolwire: ``toolwire[litellm]`` from
    an index cannot work for a checkout (toolwire is not on PyPI, and the name may be someone else's)."""
    said = extra_install_command_from(direct_url, "0.1.0", "litellm")
    assert said == (wanted or "pip install '/tmp/toolwire-0.1.0-py3-none-any.whl[litellm]'")


def test_a_workflow_that_cannot_install_toolwire_says_so_and_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolwire.init_cmd as init_cmd

    monkeypatch.setattr(init_cmd, "requirement", lambda: (None, "installed from C:/src/it's #1, no remote"))
    assert init([str(tmp_path), "--name", "acme"]) == 0
    assert "warning: the CI workflow cannot install toolwire" in capsys.readouterr().out
    workflow = tmp_path / ".github" / "workflows" / "toolwire.yml"
    proc = shell(step(workflow, "Install"), tmp_path)
    assert proc.returncode == 1 and "could not tell how another machine installs toolwire" in proc.stderr
    assert "pip install toolwire " not in workflow.read_text()
    _parses_as_yaml(workflow)
    spec = "toolwire @ git+https://x/t@1"
    assert init([str(tmp_path), "--name", "acme", "--force", "--install", spec]) == 0
    assert step(workflow, "Install") == f'python -m pip install "{spec}" pytest-xdist'
    _parses_as_yaml(workflow)


def _parses_as_yaml(workflow: Path) -> None:
    """The workflow is YAML whose steps run what :func:`step` reads (when PyYAML is there to tell)."""
    try:
        import yaml
    except ImportError:
        return
    steps = yaml.safe_load(workflow.read_text())["jobs"]["toolwire"]["steps"]
    assert [s["run"] for s in steps if "run" in s] == [step(workflow, s["name"]) for s in steps if "run" in s]


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
    harness = (tmp_path / "toolwire-harness.mjs").read_text()
    assert 'name: "acme"' in harness and "node-example" not in harness  # the harness is the user's, named so
    assert '"cmd:node toolwire-harness.mjs"' in harness and "examples/node-harness" not in harness
    proc = shell(
        "python -m pytest tests/test_toolwire.py -p no:cacheprovider -q -k 'tools/ and canonical'",
        tmp_path,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # judged, whatever the verdicts
    assert re.search(r"\d+ passed", proc.stdout) and " error" not in proc.stdout.splitlines()[-1]
    ran = shell("toolwire run --adapter 'cmd:node toolwire-harness.mjs' -k tools/ --report r", tmp_path)
    assert (tmp_path / "r" / "acme.results.jsonl").is_file(), ran.stdout + ran.stderr  # named after it


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
