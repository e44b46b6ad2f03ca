"""Hub and spoke: decode the source dialect to the canonical model, validate once, encode the target.

The dialects are the registry's (``registry.DIALECTS``), each a package ``dialects/<name>/``. Kinds ``tools``
and ``tool_choice`` use its ``tools`` codec; ``request`` its ``request`` codec (``decode_request`` /
``encode_request``, with the conversation reconciled in between: ``messages.reconcile``) and ``response``
its ``response`` codec (``decode_response`` / ``encode_response``); ``stream`` goes through
``transcode``. Kind ``text`` (source dialect ``text`` only, decode-only) goes through ``text/``: the
scanner finds the calls in the text, the target's ``response.encode_text`` writes them.

Unknown kinds, dialects, profile keys or values raise ``ValueError`` (a caller's mistake, which the
harness never makes); every problem with the payload raises ``TranslationError``. A payload nesting
deeper than ``_json.MAX_DEPTH`` is refused (``payload.too_deep``) before anything walks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._json import check_depth
from .messages import reconcile
from .profiles import resolve_profile
from .registry import BY_NAME, lookup
from .request import fit_settings
from .rules import KINDS
from .text import translate_text
from .tools import translate_tools, validate_choice
from .transcode import translate_stream


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
    if kind != "stream" and (kind != "tools" or source not in BY_NAME or target not in BY_NAME):
        check_depth(payload)
    if kind == "text" or source == "text":  # decode-only: text -> every target (text/)
        if (kind, source) != ("text", "text"):
            raise ValueError(f"kind 'text' goes with source dialect 'text' only: {kind!r} from {source!r}")
        return translate_text(payload, target, resolve_profile(profile))
    decoder, encoder = lookup(source, "source"), lookup(target, "target")
    if kind == "stream":  # the whole event list at once; translate_stream is the lazy form
        return list(translate_stream(payload, source=source, target=target, profile=profile))
    try:
        resolved = resolve_profile(profile)
    except ValueError:
        if kind == "tools":
            check_depth(payload)  # as for every other kind, the depth comes first
        raise
    if kind == "request":
        request = decoder.request.decode_request(payload, resolved)
        reconcile(request, resolved)
        fit_settings(request, encoder.rules, resolved)
        return encoder.request.encode_request(request, resolved)
    if kind == "response":
        response = decoder.response.decode_response(payload, resolved)
        return encoder.response.encode_response(response, resolved)
    if kind == "tools":
        return translate_tools(payload, decoder, encoder, resolved)
    choice = decoder.tools.decode_tool_choice(payload, resolved)
    validate_choice(choice, encoder.rules)
    return encoder.tools.encode_tool_choice(choice, resolved)
