"""The dialects the reference translates, each its package's ``DIALECT``, in one fixed order: ``canonical``
(the hub every translation goes through), then the provider dialects, OpenAI's two first (the order of the
reference's error messages and of ``NAMES``). A new dialect is one package in ``dialects/`` and one line
here. (``text``, decode-only, has no codecs of its own: ``toolwire_reference.text``.) Each dialect's rules
are also enrolled in ``roster``, where ``calls``, ``signatures`` and ``streams.base`` (which the dialects
import, so they cannot import this module) read them at call time."""

from __future__ import annotations

from . import roster
from .dialect import Dialect
from .dialects import anthropic, bedrock_converse, canonical, gemini, mistral, openai_chat, openai_responses

DIALECTS: tuple[Dialect, ...] = (
    canonical.DIALECT,
    openai_chat.DIALECT,
    openai_responses.DIALECT,
    anthropic.DIALECT,
    gemini.DIALECT,
    bedrock_converse.DIALECT,
    mistral.DIALECT,
)
#: the dialects' names, in the registry's order
NAMES: tuple[str, ...] = tuple(d.name for d in DIALECTS)
BY_NAME: dict[str, Dialect] = {d.name: d for d in DIALECTS}
for _dialect in DIALECTS:  # what the shared modules the dialects import read of them (``roster``)
    roster.enrol(_dialect.rules)


def lookup(name: str, role: str) -> Dialect:
    """The dialect called ``name``; ``ValueError`` naming its ``role`` (source, target) when there is none."""
    try:
        return BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown {role} dialect {name!r}; dialects: {', '.join(NAMES)}") from None
