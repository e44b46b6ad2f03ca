"""The stream dialects by name: each one's grammar, accumulator and re-chunker (``streams/<dialect>/``, side
by side), and the lookups the harness uses (:func:`check_stream`, :func:`accumulate`, :func:`fragments`,
:func:`rechunk`)."""

from __future__ import annotations

from typing import Any

from . import anthropic, bedrock_converse, canonical, gemini, mistral, openai_chat, openai_responses
from .accumulate import Accumulator, Fragment
from .grammar import Grammar, GrammarViolation, Violation
from .payload import StreamError
from .rechunk import Rechunker, rechunk_with

__all__ = [
    "ACCUMULATORS",
    "DIALECTS",
    "GRAMMARS",
    "RECHUNKERS",
    "accumulate",
    "check_stream",
    "fragments",
    "grammar_for",
    "rechunk",
]

_PACKAGES = (anthropic, bedrock_converse, canonical, gemini, mistral, openai_chat, openai_responses)
#: each dialect's grammar class, by dialect name
GRAMMARS: dict[str, type[Grammar]] = {p.GRAMMAR.dialect: p.GRAMMAR for p in _PACKAGES}
#: each dialect's accumulator class, by dialect name
ACCUMULATORS: dict[str, type[Accumulator]] = {p.ACCUMULATOR.dialect: p.ACCUMULATOR for p in _PACKAGES}
#: each dialect's re-chunker, by dialect name
RECHUNKERS: dict[str, Rechunker] = {p.GRAMMAR.dialect: p.RECHUNKER for p in _PACKAGES}
#: the dialects with a stream grammar and accumulator
DIALECTS = tuple(sorted(GRAMMARS))


def grammar_for(dialect: str) -> Grammar:
    """A fresh grammar for ``dialect``; KeyError for an unknown dialect."""
    return GRAMMARS[dialect]()


def check_stream(events: Any, dialect: str) -> list[Violation]:
    """The rules of ``dialect``'s grammar that ``events`` break, each at its first violation, in the order
    they were found ([] when the stream is valid). A rule that leaves the stream readable (``Grammar.note``:
    a chunk's id, an event's name) does not stop the check, so it never hides another bug (wrong chunk ids
    and wrong tool-call indexes are two); the first rule that does stops it, as what follows it would only
    repeat it."""
    grammar = grammar_for(dialect)
    if not isinstance(events, list):
        return [Violation(None, f"{dialect}.stream-shape", "a stream is a list of events")]
    found: dict[str, Violation] = {}

    def step(call: Any) -> bool:
        """Run one grammar step; record what it broke; whether checking goes on."""
        try:
            call()
            going = True
        except GrammarViolation as exc:
            grammar.noted.append(exc.violation)
            going = False
        for violation in grammar.noted:
            found.setdefault(violation.rule, violation)
        grammar.noted.clear()
        return going

    if all(step(lambda i=i, e=e: grammar.event(i, e)) for i, e in enumerate(events)):
        step(lambda: grammar.end(len(events)))
    return list(found.values())


def accumulate(events: Any, dialect: str) -> Any:
    """The non-streaming response body ``events`` accumulate to (raises :class:`StreamError`)."""
    if not isinstance(events, list):
        raise StreamError("stream.invalid_event", "a stream is a list of events")
    acc = ACCUMULATORS[dialect]()
    for event in events:
        acc.feed(event)
    return acc.result()


def fragments(events: list[Any], dialect: str) -> list[list[Fragment]]:
    """The content fragments of each event (tolerant: stops quietly at an unreadable event)."""
    acc = ACCUMULATORS[dialect]()
    out: list[list[Fragment]] = []
    for event in events:
        try:
            out.append(acc.feed(event))
        except StreamError:
            out.append([])
    return out


def rechunk(events: list[Any], dialect: str, strategy: str) -> list[Any]:
    """``events`` of ``dialect`` with their fragments re-cut by ``strategy`` (:mod:`.rechunk`)."""
    return rechunk_with(events, RECHUNKERS[dialect], strategy)
