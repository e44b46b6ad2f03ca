"""An installed wheel carries corpus/ and schemas/, and toolwire finds them there."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    (found,) = dist.glob("toolwire-*.whl")
    return found


def test_wheel_contains_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "toolwire/_data/corpus/VERSION" in names
    assert "toolwire/_data/corpus/INTERPRETING.md" in names
    assert any(n.startswith("toolwire/_data/corpus/cases/tools/") for n in names)
    assert "toolwire/_data/schemas/case.schema.json" in names
    assert "toolwire_reference/__init__.py" in names


def test_installed_wheel_finds_bundled_corpus(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    code = (
        "import toolwire.paths as p, toolwire.corpus.lint as l, sys;"
        "print(p.corpus_dir()); print(p.schemas_dir());"
        "sys.exit(1 if l.lint(p.corpus_dir()) else 0)"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    corpus_line, schemas_line = proc.stdout.splitlines()[:2]
    assert corpus_line.startswith(str(target)) and corpus_line.endswith("_data/corpus")
    assert schemas_line.startswith(str(target))
