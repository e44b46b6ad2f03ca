"""The harness-facing Translator (``toolwire.protocol.Translator``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .rules import KIND_PAIRS, KINDS, PROFILE_VALUES
from .transcode import translate_stream
from .translate import translate
from .version import __version__


class Translator:
    """toolwire's reference translator, for ``toolwire run --adapter reference``."""

    def capabilities(self) -> dict:
        return {
            "name": "toolwire-reference",
            "version": __version__,
            "language": "python",
            "kinds": {kind: [list(p) for p in KIND_PAIRS.get(kind, (("*", "*"),))] for kind in KINDS},
            "profiles": {key: list(values) for key, values in PROFILE_VALUES.items()},
            "error_codes": "toolwire",
            "validates_input": True,
        }

    def translate(
        self, kind: str, source: str, target: str, payload: Any, profile: Mapping[str, str] | None
    ) -> Any:
        return translate(kind, payload, source=source, target=target, profile=profile)

    def translate_stream(
        self, source: str, target: str, events: Iterable[Any], profile: Mapping[str, str] | None
    ):
        """A lazy iterator of output events (``toolwire_reference.translate_stream``)."""
        return translate_stream(events, source=source, target=target, profile=profile)
