"""``toolwire run --reproducible``: pin what varies between runs of the same corpus and implementation.

A results file records when, where and how it was made (timestamps, Python, platform, command line, the
corpus's absolute path, each check's duration). Checked-in reports must regenerate byte for byte on a fresh
clone, so a reproducible run rewrites those: the timestamps become ``SOURCE_DATE_EPOCH`` (default 0), the
host fields ``unrecorded``, the command line a canonical one built from the options that change results,
the corpus path relative to the current directory, durations 0; in messages and diffs, what a library draws
at random or reads from the clock (absolute paths, memory addresses, UUIDs, long hex identifiers, Unix
timestamps of the run) is replaced by placeholders (``<uuid>``, ``<hex>``, ``<time>``). The header's
``run.reproducible`` says so.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .paths import corpus_dir, unlocalize
from .results import read_results, write_results

__all__ = ["UNRECORDED", "canonical_argv", "pin", "scrub", "timestamp"]

UNRECORDED = "unrecorded"
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
#: identifiers a library draws at random: UUIDs, and long runs of lowercase hex (``call_9f3a…``)
_UUID = re.compile(
    r"(?<![0-9A-Za-z])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)
_HEX = re.compile(
    r"(?:(?<![0-9A-Za-z])|(?<=_))(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{20,}(?![0-9A-Za-z])"
)
#: an id drawn at random or encrypted with a random nonce, in base64url after a provider's id prefix
#: (LiteLLM's proxy answers ``resp_<60+ such characters>``): 40 or more, with upper and lower case and digits
_TOKEN = re.compile(
    r"\b((?:resp|msg|call|fc|rs|toolu|chatcmpl)[_-])(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])"
    r"(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{40,}"
)
#: a call id drawn with JavaScript's ``Math.random().toString(36)``: claude-code-router names a Gemini call
#: that has none ``tool_<up to 13 base-36 characters>`` (``ccr_tool_…`` in streams); only as an ``"id"``
#: value, where no word of a member name or a message can stand
_BASE36 = re.compile(r'(?<="id": ")((?:ccr_)?tool_)[a-z0-9]{6,13}(?=["…])')
#: integers that may be the clock (Unix seconds, or milliseconds), with an optional fraction
_CLOCK = re.compile(r"(?<![0-9A-Za-z.])(\d{10}|\d{13})(\.\d+)?(?![0-9A-Za-z])")
_DAY = 86400
#: a date and time as log lines write them (``2026-11-30 01:17:52,155``, ``2026-11-30T01:17:52.1Z``)
_DATETIME = re.compile(
    r"(?<![0-9])(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?(?![0-9])"
)


def timestamp() -> str:
    """``SOURCE_DATE_EPOCH`` (seconds, default 0) as ISO 8601 UTC."""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    try:
        seconds = int(raw) if raw else 0
    except ValueError:
        seconds = 0
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def relative_path(path: str | os.PathLike[str], base: Path | None = None) -> str:
    """``path`` relative to ``base`` (default: the current directory) when inside it, in POSIX form;
    otherwise ``<bundled>`` for the bundled corpus, else the directory's own name."""
    p = Path(path).resolve()
    base = (base or Path.cwd()).resolve()
    try:
        return p.relative_to(base).as_posix() or "."
    except ValueError:
        pass
    try:
        if p == corpus_dir().resolve():
            return "<bundled>"
    except FileNotFoundError:
        pass
    return p.name


def scrub(text: str, clock: tuple[float, float] | None = None) -> str:
    """``text`` without what differs from run to run: absolute paths of this machine, memory addresses,
    random identifiers (UUIDs → ``<uuid>``, 20+ hex digits → ``<hex>``, 40+ base64url characters after an
    id prefix such as ``resp_``, or base-36 ones in a ``tool_`` id → ``<token>``) and, when ``clock``
    (the run's first and last second) is given, Unix timestamps and the dates and times log lines write
    (``2026-11-30 01:17:52,155``) within a day of the run (→ ``<time>``)."""
    text = unlocalize(text)
    text = _ADDRESS.sub("0x<addr>", text)
    text = _UUID.sub("<uuid>", text)
    text = _HEX.sub("<hex>", text)
    text = _TOKEN.sub(r"\1<token>", text)
    text = _BASE36.sub(r"\1<token>", text)
    if clock is not None:
        low, high = clock[0] - _DAY, clock[1] + _DAY
        # distinct clock readings (as written) in one text stay distinct (`<time>`, `<time#2>`, …): "id
        # <time> differs from <time>" would hide what differs
        readings: list[str] = []

        def reading(seconds: Callable[[re.Match[str]], float | None]) -> Callable[[re.Match[str]], str]:
            def replace(match: re.Match[str]) -> str:
                value = seconds(match)
                if value is None or not low <= value <= high:
                    return match.group(0)
                if match.group(0) not in readings:
                    readings.append(match.group(0))
                n = readings.index(match.group(0)) + 1
                return "<time>" if n == 1 else f"<time#{n}>"

            return replace

        text = _CLOCK.sub(reading(_unix_seconds_of), text)
        text = _DATETIME.sub(reading(_seconds_of), text)
    return _settle_truncations(text)


def _unix_seconds_of(match: re.Match[str]) -> float:
    """The Unix time of a :data:`_CLOCK` match (13 digits: milliseconds)."""
    return int(match.group(1)) / (1000 if len(match.group(1)) == 13 else 1)


def _seconds_of(match: re.Match[str]) -> float | None:
    """The Unix time of a :data:`_DATETIME` match (a time without a zone is this machine's local time, as a
    log line writes it), or None when it is no date."""
    date, clock, fraction, zone = match.groups()
    zone = "+00:00" if zone == "Z" else (zone or "")
    try:
        moment = datetime.fromisoformat(f"{date}T{clock}.{(fraction or '0')[:6]}{zone}")
    except ValueError:
        return None
    return moment.timestamp()


#: the placeholders scrubbing writes in place of values whose length varies; paths (``<prefix>``,
#: ``<python>``) are written relative before any text is cut (:func:`toolwire.jsonvalue.clip`), so they
#: never move a cut
_PLACEHOLDER = re.compile(r"<(?:uuid|hex|token|time(?:#\d+)?)>|0x<addr>")


def _settle_truncations(text: str) -> str:
    """A text cut at a fixed length (``…``) after a placeholder ends at a point that depends on the length of
    what the placeholder replaced (a timestamp with more decimals, a longer path): cut such a text right
    after its last placeholder, so the same run always gives the same text."""
    if "…" not in text or not _PLACEHOLDER.search(text):
        return text
    lines = []
    for line in text.split("\n"):
        parts = line.split("…")
        for i in range(len(parts) - 1):
            matches = list(_PLACEHOLDER.finditer(parts[i]))
            if matches:
                parts[i] = parts[i][: matches[-1].end()]
        lines.append("…".join(parts))
    return "\n".join(lines)


def canonical_argv(
    spec: str,
    *,
    corpus: str | None = None,
    keyword: str | None = None,
    markexpr: str | None = None,
    expectations: str | None = None,
    strict: bool = False,
) -> list[str]:
    """The command line recorded by a reproducible run: only the options that change the results."""
    argv = ["toolwire", "run", "--adapter", spec]
    if corpus is not None:
        argv += ["--corpus", relative_path(corpus)]
    if keyword:
        argv += ["-k", keyword]
    if markexpr:
        argv += ["-m", markexpr]
    if expectations:
        argv += ["--expectations", relative_path(expectations)]
        if strict:
            argv.append("--strict")
    argv.append("--reproducible")
    return argv


def _scrub_value(value: Any, clock: tuple[float, float]) -> Any:
    if isinstance(value, str):
        return scrub(value, clock)
    if isinstance(value, list):
        return [_scrub_value(v, clock) for v in value]
    if isinstance(value, dict):
        return {k: _scrub_value(v, clock) for k, v in value.items()}
    return value


def _seconds(stamp: Any, default: float) -> float:
    try:
        return datetime.fromisoformat(str(stamp).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return default


def pin(path: str | os.PathLike[str], argv: list[str]) -> None:
    """Rewrite the results file at ``path`` in place with the run-specific fields pinned."""
    results = read_results(path)
    stamp = timestamp()
    now = time.time()
    run = results.header.get("run") or {}
    # the run's own clock; an already pinned file has none left to find
    clock = (now, now) if run.get("reproducible") else (_seconds(run.get("started"), now), now)
    head = dict(results.header)
    corpus = dict(head.get("corpus") or {})
    if isinstance(corpus.get("path"), str):
        corpus["path"] = relative_path(corpus["path"])
    head["corpus"] = corpus
    adapter = dict(head.get("adapter") or {})
    if isinstance(adapter.get("spec"), str):
        adapter["spec"] = scrub(adapter["spec"])
    head["adapter"] = adapter
    run = dict(head.get("run") or {})
    run.update(started=stamp, python=UNRECORDED, platform=UNRECORDED, argv=list(argv), reproducible=True)
    head["run"] = run
    if isinstance(head.get("expectations"), dict):
        expectations = dict(head["expectations"])
        if isinstance(expectations.get("path"), str):
            expectations["path"] = relative_path(expectations["path"])
        head["expectations"] = expectations
    checks = []
    for rec in results.checks:
        rec = {k: (0 if k == "duration_ms" else v) for k, v in rec.items()}
        for key in ("message", "diff", "differences", "wire_errors", "actual_error"):
            if key in rec:
                rec[key] = _scrub_value(rec[key], clock)
        checks.append(rec)
    foot = None
    if results.footer is not None:
        foot = {**results.footer, "finished": stamp}
    write_results(path, head, checks, foot)
