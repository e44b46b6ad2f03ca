"""What an implementation declares, checked against the corpus: a misspelt kind, dialect, profile key or
value is an error naming it and the closest valid one, never a silently empty run (INTERPRETING.md,
"Capabilities")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from ..protocol import DOCUMENTED_DROPS, LIBRARY_OBJECTS
from .load import Corpus

__all__ = [
    "DOCUMENTED_DROPS",
    "ERROR_CODES",
    "KINDS",
    "LIBRARY_OBJECTS",
    "VALIDATES_INPUT",
    "closest_hint",
    "documented_drops",
    "hands_library_objects",
    "problems",
    "speaks_toolwire_codes",
    "validates_input",
]

#: the kinds of translation (schemas/common.schema.json)
KINDS = ("tools", "tool_choice", "request", "response", "stream", "text")

#: the capability that says the implementation refuses with toolwire's error codes (corpus/errors.json)
ERROR_CODES = "error_codes"

#: the capability that says the implementation checks its input and refuses what is invalid in its own dialect
#: (INTERPRETING.md, "Error expectations"): only then is it judged on refusing such input
VALIDATES_INPUT = "validates_input"


def closest_hint(word: str, choices: Iterable[str], suffix: str = "") -> str:
    """`` (did you mean 'X'?)`` for the closest of ``choices`` to a misspelt ``word`` (``suffix`` after it),
    or nothing when none is close."""
    choices = list(choices)
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    if not found:
        found = [c for c in choices if c.lower() == word.lower()]
    return f" (did you mean {found[0] + suffix!r}?)" if found else ""


def problems(capabilities: dict[str, Any], corpus: Corpus) -> list[str]:
    """Every entry of ``capabilities`` that names nothing in ``corpus``: unknown kinds, dialects in pairs,
    profile keys and values, an ``error_codes`` that is not ``"toolwire"``/``"own"``, a ``validates_input``
    or ``library_objects`` that is not a boolean, a ``documented_drops`` entry that is not a request member
    toward a known dialect with a link to where the implementation documents the drop."""
    out: list[str] = []
    named = {c.source_dialect for c in corpus.cases}
    named |= {str(e.get("dialect")) for c in corpus.cases for e in c.expect}
    dialects = sorted(set(corpus.dialects) | {"canonical"} | named)
    for kind, pairs in (capabilities.get("kinds") or {}).items():
        if kind not in KINDS:
            out.append(f"unknown kind {kind!r}{closest_hint(kind, KINDS)}; kinds are {', '.join(KINDS)}")
        for pair in pairs:
            for dialect in pair:
                if dialect != "*" and dialect not in dialects:
                    out.append(
                        f"kinds[{kind!r}]: unknown dialect {dialect!r} in {list(pair)}"
                        f"{closest_hint(dialect, dialects)}; dialects are {', '.join(dialects)}"
                    )
    for key, values in (capabilities.get("profiles") or {}).items():
        spec = corpus.profiles.get(key)
        if not isinstance(spec, dict):
            hint = closest_hint(key, corpus.profiles)
            out.append(f"unknown profile key {key!r}{hint} (corpus/profiles.json)")
            continue
        known = list(spec.get("values") or {})
        for value in values:
            if value != "*" and value not in known:
                out.append(
                    f"profiles[{key!r}]: unknown value {value!r}{closest_hint(value, known)}; "
                    f"values are {', '.join(known)}"
                )
    codes = capabilities.get(ERROR_CODES, "own")
    if codes not in ("toolwire", "own"):
        out.append(f"{ERROR_CODES} is {codes!r}: 'toolwire' (codes of corpus/errors.json) or 'own'")
    validates = capabilities.get(VALIDATES_INPUT, False)
    if not isinstance(validates, bool):
        out.append(f"{VALIDATES_INPUT} is {validates!r}: true (it refuses invalid input) or false (default)")
    out += _drop_problems(capabilities.get(DOCUMENTED_DROPS, []), dialects)
    objects = capabilities.get(LIBRARY_OBJECTS, False)
    if not isinstance(objects, bool):
        out.append(f"{LIBRARY_OBJECTS} is {objects!r}: true (it returns its own objects) or false (default)")
    return out


def _drop_problems(drops: Any, dialects: list[str]) -> list[str]:
    """What is wrong with a ``documented_drops`` list (see :data:`DOCUMENTED_DROPS`)."""
    if not isinstance(drops, list):
        return [f"{DOCUMENTED_DROPS} is {drops!r}: a list of {{kind, target, member, ref}} objects"]
    out: list[str] = []
    for i, drop in enumerate(drops):
        where = f"{DOCUMENTED_DROPS}[{i}]"
        if not isinstance(drop, dict) or set(drop) != {"kind", "target", "member", "ref"}:
            out.append(f"{where} is {drop!r}: an object with exactly kind, target, member and ref")
            continue
        if drop["kind"] != "request":
            out.append(f"{where}: kind {drop['kind']!r}: only 'request' members can be documented drops")
        if drop["target"] not in dialects:
            hint = closest_hint(str(drop["target"]), dialects)
            out.append(f"{where}: unknown target dialect {drop['target']!r}{hint}")
        if not isinstance(drop["member"], str) or not drop["member"] or "/" in drop["member"]:
            out.append(f"{where}: member {drop['member']!r}: the name of a top-level request member")
        if not isinstance(drop["ref"], str) or not drop["ref"].startswith(("https://", "http://")):
            out.append(f"{where}: ref {drop['ref']!r}: the URL where the implementation documents the drop")
    return out


def documented_drops(capabilities: dict[str, Any]) -> dict[tuple[str, str, str], str]:
    """The implementation's documented drops: ``(kind, target, member)`` → the URL documenting it."""
    drops = capabilities.get(DOCUMENTED_DROPS) or []
    return {
        (d["kind"], d["target"], d["member"]): d["ref"]
        for d in drops
        if isinstance(d, dict) and {"kind", "target", "member", "ref"} <= set(d)
    }


def speaks_toolwire_codes(capabilities: dict[str, Any]) -> bool:
    """True when the implementation's refusals carry toolwire's error codes, so the corpus's codes and paths
    are compared; otherwise a refusal where one is expected is right whatever it says."""
    return capabilities.get(ERROR_CODES) == "toolwire"


def validates_input(capabilities: dict[str, Any]) -> bool:
    """True when the implementation declares that it refuses input invalid in its own dialect; otherwise what
    it does with such input (refuse, forward, repair) is information, never a failure."""
    return capabilities.get(VALIDATES_INPUT) is True


def hands_library_objects(capabilities: dict[str, Any]) -> bool:
    """True when the implementation declares that its responses and streams are its own in-process objects,
    which carry none of the wire envelope (OpenAI Chat's ``id``, ``object``, ``created``, ``model``)."""
    return capabilities.get(LIBRARY_OBJECTS) is True
