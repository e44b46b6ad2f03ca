"""Where a corpus reference points, and whether it resolves.

A reference (a case's ``refs``, a descriptor's ``sources``, a profile's ``refs``, a path named in the corpus's
Markdown) is either a public URL (``http://`` or ``https://``) or a path inside the repository: ``corpus/…``
(resolved against the corpus directory, wherever it is installed), ``schemas/…`` (against the schemas
directory) or another path from the top of the checkout. A path may carry a ``#fragment``: for a Markdown
file it names a heading (its GitHub anchor, or the heading's text), for a JSON file a top-level member or a
JSON Pointer. Nothing may point outside the repository: a user's clone has nothing beside it.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from .matchers import lookup

__all__ = ["anchor", "heading_anchors", "problem", "ref_lists", "repository_paths"]

_URL = re.compile(r"^https?://[^\s/]+\.[^\s/]+\S*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
#: keys whose list of strings holds references (cases, profiles: ``refs``; descriptors: ``sources``)
REF_KEYS = ("refs", "sources")
#: a repository path named in prose: ``corpus/…``, ``schemas/…``, ``docs/…``, ``examples/…``
_PROSE_PATH = re.compile(r"(?<![\w./-])((?:corpus|schemas|docs|examples)/[\w./-]*[\w/])")


def anchor(heading: str) -> str:
    """The GitHub anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


@lru_cache(maxsize=64)
def heading_anchors(path: Path) -> frozenset[str]:
    """Every fragment that names a heading of the Markdown file at ``path``: its anchors (a repeated
    heading gets ``-1``, ``-2`` … as on GitHub) and the headings' own text."""
    seen: dict[str, int] = {}
    names: set[str] = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        m = None if in_code else _HEADING.match(line)
        if m is None:
            continue
        text = m.group(2)
        slug = anchor(text)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        names.update((slug if n == 0 else f"{slug}-{n}", text))
    return frozenset(names)


def _target(path: str, corpus_root: Path, schemas_root: Path | None) -> Path:
    head, _, rest = path.partition("/")
    if head == "corpus":
        return corpus_root / rest
    if head == "schemas" and schemas_root is not None:
        return schemas_root / rest
    return corpus_root.parent / path


def problem(ref: str, corpus_root: Path, schemas_root: Path | None = None) -> str | None:
    """Why ``ref`` does not resolve, or None when it does (a URL, or an existing repository path whose
    fragment names a heading or member)."""
    if not isinstance(ref, str) or not ref.strip():
        return "a reference must be a non-empty string"
    if ref != ref.strip():
        return f"{ref!r} has leading or trailing white space"
    if re.match(r"^[a-z][a-z0-9+.-]*://", ref, re.I):
        return None if _URL.match(ref) else f"{ref!r} is not an http(s) URL"
    path, _, fragment = ref.partition("#")
    if path.startswith(("/", "~")) or ".." in Path(path).parts:
        return f"{ref!r} leaves the repository (use a path from its top, or a public URL)"
    target = _target(path, corpus_root, schemas_root)
    if not target.exists():
        return f"{path!r} does not exist in the repository (a reference is a URL or a path that exists)"
    if not fragment:
        return None
    if target.suffix == ".md":
        if fragment not in heading_anchors(target):
            return f"{path!r} has no heading {fragment!r}"
    elif target.suffix == ".json":
        try:
            doc = json.loads(target.read_text(encoding="utf-8"))
        except ValueError:
            return f"{path!r} is not JSON, so #{fragment} cannot be looked up"
        if not _json_has(doc, fragment):
            return f"{path!r} has no member {fragment!r}"
    return None


def _json_has(doc: Any, fragment: str) -> bool:
    if not fragment.startswith("/"):
        return isinstance(doc, dict) and fragment in doc
    return lookup(doc, fragment)[0]


def ref_lists(node: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """(JSON Pointer, reference) for every string in a ``refs`` or ``sources`` list anywhere in ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            where = f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"
            if key in REF_KEYS and isinstance(value, list):
                for i, item in enumerate(value):
                    yield f"{where}/{i}", item
            else:
                yield from ref_lists(value, where)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from ref_lists(item, f"{pointer}/{i}")


def repository_paths(text: str, folder: str) -> Iterator[tuple[int, str]]:
    """(line number, reference) for every repository path a Markdown text names: link targets that are not
    URLs (relative to ``folder``, the file's folder from the top of the repository, as Markdown reads them),
    and ``corpus/…``, ``schemas/…``, ``docs/…`` or ``examples/…`` written in the prose."""
    in_code = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for m in re.finditer(r"\]\(([^)\s]+)\)", line):
            target = m.group(1)
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("#"):
                path, sep, fragment = target.partition("#")
                yield number, posixpath.normpath(posixpath.join(folder, path)) + sep + fragment
        for m in _PROSE_PATH.finditer(line):
            yield number, m.group(1).rstrip(".")
