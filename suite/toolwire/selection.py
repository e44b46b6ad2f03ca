"""``-k`` and ``-m`` expressions, as pytest reads them: ``tools/ and not gemini``, ``(choice or stream)
and must``; ``toolwire_must or toolwire_should``.

In ``-k``, a bare word matches a check when it is a case-insensitive substring of one of the check's names:
its id (``<case id>[<source>><target>,k=v]``), ``toolwire``, or one of its markers (``toolwire_must``,
``toolwire_tools``, ``toolwire_round_trip``). In ``-m``, a word is a marker name, matched exactly.
``toolwire run`` selects with these without starting pytest; under pytest, pytest's own ``-k`` and ``-m``
give the same selection (pytest takes no ``>``, ``,`` or ``=`` in a word).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = ["SelectionError", "compile_keyword", "compile_markers"]

_TOKEN = re.compile(r"\s*(?:(\()|(\))|([\w:+\-.\[\]\\/=,>]+))")


class SelectionError(ValueError):
    """The expression cannot be parsed; the message says where."""


def compile_markers(expression: str) -> Callable[[Iterable[str]], bool]:
    """A predicate over a check's marker names that says whether the ``-m`` ``expression`` selects it."""
    return compile_keyword(expression, flag="-m")


def compile_keyword(expression: str, *, flag: str = "-k") -> Callable[[Iterable[str]], bool]:
    """A predicate over a check's names that says whether ``expression`` selects it (``flag="-m"``: words
    are whole marker names)."""
    tokens = _tokens(expression, flag)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def either() -> Callable[[list[str]], bool]:
        parts = [both()]
        while peek() == "or":
            take()
            parts.append(both())
        return parts[0] if len(parts) == 1 else lambda names: any(p(names) for p in parts)

    def both() -> Callable[[list[str]], bool]:
        parts = [negated()]
        while peek() == "and":
            take()
            parts.append(negated())
        return parts[0] if len(parts) == 1 else lambda names: all(p(names) for p in parts)

    def negated() -> Callable[[list[str]], bool]:
        if peek() == "not":
            take()
            inner = negated()
            return lambda names: not inner(names)
        return atom()

    def atom() -> Callable[[list[str]], bool]:
        token = peek()
        if token is None:
            raise SelectionError(f"{flag} {expression!r}: expected a word or '(' at the end")
        take()
        if token == "(":
            inner = either()
            if peek() != ")":
                raise SelectionError(f"{flag} {expression!r}: expected ')'")
            take()
            return inner
        if token in (")", "and", "or", "not"):
            raise SelectionError(f"{flag} {expression!r}: unexpected {token!r}")
        word = token.lower()
        if flag == "-m":
            return lambda names: word in names
        return lambda names: any(word in name for name in names)

    if not tokens:
        return lambda names: True
    matcher = either()
    if pos != len(tokens):
        raise SelectionError(f"{flag} {expression!r}: unexpected {tokens[pos]!r}")
    return lambda names: matcher([name.lower() for name in names])


def _tokens(expression: str, flag: str) -> list[str]:
    out: list[str] = []
    at = 0
    while at < len(expression):
        if expression[at:].strip() == "":
            break
        found = _TOKEN.match(expression, at)
        if found is None:
            raise SelectionError(f"{flag} {expression!r}: unexpected character at column {at + 1}")
        out.append(found.group(1) or found.group(2) or found.group(3))
        at = found.end()
    return out
