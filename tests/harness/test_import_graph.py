"""The harness's static import graph (every ``import`` in every module, also those inside functions and
``TYPE_CHECKING`` blocks): no cycles between modules, each part imports only the parts below it (the
layout in ``toolwire/__init__.py`` and docs/architecture.md), and no module imports the reference: the
harness judges the reference like any other translator, naming it only as an adapter spec."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
import toolwire
from toolwire import cli

ROOT = Path(toolwire.__file__).parent

#: the foundation every part may import: the package itself, paths, JSON values, the Translator protocol,
#: the dialect descriptors and the providers' endpoints and HTTP error statuses read from them, the tool names
#: a tool-choice fragment refers to, how this toolwire was installed
FOUNDATION = {
    "toolwire",
    "toolwire.paths",
    "toolwire.jsonvalue",
    "toolwire.protocol",
    "toolwire.descriptors",
    "toolwire.endpoints",
    "toolwire.http_errors",
    "toolwire.tool_names",
    "toolwire.install_source",
}
#: each part (a subpackage) and the parts it may import besides itself and the foundation; a module at
#: the top (the runner, the pytest plugin, the CLI and its commands) may import any part
MAY_IMPORT: dict[str, set[str]] = {
    "streams": set(),
    "corpus": {"streams"},
    "peers": {"streams"},
    "adapters": {"corpus", "peers", "streams"},
    "judge": {"adapters", "corpus", "streams"},
    "results": {"judge", "corpus"},
    "reports": {"results", "corpus"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports(module: str) -> set[str]:
    """Every module ``module`` imports (absolute names; for a harness module, the module itself, not the
    package a name comes from)."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                found.add(sub if sub in modules() else origin)
    return found


def harness_imports(module: str) -> set[str]:
    """The harness modules ``module`` imports."""
    out = set()
    for name in imports(module):
        while name and name not in modules():
            name = name.rpartition(".")[0]
        if name and name != module:
            out.add(name)
    return out


def part_of(module: str) -> str | None:
    """The part a module belongs to (``corpus``, ``judge`` …; ``results``), None for the foundation, and
    ``top`` for the modules that may import anything."""
    if module in FOUNDATION:
        return None
    name = module.split(".")[1]
    return name if name in MAY_IMPORT else "top"


def test_the_graph_is_read() -> None:
    assert "toolwire.corpus.load" in modules()
    assert "toolwire.corpus.load" in harness_imports("toolwire.corpus")
    assert "toolwire.corpus.wire" in harness_imports("toolwire.judge.checks")


def test_no_import_cycles() -> None:
    graph = {m: harness_imports(m) for m in modules()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("part", sorted(MAY_IMPORT))
def test_each_part_imports_only_the_parts_below_it(part: str) -> None:
    allowed = MAY_IMPORT[part] | {part, None}
    wrong = sorted(
        f"{module} imports {target}"
        for module in modules()
        if part_of(module) == part
        for target in harness_imports(module)
        if part_of(target) not in allowed
    )
    assert wrong == []


def test_the_foundation_imports_no_part() -> None:
    wrong = sorted(f"{m} imports {t}" for m in FOUNDATION for t in harness_imports(m) if t not in FOUNDATION)
    assert wrong == []


def test_no_harness_module_imports_the_reference() -> None:
    offenders = sorted(
        module
        for module in modules()
        if any(name.split(".")[0] == "toolwire_reference" for name in imports(module))
    )
    assert offenders == [], f"harness modules importing toolwire_reference: {offenders}"


@pytest.mark.parametrize("command", ["translate", "serve"])
def test_the_reference_tools_say_so_when_the_reference_is_missing(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `toolwire translate` and `toolwire serve` are the reference's; the CLI names their module as a string
    module = cli.DELEGATED[command][0]

    def not_installed(name: str) -> None:
        raise ModuleNotFoundError(f"No module named {name.split('.')[0]!r}", name=name.split(".")[0])

    monkeypatch.setattr(cli.importlib, "import_module", not_installed)
    assert cli.main([command, "--help"]) == 2
    assert f"toolwire: '{command}' is not available ({module} is missing)" in capsys.readouterr().err
