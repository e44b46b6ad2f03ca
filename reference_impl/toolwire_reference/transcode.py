"""Stream translation: incremental transcoders per dialect, joined through canonical stream events.

``translate_stream(events, source=, target=, profile=)`` returns a lazy iterator: it pulls one input
event at a time and yields the output events that event made ready before pulling the next, so text
and argument fragments go out as they arrive (Gemini targets hold a call's arguments until the call is
complete, since Gemini sends calls whole). Memory is flat in the stream's length: the transcoders keep
the open blocks, not the events (an openai-responses target keeps the content it has sent, which its
``.done`` events and ``response.completed`` repeat).

Per dialect, ``dialects/<name>/stream.py`` holds a decoder (dialect events → canonical events) and an
encoder (canonical events → dialect events), found through the registry; ``streams/base.py`` what they
share and the filters between them; ``streams/text_calls.py`` the ``stream.text-calls=parse`` filter (tool
calls printed in text become tool-call blocks); ``streams/sse.py`` reads and writes SSE text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ._json import json_type
from .errors import fail
from .profiles import resolve_profile
from .registry import lookup
from .streams.base import CustomCallGuard, SignatureFilter, ThinkingFilter
from .streams.text_calls import TextCallFilter

#: Deltas that continue an open block. "Plain": exactly ``type``, ``index`` and the fragment (no
#: ``signature`` or ``signed``). Thinking is not among them: the signature filter follows its blocks.
_PLAIN_DELTAS = frozenset(("text_delta", "tool_call_delta"))


class StreamTranscoder:
    """Source events in, target events out: ``feed(event) -> events``, ``close() -> events``.

    ``close()`` raises ``TranslationError`` ``stream.truncated`` when the input ended before its
    terminal event (after everything that could be sent was sent).
    """

    def __init__(self, source: str, target: str, profile: Mapping[str, str] | None = None) -> None:
        decoding, encoding = lookup(source, "source"), lookup(target, "target")
        resolved = resolve_profile(profile)
        keep = resolved.get("stream.thinking") == "keep" and encoding.rules.stream_thinking
        self.decoder = decoding.stream_decoder(resolved)
        self.guard = CustomCallGuard(encoding.rules, self.decoder, resolved)
        self.signatures = SignatureFilter(source, target)
        self.filter = ThinkingFilter(keep)
        self.text_calls: TextCallFilter | None = None
        if resolved.get("stream.text-calls") == "parse":
            self.text_calls = TextCallFilter(resolved, getattr(self.decoder, "ids", None))
        self.encoder = encoding.stream_encoder(resolved)
        #: open blocks whose plain deltas skip the filters (block index -> its delta type): the block's
        #: first plain delta went through every filter unchanged, and each filter passes the later ones
        #: unchanged too (each filter's "fast-lane promise"); not with text_calls, which scans all text
        self.plain: dict[int, str] = {}

    def _encode(self, canonical: list[dict]) -> list[dict]:
        # run once per event of a long stream: plain nested loops, the cheapest way through the stages
        out: list[dict] = []
        plain, encode = self.plain, self.encoder.feed
        for event in canonical:
            if len(event) == 3 and plain.get(event.get("index")) == event["type"]:
                out += encode(event)  # a plain delta of a plain block
                continue
            passed = self._filter(event)
            if (
                len(passed) == 1 and passed[0] is event and event["type"] in _PLAIN_DELTAS
                and len(event) == 3 and self.text_calls is None
            ):
                plain[event["index"]] = event["type"]
            elif event["type"] == "block_end":
                plain.pop(event["index"], None)
            for final in passed:
                out += encode(final)
        return out

    def _filter(self, event: dict) -> list[dict]:
        """``event`` through the filters between decoder and encoder (each may hold, drop, change or add)."""
        out: list[dict] = []
        guard, signed, kept = self.guard.feed, self.signatures.feed, self.filter.feed
        text_calls = self.text_calls
        for guarded in guard(event) if self.guard.active else (event,):
            for sent in signed(guarded):
                for final in kept(sent):
                    if text_calls is None:
                        out.append(final)
                    else:
                        out += text_calls.feed(final)
        return out

    def feed(self, event: Any) -> list[dict]:
        return self._encode(self.decoder.feed(event))

    def close(self) -> list[dict]:
        return self._encode(self.decoder.close()) + self.encoder.close()


def translate_stream(
    events: Iterable[Any], *, source: str, target: str, profile: Mapping[str, str] | None = None
) -> Iterator[dict]:
    """Translate a stream of ``source`` events (``{"event"?, "data"}``) into ``target`` events, lazily.

    Unknown dialects or profile values raise ``ValueError`` at once; problems with the stream raise
    ``TranslationError`` while iterating (``stream.invalid_event``, ``stream.truncated``, and the codes
    of the ``response`` kind, such as ``content.unsupported`` or ``call.invalid_arguments``).
    """
    transcoder = StreamTranscoder(source, target, profile)
    return _run(transcoder, events)


def _run(transcoder: StreamTranscoder, events: Iterable[Any]) -> Iterator[dict]:
    if isinstance(events, (str, bytes, dict)) or not isinstance(events, Iterable):
        raise fail("payload.invalid", f"a stream is an array of events, not {json_type(events)}", ())
    decode, encode = transcoder.decoder.feed, transcoder._encode
    for event in events:
        yield from encode(decode(event))
    yield from transcoder.close()


__all__ = ["StreamTranscoder", "translate_stream"]
