"""``toolwire init``: the starting point of a project that tests its translator with toolwire.

    toolwire init [DIR] [--language python|node] [--name NAME] [--install SPEC] [--force]

Writes, in DIR (default: the current directory), the files below; one that exists is kept (``--force``
overwrites it):

- the adapter: ``toolwire_adapter.py`` (a :class:`toolwire.protocol.Translator` to fill in) or, for
  ``--language node``, ``toolwire-harness.mjs`` (a complete ``cmd:`` harness to adapt: docs/protocol.md);
- ``toolwire-expectations.toml``: the known failures, empty;
- ``tests/test_toolwire.py``: a :class:`toolwire.testing.ToolwireSuite` subclass naming both, so plain
  ``pytest`` runs the corpus beside the project's tests;
- ``.github/workflows/toolwire.yml``: a CI job that runs it, keeps the report and fails on a new failure
  only (a listed one is expected). It installs toolwire as this one was installed (:func:`requirement`):
  from its git repository at this commit, from the URL of its wheel, or the released version from an
  index; never a bare ``toolwire``, which may name someone else's package. When no machine but this one
  can reach it (a checkout without a remote), the install step stops the job saying so, and ``--install``
  names the requirement.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path

from . import paths
from .install_source import requirement

__all__ = ["files_for", "main"]


PYTHON_ADAPTER = '''\
"""The adapter toolwire drives: what {name} translates, and how (toolwire.protocol.Translator)."""


class Refusal(Exception):
    """Raise it when the input cannot be translated: toolwire judges it as a refusal."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.path = code, message, path


class Translator:
    def capabilities(self) -> dict:
        return {{
            "name": "{name}",
            "version": "0.1.0",
            "language": "python",
            # TODO: the (source, target) pairs you translate, per kind (tools, tool_choice, request,
            # response, stream); every other check is skipped as not applicable, never failed
            "kinds": {{"tools": [["openai-chat", "anthropic"]]}},
            # the policies you implement (corpus/profiles.json); a key left out supports its default only
            "profiles": {{}},
            "error_codes": "own",
        }}

    def translate(self, kind: str, source: str, target: str, payload, profile: dict):
        # TODO: call your translator here and return its output for `target`
        raise NotImplementedError(f"toolwire_adapter.py: translate {{kind}} {{source}} -> {{target}}")

    def translate_stream(self, source: str, target: str, events: list, profile: dict) -> list:
        raise NotImplementedError("toolwire_adapter.py: streams")
'''

SUITE = '''\
"""The toolwire corpus against {name}: one test per check, beside the project's other tests.

    pytest tests/test_toolwire.py -n auto          # -k / -m select checks, e.g. -m toolwire_must

Known failures are listed in toolwire-expectations.toml (xfailed); refresh it after a run with
    toolwire expectations update --from reports/{name}.results.jsonl
and read the report with
    toolwire report reports/{name}.results.jsonl -o reports/{name}.md
"""

from toolwire.testing import ToolwireSuite


class Test{cls}(ToolwireSuite):
{adapter}
    expectations = "../toolwire-expectations.toml"
    results = "../reports/{name}.results.jsonl"
'''

EXPECTATIONS = """\
# Known failures of {name}: checks that fail today, each with why. A listed check that fails is expected
# (xfailed); one that passes is stale (xpassed). `toolwire expectations update --from
# reports/{name}.results.jsonl` adds the failures of a run and drops the entries that now pass.
#
# [[known-failure]]
# case = "tools/strict-nested-objects"        # the case id (corpus/cases/<area>/<slug>.json)
# pair = "openai-chat>anthropic"               # optional: one source>target pair
# profile = {{ "openai.strict" = "as-is" }}     # optional: one profile
# reason = "we do not resolve $ref yet"
# issue = "https://github.com/you/{name}/issues/1"
"""

WORKFLOW = """\
# Runs the toolwire corpus against {name} on every push and pull request (written by `toolwire init`).
# A check listed in toolwire-expectations.toml may fail; any other failure, or a crash, fails the job.
# The report (Markdown and results) is kept as an artifact, failing or not.
# {install_note}
# (`toolwire init --install SPEC --force` writes another requirement, e.g. toolwire @ git+<URL>@<commit>).
name: toolwire
on: [push, pull_request]
jobs:
  toolwire:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"{node}
      - name: Install
        run: {install_command}
      - name: Run the corpus
        run: python -m pytest tests/test_toolwire.py -n auto -p no:cacheprovider --junitxml reports/junit.xml
      - name: Report
        if: always()
        run: toolwire report reports/{name}.results.jsonl -o reports/{name}.md
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: toolwire-report
          path: reports/
"""

NODE_SETUP = """
      - uses: actions/setup-node@v4
        with:
          node-version: "20\""""


#: the install step when no other machine can install this toolwire: it stops the job and says why
UNKNOWN_INSTALL = (
    "echo 'toolwire init could not tell how another machine installs toolwire ({why}) - replace "
    "TOOLWIRE_REQUIREMENT on this line and remove this echo, or run toolwire init --install SPEC --force' "
    ">&2; exit 1; {install}"
)


def _install_command(install: str | None, why: str, has_project: bool) -> str:
    spec = "TOOLWIRE_REQUIREMENT" if install is None else install if " " not in install else f'"{install}"'
    command = f"python -m pip install {spec} pytest-xdist{' -e .' if has_project else ''}"
    if install is None:
        # a plain YAML scalar and a single-quoted shell word: no quote, colon or hash in it
        return UNKNOWN_INSTALL.format(why=re.sub(r"[^\w ./,()@-]+", " ", why).strip(), install=command)
    return command


def _node_harness(name: str) -> str:
    """The example Node harness, named ``name`` (its capabilities, its log lines, its run line)."""
    text = (paths.examples_dir() / "node-harness" / "harness.mjs").read_text(encoding="utf-8")
    for old, new in (
        ('name: "node-example"', f"name: {json.dumps(name)}"),
        ("`node-example: ", f"`{name.replace('`', '')}: "),
        ('"cmd:node examples/node-harness/harness.mjs"', '"cmd:node toolwire-harness.mjs"'),
    ):
        if old not in text:
            raise RuntimeError(f"the example harness no longer holds {old!r}: update toolwire init")
        text = text.replace(old, new)
    return text


def files_for(root: Path, *, name: str, language: str, install: str | None, why: str = "") -> dict[Path, str]:
    """The files ``toolwire init`` writes in ``root``, by path."""
    cls = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", name) if part) or "Translator"
    if language == "node":
        adapter_file = root / "toolwire-harness.mjs"
        adapter_text = _node_harness(name)
        adapter = '    adapter = "cmd:node toolwire-harness.mjs"\n    adapter_cwd = ".."  # where it starts'
    else:
        adapter_file = root / "toolwire_adapter.py"
        adapter_text = PYTHON_ADAPTER.format(name=name)
        adapter = '    adapter = "python:toolwire_adapter:Translator"'
    has_project = (root / "pyproject.toml").is_file() or (root / "setup.py").is_file()
    return {
        adapter_file: adapter_text,
        root / "toolwire-expectations.toml": EXPECTATIONS.format(name=name),
        root / "tests" / "test_toolwire.py": SUITE.format(name=name, cls=cls, adapter=adapter),
        root / ".github" / "workflows" / "toolwire.yml": WORKFLOW.format(
            name=name,
            install_note=f"toolwire is installed as `{install}`: {why}."
            if install
            else f"toolwire init could not tell how to install toolwire here ({why}).",
            install_command=_install_command(install, why, has_project),
            node=NODE_SETUP if language == "node" else "",
        ),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``toolwire init``: writes the files that do not exist yet (all of them with ``--force``)."""
    parser = argparse.ArgumentParser(
        prog="toolwire init",
        description="Write the starting point for testing a translator with toolwire: an adapter to fill in, "
        "an empty known-failures file, a pytest suite class and a CI workflow.",
    )
    parser.add_argument("directory", nargs="?", default=".", help="where (default: the current directory)")
    parser.add_argument(
        "--language",
        choices=("python", "node"),
        default="python",
        help="the adapter: a Python class (python:) or a Node.js process speaking the protocol (cmd:)",
    )
    parser.add_argument("--name", default=None, help="the translator's name (default: the directory's)")
    parser.add_argument(
        "--install",
        default=None,
        metavar="SPEC",
        help="how the CI job installs toolwire, a pip requirement such as 'toolwire @ git+https://…' "
        "(default: as this toolwire was installed, when another machine can do the same)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite the files that exist (default: kept)")
    args = parser.parse_args(argv)
    root = Path(args.directory).resolve()
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", args.name or root.name).strip("-.") or "my-translator"
    install, why = (args.install, "given with --install") if args.install else requirement()
    files = files_for(root, name=name, language=args.language, install=install, why=why)
    for path, text in files.items():
        if path.exists() and not args.force:
            print(f"kept {path} (it exists; --force overwrites it)")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    if install is None:
        print(
            f"warning: the CI workflow cannot install toolwire ({why}): its install step stops the job until "
            "you write the requirement there, or run again with --install SPEC --force"
        )
    else:
        print(f"the CI workflow installs toolwire as {install!r} ({why})")
    print(
        f"next: fill in {next(iter(files)).name}, then run `pytest tests/test_toolwire.py` "
        f"(or `toolwire run --adapter ...`)"
    )
    return 0
