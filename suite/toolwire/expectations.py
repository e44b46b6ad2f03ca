"""Expectation files: an implementation's known failures (``--toolwire-expectations FILE``).

A TOML file of ``[[known-failure]]`` entries, each naming a case id, optionally narrowed to a pair
(``source>target``, or ``source>target>source`` for the round-trip check), profile values and a variant
(``main`` for the main check only, or one variant check: ``incremental``, ``rechunk=chars``, ``fresh-ids``…),
with a required ``reason`` and an optional ``issue`` URL (format: ``schemas/expectations.schema.json``, README
"Known failures"). A listed check that fails is ``xfailed``; one that passes is ``xpassed`` (the entry is
stale). An entry never hides an ``errored`` check.

``toolwire expectations update --from RESULTS.jsonl`` writes or refreshes the file from a run;
``toolwire expectations check FILE`` validates it.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import re
import sys
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .corpus import CorpusError, load_corpus, resolve_profile
from .corpus.variants import FRESH_IDS, STREAM_VARIANTS, split_variant
from .corpus.wire import validate_file
from .results import ResultsError, read_results

__all__ = [
    "SCHEMA",
    "TABLE",
    "Entry",
    "Expectations",
    "ExpectationsError",
    "apply",
    "dumps",
    "load",
    "main",
    "strict_problems",
    "update",
]

SCHEMA = "expectations.schema.json"
TABLE = "known-failure"
TODO = "TODO: triage"
DEFAULT_FILE = "toolwire-expectations.toml"
_PASSING = ("passed", "xpassed")
_FAILING = ("failed", "xfailed")
#: an entry's ``variant`` that lists a check's main check only, none of its variant checks
MAIN = "main"


class ExpectationsError(Exception):
    """The expectations file cannot be used; the message names the file and the entry."""


@dataclass(frozen=True)
class Entry:
    """One ``[[known-failure]]``; ``index`` is its 1-based position in the file (0: not from a file)."""

    case: str
    reason: str
    pair: str | None = None
    profile: dict[str, str] = field(default_factory=dict)
    issue: str | None = None
    index: int = 0
    line: int | None = None
    #: the variant check listed (``main``: the main check only); None: the main check and every variant
    variant: str | None = None

    @property
    def specificity(self) -> int:
        return (self.pair is not None) + len(self.profile) + (self.variant is not None)

    @property
    def key(self) -> tuple[str, str, tuple[tuple[str, str], ...], str]:
        return (self.case, self.pair or "", tuple(sorted(self.profile.items())), self.variant or "")

    def matches(self, case: str, pair: str, profile: dict[str, Any], variant: str | None = None) -> bool:
        """Whether this entry lists the check of ``case``, ``pair``, the (resolved) ``profile`` and
        ``variant`` (None: the main check)."""
        if case != self.case or (self.pair is not None and pair != self.pair):
            return False
        if self.variant is not None and self.variant != (variant or MAIN):
            return False
        return all(profile.get(k) == v for k, v in self.profile.items())

    def label(self) -> str:
        where = f", line {self.line}" if self.line else ""
        parts = [f"case {self.case!r}"]
        if self.pair:
            parts.append(f"pair {self.pair}")
        if self.profile:
            parts.append("profile " + ",".join(f"{k}={v}" for k, v in sorted(self.profile.items())))
        if self.variant:
            parts.append(f"variant {self.variant}")
        number = f"{TABLE} #{self.index}{where}: " if self.index else ""
        return f"{number}{'; '.join(parts)}"

    def data(self) -> dict[str, Any]:
        """The entry as in the file (and in the results header)."""
        out: dict[str, Any] = {"case": self.case}
        if self.pair is not None:
            out["pair"] = self.pair
        if self.profile:
            out["profile"] = dict(sorted(self.profile.items()))
        if self.variant is not None:
            out["variant"] = self.variant
        out["reason"] = self.reason
        if self.issue:
            out["issue"] = self.issue
        return out

    def record(self) -> dict[str, str]:
        """``expected_failure`` of a results record."""
        out = {"reason": self.reason}
        if self.issue:
            out["issue"] = self.issue
        return out


def pair_of(source: str, target: str, round_trip: bool = False) -> str:
    return f"{source}>{target}>{source}" if round_trip else f"{source}>{target}"


#: what tells a check apart for an entry: case, pair, resolved profile, variant (None: the main check)
CheckKey = tuple[str, str, dict[str, Any], str | None]


def _check_key(check: Any) -> CheckKey:
    profile = {**(check.defaults or {}), **(check.profile or {}), **(check.when or {})}
    return check.case_id, pair_of(check.source, check.target, check.round_trip), profile, check.variant


def _record_key(rec: dict[str, Any], defaults: dict[str, Any]) -> CheckKey:
    pair = pair_of(str(rec.get("source")), str(rec.get("target")), bool(rec.get("round_trip")))
    variant = split_variant(str(rec.get("id", "")))[1] or None
    return str(rec.get("case")), pair, {**defaults, **(rec.get("profile") or {})}, variant


def _best(
    entries: Iterable[Entry], case: str, pair: str, profile: dict[str, Any], variant: str | None = None
) -> Entry | None:
    found = [e for e in entries if e.matches(case, pair, profile, variant)]
    return min(found, key=lambda e: (-e.specificity, e.index)) if found else None


@dataclass
class Expectations:
    """A loaded, validated expectations file."""

    path: Path
    sha256: str
    entries: list[Entry]

    def lookup(self, check: Any) -> Entry | None:
        """The entry listing ``check`` (a ``Check``): the most specific one, then the first."""
        return _best(self.entries, *_check_key(check))

    def unmatched(self, checks: Iterable[Any]) -> list[Entry]:
        """Entries that match none of ``checks`` (a typo, or a check the corpus no longer has)."""
        keys = [_check_key(c) for c in checks]
        return [e for e in self.entries if not any(e.matches(*k) for k in keys)]

    def header(self, *, strict: bool, unmatched: Sequence[Entry] = ()) -> dict[str, Any]:
        """``expectations`` of the results header."""
        return {
            "path": str(self.path),
            "sha256": self.sha256,
            "strict": bool(strict),
            "entries": len(self.entries),
            "unmatched": [{"entry": e.index, **e.data()} for e in unmatched],
        }


# -- reading ---------------------------------------------------------------------------------------------


def _entry_lines(text: str) -> list[int]:
    """1-based line numbers of the ``[[known-failure]]`` headers, in order."""
    pattern = re.compile(r"^\s*\[\[\s*(\"known-failure\"|'known-failure'|known-failure)\s*\]\]")
    return [n for n, line in enumerate(text.splitlines(), 1) if pattern.match(line)]


def parse(text: str, path: Path | str, corpus: Any | None = None) -> list[Entry]:
    """Entries of an expectations file's text; raises :class:`ExpectationsError` listing every problem.

    With ``corpus``, case ids, dialects and profile keys/values must exist in it.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ExpectationsError(f"{path}: not valid TOML: {exc}") from exc
    lines = _entry_lines(text)
    raw = data.get(TABLE) if isinstance(data.get(TABLE), list) else []

    def name(i: int) -> str:
        entry = raw[i] if i < len(raw) and isinstance(raw[i], dict) else {}
        where = f", line {lines[i]}" if len(lines) == len(raw) and i < len(lines) else ""
        case = f" (case {entry['case']!r})" if isinstance(entry.get("case"), str) else ""
        return f"{TABLE} #{i + 1}{where}{case}"

    problems: list[str] = []
    for message in validate_file(SCHEMA, data):
        pointer, _, text_ = message.partition(": ")
        parts = pointer.split("/")
        if len(parts) >= 3 and parts[1] == TABLE and parts[2].isdigit():
            rest = "/".join(parts[3:])
            if rest in _HINTS and "does not match" in text_:
                text_ = f"{text_.split(' does not match')[0]}: {_HINTS[rest]}"
            problems.append(f"{name(int(parts[2]))}: {('/' + rest + ': ') if rest else ''}{text_}")
        else:
            problems.append(f"{pointer}: {text_}" if pointer != "/" else text_)
    # the entries well-formed enough to check further: every problem is said at once, not one kind per try
    entries = [
        entry for i, e in enumerate(raw) if (entry := _entry(e, i, lines if len(lines) == len(raw) else None))
    ]
    seen: dict[tuple[Any, ...], Entry] = {}
    for e in entries:
        label = name(e.index - 1)
        if e.pair is not None:
            hops = e.pair.split(">")
            if len(hops) == 3 and hops[2] != hops[0]:
                problems.append(
                    f"{label}: pair {e.pair!r}: a round trip ends where it starts "
                    f"({hops[0]}>{hops[1]}>{hops[0]})"
                )
        if e.key in seen:
            same = "same case, pair, profile and variant"
            problems.append(f"{label}: repeats {TABLE} #{seen[e.key].index} ({same})")
        seen.setdefault(e.key, e)
    if corpus is not None:
        problems += _against_corpus(entries, corpus, name)
    if problems:
        raise ExpectationsError(_problems(path, problems))
    return entries


def _entry(raw: Any, i: int, lines: list[int] | None) -> Entry | None:
    """The entry of a table item, its malformed members left out (None: no case id to check)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("case"), str):
        return None
    profile = raw.get("profile") if isinstance(raw.get("profile"), dict) else {}
    return Entry(
        case=raw["case"],
        reason=raw["reason"] if isinstance(raw.get("reason"), str) else "",
        pair=raw["pair"] if isinstance(raw.get("pair"), str) else None,
        profile={k: v for k, v in profile.items() if isinstance(v, str)},
        issue=raw["issue"] if isinstance(raw.get("issue"), str) else None,
        index=i + 1,
        line=lines[i] if lines is not None else None,
        variant=raw["variant"] if isinstance(raw.get("variant"), str) else None,
    )


_ENTRY_NUMBER = re.compile(rf"{TABLE} #(\d+)")

#: what a field must look like, instead of its JSON Schema pattern
_HINTS = {
    "case": "a case id is <area>/<slug>, e.g. tools/basic",
    "pair": "a pair is <source>><target>, or <source>><target>><source> for a round trip, "
    "e.g. canonical>gemini",
    "reason": "say why the check fails",
    "issue": "an issue is an http(s) URL",
}


def _problems(path: Path | str, problems: list[str]) -> str:
    """The message listing ``problems``, entry by entry (a problem of the whole file first)."""
    problems = sorted(problems, key=lambda p: int(m.group(1)) if (m := _ENTRY_NUMBER.match(p)) else 0)
    head = f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return head + "\n" + "\n".join(f"  {p}" for p in problems)


def _against_corpus(entries: list[Entry], corpus: Any, name: Any) -> list[str]:
    cases = {c.id for c in corpus.cases}
    dialects = set(corpus.dialects) | {d for c in corpus.checks() for d in (c.source, c.target)}
    profiles = corpus.profiles or {}
    variants = {MAIN, FRESH_IDS, *STREAM_VARIANTS}
    out = []
    for e in entries:
        label = name(e.index - 1)
        if e.variant is not None and e.variant not in variants:
            out.append(f"{label}: unknown variant {e.variant!r} (one of {', '.join(sorted(variants))})")
        if e.case not in cases:
            close = difflib.get_close_matches(e.case, sorted(cases), n=1, cutoff=0.8)  # a typo, not a guess
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            out.append(f"{label}: unknown case id {e.case!r}: not in the corpus at {corpus.root}{hint}")
        for dialect in (e.pair or "").split(">") if e.pair else ():
            if dialect not in dialects:
                out.append(f"{label}: pair {e.pair!r}: unknown dialect {dialect!r}")
                break
        for key, value in sorted(e.profile.items()):
            spec = profiles.get(key)
            if not isinstance(spec, dict):
                known = ", ".join(sorted(profiles))
                out.append(f"{label}: unknown profile key {key!r} (profiles.json has {known})")
            elif value not in (spec.get("values") or {}):
                known = ", ".join(spec.get("values") or {})
                out.append(f"{label}: profile {key}: unknown value {value!r} (one of {known})")
    return out


def load(path: Path | str, corpus: Any | None = None) -> Expectations:
    """Read and validate an expectations file (against ``corpus`` when given)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ExpectationsError(f"{path}: cannot read the expectations file: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExpectationsError(f"{path}: not UTF-8 text: {exc}") from exc
    entries = parse(text, path, corpus)
    return Expectations(path=path.resolve(), sha256=hashlib.sha256(raw).hexdigest(), entries=entries)


# -- applying --------------------------------------------------------------------------------------------


def apply(record: dict[str, Any], entry: Entry | None) -> dict[str, Any]:
    """Mark a results record of a listed check: failed -> xfailed, passed -> xpassed (errored and skipped
    stay as they are), with ``expected_failure``. Returns the record."""
    if entry is None:
        return record
    record["expected_failure"] = entry.record()
    if record.get("outcome") == "failed":
        record["outcome"] = "xfailed"
    elif record.get("outcome") == "passed":
        record["outcome"] = "xpassed"
    return record


def strict_problems(results: Any) -> list[str]:
    """Why a run fails under strict expectations: unexpected passes and entries that match no check."""
    out = []
    for rec in sorted(results.checks, key=lambda r: str(r.get("id"))):
        if rec.get("outcome") == "xpassed":
            reason = (rec.get("expected_failure") or {}).get("reason")
            out.append(f"unexpected pass (stale entry): {rec.get('id')}" + (f" ({reason})" if reason else ""))
    info = (results.header or {}).get("expectations") or {}
    for e in info.get("unmatched") or []:
        entry = Entry(
            case=e.get("case", "?"),
            reason=e.get("reason", ""),
            pair=e.get("pair"),
            profile=e.get("profile") or {},
            index=int(e.get("entry") or 0),
            variant=e.get("variant"),
        )
        out.append(f"{entry.label()}: matches no check of the corpus")
    return out


# -- writing ---------------------------------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _string(value: str) -> str:
    """A TOML basic string."""
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _string(key)


def sort_key(entry: Entry) -> tuple[Any, ...]:
    return (*entry.key, entry.reason, entry.issue or "")


def dumps(entries: Iterable[Entry]) -> str:
    """The TOML text of an expectations file, entries sorted by case, pair, profile (deterministic)."""
    lines = [
        "# toolwire expectations: the known failures of one implementation.",
        "# Use: toolwire run --expectations FILE (pytest: --toolwire-expectations FILE).",
        "# Written by `toolwire expectations update`, which keeps entries and reasons but not comments.",
    ]
    for e in sorted(entries, key=sort_key):
        lines += ["", f"[[{TABLE}]]", f"case = {_string(e.case)}"]
        if e.pair is not None:
            lines.append(f"pair = {_string(e.pair)}")
        if e.profile:
            items = ", ".join(f"{_key(k)} = {_string(v)}" for k, v in sorted(e.profile.items()))
            lines.append(f"profile = {{ {items} }}")
        if e.variant is not None:
            lines.append(f"variant = {_string(e.variant)}")
        lines.append(f"reason = {_string(e.reason)}")
        if e.issue:
            lines.append(f"issue = {_string(e.issue)}")
    return "\n".join(lines) + "\n"


# -- update ----------------------------------------------------------------------------------------------


@dataclass
class Update:
    entries: list[Entry]
    kept: list[Entry] = field(default_factory=list)
    removed: list[Entry] = field(default_factory=list)
    narrowed: list[tuple[Entry, list[Entry]]] = field(default_factory=list)
    added: list[Entry] = field(default_factory=list)


def _narrow(rec: dict[str, Any], corpus: Any, reason: str, issue: str | None) -> Entry:
    """The entry listing exactly the check of ``rec``: its case, pair, the profile values that tell it apart
    from the case's other checks of that pair (defaults made explicit where a sibling sets the key) and,
    where the check has variants (or is one), its variant (``main`` for the main check)."""
    defaults = _defaults(corpus)
    case, pair, resolved, variant = _record_key(rec, defaults)
    when = dict(rec.get("profile") or {})
    siblings = [k for k in (_check_key(c) for c in corpus.checks()) if k[0] == case and k[1] == pair]
    varied = {key for _, _, profile, _ in siblings for key in profile if key not in when}
    varied = {k for k in varied if len({str(p.get(k)) for _, _, p, _ in siblings}) > 1}
    profile = {**{k: resolved[k] for k in varied if k in resolved}, **when}
    has_variants = any(v is not None for *_, v in siblings)
    pinned = (variant or MAIN) if has_variants else None
    entry = Entry(case=case, reason=reason, pair=pair, profile=profile, issue=issue, variant=pinned)
    if sum(entry.matches(*k) for k in siblings) > 1:  # defensive: fall back to the full resolved profile
        entry = Entry(case, reason, pair, dict(resolved), issue, variant=pinned)
    return entry


def _defaults(corpus: Any) -> dict[str, Any]:
    return resolve_profile(corpus.profiles or {}, None)


def update(records: list[dict[str, Any]], existing: list[Entry], corpus: Any, reason: str = TODO) -> Update:
    """Refresh ``existing`` from a run's check records.

    An entry whose checks all failed (or did not run, errored, were skipped) is kept as it is; one whose
    judged checks all passed is removed; one with some of each is narrowed to its still-failing checks
    (keeping its reason and issue). Failed checks no entry lists are added, narrowed to pair and profile,
    with ``reason`` (or the reason recorded in the run, for a check listed by another file).
    """
    defaults = _defaults(corpus)
    keyed = [(rec, _record_key(rec, defaults)) for rec in records if rec.get("record", "check") == "check"]
    result = Update(entries=[])
    for e in existing:
        matched = [rec for rec, key in keyed if e.matches(*key)]
        passing = [r for r in matched if r.get("outcome") in _PASSING]
        still = [r for r in matched if r.get("outcome") in (*_FAILING, "errored")]
        if not passing:
            result.kept.append(e)
            result.entries.append(e)
        elif not still:
            result.removed.append(e)
        else:
            parts = [_narrow(r, corpus, e.reason, e.issue) for r in sorted(still, key=lambda r: r["id"])]
            result.narrowed.append((e, parts))
            result.entries.extend(parts)
    for rec, key in sorted(keyed, key=lambda rk: str(rk[0].get("id"))):
        if rec.get("outcome") not in _FAILING or _best(result.entries, *key) is not None:
            continue
        recorded = rec.get("expected_failure") or {}
        entry = _narrow(rec, corpus, recorded.get("reason") or reason, recorded.get("issue"))
        result.added.append(entry)
        result.entries.append(entry)
    unique: dict[tuple[Any, ...], Entry] = {}
    for e in result.entries:
        unique.setdefault(e.key, e)
    result.entries = sorted(unique.values(), key=sort_key)
    return result


# -- command line ----------------------------------------------------------------------------------------


def _load_corpus(override: str | None, results: Any | None = None) -> Any:
    if override is None and results is not None:
        recorded = ((results.header or {}).get("corpus") or {}).get("path")
        if recorded and Path(recorded).is_dir():
            override = recorded
    return load_corpus(override)


def _entries(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


def _cmd_check(args: argparse.Namespace) -> int:
    corpus = _load_corpus(args.corpus)
    exp = load(args.file, corpus)
    unmatched = exp.unmatched(corpus.checks())
    print(f"{args.file}: {_entries(len(exp.entries))}, valid")
    for e in unmatched:
        print(f"{args.file}: {e.label()}: matches no check of the corpus")
    return 1 if unmatched and args.strict else 0


def _cmd_update(args: argparse.Namespace) -> int:
    try:
        results = read_results(args.results)
    except ResultsError as exc:
        raise ExpectationsError(str(exc)) from exc
    corpus = _load_corpus(args.corpus, results)
    recorded = ((results.header or {}).get("expectations") or {}).get("path")
    out = Path(args.output or recorded or DEFAULT_FILE)
    existing = load(out, corpus).entries if out.is_file() else []
    up = update(results.checks, existing, corpus, args.reason)
    for e in up.removed:
        print(f"removed (now passes): {e.label()} ({e.reason})")
    for e, parts in up.narrowed:
        print(f"narrowed (some of its checks pass): {e.label()} -> {_entries(len(parts))}")
    for e in up.added:
        print(f"added: {e.label()} ({e.reason})")
    if results.footer is None or not results.complete:
        print("note: a partial run; entries for checks that did not run are kept as they are")
    errored = sorted(r["id"] for r in results.checks if r.get("outcome") == "errored")
    if errored:
        shown = ", ".join(errored[:5]) + (f" and {len(errored) - 5} more" if len(errored) > 5 else "")
        are = "checks are" if len(errored) != 1 else "check is"
        print(
            f"note: {len(errored)} errored {are} not listed ({shown}): "
            "an errored check (a crash, a hang, a protocol error) is no known failure, so a run fails on it "
            "with or without an entry; fix the translator or its harness, or deselect it (-k 'not …')"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dumps(up.entries), encoding="utf-8")
    print(
        f"wrote {out}: {_entries(len(up.entries))} ({len(up.kept)} kept, {len(up.added)} added, "
        f"{len(up.removed)} removed, {len(up.narrowed)} narrowed)"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``toolwire expectations {update,check}``; exit 2 (with a message, never a traceback) on bad input."""
    parser = argparse.ArgumentParser(
        prog="toolwire expectations",
        description="Known-failure files: validate one, or write/refresh one from a run's results.",
    )
    sub = parser.add_subparsers(dest="command", metavar="<command>", required=True)
    up = sub.add_parser(
        "update",
        help="write or refresh an expectations file from a results.jsonl",
        description="Keep entries that still fail, remove entries whose checks now pass, add every failed "
        "check no entry lists (narrowed to pair and profile). Entries are sorted; comments are not kept.",
    )
    up.add_argument("--from", dest="results", required=True, metavar="RESULTS.jsonl", help="a run's results")
    up.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default=None,
        help=f"the file to write (and refresh, if it exists); default: the run's expectations file, "
        f"else {DEFAULT_FILE}",
    )
    up.add_argument("--reason", default=TODO, help=f"reason of new entries (default {TODO!r})")
    up.add_argument("--corpus", metavar="DIR", default=None, help="corpus (default: the run's, else bundled)")
    ck = sub.add_parser("check", help="validate an expectations file against the schema and the corpus")
    ck.add_argument("file", metavar="FILE")
    ck.add_argument("--corpus", metavar="DIR", default=None, help="corpus directory (default: bundled)")
    ck.add_argument("--strict", action="store_true", help="exit 1 when an entry matches no check")
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "check":
            return _cmd_check(args)
        return _cmd_update(args)
    except (ExpectationsError, CorpusError, FileNotFoundError) as exc:
        print(f"toolwire expectations: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"toolwire expectations: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
