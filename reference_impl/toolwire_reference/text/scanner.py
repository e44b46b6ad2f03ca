"""The incremental scanner that finds tool calls printed inside text.

:class:`TextCallScanner` is fed the text in chunks of any size (``feed(chunk)``), returns canonical
content parts as soon as they are certain, and finishes with ``close()``. It holds back only what
could still change: a suffix that could still begin an opening tag (``<tool_c``), a backtick run that
could still grow, trailing whitespace that is dropped if a call follows, and a call from its opening
tag to its closing tag (a call is emitted whole). Feeding a text in one piece or split at any
positions gives the same parts (the consumer merges consecutive text parts).

Rules (corpus/RULES.md, "Text-embedded tool calls"):

- Code: a run of N backticks opens a code region that ends at the next run of exactly N backticks
  (or at the end of the text); nothing inside a code region is a call.
- Leftmost first: the first opening literal (``forms.OPENERS``) at or after the scan position is
  considered; a call's body belongs to that call (tags inside it are data of its form).
- Mention: an opening tag not followed (after whitespace) by one of its starters is text, and
  scanning resumes right after the opening literal.
- A call's region ends at its form's closing literal (outside JSON strings for the JSON forms).
  A body that is not a call of its form: ``text.malformed_call``; a text that ends inside a call
  (opening tag or body): ``text.unterminated_call``. Under ``text.malformed=keep-text`` the region is
  visible text instead, verbatim.
- Whitespace (space, tab, LF, CR) next to a call is dropped: the trailing whitespace of the text
  before it and the leading whitespace of the text after it. Text not next to a call is kept exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..calls import IdGenerator
from ..errors import TranslationError
from .forms import MAX_TAG, OPENERS, WS, Form, Malformed

_SPECIAL = re.compile(r"[<`]")
_OUTSIDE_STRING = re.compile(r'["<]')
_INSIDE_STRING = re.compile(r'["\\]')

MALFORMED = "text.malformed_call"
UNTERMINATED = "text.unterminated_call"


@dataclass
class _Pending:
    """A call whose opening tag has been read and whose closing literal has not been found yet."""

    form: Form
    tag: re.Match[str] | None
    start: int  # index of its `<` in the buffer
    body: int  # index where its body starts (right after the opening tag)
    scan: int  # where the search for the closing literal goes on
    in_string: bool = False
    escaped: bool = False


_NEED = "need"  # more input could change the decision


class TextCallScanner:
    """Find text-embedded tool calls incrementally.

    ``feed(chunk)`` and ``close()`` return lists of canonical content parts:
    ``{"type": "text", "text": …}`` and ``{"type": "tool_call", "id", "name", "arguments"}``.
    Consecutive text parts (also across calls of ``feed``) belong to one text part. Ids come from
    ``ids`` (``call_1``, ``call_2``, … by default; pass the generator of an enclosing translation to
    share its numbering). A malformed or unterminated call raises
    :class:`~toolwire_reference.TranslationError` (path ``""``: the text) unless ``profile`` has
    ``text.malformed=keep-text``.
    """

    def __init__(self, profile: Mapping[str, str] | None = None, ids: IdGenerator | None = None) -> None:
        self._keep = (profile or {}).get("text.malformed", "error") == "keep-text"
        self._ids = ids if ids is not None else IdGenerator()
        self._buf = ""
        self._pos = 0  # scan position in _buf; everything before it is done
        self._base = 0  # offset of _buf[0] in the whole text (for messages)
        self._code = 0  # inside a code region opened by this many backticks
        self._call: _Pending | None = None
        self._held_ws = ""
        self._after_call = False
        self._out: list[dict] = []
        self._closed = False

    # -- public -----------------------------------------------------------------------------------

    def feed(self, chunk: str) -> list[dict]:
        """Add ``chunk`` (a str; decode bytes incrementally first) and return the parts now certain."""
        if self._closed:
            raise ValueError("feed() after close()")
        if self._pos:
            self._base += self._pos
            self._buf = self._buf[self._pos :]
            if self._call is not None:
                call = self._call
                call.start -= self._pos
                call.body -= self._pos
                call.scan -= self._pos
            self._pos = 0
        self._buf += chunk
        self._run(final=False)
        return self._take()

    def close(self) -> list[dict]:
        """End of text: decide everything held back and return the last parts."""
        if self._closed:
            return []
        self._run(final=True)
        self._closed = True
        if self._held_ws:
            self._emit_text_raw(self._held_ws)
            self._held_ws = ""
        return self._take()

    @property
    def pending(self) -> str:
        """What is held back right now (for diagnostics and tests)."""
        return self._held_ws + self._buf[self._pos :]

    # -- driver -----------------------------------------------------------------------------------

    def _take(self) -> list[dict]:
        out, self._out = self._out, []
        return out

    def _run(self, final: bool) -> None:
        while self._pos < len(self._buf):
            if self._call is not None:
                progressed = self._advance_call(final)
            elif self._code:
                progressed = self._advance_code(final)
            else:
                progressed = self._advance_text(final)
            if not progressed:
                return

    # -- text ---------------------------------------------------------------------------------------

    def _emit_text_raw(self, text: str) -> None:
        if self._out and self._out[-1]["type"] == "text":
            self._out[-1]["text"] += text
        else:
            self._out.append({"type": "text", "text": text})

    def _text(self, text: str) -> None:
        """Visible text: whitespace after a call dropped, trailing whitespace held back."""
        if not text:
            return
        if self._after_call:
            text = text.lstrip(WS)
            if not text:
                return
            self._after_call = False
        text = self._held_ws + text
        core = text.rstrip(WS)
        self._held_ws = text[len(core) :]
        if core:
            self._emit_text_raw(core)

    def _consume_text(self, end: int) -> None:
        self._text(self._buf[self._pos : end])
        self._pos = end

    def _advance_text(self, final: bool) -> bool:
        buf, pos = self._buf, self._pos
        m = _SPECIAL.search(buf, pos)
        if m is None:
            self._consume_text(len(buf))
            return False
        if m.start() > pos:
            self._consume_text(m.start())
            return True
        if buf[pos] == "`":
            end = _run_end(buf, pos)
            if end == len(buf) and not final:
                return False
            self._code = end - pos
            self._consume_text(end)
            return True
        decision = self._match_open(final)
        if decision is _NEED:
            return False
        if decision is None:
            self._consume_text(pos + 1)
        elif isinstance(decision, int):  # a mention: the opening literal is text
            self._consume_text(pos + decision)
        elif decision == UNTERMINATED:
            self._fail(
                UNTERMINATED, "the text ends inside a tool call, right after its opening tag", len(buf)
            )
        else:
            self._call = decision
        return True

    def _advance_code(self, final: bool) -> bool:
        buf, pos = self._buf, self._pos
        tick = buf.find("`", pos)
        if tick < 0:
            self._consume_text(len(buf))
            return False
        if tick > pos:
            self._consume_text(tick)
            return True
        end = _run_end(buf, pos)
        if end == len(buf) and not final:
            return False
        if end - pos == self._code:
            self._code = 0
        self._consume_text(end)
        return True

    # -- opening tags ---------------------------------------------------------------------------------

    def _match_open(self, final: bool) -> Any:
        """At a ``<``: None (no opening literal), an int (a mention: the literal's length), a
        :class:`_Pending` (a call starts), ``UNTERMINATED`` (final only) or ``_NEED``."""
        buf, pos = self._buf, self._pos
        rest = len(buf) - pos
        for opener in OPENERS:
            literal = opener.literal
            if buf.startswith(literal, pos):
                break
            if not final and rest < len(literal) and literal.startswith(buf[pos:]):
                return _NEED
        else:
            return None
        mention = len(literal)
        tag = None
        tag_end = pos + len(literal)
        if opener.tag is not None:
            limit = pos + MAX_TAG
            gt = buf.find(">", pos, limit)
            lt = buf.find("<", pos + 1, limit)
            if lt >= 0 and (gt < 0 or lt < gt):
                return mention
            if gt < 0:
                if rest >= MAX_TAG:
                    return mention
                return UNTERMINATED if final else _NEED
            tag = opener.tag.fullmatch(buf, pos, gt + 1)
            if tag is None:
                return mention
            tag_end = gt + 1
        j = tag_end
        while j < len(buf) and buf[j] in WS:
            j += 1
        if j == len(buf):
            return UNTERMINATED if final else _NEED
        for starter, form in opener.starters:
            if buf.startswith(starter, j):
                return _Pending(form, tag, pos, tag_end, tag_end)
        tail = buf[j:]
        if any(len(tail) < len(s) and s.startswith(tail) for s, _ in opener.starters):
            return UNTERMINATED if final else _NEED
        return mention

    # -- calls ----------------------------------------------------------------------------------------

    def _advance_call(self, final: bool) -> bool:
        call = self._call
        assert call is not None
        buf, close = self._buf, call.form.close
        found = self._find_close_json(call, final) if call.form.json_aware else buf.find(close, call.scan)
        if found < 0 and not call.form.json_aware:
            call.scan = max(call.scan, len(buf) - len(close) + 1)
        if found >= 0:
            end = found + len(close)
            try:
                calls = call.form.parse(buf[call.body : found], call.tag)
            except Malformed as exc:
                self._fail(MALFORMED, f"{call.form.name} call: {exc}", end)
                return True
            self._held_ws = ""
            for name, arguments in calls:
                self._out.append(
                    {"type": "tool_call", "id": self._ids.new(), "name": name, "arguments": arguments}
                )
            self._after_call = True
            self._call = None
            self._pos = end
            return True
        if not final:
            return False
        if call.form.json_aware:
            inside = buf.find(close, call.body)
            if inside >= 0:
                self._fail(
                    MALFORMED,
                    f"{call.form.name} call: the body is not valid JSON (an unterminated string)",
                    inside + len(close),
                )
                return True
        self._fail(UNTERMINATED, f"{call.form.name} call has no closing {close}", len(buf))
        return True

    def _find_close_json(self, call: _Pending, final: bool) -> int:
        """The closing literal outside JSON strings, from ``call.scan``; -1 when not (yet) found."""
        buf, close = self._buf, call.form.close
        k, in_string, escaped = call.scan, call.in_string, call.escaped
        n = len(buf)
        found = -1
        while k < n:
            if in_string:
                if escaped:
                    escaped = False
                    k += 1
                    continue
                m = _INSIDE_STRING.search(buf, k)
                if m is None:
                    k = n
                    break
                k = m.start() + 1
                if m.group() == "\\":
                    escaped = True
                else:
                    in_string = False
                continue
            m = _OUTSIDE_STRING.search(buf, k)
            if m is None:
                k = n
                break
            k = m.start()
            if m.group() == '"':
                in_string = True
                k += 1
                continue
            if buf.startswith(close, k):
                found = k
                break
            if not final and n - k < len(close) and close.startswith(buf[k:]):
                break  # could still be the closing literal
            k += 1
        call.scan, call.in_string, call.escaped = k, in_string, escaped
        return found

    def _fail(self, code: str, message: str, end: int) -> None:
        start = self._call.start if self._call is not None else self._pos
        if not self._keep:
            raise TranslationError(code, f"{message} (the call starts at character {self._base + start})", "")
        self._call = None
        self._pos = start
        self._consume_text(end)


def _run_end(buf: str, pos: int) -> int:
    end = pos
    while end < len(buf) and buf[end] == "`":
        end += 1
    return end


def parse_text(
    text: str, profile: Mapping[str, str] | None = None, ids: IdGenerator | None = None
) -> list[dict]:
    """The canonical content parts of a whole text: text runs and tool calls, in order."""
    scanner = TextCallScanner(profile, ids)
    return merge_parts(scanner.feed(text) + scanner.close())


def merge_parts(parts: list[dict]) -> list[dict]:
    """Merge consecutive text parts (what a consumer of the scanner's output does)."""
    out: list[dict] = []
    for part in parts:
        if part["type"] == "text" and out and out[-1]["type"] == "text":
            out[-1] = {"type": "text", "text": out[-1]["text"] + part["text"]}
        else:
            out.append(dict(part))
    return out
