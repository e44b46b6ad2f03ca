"""``results.jsonl``: a header, one record per check (sorted by id), a footer (none: a partial file)."""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import __version__
from .corpus import Check, Corpus
from .judge.checks import OUTCOMES, CheckResult

__all__ = [
    "FORMAT",
    "READABLE_FORMATS",
    "LEVELS",
    "Results",
    "ResultsError",
    "check_record",
    "counts",
    "footer",
    "header",
    "level_scores",
    "now",
    "read_results",
    "summary_line",
    "write_results",
]

#: 2: check records carry ``differences`` (structured records of the diff); 1 had the diff text only
FORMAT = 2
#: formats this version reads (the reports read a format-1 diff through ``reports.legacy``)
READABLE_FORMATS = (1, 2)
LEVELS = ("must", "should", "may")


class ResultsError(Exception):
    """A results file cannot be read."""


def now() -> str:
    """The current UTC time, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def header(
    corpus: Corpus,
    adapter: dict[str, Any],
    *,
    started: str | None = None,
    argv: list[str] | None = None,
    selection: str | None = None,
) -> dict[str, Any]:
    """The first line. ``adapter`` is ``Adapter.metadata()``; ``selection`` is None for a whole run."""
    return {
        "record": "header",
        "format": FORMAT,
        "toolwire_version": __version__,
        "corpus": {
            "version": corpus.version,
            "hash": corpus.hash,
            "interpreting_version": corpus.interpreting_version,
            "path": str(corpus.root),
        },
        "adapter": adapter,
        "run": {
            "started": started or now(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "argv": list(sys.argv if argv is None else argv),
            "selection": selection,
        },
    }


def check_record(check: Check, result: CheckResult) -> dict[str, Any]:
    """One line per check; optional members only when they say something."""
    rec: dict[str, Any] = {
        "record": "check",
        "id": check.id,
        "case": check.case_id,
        "area": check.area,
        "kind": check.kind,
        "source": check.source,
        "target": check.target,
        "profile": dict(check.when),
        "level": check.level,
        "features": list(check.features),
        "outcome": result.outcome,
        "duration_ms": round(result.duration_ms, 3),
    }
    if check.round_trip:
        rec["round_trip"] = True
    if check.projected_from is not None:
        rec["projected_from"] = check.projected_from
    if result.unit is not None:
        rec["unit"] = result.unit
    if result.source_invalid:
        rec["source_invalid"] = True
    if result.handled is not None:
        rec["handled"] = result.handled
    if result.message:
        rec["message"] = result.message
    if result.diff:
        rec["diff"] = result.diff
    if result.differences:
        rec["differences"] = list(result.differences)
    if "error" in check.expectation:
        rec["expected_error"] = check.expected_error
    if result.actual_error is not None:
        rec["actual_error"] = result.actual_error
    if result.wire_valid is not None:
        rec["wire_valid"] = result.wire_valid
    if result.wire_errors:
        rec["wire_errors"] = list(result.wire_errors)
    return rec


def counts(records: list[dict[str, Any]]) -> dict[str, int]:
    """Records per outcome (every outcome present, zero when none)."""
    out = dict.fromkeys(OUTCOMES, 0)
    for rec in records:
        out[rec.get("outcome", "errored")] = out.get(rec.get("outcome", "errored"), 0) + 1
    return out


def level_scores(records: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """(passed, applicable) per level; applicable = not skipped."""
    out = {level: (0, 0) for level in LEVELS}
    for rec in records:
        if rec.get("outcome") == "skipped":
            continue
        level = rec.get("level", "must")
        passed, total = out.get(level, (0, 0))
        out[level] = (passed + (rec.get("outcome") in ("passed", "xpassed")), total + 1)
    return out


def summary_line(records: list[dict[str, Any]]) -> str:
    """``toolwire: N passed, N failed, N errored, N skipped (must x/y, should x/y, may x/y)``."""
    c = counts(records)
    parts = [
        f"{c['passed']} passed",
        f"{c['failed']} failed",
        f"{c['errored']} errored",
        f"{c['skipped']} skipped",
    ]
    parts += [f"{c[o]} {o}" for o in ("xfailed", "xpassed") if c[o]]
    levels = ", ".join(f"{lvl} {p}/{t}" for lvl, (p, t) in level_scores(records).items())
    return f"toolwire: {', '.join(parts)} ({levels})"


def footer(
    records: list[dict[str, Any]],
    *,
    complete: bool,
    finished: str | None = None,
    secrets_logged: list[str] | None = None,
) -> dict[str, Any]:
    """The last line; ``complete`` only for an unfiltered, uninterrupted run with a record for every check.
    ``secrets_logged``: the keys the implementation wrote into its own log (what they are, never their
    values: ``Adapter.logged_secrets``)."""
    out: dict[str, Any] = {
        "record": "footer",
        "complete": bool(complete),
        "total": len(records),
        "counts": counts(records),
        "finished": finished or now(),
    }
    if secrets_logged:
        out["secrets_logged"] = list(secrets_logged)
    return out


def _file_mode() -> int:
    """The mode ``open()`` gives a new file here: 0o666 less the process's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_FILE_MODE = _file_mode()


def write_results(
    path: Path | str, head: dict[str, Any], records: list[dict[str, Any]], foot: dict[str, Any] | None
) -> Path:
    """Write the file at once (via a temporary file and rename), records sorted by check id."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [head, *sorted(records, key=lambda r: r["id"])]
    if foot is not None:
        lines.append(foot)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            for line in lines:
                fh.write(json.dumps(line, ensure_ascii=False, sort_keys=False) + "\n")
        os.chmod(tmp, _FILE_MODE)  # mkstemp makes it 0600; a results file is as readable as any other
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


@dataclass
class Results:
    """A parsed results file. ``footer`` is None for a partial file (the run did not finish)."""

    header: dict[str, Any]
    checks: list[dict[str, Any]]
    footer: dict[str, Any] | None
    path: Path | None = None

    @property
    def complete(self) -> bool:
        return bool(self.footer and self.footer.get("complete"))

    def counts(self) -> dict[str, int]:
        return counts(self.checks)


def read_results(path: Path | str) -> Results:
    """Parse a results file; raises :class:`ResultsError` naming the line when it is malformed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read: {exc}") from exc
    head: dict[str, Any] | None = None
    checks: list[dict[str, Any]] = []
    foot: dict[str, Any] | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError as exc:
            raise ResultsError(f"{path}:{n}: not JSON: {exc}") from exc
        kind = rec.get("record") if isinstance(rec, dict) else None
        if foot is not None:
            raise ResultsError(f"{path}:{n}: a line after the footer")
        if kind == "header":
            if head is not None or checks:
                raise ResultsError(f"{path}:{n}: the header must be the first line, once")
            version = rec.get("format")
            if isinstance(version, int) and version not in READABLE_FORMATS:
                raise ResultsError(
                    f"{path}:{n}: results format {version}; this toolwire reads formats "
                    f"{', '.join(map(str, READABLE_FORMATS))} (upgrade toolwire)"
                )
            head = rec
        elif kind == "check":
            if head is None:
                raise ResultsError(f"{path}:{n}: a check before the header")
            checks.append(rec)
        elif kind == "footer":
            foot = rec
        else:
            raise ResultsError(f"{path}:{n}: unknown record {kind!r}")
    if head is None:
        raise ResultsError(f"{path}: no header line")
    return Results(header=head, checks=checks, footer=foot, path=path)
