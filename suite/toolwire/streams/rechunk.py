"""Re-chunking: the same stream with its text and argument fragments split at other boundaries.

``rechunk(events, dialect, strategy)`` (:mod:`toolwire.streams.dialects`: this engine with the
dialect's :class:`Rechunker`, ``streams/<dialect>/rechunk.py``) returns a valid stream of the same dialect
that accumulates to the same result (tests prove it for every real capture and strategy). Only events that
carry exactly one text/thinking/argument fragment are re-cut; every other event is kept as is, in place.
Strategies:

- ``chars``: one character per fragment;
- ``escape``: argument JSON text cut inside every escape sequence (right after the backslash, and in the
  middle of the hex digits of ``\\uXXXX``, so a ``\\ud83d\\ude00`` pair is also cut between its halves);
  decoded text cut right before and after every character JSON escapes (``"``, ``\\``, controls);
- ``utf8``: cut right before and after every non-ASCII character (each multi-byte character alone).
  Events carry decoded strings, so a split *inside* a UTF-8 sequence exists only on the SSE byte stream:
  :func:`sse_byte_chunks` gives the SSE bytes of a stream cut inside every multi-byte character, to feed
  an SSE reader;
- ``whole``: each block's fragments joined into its first fragment event (later ones dropped, or emptied
  where the event carries other members).

The original fragment boundaries are kept by ``chars``/``escape``/``utf8`` (cuts are only added), so a
fragment that a source already split mid-escape stays split there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .sse import sse_from_events

__all__ = ["STRATEGIES", "Rechunker", "rechunk_with", "sse_byte_chunks"]

STRATEGIES = ("chars", "escape", "utf8", "whole")

Key = tuple[Any, ...]
Getter = Callable[[Any], "tuple[Key, str, str] | None"]
Putter = Callable[[Any, str, int, int], Any]


@dataclass(frozen=True)
class Rechunker:
    """How re-chunking reads and writes one dialect's fragment events (``streams/<dialect>/rechunk.py``).

    - ``get(data)``: ``(key, kind, text)`` of the single fragment an event's data carries (``kind``:
      ``text`` or ``arguments``; events with the same ``key`` hold one block's fragments), else None;
    - ``put(data, text, position, count)``: the data with ``text`` as its fragment, as the ``position``-th of
      ``count`` events cut from it;
    - ``droppable``: whether an emptied fragment event may be dropped (``whole``) rather than kept empty;
    - ``keys(events, get)``: each event's block key, where ``get`` alone does not tell blocks apart
      (Gemini's runs of consecutive text); default: ``get``'s;
    - ``after(events)``: fixes the re-cut events in place (Responses renumbers ``sequence_number``).
    """

    get: Getter
    put: Putter
    droppable: bool = True
    keys: Callable[[list[Any], Getter], list[Key | None]] | None = None
    after: Callable[[list[Any]], None] | None = None


# -- cut points ---------------------------------------------------------------------------------------


def _cuts(strategy: str, kind: str, text: str) -> set[int]:
    n = len(text)
    if strategy == "chars":
        return set(range(1, n))
    cuts: set[int] = set()
    if strategy == "escape":
        if kind == "arguments":
            i = 0
            while i < n:
                if text[i] == "\\" and i + 1 < n:
                    cuts.add(i + 1)
                    if text[i + 1] == "u":
                        cuts.update({i + 2, i + 4})
                        i += 6
                    else:
                        i += 2
                    continue
                i += 1
        else:
            for i, c in enumerate(text):
                if c in '"\\' or ord(c) < 0x20:
                    cuts.update({i, i + 1})
    elif strategy == "utf8":
        for i, c in enumerate(text):
            if ord(c) > 0x7F:
                cuts.update({i, i + 1})
    return {c for c in cuts if 0 < c < n}


# -- rechunk -----------------------------------------------------------------------------------------


def rechunk_with(events: list[Any], rechunker: Rechunker, strategy: str) -> list[Any]:
    """``events`` with their text and argument fragments re-cut by ``strategy`` (see the module doc), read and
    written by ``rechunker`` (:func:`toolwire.streams.dialects.rechunk` finds a dialect's)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown re-chunking strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
    get, put = rechunker.get, rechunker.put
    found = [get(e.get("data")) if isinstance(e, dict) else None for e in events]
    keys: list[Key | None] = (
        rechunker.keys(events, get) if rechunker.keys is not None else [f[0] if f else None for f in found]
    )
    full: dict[Key, list[str]] = {}
    for f, key in zip(found, keys, strict=True):
        if f is not None and key is not None:
            full.setdefault(key, []).append(f[2])
    out: list[Any] = []
    offsets: dict[Key, int] = {}
    cut_sets: dict[Key, set[int]] = {}
    seen: set[Key] = set()
    for event, f, key in zip(events, found, keys, strict=True):
        if f is None or key is None:
            out.append(event)
            continue
        _, kind, text = f
        if strategy == "whole":
            if key not in seen:
                seen.add(key)
                out.append({**event, "data": put(event["data"], "".join(full[key]), 0, 1)})
            elif not rechunker.droppable:
                out.append({**event, "data": put(event["data"], "", 0, 1)})
            continue
        if key not in cut_sets:
            cut_sets[key] = _cuts(strategy, kind, "".join(full[key]))
        start = offsets.get(key, 0)
        offsets[key] = start + len(text)
        local = sorted(c - start for c in cut_sets[key] if start < c < start + len(text))
        bounds = [0, *local, len(text)]
        pieces = [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)] or [text]
        for i, piece in enumerate(pieces):
            out.append({**event, "data": put(event["data"], piece, i, len(pieces))})
    if rechunker.after is not None:
        rechunker.after(out)
    return out


def sse_byte_chunks(events: list[Any], *, newline: str = "\n") -> list[bytes]:
    """The SSE bytes of ``events`` cut inside every multi-byte UTF-8 character (and nowhere else), so a
    reader must join bytes across chunks before decoding."""
    data = sse_from_events(events, newline=newline).encode("utf-8")
    chunks: list[bytes] = []
    start = 0
    i = 0
    while i < len(data):
        b = data[i]
        width = 4 if b >= 0xF0 else 3 if b >= 0xE0 else 2 if b >= 0xC0 else 1
        if width > 1:
            chunks.append(data[start : i + 1])
            start = i + 1
        i += width if width > 1 else 1
    chunks.append(data[start:])
    return [c for c in chunks if c]
