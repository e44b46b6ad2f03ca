"""pytest plugin: one test item per corpus check, results written once by the controller (xdist-safe).

Two ways to switch it on (``docs/pytest.md``):

- **settings**: ``--toolwire-adapter SPEC`` and the other ``--toolwire-*`` options, or the same settings in
  the pytest configuration (``toolwire_adapter = "..."`` under ``[tool.pytest.ini_options]``, ``[pytest]``
  …). The checks are collected under a ``toolwire`` node of the session. A configuration file's adapter
  applies when pytest is run without naming test paths (``pytest tests/test_x.py`` runs only that file);
  the command-line option always does.
- **a suite class**: a test class subclassing :class:`toolwire.testing.ToolwireSuite`, whose checks are
  collected under it (``tests/test_toolwire.py::TestMine::<check id>``).

Each check runs in its item's setup: a check that errored (a crash, a hang, a protocol error: nothing was
judged) is a pytest *error*, a check that failed a *failure*, so pytest's counts are toolwire's. Each
item's record travels in ``report.user_properties`` to the process that writes the results file; JUnit
test cases are classed by suite, area and kind (``toolwire.tools.tools``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import pytest

from .runner import Run, explain, markers, selection_of
from .testing import ToolwireSuite

__all__ = ["CheckItem", "CorpusCollector", "SuiteCollector", "SuiteRun", "SuiteSettings", "ToolwirePlugin"]

_PROPERTY = "toolwire"
#: the command line recorded in the results header; `toolwire run` sets it (else pytest's own arguments)
RUN_ARGV: list[str] | None = None
_ROOT_NAME = "toolwire"


@dataclass(frozen=True)
class SuiteSettings:
    """What one suite runs: the ``--toolwire-*`` options, the ``toolwire_*`` configuration settings and
    the attributes of :class:`~toolwire.testing.ToolwireSuite` (paths absolute)."""

    adapter: str
    corpus: str | None = None
    timeout: float | None = None
    max_errors: int | None = None
    validate_protocol: bool = False
    adapter_cwd: str | None = None
    results: str | None = None
    expectations: str | None = None
    strict_expectations: bool = False


#: each setting: (value type, help); the option is --toolwire-<name with dashes>, the ini key toolwire_<name>
SETTINGS: dict[str, tuple[type, str]] = {
    "adapter": (
        str,
        "run the toolwire corpus against this implementation: 'reference', python:pkg.mod:obj, peer:NAME, "
        "cmd:<command> or http:CONFIG.toml",
    ),
    "corpus": (Path, "corpus directory (default: the bundled corpus)"),
    "timeout": (
        float,
        "seconds one translation may take before its check is errored as hung "
        "(default 30, 10 for cmd: adapters; 0: no limit)",
    ),
    "max_errors": (
        int,
        "stop the run after N errored checks (crashes, hangs, protocol errors); the results are partial",
    ),
    "validate_protocol": (
        bool,
        "cmd: adapters: validate every answer against schemas/protocol/ (for people writing a harness)",
    ),
    "adapter_cwd": (Path, "cmd: adapters: the directory the process starts in (default: the current one)"),
    "results": (Path, "write results.jsonl here (header, one record per check, footer)"),
    "expectations": (
        Path,
        "known failures (TOML): listed checks that fail are xfailed, that pass are xpassed (stale)",
    ),
    "strict_expectations": (
        bool,
        "fail the run on an xpassed check or an expectations entry that matches no check",
    ),
}
_METAVARS = {str: "SPEC", Path: "PATH", float: "SECONDS", int: "N"}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolwire", "toolwire conformance suite")
    for name, (kind, text) in SETTINGS.items():
        flag = "--toolwire-" + name.replace("_", "-")
        if kind is bool:
            group.addoption(flag, dest=f"toolwire_{name}", action="store_true", default=None, help=text)
        else:
            group.addoption(flag, dest=f"toolwire_{name}", metavar=_METAVARS[kind], default=None, help=text)
        parser.addini(f"toolwire_{name}", text + " (the option wins)", type="string", default="")


def _convert(name: str, value: Any, where: str) -> Any:
    kind = SETTINGS[name][0]
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off", ""):
            return False
        raise pytest.UsageError(f"toolwire: {where}: {name} must be true or false, not {value!r}")
    if kind in (int, float):
        try:
            return kind(value)
        except (TypeError, ValueError):
            what = "a whole number" if kind is int else "a number"
            raise pytest.UsageError(f"toolwire: {where}: {name} must be {what}, not {value!r}") from None
    return str(value)


def _resolve(name: str, value: Any, base: Path) -> Any:
    """A path setting made absolute against ``base`` (other settings unchanged)."""
    if value is None or SETTINGS[name][0] is not Path:
        return value
    return str((base / value).resolve())


def configured(config: pytest.Config, name: str) -> Any:
    """One setting: the command-line option, else the configuration file's (None: neither)."""
    value = config.getoption(f"toolwire_{name}", None)
    if value is not None:
        return _resolve(name, _convert(name, value, "command line"), config.invocation_params.dir)
    text = config.getini(f"toolwire_{name}")
    if text in ("", None):
        return None
    where = str(config.inipath) if config.inipath else "pytest configuration"
    base = config.inipath.parent if config.inipath else config.rootpath
    return _resolve(name, _convert(name, text, where), base)


def settings_for(config: pytest.Config, adapter: str, own: dict[str, Any] | None = None) -> SuiteSettings:
    """A suite's settings: its own values (``own``, already absolute), else the configured ones."""
    values: dict[str, Any] = {"adapter": adapter}
    for f in fields(SuiteSettings):
        if f.name == "adapter":
            continue
        value = (own or {}).get(f.name)
        if value is None:
            value = configured(config, f.name)
        if value is not None:
            values[f.name] = value
    return SuiteSettings(**values)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "toolwire: a toolwire corpus check")
    config.pluginmanager.register(ToolwirePlugin(config), "toolwire-session")


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

    def __init__(self, *, check: Any, suite: SuiteRun, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check
        self.suite = suite
        self.record: dict[str, Any] | None = None
        for name in markers(check):
            self.add_marker(name)
        # a listed check: pytest reports its failure as xfailed and its pass as xpass (strict: a failure)
        expectations = suite.run.expectations
        self.expected = expectations.lookup(check) if expectations is not None else None
        if self.expected is not None:
            self.add_marker(
                pytest.mark.xfail(
                    reason=self.expected.reason, strict=suite.run.strict_expectations, raises=ExpectedFailure
                )
            )

    def setup(self) -> None:
        """Run the check; one that errored (nothing could be judged) is a setup error, as a broken fixture."""
        self.record = self.suite.run.execute(self.check)
        payload = {"suite": self.suite.key, "settings": asdict(self.suite.settings), "record": self.record}
        self.user_properties.append((_PROPERTY, json.dumps(payload, ensure_ascii=False)))
        if self.record["outcome"] == "errored":
            pytest.fail(explain(self.record), pytrace=False)

    def runtest(self) -> None:
        record = self.record
        assert record is not None, "the check ran in setup"
        outcome = record["outcome"]
        if outcome == "xfailed":
            raise ExpectedFailure("failed", explain(record))
        if outcome == "skipped":
            pytest.skip(record.get("message") or "not applicable")
        if outcome == "failed":
            raise CheckFailed(outcome, explain(record))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CheckFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.check.case.path, None, self.check.id


def _check_items(parent: pytest.Collector, suite: SuiteRun) -> list[pytest.Item]:
    checks = suite.corpus.checks()
    return [CheckItem.from_parent(parent, name=check.id, check=check, suite=suite) for check in checks]


class CorpusCollector(pytest.Collector):
    """The node under the session that holds the checks of the suite configured by settings."""

    def __init__(self, *, suite: SuiteRun, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.suite = suite

    def collect(self) -> list[pytest.Item]:
        return _check_items(self, self.suite)


class SuiteCollector(pytest.Class):
    """A :class:`~toolwire.testing.ToolwireSuite` subclass in a test file: its checks, not its methods."""

    def collect(self) -> list[pytest.Item]:
        plugin: ToolwirePlugin = self.config.pluginmanager.get_plugin("toolwire-session")
        cls = self.obj
        if not cls.adapter:
            raise self.CollectError(f"{cls.__name__}: a ToolwireSuite sets `adapter`, the translator to test")
        base = self.path.parent
        own = {f.name: _resolve(f.name, getattr(cls, f.name, None), base) for f in fields(SuiteSettings)}
        suite = plugin.suite(self.nodeid, settings_for(self.config, cls.adapter, own), usage=False)
        return _check_items(self, suite)


class SuiteLoadError(Exception):
    """A suite's corpus, adapter or expectations could not be loaded."""


class SuiteRun:
    """One suite of a pytest session: its corpus, its adapter and the :class:`toolwire.runner.Run`."""

    def __init__(self, key: str, settings: SuiteSettings, config: pytest.Config) -> None:
        from .adapters import AdapterError, load_adapter
        from .corpus import CorpusError, load_corpus
        from .corpus.capabilities import problems

        self.key = key
        self.settings = settings
        try:
            corpus = load_corpus(settings.corpus)
        except (CorpusError, FileNotFoundError) as exc:
            raise SuiteLoadError(str(exc)) from exc
        try:
            adapter = load_adapter(
                settings.adapter,
                timeout="default" if settings.timeout is None else settings.timeout,
                validate_protocol=settings.validate_protocol,
                cwd=settings.adapter_cwd,
            )
        except AdapterError as exc:
            raise SuiteLoadError(str(exc)) from exc
        bad = problems(adapter.capabilities, corpus)
        if bad:
            adapter.close()
            raise SuiteLoadError("\n".join(f"{settings.adapter}: capabilities: {line}" for line in bad))
        self.corpus = corpus
        self.adapter = adapter
        self.run = Run(
            corpus,
            adapter,
            results_path=Path(settings.results) if settings.results else None,
            strict_expectations=settings.strict_expectations,
            max_errors=settings.max_errors,
        )
        if settings.expectations:
            from .expectations import ExpectationsError, load

            try:
                self.run.expectations = load(settings.expectations, corpus)
            except ExpectationsError as exc:
                adapter.close()
                raise SuiteLoadError(str(exc)) from exc
        config.addinivalue_line(
            "markers", "toolwire_round_trip: toolwire round-trip checks (source > target > source)"
        )
        for level in ("must", "should", "may"):
            config.addinivalue_line("markers", f"toolwire_{level}: toolwire checks of level {level}")
        for area in sorted({c.area for c in corpus.cases}):
            config.addinivalue_line("markers", f"toolwire_{area}: toolwire checks of the {area} area")
        self.check_ids = {f"{key}::{c.id}": c for c in corpus.checks()}

    @property
    def label(self) -> str:
        """How the closing lines name the suite: nothing for the settings' suite, else its class."""
        return "" if self.key == _ROOT_NAME else f"[{self.key.rsplit('::', 1)[-1]}] "

    def junit_class(self, record: dict[str, Any]) -> str:
        """The JUnit ``classname`` of a check: the suite, then its area and kind."""
        suite = self.key.replace(".py::", "::").replace("/", ".").replace("::", ".")
        return f"{suite}.{record['area']}.{record['kind']}"


class ToolwirePlugin:
    """Per-process state of the toolwire suites of a pytest session; the controller writes their results."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.is_worker = hasattr(config, "workerinput")
        self.suites: dict[str, SuiteRun] = {}
        self.session: pytest.Session | None = None
        self.unused_ini: str | None = None
        self.root: SuiteRun | None = None
        cli = config.getoption("toolwire_adapter", None)
        ini = config.getini("toolwire_adapter")
        adapter = cli or ini or None
        if adapter and not cli and config.args_source == pytest.Config.ArgsSource.ARGS:
            self.unused_ini = ini  # test paths named: the configured suite stays out of this run
            adapter = None
        if adapter:
            self.root = self.suite(_ROOT_NAME, settings_for(config, adapter), usage=True)

    def suite(self, key: str, settings: SuiteSettings, *, usage: bool) -> SuiteRun:
        """The suite of ``key``, loaded on first use (a usage error for the settings' suite, a collection
        error for a class)."""
        found = self.suites.get(key)
        if found is not None:
            return found
        try:
            suite = SuiteRun(key, settings, self.config)
        except SuiteLoadError as exc:
            if usage:
                raise pytest.UsageError(f"toolwire: {exc}") from exc
            raise pytest.Collector.CollectError(f"toolwire: {exc}") from exc
        self.suites[key] = suite
        return suite

    # -- collection ------------------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        # tryfirst: the items must exist before -k / -m deselection runs
        if self.root is None:
            return
        collector = CorpusCollector.from_parent(session, name=_ROOT_NAME, nodeid=_ROOT_NAME, suite=self.root)
        items.extend(session.genitems(collector))  # full collection protocol: hooks, counts, reports

    @pytest.hookimpl(tryfirst=True)
    def pytest_pycollect_makeitem(self, collector: pytest.Collector, name: str, obj: object) -> Any:
        if isinstance(obj, type) and issubclass(obj, ToolwireSuite) and obj is not ToolwireSuite:
            return SuiteCollector.from_parent(collector, name=name, obj=obj)
        return None

    # -- reporting -------------------------------------------------------------------------------------
    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        lines = [
            f"toolwire: corpus {s.corpus.version} ({s.corpus.hash[:12]}) at {s.corpus.root}; "
            f"adapter {s.adapter.spec} = {s.adapter.name} {s.adapter.version}"
            for s in self.suites.values()
        ]
        if self.unused_ini:
            lines.append(
                f"toolwire: the configured adapter ({self.unused_ini}) is not run: test paths were named "
                "(add --toolwire-adapter, or run without paths)"
            )
        return lines

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        from .results import now

        self.started = now()
        self.session = session

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        for suite in self.suites.values():
            suite.adapter.close()  # cmd: adapters say bye to their process

    def _add(self, suite: SuiteRun, record: dict[str, Any]) -> None:
        """Keep a record; at ``--toolwire-max-errors`` errored checks, stop. Under xdist the controller
        stops handing out checks and each worker also stops at N of its own (workers finish the checks
        queued to them otherwise), so a parallel run records at least N and at most N per worker."""
        if suite.run.started is None:
            suite.run.started = getattr(self, "started", None)
        if not suite.run.add(record):
            return
        dsession = self.config.pluginmanager.getplugin("dsession")  # pytest-xdist's controller
        if dsession is not None:
            dsession.shouldstop = suite.run.stopped
        elif self.session is not None:
            self.session.shouldstop = suite.run.stopped

    def ran(self) -> list[SuiteRun]:
        """The suites this run speaks for: the settings' suite, and each class with a check that ran."""
        return [s for s in self.suites.values() if s is self.root or s.run.records]

    def _suite_of(self, nodeid: str) -> tuple[SuiteRun, Any] | None:
        for suite in self.suites.values():
            check = suite.check_ids.get(nodeid)
            if check is not None:
                return suite, check
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # tryfirst: the JUnit class is set before junitxml records the report
        for name, value in report.user_properties:
            if name == _PROPERTY:
                payload = json.loads(value) if isinstance(value, str) else value
                suite = self.suites.get(payload["suite"]) or self.suite(
                    payload["suite"], SuiteSettings(**payload["settings"]), usage=False
                )
                self._junit_class(report, suite.junit_class(payload["record"]))
                self._add(suite, payload["record"])
                return
        found = self._suite_of(report.nodeid)
        if found is None or found[1].id in found[0].run.records or not report.failed:
            return
        # a failure without a record: the worker crashed or pytest broke around the check
        from .judge.checks import CheckResult
        from .results import check_record

        suite, check = found
        text = str(report.longrepr)[-3000:] if report.longrepr else "no details"
        message = f"the check did not complete: {text}"
        self._add(suite, check_record(check, CheckResult("errored", message=message)))

    def _junit_class(self, report: pytest.TestReport, classname: str) -> None:
        from _pytest.junitxml import xml_key

        xml = self.config.stash.get(xml_key, None)
        if xml is not None:
            xml.node_reporter(report).add_attribute("classname", classname)

    def pytest_keyboard_interrupt(self, excinfo: Any) -> None:
        for suite in self.suites.values():
            suite.run.interrupted = True

    def selection(self) -> str | None:
        """How the run was filtered (None: not at all)."""
        opt = self.config.option
        parts = [selection_of(getattr(opt, "keyword", ""), getattr(opt, "markexpr", "")) or ""]
        parts += [f"--deselect {nodeid}" for nodeid in getattr(opt, "deselect", None) or []]
        return " ".join(p for p in parts if p) or None

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.is_worker:
            return
        argv = RUN_ARGV if RUN_ARGV is not None else sys.argv[:1] + list(self.config.invocation_params.args)
        for suite in self.ran():
            if exitstatus == pytest.ExitCode.INTERRUPTED:
                suite.run.interrupted = True
            passing = session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
            if passing and suite.run.failing(True):
                session.exitstatus = pytest.ExitCode.TESTS_FAILED  # nothing applied, or an expectations typo
            suite.run.finish(selection=self.selection(), argv=argv)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        for suite in self.ran():
            for line in suite.run.closing_lines(self.selection()):
                if suite.label and line.startswith("toolwire: "):
                    line = f"toolwire: {suite.label}{line[len('toolwire: ') :]}"
                terminalreporter.write_line(line)
