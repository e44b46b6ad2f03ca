"""pytest plugin: one test item per corpus check, results written once by the controller (xdist-safe).

Inactive unless ``--toolwire-adapter`` is given. Items need no test files: they are added under the session
during collection, in corpus order, so every xdist worker collects the same list. Each item's record travels
in ``report.user_properties`` to the process that writes ``--toolwire-results``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

__all__ = ["CheckItem", "CorpusCollector", "ToolwireSession"]

_PROPERTY = "toolwire"
#: the command line recorded in the results header; `toolwire run` sets it (else pytest's own arguments)
RUN_ARGV: list[str] | None = None
_ROOT_NAME = "toolwire"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolwire", "toolwire conformance suite")
    group.addoption(
        "--toolwire-adapter",
        metavar="SPEC",
        default=None,
        help="run the toolwire corpus against this implementation: 'reference' or python:pkg.mod:obj",
    )
    group.addoption(
        "--toolwire-corpus",
        metavar="DIR",
        default=None,
        help="corpus directory (default: the bundled corpus)",
    )
    group.addoption(
        "--toolwire-timeout",
        metavar="SECONDS",
        type=float,
        default=None,
        help="seconds one translation may take before its check is errored as hung "
        "(default 30, 10 for cmd: adapters; 0: no limit)",
    )
    group.addoption(
        "--toolwire-max-errors",
        metavar="N",
        type=int,
        default=None,
        help="stop the run after N errored checks (crashes, hangs, protocol errors); the results are partial",
    )
    group.addoption(
        "--toolwire-validate-protocol",
        action="store_true",
        default=False,
        help="cmd: adapters: validate every answer against schemas/protocol/ (for people writing a harness)",
    )
    group.addoption(
        "--toolwire-adapter-cwd",
        metavar="DIR",
        default=None,
        help="cmd: adapters: the directory the process starts in (default: the current directory)",
    )
    group.addoption(
        "--toolwire-results",
        metavar="FILE",
        default=None,
        help="write results.jsonl here (header, one record per check, footer)",
    )
    group.addoption(
        "--toolwire-expectations",
        metavar="FILE",
        default=None,
        help="known failures (TOML): listed checks that fail are xfailed, that pass are xpassed (stale)",
    )
    group.addoption(
        "--toolwire-strict-expectations",
        action="store_true",
        default=False,
        help="fail the run on an xpassed check or an expectations entry that matches no check",
    )


def pytest_configure(config: pytest.Config) -> None:
    spec = config.getoption("toolwire_adapter", None)
    if not spec:
        return
    config.pluginmanager.register(ToolwireSession(config, spec), "toolwire-session")


class CheckFailed(Exception):
    """A check failed or errored; carries the result for :meth:`CheckItem.repr_failure`."""

    def __init__(self, outcome: str, text: str) -> None:
        super().__init__(text)
        self.outcome = outcome
        self.text = text


class ExpectedFailure(CheckFailed):
    """A listed check failed (xfailed); an errored check raises plain :class:`CheckFailed`."""


class CheckItem(pytest.Item):
    """One check: ``<case id>[<source>><target>,k=v]``."""

    def __init__(self, *, check: Any, owner: ToolwireSession, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check
        self.owner = owner
        self.add_marker("toolwire")
        self.add_marker(f"toolwire_{check.area}")
        self.add_marker(f"toolwire_{check.level}")
        if getattr(check, "round_trip", False):
            self.add_marker("toolwire_round_trip")
        # a listed check: pytest reports its failure as xfailed and its pass as xpass (strict: a failure)
        self.expected = owner.expectations.lookup(check) if owner.expectations is not None else None
        if self.expected is not None:
            self.add_marker(
                pytest.mark.xfail(
                    reason=self.expected.reason, strict=owner.strict_expectations, raises=ExpectedFailure
                )
            )

    def runtest(self) -> None:
        from .checks import run_check
        from .results import check_record

        result = run_check(self.owner.adapter, self.check, self.owner.corpus.profiles)
        record = check_record(self.check, result)
        if self.expected is not None:
            from .expectations import apply

            apply(record, self.expected)
            if result.outcome == "failed":
                self.user_properties.append((_PROPERTY, json.dumps(record, ensure_ascii=False)))
                raise ExpectedFailure("failed", _explain(record))
        self.user_properties.append((_PROPERTY, json.dumps(record, ensure_ascii=False)))
        if result.outcome == "skipped":
            pytest.skip(result.message or "not applicable")
        if result.outcome in ("failed", "errored"):
            raise CheckFailed(result.outcome, _explain(record))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CheckFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.check.case.path, None, self.check.id


def _explain(record: dict[str, Any]) -> str:
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


class CorpusCollector(pytest.Collector):
    """The node under the session that holds every check item."""

    def __init__(self, *, owner: ToolwireSession, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.owner = owner

    def collect(self) -> list[pytest.Item]:
        return [
            CheckItem.from_parent(self, name=check.id, check=check, owner=self.owner)
            for check in self.owner.corpus.checks()
        ]


class ToolwireSession:
    """Per-process state of an active toolwire run."""

    def __init__(self, config: pytest.Config, spec: str) -> None:
        from .adapters import AdapterError, load_adapter
        from .corpus import CorpusError, load_corpus

        self.config = config
        self.is_worker = hasattr(config, "workerinput")
        try:
            self.corpus = load_corpus(config.getoption("toolwire_corpus"))
        except (CorpusError, FileNotFoundError) as exc:
            raise pytest.UsageError(f"toolwire: {exc}") from exc
        try:
            timeout = config.getoption("toolwire_timeout")
            self.adapter = load_adapter(
                spec,
                timeout="default" if timeout is None else timeout,
                validate_protocol=bool(config.getoption("toolwire_validate_protocol", False)),
                cwd=config.getoption("toolwire_adapter_cwd", None),
            )
        except AdapterError as exc:
            raise pytest.UsageError(f"toolwire: {exc}") from exc
        from .capabilities import problems

        bad = problems(self.adapter.capabilities, self.corpus)
        if bad:
            self.adapter.close()
            raise pytest.UsageError("\n".join(f"toolwire: {spec}: capabilities: {line}" for line in bad))
        results = config.getoption("toolwire_results")
        self.results_path = Path(results).resolve() if results else None
        self.records: dict[str, dict[str, Any]] = {}
        self.max_errors: int | None = config.getoption("toolwire_max_errors", None)
        self.errored = 0
        self.stopped: str | None = None  # why --toolwire-max-errors stopped the run
        self.session: pytest.Session | None = None
        self.interrupted = False
        self.started: str | None = None
        self.written: Path | None = None
        self.complete = False
        self.strict_expectations = bool(config.getoption("toolwire_strict_expectations", False))
        self.expectations = None
        self._unmatched: list[Any] | None = None
        if config.getoption("toolwire_expectations", None):
            from .expectations import ExpectationsError, load

            try:
                self.expectations = load(config.getoption("toolwire_expectations"), self.corpus)
            except ExpectationsError as exc:
                raise pytest.UsageError(f"toolwire: {exc}") from exc
        self.check_ids = {f"{_ROOT_NAME}::{c.id}": c for c in self.corpus.checks()}
        config.addinivalue_line("markers", "toolwire: a toolwire corpus check")
        config.addinivalue_line(
            "markers", "toolwire_round_trip: toolwire round-trip checks (source > target > source)"
        )
        for level in ("must", "should", "may"):
            config.addinivalue_line("markers", f"toolwire_{level}: toolwire checks of level {level}")
        for area in sorted({c.area for c in self.corpus.cases}):
            config.addinivalue_line("markers", f"toolwire_{area}: toolwire checks of the {area} area")

    # -- reporting ------------------------------------------------------------------------------------
    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        return [
            f"toolwire: corpus {self.corpus.version} ({self.corpus.hash[:12]}) at {self.corpus.root}; "
            f"adapter {self.adapter.spec} = {self.adapter.name} {self.adapter.version}"
        ]

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        from .results import now

        self.started = now()
        self.session = session

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.adapter.close()  # cmd: adapters say bye to their process

    def _count_error(self, record: dict[str, Any]) -> None:
        """``--toolwire-max-errors``: stop after N errored checks. Under xdist the controller stops handing
        out checks and each worker also stops at N of its own (workers finish the checks queued to them
        otherwise), so a parallel run records at least N and at most N per worker."""
        if record.get("outcome") != "errored" or not self.max_errors:
            return
        self.errored += 1
        if self.errored >= self.max_errors and not self.stopped:
            self.stopped = f"stopped after {self.errored} errored checks (--max-errors {self.max_errors})"
            dsession = self.config.pluginmanager.getplugin("dsession")  # pytest-xdist's controller
            if dsession is not None:
                dsession.shouldstop = self.stopped
            elif self.session is not None:
                self.session.shouldstop = self.stopped

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        # tryfirst: the items must exist before -k / -m deselection runs
        collector = CorpusCollector.from_parent(session, name=_ROOT_NAME, nodeid=_ROOT_NAME, owner=self)
        items.extend(session.genitems(collector))  # full collection protocol: hooks, counts, reports

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == _PROPERTY:
                rec = json.loads(value) if isinstance(value, str) else value
                new = rec["id"] not in self.records
                self.records[rec["id"]] = rec
                if new:
                    self._count_error(rec)
                return
        check = self.check_ids.get(report.nodeid)
        if check is None or check.id in self.records or not report.failed:
            return
        # a failure without a record: the worker crashed or pytest broke around the check
        from .checks import CheckResult
        from .results import check_record

        text = str(report.longrepr)[-3000:] if report.longrepr else "no details"
        self.records[check.id] = check_record(
            check, CheckResult("errored", message=f"the check did not complete: {text}")
        )
        self._count_error(self.records[check.id])

    def pytest_keyboard_interrupt(self, excinfo: Any) -> None:
        self.interrupted = True

    def nothing_applied(self) -> bool:
        """Every check of the run was skipped: the implementation declares nothing the corpus has."""
        return bool(self.records) and all(r.get("outcome") == "skipped" for r in self.records.values())

    def selection(self) -> str | None:
        """How the run was filtered (None: not at all)."""
        opt = self.config.option
        parts = []
        if getattr(opt, "keyword", ""):
            parts.append(f"-k {opt.keyword}")
        if getattr(opt, "markexpr", ""):
            parts.append(f"-m {opt.markexpr}")
        for nodeid in getattr(opt, "deselect", None) or []:
            parts.append(f"--deselect {nodeid}")
        return " ".join(parts) or None

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.is_worker:
            return
        from .results import footer, header, write_results

        selection = self.selection()
        interrupted = self.interrupted or exitstatus == pytest.ExitCode.INTERRUPTED
        every = {c.id for c in self.check_ids.values()}
        self.complete = not interrupted and selection is None and every <= set(self.records)
        if self.strict_expectations and self.unmatched_expectations() and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # a typo in the expectations file
        passing = session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
        if self.nothing_applied() and passing:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # a run that judged nothing is no pass
        if self.results_path is None:
            return
        import sys

        records = list(self.records.values())
        head = header(
            self.corpus,
            self.adapter.metadata(),
            started=self.started,
            argv=RUN_ARGV
            if RUN_ARGV is not None
            else sys.argv[:1] + list(self.config.invocation_params.args),
            selection=selection,
        )
        if self.expectations is not None:
            head["expectations"] = self.expectations.header(
                strict=self.strict_expectations, unmatched=self.unmatched_expectations()
            )
        self.written = write_results(
            self.results_path, head, records, footer(records, complete=self.complete)
        )

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        from .results import summary_line

        terminalreporter.write_line(summary_line(list(self.records.values())))
        if self.nothing_applied():
            caps = self.adapter.capabilities
            declared = {k: [">".join(p) for p in v] for k, v in (caps.get("kinds") or {}).items()}
            reasons = Counter(str(r.get("message", "")) for r in self.records.values()).most_common(3)
            terminalreporter.write_line(
                f"toolwire: FAILED: no check applies to {self.adapter.name} (it declares "
                f"{declared or 'no kinds'}, profiles {caps.get('profiles') or {}}); most common reasons: "
                + "; ".join(f"{n}× {why}" for why, n in reasons)
            )
        if not self.complete:
            missing = len({c.id for c in self.check_ids.values()} - set(self.records))
            why = []
            if self.selection():
                why.append(f"selection {self.selection()}")
            if self.stopped:
                why.append(self.stopped)
            elif self.interrupted:
                why.append("interrupted")
            if missing:
                why.append(f"{missing} of {len(self.check_ids)} checks not run")
            terminalreporter.write_line(f"toolwire: PARTIAL run ({'; '.join(why) or 'incomplete'})")
        if self.expectations is not None:
            self.expectations_summary(terminalreporter)
        if self.written is not None:
            terminalreporter.write_line(f"toolwire: results written to {self.written}")

    def unmatched_expectations(self) -> list[Any]:
        """Expectations entries that match no check of the corpus (a typo, or a check since removed)."""
        if self.expectations is None:
            return []
        if self._unmatched is None:
            self._unmatched = self.expectations.unmatched(self.check_ids.values())
        return self._unmatched

    def expectations_summary(self, terminalreporter: Any) -> None:
        stale = sorted(r["id"] for r in self.records.values() if r.get("outcome") == "xpassed")
        strict = " (strict: the run fails)" if self.strict_expectations else ""
        for check_id in stale:
            terminalreporter.write_line(
                f"toolwire: unexpected pass, stale expectations entry{strict}: {check_id}"
            )
        for entry in self.unmatched_expectations():
            terminalreporter.write_line(
                f"toolwire: {self.expectations.path}: {entry.label()}: matches no check of the corpus{strict}"
            )
