"""One run of the corpus against one implementation: the state both front ends share, and ``toolwire run``'s
own loop.

:class:`Run` holds what a run knows (the corpus, the adapter, the expectations, a record per check, why it
stopped) and says it (the results file, the closing lines). The pytest plugin drives it one test item per
check; :func:`run_checks` drives it directly, without pytest's per-item machinery, which costs about as much
as the checks themselves on a fast translator. Both give the same records for the same checks.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from .adapters import Adapter
    from .corpus import Check, Corpus

__all__ = [
    "Run",
    "RunOptions",
    "WorkerSetupError",
    "execute",
    "explain",
    "markers",
    "run_checks",
    "select",
    "workers_of",
]

#: the progress letter of each outcome (as pytest prints them)
_LETTERS = {"passed": ".", "failed": "F", "errored": "E", "skipped": "s", "xfailed": "x", "xpassed": "X"}
_WIDTH = 72
#: checks handed to a worker at once (-n): small enough to balance, large enough to amortise the hand-over
_BATCH = 40


def markers(check: Check) -> list[str]:
    """The marker names of a check (``-k`` and ``-m`` select by them)."""
    names = ["toolwire", f"toolwire_{check.area}", f"toolwire_{check.level}"]
    if check.round_trip:
        names.append("toolwire_round_trip")
    return names


def explain(record: dict[str, Any]) -> str:
    """What a failed or errored check shows: outcome, id, level and features, message, diff, wire errors."""
    lines = [
        f"{record['outcome'].upper()} {record['id']} ({record['level']}; {', '.join(record['features'])})"
    ]
    if record.get("message"):
        lines.append(record["message"])
    if record.get("diff"):
        lines.append(record["diff"])
    if record.get("wire_valid") is False:
        lines.append(f"invalid for the {record['target']} wire schema:")
        lines.extend(f"  {e}" for e in record.get("wire_errors", [])[:10])
    return "\n".join(lines)


@dataclass
class Run:
    """What one run knows: its checks' records, why it stopped, and how to write and summarise them."""

    corpus: Corpus
    adapter: Adapter
    results_path: Path | None = None
    expectations: Any = None
    strict_expectations: bool = False
    max_errors: int | None = None
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    errored: int = 0
    #: why --max-errors stopped the run
    stopped: str | None = None
    interrupted: bool = False
    started: str | None = None
    written: Path | None = None
    complete: bool = False
    #: the keys the implementation wrote into its own log (``Adapter.logged_secrets``), read at the end
    secrets_logged: list[str] = field(default_factory=list)
    _unmatched: list[Any] | None = None

    def __post_init__(self) -> None:
        from .adapters.delivery import reads_from_network

        self.corpus.network_delivery = reads_from_network(self.adapter)

    def execute(self, check: Check) -> dict[str, Any]:
        """Run one check; its record, with the expectations entry that lists it applied."""
        return execute(self.adapter, check, self.corpus, self.expectations)

    def add(self, record: dict[str, Any]) -> bool:
        """Keep a check's record; True when it was the errored check that reaches --max-errors."""
        new = record["id"] not in self.records
        self.records[record["id"]] = record
        if not new or record.get("outcome") != "errored" or not self.max_errors:
            return False
        self.errored += 1
        if self.errored >= self.max_errors and not self.stopped:
            self.stopped = f"stopped after {self.errored} errored checks (--max-errors {self.max_errors})"
            return True
        return False

    def nothing_applied(self) -> bool:
        """Every check of the run was skipped: the implementation declares nothing the corpus has."""
        return bool(self.records) and all(r.get("outcome") == "skipped" for r in self.records.values())

    def unmatched_expectations(self) -> list[Any]:
        """Expectations entries that match no check of the corpus (a typo, or a check since removed)."""
        if self.expectations is None:
            return []
        if self._unmatched is None:
            self._unmatched = self.expectations.unmatched(self.corpus.checks())
        return self._unmatched

    def failing(self, passing: bool) -> bool:
        """Whether a run pytest (or the loop) calls passing fails on what only toolwire knows: an
        expectations entry that matches nothing (strict), or nothing applied."""
        if not passing:
            return True
        return bool(self.strict_expectations and self.unmatched_expectations()) or self.nothing_applied()

    def finish(self, *, selection: str | None, argv: list[str]) -> None:
        """Decide completeness and write the results file (when there is one)."""
        from .results import footer, header, write_results

        every = {c.id for c in self.corpus.checks()}
        self.complete = not self.interrupted and selection is None and every <= set(self.records)
        if self.results_path is None:
            return
        records = list(self.records.values())
        head = header(
            self.corpus, self.adapter.metadata(), started=self.started, argv=argv, selection=selection
        )
        if self.expectations is not None:
            head["expectations"] = self.expectations.header(
                strict=self.strict_expectations, unmatched=self.unmatched_expectations()
            )
        tail = footer(records, complete=self.complete, secrets_logged=self.secrets_logged)
        self.written = write_results(self.results_path, head, records, tail)

    def closing_lines(self, selection: str | None) -> list[str]:
        """The lines a run ends with: counts, why nothing applied, why it is partial, stale expectations."""
        from .reports.scoring import errored_streak
        from .results import summary_line

        lines = [summary_line(list(self.records.values()))]
        streak = errored_streak(self.records.values())
        if streak:
            lines.append(f"toolwire: warning: {streak.replace('`', '')}")
        lines += shape_warnings(self.records.values())
        if self.nothing_applied():
            caps = self.adapter.capabilities
            declared = {k: [">".join(p) for p in v] for k, v in (caps.get("kinds") or {}).items()}
            reasons = Counter(str(r.get("message", "")) for r in self.records.values()).most_common(3)
            lines.append(
                f"toolwire: FAILED: no check applies to {self.adapter.name} (it declares "
                f"{declared or 'no kinds'}, profiles {caps.get('profiles') or {}}); most common reasons: "
                + "; ".join(f"{n}× {why}" for why, n in reasons)
            )
        if not self.complete:
            total = len(self.corpus.checks())
            missing = len({c.id for c in self.corpus.checks()} - set(self.records))
            why = []
            if selection:
                why.append(f"selection {selection}")
            if self.stopped:
                why.append(self.stopped)
            elif self.interrupted:
                why.append("interrupted")
            if missing:
                why.append(f"{missing} of {total} checks not run")
            lines.append(f"toolwire: PARTIAL run ({'; '.join(why) or 'incomplete'})")
        if self.expectations is not None:
            strict = " (strict: the run fails)" if self.strict_expectations else ""
            stale = sorted(r["id"] for r in self.records.values() if r.get("outcome") == "xpassed")
            lines += [f"toolwire: unexpected pass, stale expectations entry{strict}: {i}" for i in stale]
            lines += [
                f"toolwire: {self.expectations.path}: {entry.label()}: matches no check of the corpus{strict}"
                for entry in self.unmatched_expectations()
            ]
        if self.written is not None:
            lines.append(f"toolwire: results written to {self.written}")
        return lines


def execute(adapter: Adapter, check: Check, corpus: Corpus, expectations: Any = None) -> dict[str, Any]:
    """Run one check; its results record (an expectations entry that lists it turns failed into xfailed
    and passed into xpassed)."""
    from .judge import run_check
    from .results import check_record

    record = check_record(check, run_check(adapter, check, corpus.profiles))
    if expectations is not None:
        from .expectations import apply

        apply(record, expectations.lookup(check))
    return record


@dataclass
class RunOptions:
    """What ``toolwire run`` was asked (the adapter is loaded already; workers load their own)."""

    adapter_spec: str
    corpus_dir: str | None = None
    keyword: str | None = None
    markexpr: str | None = None
    workers: int = 0
    timeout: float | None = None
    validate_protocol: bool = False
    cwd: str | None = None
    verbose: bool = False
    #: no progress letters (the failures and the summary are printed all the same)
    quiet: bool = False
    argv: list[str] = field(default_factory=list)


def select(corpus: Corpus, keyword: str | None, markexpr: str | None = None) -> list[Check]:
    """The checks ``-k keyword`` and ``-m markexpr`` select, in corpus order (SelectionError on a malformed
    expression)."""
    from .selection import compile_keyword, compile_markers

    checks = list(corpus.checks())
    if keyword:
        by_word = compile_keyword(keyword)
        checks = [c for c in checks if by_word([c.id, *markers(c)])]
    if markexpr:
        by_marker = compile_markers(markexpr)
        checks = [c for c in checks if by_marker(markers(c))]
    return checks


def selection_of(keyword: str | None, markexpr: str | None) -> str | None:
    """How a run was filtered, as the results header records it (None: not at all)."""
    parts = [f"-k {keyword}" if keyword else "", f"-m {markexpr}" if markexpr else ""]
    return " ".join(p for p in parts if p) or None


def run_checks(run: Run, options: RunOptions, out: TextIO = sys.stdout) -> int:
    """Run the selected checks (in this process, or ``options.workers`` processes), print progress and
    the failures, write the results; the exit code (0 pass, 1 a failure, 2 interrupted)."""
    from .results import now

    checks = select(run.corpus, options.keyword, options.markexpr)
    selection = selection_of(options.keyword, options.markexpr)
    print(
        f"toolwire: corpus {run.corpus.version} ({run.corpus.hash[:12]}) at {run.corpus.root}; "
        f"adapter {run.adapter.spec} = {run.adapter.name} {run.adapter.version}; {len(checks)} checks"
        + (f" of {len(run.corpus.checks())} selected by {selection}" if selection else ""),
        file=out,
    )
    if selection and not checks:
        areas = ", ".join(sorted({f"toolwire_{c.area}" for c in run.corpus.cases}))
        print(
            f"toolwire: {selection} selects no check. Markers: toolwire, toolwire_must, toolwire_should, "
            f"toolwire_may, toolwire_round_trip, {areas}; -k also matches words of check ids",
            file=out,
        )
    run.started = now()
    start = time.perf_counter()
    progress = _Progress(len(checks), options.verbose, out, quiet=options.quiet)
    try:
        if options.workers > 1 and len(checks) > 1:
            _run_parallel(run, options, checks, progress)
        else:
            for check in checks:
                record = run.execute(check)
                progress.show(record)
                if run.add(record):
                    break
    except KeyboardInterrupt:
        run.interrupted = True
    except WorkerSetupError as exc:
        progress.end()
        print(
            f"toolwire: -n {options.workers}: a worker process could not load the implementation: {exc}",
            file=sys.stderr,
        )
        return 2
    progress.end()
    run.secrets_logged = run.adapter.logged_secrets()
    run.finish(selection=selection, argv=options.argv)
    shown = [r for r in run.records.values() if r.get("outcome") in ("failed", "errored")]
    for record in sorted(shown, key=lambda r: r["id"]):
        print(f"\n{'_' * 10} toolwire::{record['id']} {'_' * 10}\n{explain(record)}", file=out)
    if shown:
        print("", file=out)
    for record in sorted(shown, key=lambda r: r["id"]):
        first = (record.get("message") or "").splitlines()[:1]
        print(
            f"{record['outcome'].upper()} toolwire::{record['id']}" + (f" - {first[0]}" if first else ""),
            file=out,
        )
    for line in run.closing_lines(selection):
        print(line, file=out)
    counts = Counter(r.get("outcome") for r in run.records.values())
    print(
        ", ".join(f"{n} {o}" for o, n in sorted(counts.items(), key=lambda kv: -kv[1]))
        + f" in {time.perf_counter() - start:.2f}s",
        file=out,
    )
    for what in run.secrets_logged:
        print(f"toolwire: FAILED: the implementation wrote {what} into its log", file=out)
    if run.interrupted:
        return 2
    passing = not counts["failed"] and not counts["errored"] and not run.secrets_logged
    if run.strict_expectations and counts["xpassed"]:
        passing = False
    return 1 if run.failing(passing) else 0


#: what a payload of each kind is (corpus/README.md, "Payloads per kind")
PAYLOAD_SHAPES = {
    "tools": 'the request\'s tool list, e.g. [{"type": "function", "function": {…}}]',
    "tool_choice": 'the request members that carry the choice, e.g. {"tool_choice": …}, not the bare choice',
    "request": "a whole request body",
    "response": "a whole response body",
    "stream": 'a list of events {"event"?, "data"}',
    "text": "the model's text, a string",
}
#: a kind's checks are flagged when at least this many were judged and this share of them was refused or
#: crashed where a payload was expected
_SHAPE_MIN_CHECKS, _SHAPE_SHARE = 5, 0.8


def shape_warnings(records: Iterable[dict[str, Any]]) -> list[str]:
    """A warning per kind whose checks that expect a payload the translator almost all refused or crashed on:
    the usual cause is reading another payload shape than the corpus gives for that kind."""
    judged: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for record in records:
        judged_payload = record.get("outcome") in ("passed", "failed", "errored", "xfailed", "xpassed")
        if not judged_payload or "expected_error" in record:
            continue
        kind = str(record.get("kind"))
        judged[kind] += 1
        message = str(record.get("message") or "")
        if record.get("outcome") == "errored" or "where a payload was expected" in message:
            refused[kind] += 1
    lines = []
    for kind, n in sorted(judged.items()):
        if n >= _SHAPE_MIN_CHECKS and refused[kind] >= _SHAPE_SHARE * n and kind in PAYLOAD_SHAPES:
            lines.append(
                f"toolwire: warning: {refused[kind]} of {n} {kind} checks were refused or crashed where a "
                "payload was expected: does the translator read this kind's payload? It is "
                f"{PAYLOAD_SHAPES[kind]} "
                '(corpus/README.md, "Payloads per kind")'
            )
    return lines


class _Progress:
    """pytest's progress: a letter per check, 72 to a line with the share done (or a line per check, or
    nothing with ``quiet``)."""

    def __init__(self, total: int, verbose: bool, out: TextIO, quiet: bool = False) -> None:
        self.total, self.verbose, self.out, self.quiet = total, verbose, out, quiet
        self.done = 0
        self.column = 0

    def show(self, record: dict[str, Any]) -> None:
        self.done += 1
        if self.quiet:
            return
        outcome = record.get("outcome", "errored")
        if self.verbose:
            why = f" ({record['message']})" if outcome == "skipped" and record.get("message") else ""
            print(f"toolwire::{record['id']} {outcome.upper()}{why}", file=self.out)
            return
        self.out.write(_LETTERS.get(outcome, "?"))
        self.column += 1
        if self.column == _WIDTH:
            self.out.write(f" [{self.done * 100 // max(self.total, 1):3d}%]\n")
            self.column = 0
        self.out.flush()

    def end(self) -> None:
        if self.column and not self.verbose:
            pad = " " * (_WIDTH - self.column)
            self.out.write(f"{pad} [{self.done * 100 // max(self.total, 1):3d}%]\n")
        self.out.flush()


# -- -n: worker processes ---------------------------------------------------------------------------------
_worker: dict[str, Any] = {}


class WorkerSetupError(Exception):
    """A worker process could not load the corpus or the implementation (the run cannot go on)."""


def _worker_start(options: RunOptions, expectations_path: str | None) -> None:
    """Load what a worker needs; a failure is kept and reported by the first batch (an initializer that
    raises would only break the pool, and every check would be blamed for it)."""
    from .adapters import load_adapter
    from .corpus import load_corpus

    try:
        corpus = load_corpus(options.corpus_dir)
        adapter = load_adapter(
            options.adapter_spec,
            timeout="default" if options.timeout is None else options.timeout,
            validate_protocol=options.validate_protocol,
            cwd=options.cwd,
        )
        expectations = None
        if expectations_path:
            from .expectations import load

            expectations = load(expectations_path, corpus)
        from .adapters.delivery import reads_from_network

        corpus.network_delivery = reads_from_network(adapter)  # the checks of this implementation
    except Exception as exc:
        _worker["setup_error"] = f"{type(exc).__name__}: {exc}"
        return
    _worker.update(
        corpus=corpus, adapter=adapter, expectations=expectations, checks={c.id: c for c in corpus.checks()}
    )


def _worker_batch(check_ids: Sequence[str], max_errors: int | None) -> list[dict[str, Any]]:
    """Run a batch of checks in a worker; stop at ``max_errors`` errored checks of this worker's own."""
    if "setup_error" in _worker:
        raise WorkerSetupError(_worker["setup_error"])
    checks = _worker["checks"]
    out = []
    for check_id in check_ids:
        record = execute(_worker["adapter"], checks[check_id], _worker["corpus"], _worker["expectations"])
        out.append(record)
        if record["outcome"] == "errored" and max_errors:
            _worker["errored"] = _worker.get("errored", 0) + 1
            if _worker["errored"] >= max_errors:
                break
    return out


class _Pool:
    """``workers`` spawned processes (each loads the corpus and its own adapter: a ``cmd:`` process per
    worker; ``toolwire run`` never hands an ``http:`` adapter to workers), started again when one dies."""

    def __init__(self, run: Run, options: RunOptions) -> None:
        path = getattr(run.expectations, "path", None)
        self.args = (options, str(path) if path else None)
        self.workers = options.workers
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=get_context("spawn"),
            initializer=_worker_start,
            initargs=self.args,
        )

    def restart(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = self._start()


def _run_parallel(run: Run, options: RunOptions, checks: list[Check], progress: _Progress) -> None:
    """Hand the checks out in batches to worker processes; stop handing out at --max-errors. When a worker
    process dies (a translator that kills its interpreter), the batches it took down run again one check
    at a time, so the check that kills a worker is the one blamed."""
    from .judge.checks import CheckResult
    from .results import check_record

    size = max(1, min(_BATCH, len(checks) // (options.workers * 4)))
    queue = deque(([c.id for c in checks[i : i + size]], False) for i in range(0, len(checks), size))
    by_id = {c.id: c for c in checks}
    pool = _Pool(run, options)
    pending: dict[Future[list[dict[str, Any]]], tuple[list[str], bool]] = {}

    def hand_out(n: int) -> None:
        while queue and len(pending) < n:
            if queue[0][1] and pending:
                return  # a check under suspicion runs with nothing beside it
            batch, alone = queue.popleft()
            try:
                future = pool.executor.submit(_worker_batch, batch, run.max_errors)
            except BrokenProcessPool:  # a worker died after the last wait returned: not this batch's doing
                queue.appendleft((batch, alone))
                if pending:
                    return  # the pending batches come back broken, and the loop below sorts them out
                pool.restart()
                continue
            pending[future] = (batch, alone)
            if alone:
                return

    try:
        hand_out(options.workers * 2)
        while pending and not run.stopped:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                batch, alone = pending.pop(future)
                try:
                    records = future.result()
                except BrokenProcessPool as exc:
                    broken = True
                    if not alone:  # which check killed it is unknown: each runs again, alone
                        queue.extendleft(([i], True) for i in reversed(batch))
                        continue
                    why = f"the check did not complete: the worker process running it died ({exc})"
                    records = [check_record(by_id[batch[0]], CheckResult("errored", message=why))]
                for record in records:
                    progress.show(record)
                    run.add(record)
            if broken:
                for batch, _ in pending.values():  # their worker pool is gone too: again, on their own
                    queue.extendleft(([i], True) for i in reversed(batch))
                pending.clear()
                pool.restart()
            hand_out(options.workers * 2)
    finally:
        pool.executor.shutdown(wait=not run.stopped, cancel_futures=True)


def workers_of(value: str) -> int:
    """``-n``: a number, or ``auto`` (the CPU count)."""
    if value.strip() == "auto":
        return os.cpu_count() or 1
    return int(value)
