"""The reference's static import graph: imports run one way (no cycles among its modules), never reach the
harness (``toolwire``), and sit at the top of their modules, except the function-level imports listed here
with their reason."""

from __future__ import annotations

import ast
from pathlib import Path

import toolwire_reference

ROOT = Path(toolwire_reference.__file__).parent
PACKAGE = "toolwire_reference"

#: (module, imported top-level package) -> why it is imported inside a function
FUNCTION_LEVEL: dict[tuple[str, str], str] = {
    (f"{PACKAGE}.serve", "aiohttp"): "the proxy's one dependency outside the standard library: imported when "
    "the proxy is built or started, so the translator (and `toolwire serve --help`) works without it",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    package = module.split(".")
    if path.name != "__init__.py":
        package.pop()
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str) -> list[tuple[str, bool]]:
    """(imported module, at function level) for each import of ``module``; ``from X import name`` of a
    submodule ``X.name`` imports that submodule."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                found.extend((alias.name, nested) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(module, path, child)
                for alias in child.names:
                    sub = f"{target}.{alias.name}"
                    found.append((sub if sub in MODULES else target, nested))
            visit(child, inner)

    visit(tree, False)
    return found


GRAPH = {module: imports(module) for module in MODULES}


def test_the_graph_sees_the_dialect_packages() -> None:
    assert f"{PACKAGE}.dialects.anthropic.request" in MODULES
    assert (f"{PACKAGE}.dialects.anthropic.rules", False) in GRAPH[f"{PACKAGE}.dialects.anthropic.request"]


def test_the_reference_never_imports_the_harness() -> None:
    offenders = sorted(
        module
        for module, edges in GRAPH.items()
        if any(name.split(".")[0] == "toolwire" for name, _ in edges)
    )
    assert offenders == [], f"reference modules importing toolwire (the harness): {offenders}"


def test_imports_sit_at_module_level_unless_listed() -> None:
    hidden = sorted(
        (module, name)
        for module, edges in GRAPH.items()
        for name, nested in edges
        if nested and (module, name.split(".")[0]) not in FUNCTION_LEVEL
    )
    assert hidden == [], f"imports inside functions (move them up, or list them with a reason): {hidden}"


def test_listed_function_level_imports_are_still_there() -> None:
    present = {
        (module, name.split(".")[0]) for module, edges in GRAPH.items() for name, nested in edges if nested
    }
    assert set(FUNCTION_LEVEL) <= present, set(FUNCTION_LEVEL) - present


def test_no_import_cycles() -> None:
    """Depth-first over the package's own modules; a module reached again while it is being visited closes
    a cycle, which the message spells out."""
    internal = {
        module: sorted({name for name, _ in edges if name in MODULES and name != module})
        for module, edges in GRAPH.items()
    }
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for name in internal[module]:
            if state.get(name) == 1:
                cycles.append(stack[stack.index(name) :] + [name])
            elif name not in state:
                visit(name)
        stack.pop()
        state[module] = 2

    for module in sorted(internal):
        if module not in state:
            visit(module)
    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)
