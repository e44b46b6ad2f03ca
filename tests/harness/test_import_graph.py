"""The harness judges the reference like any other translator: no harness module imports it, except the
reference's own tools that still live in the harness (``toolwire serve`` and ``toolwire translate``)."""

from __future__ import annotations

import ast
from pathlib import Path

import toolwire

#: the reference's proxy and command, which the harness's CLI dispatches to
REFERENCE_TOOLS = {"serve.py", "translate_cmd.py"}


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
        if path.name not in REFERENCE_TOOLS
        and any(name.split(".")[0] == "toolwire_reference" for name in imported_modules(path))
    ]
    assert offenders == [], f"harness modules importing toolwire_reference: {offenders}"
