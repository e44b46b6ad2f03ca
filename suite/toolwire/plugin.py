"""pytest plugin: one test item per corpus check, results written once by the controller (xdist-safe).

Inactive unless ``--toolwire-adapter`` is given. Items need no test files: they are added under the session
during collection, in corpus order, so every xdist worker collects the same list. Each item's record travels
in ``report.user_properties`` to the process that writes ``--toolwire-results``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .runner import Run, explain, markers

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
        for name in markers(check):
            self.add_marker(name)
        # a listed check: pytest reports its failure as xfailed and its pass as xpass (strict: a failure)
        self.expected = owner.expectations.lookup(check) if owner.expectations is not None else None
        if self.expected is not None:
            self.add_marker(
                pytest.mark.xfail(
                    reason=self.expected.reason, strict=owner.strict_expectations, raises=ExpectedFailure
                )
            )

    def runtest(self) -> None:
        record = self.owner.run.execute(self.check)
        self.user_properties.append((_PROPERTY, json.dumps(record, ensure_ascii=False)))
        outcome = record["outcome"]
        if outcome == "xfailed":
            raise ExpectedFailure("failed", explain(record))
        if outcome == "skipped":
            pytest.skip(record.get("message") or "not applicable")
        if outcome in ("failed", "errored"):
            raise CheckFailed(outcome, explain(record))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CheckFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.check.case.path, None, self.check.id


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
    """Per-process state of an active toolwire run (a :class:`toolwire.runner.Run` driven by pytest)."""

    def __init__(self, config: pytest.Config, spec: str) -> None:
        from .adapters import AdapterError, load_adapter
        from .corpus import CorpusError, load_corpus

        self.config = config
        self.is_worker = hasattr(config, "workerinput")
        try:
            corpus = load_corpus(config.getoption("toolwire_corpus"))
        except (CorpusError, FileNotFoundError) as exc:
            raise pytest.UsageError(f"toolwire: {exc}") from exc
        try:
            timeout = config.getoption("toolwire_timeout")
            adapter = load_adapter(
                spec,
                timeout="default" if timeout is None else timeout,
                validate_protocol=bool(config.getoption("toolwire_validate_protocol", False)),
                cwd=config.getoption("toolwire_adapter_cwd", None),
            )
        except AdapterError as exc:
            raise pytest.UsageError(f"toolwire: {exc}") from exc
        from .capabilities import problems

        bad = problems(adapter.capabilities, corpus)
        if bad:
            adapter.close()
            raise pytest.UsageError("\n".join(f"toolwire: {spec}: capabilities: {line}" for line in bad))
        results = config.getoption("toolwire_results")
        self.run = Run(
            corpus,
            adapter,
            results_path=Path(results).resolve() if results else None,
            strict_expectations=bool(config.getoption("toolwire_strict_expectations", False)),
            max_errors=config.getoption("toolwire_max_errors", None),
        )
        self.corpus = corpus
        self.adapter = adapter
        self.session: pytest.Session | None = None
        if config.getoption("toolwire_expectations", None):
            from .expectations import ExpectationsError, load

            try:
                self.run.expectations = load(config.getoption("toolwire_expectations"), corpus)
            except ExpectationsError as exc:
                raise pytest.UsageError(f"toolwire: {exc}") from exc
        self.expectations = self.run.expectations
        self.strict_expectations = self.run.strict_expectations
        self.check_ids = {f"{_ROOT_NAME}::{c.id}": c for c in corpus.checks()}
        config.addinivalue_line("markers", "toolwire: a toolwire corpus check")
        config.addinivalue_line(
            "markers", "toolwire_round_trip: toolwire round-trip checks (source > target > source)"
        )
        for level in ("must", "should", "may"):
            config.addinivalue_line("markers", f"toolwire_{level}: toolwire checks of level {level}")
        for area in sorted({c.area for c in corpus.cases}):
            config.addinivalue_line("markers", f"toolwire_{area}: toolwire checks of the {area} area")

    @property
    def records(self) -> dict[str, dict[str, Any]]:
        """The records so far, by check id."""
        return self.run.records

    # -- reporting ------------------------------------------------------------------------------------
    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        return [
            f"toolwire: corpus {self.corpus.version} ({self.corpus.hash[:12]}) at {self.corpus.root}; "
            f"adapter {self.adapter.spec} = {self.adapter.name} {self.adapter.version}"
        ]

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        from .results import now

        self.run.started = now()
        self.session = session

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.adapter.close()  # cmd: adapters say bye to their process

    def _add(self, record: dict[str, Any]) -> None:
        """Keep a record; at ``--toolwire-max-errors`` errored checks, stop. Under xdist the controller
        stops handing out checks and each worker also stops at N of its own (workers finish the checks
        queued to them otherwise), so a parallel run records at least N and at most N per worker."""
        if not self.run.add(record):
            return
        dsession = self.config.pluginmanager.getplugin("dsession")  # pytest-xdist's controller
        if dsession is not None:
            dsession.shouldstop = self.run.stopped
        elif self.session is not None:
            self.session.shouldstop = self.run.stopped

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
                self._add(json.loads(value) if isinstance(value, str) else value)
                return
        check = self.check_ids.get(report.nodeid)
        if check is None or check.id in self.records or not report.failed:
            return
        # a failure without a record: the worker crashed or pytest broke around the check
        from .checks import CheckResult
        from .results import check_record

        text = str(report.longrepr)[-3000:] if report.longrepr else "no details"
        self._add(check_record(check, CheckResult("errored", message=f"the check did not complete: {text}")))

    def pytest_keyboard_interrupt(self, excinfo: Any) -> None:
        self.run.interrupted = True

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
        import sys

        if exitstatus == pytest.ExitCode.INTERRUPTED:
            self.run.interrupted = True
        passing = session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
        if passing and self.run.failing(True):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # nothing applied, or an expectations typo
        argv = RUN_ARGV if RUN_ARGV is not None else sys.argv[:1] + list(self.config.invocation_params.args)
        self.run.finish(selection=self.selection(), argv=argv)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        for line in self.run.closing_lines(self.selection()):
            terminalreporter.write_line(line)
