"""The harness judges the reference like any other translator: no harness module imports it (statically);
the ``reference`` adapter and the ``translate`` and ``serve`` commands name it as a string."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import toolwire
from toolwire import cli


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_harness_module_imports_the_reference() -> None:
    root = Path(toolwire.__file__).parent
    offenders = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.py"))
        if any(name.split(".")[0] == "toolwire_reference" for name in imported_modules(path))
    ]
    assert offenders == [], f"harness modules importing toolwire_reference: {offenders}"


@pytest.mark.parametrize("command", ["translate", "serve"])
def test_the_reference_tools_say_so_when_the_reference_is_missing(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = cli.DELEGATED[command][0]

    def not_installed(name: str) -> None:
        raise ModuleNotFoundError(f"No module named {name.split('.')[0]!r}", name=name.split(".")[0])

    monkeypatch.setattr(cli.importlib, "import_module", not_installed)
    assert cli.main([command, "--help"]) == 2
    assert f"toolwire: '{command}' is not available ({module} is missing)" in capsys.readouterr().err
