"""The rules of every registered dialect, for the shared modules the dialects themselves import
(``calls``, ``signatures``, ``streams.base``), which cannot import ``registry`` (it imports the dialects):
``registry`` enrols each dialect's rules here when it is imported, and these functions read them when
called, never at import time. Imports nothing but ``rules``."""

from __future__ import annotations

from functools import cache

from .rules import DialectRules

_ENROLLED: dict[str, DialectRules] = {}


def enrol(rules: DialectRules) -> None:
    """Add a dialect's rules (``registry`` does, for each dialect it collects)."""
    _ENROLLED[rules.name] = rules
    issuers.cache_clear()
    id_prefixes.cache_clear()


@cache
def issuers() -> tuple[str, ...]:
    """The dialects whose providers issue signatures (``DialectRules.issues_signatures``), in the registry's
    order."""
    return tuple(name for name, rules in _ENROLLED.items() if rules.issues_signatures)


def issues_signatures(dialect: str) -> bool:
    """Whether ``dialect``'s provider issues signatures (False for a name not registered)."""
    return dialect in issuers()


@cache
def id_prefixes() -> tuple[str, ...]:
    """The prefixes of the providers' call ids (each dialect's ``call_id_prefix`` and
    ``other_id_prefixes``), each once, in the registry's order."""
    found: dict[str, None] = {}
    for rules in _ENROLLED.values():
        if rules.call_id_prefix:
            found[rules.call_id_prefix] = None
        found.update(dict.fromkeys(rules.other_id_prefixes))
    return tuple(found)
