"""The repository stands alone: no tracked file reads or cites anything outside it.

A user's clone (or an installed sdist) has nothing beside it, so a path like ``../x`` or an absolute path
into the machine the project was written on resolves to nothing. Case and descriptor references are
checked one by one by ``toolwire lint`` (tests/harness/test_lint_rules.py); this test covers every other
tracked text file: code, tests, docs, schemas, reports.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Written in pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        [
            r"\.\./" + "shared",  # the folder beside the checkout where the project was written
            "/work/" + r"(?:main|shared)\b",  # absolute paths of that machine
            "real-" + "captures/",  # the captures' old home (now corpus/captures/)
            "seed-" + "docs/",
            "FIELD-" + "NOTES",
            "CONSTRAINTS" + r"\.md",
            r"\.con" + "tracts/",
            r"(?<![\w/])DESIGN" + r"\.md",
        ]
    )
)


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (an sdist): nothing to compare with")
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_no_tracked_file_points_outside_the_repository() -> None:
    found: list[str] = []
    for path in _tracked():
        if path.suffix in {".bin", ".png", ".svg"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            m = OUTSIDE.search(line)
            if m:
                found.append(f"{path.relative_to(ROOT)}:{number}: {m.group(0)!r}")
    assert not found, "paths that leave the repository:\n" + "\n".join(found[:50])
