"""Hub and spoke: decode the source dialect to the canonical model, validate once, encode the target.

Kinds ``tools`` and ``tool_choice`` use the codecs of ``dialects/<dialect>.py``; ``request`` uses
``dialects/<dialect>_request.py`` (``decode_request`` / ``encode_request``, with the conversation
reconciled in between: ``messages.reconcile``) and ``response`` ``dialects/<dialect>_response.py``
(``decode_response`` / ``encode_response``). Kind ``text`` (source dialect ``text`` only, decode-only)
goes through ``text/``: the scanner finds the calls in the text, ``text.encode`` writes the target.

Unknown kinds, dialects, profile keys or values raise ``ValueError`` (a caller's mistake, which the
harness never makes); every problem with the payload raises ``TranslationError``. A payload nesting
deeper than ``_json.MAX_DEPTH`` is refused (``payload.too_deep``) before anything walks it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import Any

from ._json import check_depth
from .dialects import CODECS
from .messages import reconcile
from .profiles import resolve_profile
from .rules import KINDS
from .text import translate_text
from .tools import translate_tools, validate_choice


@cache
def codec(dialect: str, kind: str) -> ModuleType:
    """The module of ``dialect``'s codec for ``kind`` (``request`` or ``response``), imported once."""
    return importlib.import_module(f".dialects.{dialect.replace('-', '_')}.{kind}", __package__)


def translate(
    kind: str, payload: Any, *, source: str, target: str, profile: Mapping[str, str] | None = None
) -> Any:
    """Translate ``payload`` of ``kind`` (``tools``, ``tool_choice``, ``request``, ``response``) from
    ``source`` to ``target``.

    Returns a new JSON value (the input is never modified) or raises ``TranslationError``.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    # a stream is checked event by event (streams.base.Decoder.feed); tools (between known dialects, and
    # a valid profile) in the walk over their schemas (tools.translate_tools)
    if kind != "stream" and (kind != "tools" or source not in CODECS or target not in CODECS):
        check_depth(payload)
    if kind == "text" or source == "text":  # decode-only: text -> every target (text/)
        if (kind, source) != ("text", "text"):
            raise ValueError(f"kind 'text' goes with source dialect 'text' only: {kind!r} from {source!r}")
        return translate_text(payload, target, resolve_profile(profile))
    if source not in CODECS or target not in CODECS:
        for role, dialect in (("source", source), ("target", target)):
            if dialect not in CODECS:
                raise ValueError(f"unknown {role} dialect {dialect!r}; dialects: {', '.join(CODECS)}")
    if kind == "stream":  # the whole event list at once; translate_stream is the lazy form
        from .transcode import translate_stream

        return list(translate_stream(payload, source=source, target=target, profile=profile))
    try:
        resolved = resolve_profile(profile)
    except ValueError:
        if kind == "tools":
            check_depth(payload)  # as for every other kind, the depth comes first
        raise
    if kind == "request":
        request = codec(source, kind).decode_request(payload, resolved)
        reconcile(request, resolved)
        return codec(target, kind).encode_request(request, resolved)
    if kind == "response":
        response = codec(source, kind).decode_response(payload, resolved)
        return codec(target, kind).encode_response(response, resolved)
    if kind == "tools":
        return translate_tools(payload, source, target, resolved)
    decoder, encoder = CODECS[source], CODECS[target]
    choice = decoder.decode_tool_choice(payload, resolved)
    validate_choice(choice, target)
    return encoder.encode_tool_choice(choice, resolved)
