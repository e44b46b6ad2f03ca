"""Where the corpus and schemas live (next to the package in a wheel, at the top of a checkout), and this
machine's own paths, written relative in what a run records (:func:`unlocalize`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    bundled = _PACKAGE / "_data" / name
    if bundled.is_dir():
        return bundled
    checkout = _PACKAGE.parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"toolwire cannot find its {name}/ directory (looked in {bundled} and {checkout})"
    )


def corpus_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The corpus to use: `override` (``--corpus DIR``) if given, else the bundled one."""
    if override is not None:
        return Path(override).resolve()
    return _data_dir("corpus")


def schemas_dir() -> Path:
    """The JSON Schemas shipped with toolwire."""
    return _data_dir("schemas")


def examples_dir() -> Path:
    """The examples shipped with toolwire (the Node.js harness ``toolwire init`` starts from)."""
    return _data_dir("examples")


def guide(name: str) -> str:
    """Where a shipped guide is (``docs/protocol.md``, ``examples/node-harness/harness.mjs``): its
    path in this installation, or the repository path when it cannot be found."""
    top, _, rest = name.partition("/")
    try:
        found = _data_dir(top) / rest
    except FileNotFoundError:
        return name
    return str(found) if found.exists() else name


def _local_paths() -> list[tuple[str, str]]:
    """This machine's directories that texts may name, each with what stands for it."""
    out: list[tuple[str, str]] = []
    for raw, label in (
        (Path.cwd(), "."),
        (sys.prefix, "<prefix>"),
        (sys.base_prefix, "<python>"),
        (sys.exec_prefix, "<prefix>"),
        (Path.home(), "~"),
    ):
        text = str(Path(raw).resolve())
        if len(text) > 1 and all(text != t for t, _ in out):
            out.append((text, label))
    # the longest first, so /repo/.venv becomes <prefix> rather than ./.venv
    return sorted(out, key=lambda item: -len(item[0]))


def unlocalize(text: str) -> str:
    """``text`` with this machine's paths written relative: the current directory ``.``, the Python
    environment ``<prefix>``, its base installation ``<python>``, the home directory ``~`` (what a run
    records then reads the same wherever the checkout lives)."""
    for prefix, label in _local_paths():
        text = text.replace(prefix, label)
    return text
