"""Where the corpus and schemas live: next to the package in a wheel, at the top of a checkout."""

from __future__ import annotations

import os
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
