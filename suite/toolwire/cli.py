"""The ``toolwire`` command: ``run`` (this module); ``lint``, ``report``, ``translate``, ``expectations``,
``serve``, ``init`` and ``new-dialect`` (delegated)."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__, paths

if TYPE_CHECKING:
    from .adapters import Adapter
    from .corpus import Corpus

__all__ = ["build_parser", "main", "run"]

#: subcommands implemented elsewhere: name -> (module, one-line help); ``translate`` and ``serve`` are the
#: reference translator's own tools, named as strings like the ``reference`` adapter names the reference
DELEGATED = {
    "lint": (
        "toolwire.corpus.lint",
        "check the corpus: schemas, ids, features, wire validity of every payload",
    ),
    "report": (
        "toolwire.reports.cmd",
        "Markdown report of a results.jsonl file; 'report combine' (HTML matrix, badges), 'report diff'",
    ),
    "findings": (
        "toolwire.reports.sample",
        "findings of results files: 'findings sample --seed N' (a random sample to verify), 'list'",
    ),
    "translate": ("toolwire_reference.cli", "translate one payload with the reference translator"),
    "expectations": ("toolwire.expectations", "known-failure files: update one from a run, or check one"),
    "serve": ("toolwire_reference.serve", "a translating HTTP proxy between two provider dialects"),
    "init": (
        "toolwire.init_cmd",
        "start testing a translator: an adapter to fill in, a known-failures file, a pytest suite, a CI job",
    ),
    "new-dialect": (
        "toolwire.new_dialect",
        "add a provider dialect: descriptor, wire schema stubs, skeletons, two example cases, the checklist",
    ),
}


def _corpus_version() -> str:
    try:
        from .paths import corpus_dir

        return (corpus_dir() / "VERSION").read_text(encoding="utf-8").strip()
    except (OSError, FileNotFoundError):
        return "not found"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (``run`` fully; the delegated subcommands only for the usage text)."""
    parser = argparse.ArgumentParser(
        prog="toolwire",
        description="Conformance suite for translators of LLM tool-calling wire formats.",
        epilog="Run 'toolwire <command> --help' for a command's options.",
    )
    parser.add_argument(
        "--version", action="version", version=f"toolwire {__version__} (corpus {_corpus_version()})"
    )
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    run_p = sub.add_parser(
        "run",
        help="run the corpus against an implementation; write results.jsonl and a Markdown report",
        description="Run every corpus check against an implementation and write "
        "DIR/NAME.results.jsonl and DIR/NAME.md. Exit 0 when no check failed or errored.",
    )
    run_p.add_argument(
        "--adapter",
        default="reference",
        metavar="SPEC",
        help="'reference' (default), python:pkg.module:obj, peer:NAME (a bundled adapter for litellm, "
        "any-llm, aisuite or langchain; README 'Peer adapters'), cmd:<command line> (a process speaking "
        f'the protocol of {paths.guide("docs/protocol.md")}, e.g. "cmd:node my-harness.mjs"; an example: '
        f"{paths.guide('examples/node-harness/harness.mjs')}) or http:CONFIG.toml (a proxy, black-box)",
    )
    run_p.add_argument("--corpus", metavar="DIR", default=None, help="corpus directory (default: bundled)")
    run_p.add_argument(
        "-k",
        dest="keyword",
        metavar="EXPR",
        default=None,
        help="select checks as pytest -k does: words match check ids and markers (toolwire_must, "
        "toolwire_tools …); and, or, not, parentheses",
    )
    run_p.add_argument(
        "-m",
        dest="markexpr",
        metavar="EXPR",
        default=None,
        help="select checks by marker as pytest -m does: toolwire_must, toolwire_should, toolwire_may, "
        "toolwire_<area> (toolwire_tools …), toolwire_round_trip; and, or, not, parentheses "
        "(e.g. -m 'toolwire_must or toolwire_should')",
    )
    run_p.add_argument(
        "-n",
        dest="workers",
        metavar="N",
        default="0",
        help="worker processes, or 'auto' (one per CPU); each loads its own implementation (a cmd: process "
        "per worker; an http: adapter always runs in one process). Default 0: checks run in this process",
    )
    run_p.add_argument(
        "--report",
        metavar="DIR",
        default=None,
        help="output directory (default: ./reports; a selection -k/-m never replaces a complete run there)",
    )
    run_p.add_argument(
        "--name",
        default=None,
        help="file name stem (default: the implementation's name, 'toolwire-' stripped)",
    )
    run_p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds one translation may take before its check is errored as hung "
        "(default 30, 10 for cmd: adapters; 0: none)",
    )
    run_p.add_argument(
        "--max-errors",
        type=int,
        default=None,
        metavar="N",
        help="stop after N errored checks (crashes, hangs, protocol errors); the results are then partial",
    )
    run_p.add_argument(
        "--validate-protocol",
        action="store_true",
        help="cmd: adapters: validate every answer against schemas/protocol/ (when writing a harness)",
    )
    run_p.add_argument(
        "--expectations",
        metavar="FILE",
        default=None,
        help="known failures (TOML): listed checks that fail are xfailed, that pass are xpassed (stale)",
    )
    run_p.add_argument(
        "--strict",
        action="store_true",
        help="with --expectations: exit 1 on an xpassed check or an entry that matches no check",
    )
    run_p.add_argument(
        "--reproducible",
        action="store_true",
        help="pin what varies between runs (timestamps = SOURCE_DATE_EPOCH or 0, host, argv, absolute "
        "paths, durations) so the same corpus and implementation give identical files",
    )
    chatter = run_p.add_mutually_exclusive_group()
    chatter.add_argument("-v", "--verbose", action="store_true", help="one line per check")
    chatter.add_argument(
        "-q", "--quiet", action="store_true", help="no progress letters: only the failures and the summary"
    )
    for name, (_module, text) in DELEGATED.items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "results"


def run(args: argparse.Namespace, argv: Sequence[str] = ()) -> int:
    """``toolwire run``: every check through the implementation (toolwire.runner, no pytest), the results
    file, then the Markdown report (``argv`` goes in the header)."""
    from .adapters import AdapterError, load_adapter
    from .corpus import CorpusError, load_corpus
    from .runner import workers_of
    from .selection import SelectionError, compile_keyword, compile_markers

    try:
        workers = workers_of(args.workers)
    except ValueError:
        print(f"toolwire: -n {args.workers!r}: a number of worker processes, or 'auto'", file=sys.stderr)
        return 2
    try:
        corpus = load_corpus(args.corpus)
        compile_keyword(args.keyword or "")  # a malformed -k or -m is a usage error before anything starts
        compile_markers(args.markexpr or "")
        adapter = load_adapter(
            args.adapter,
            timeout="default" if args.timeout is None else args.timeout,
            validate_protocol=args.validate_protocol,
        )
    except (CorpusError, AdapterError, FileNotFoundError, SelectionError) as exc:
        print(f"toolwire: {exc}", file=sys.stderr)
        return 2
    if workers > 1 and args.adapter.startswith("http:"):
        print(
            "toolwire: -n: an http: adapter runs in one process (one proxy per run: a proxy may not run "
            "twice, and checks must not share a proxy's state across processes)",
            file=sys.stderr,
        )
        workers = 0
    try:
        return _run_loaded(args, argv, corpus, adapter, workers)
    finally:
        adapter.close()


def _complete_run(path: Path) -> bool:
    """Whether ``path`` is the results file of a finished run of every check (a published report)."""
    from .results import ResultsError, read_results

    try:
        return path.is_file() and read_results(path).complete
    except ResultsError:
        return False


def _run_loaded(
    args: argparse.Namespace, argv: Sequence[str], corpus: Corpus, adapter: Adapter, workers: int
) -> int:
    from .corpus.capabilities import problems
    from .results import ResultsError, read_results
    from .runner import Run, RunOptions, run_checks

    bad = problems(adapter.capabilities, corpus)
    if bad:
        for line in bad:
            print(f"toolwire: {args.adapter}: capabilities: {line}", file=sys.stderr)
        return 2
    expectations = None
    if args.expectations:
        from .expectations import ExpectationsError
        from .expectations import load as load_expectations

        try:
            expectations = load_expectations(args.expectations, corpus)
        except ExpectationsError as exc:
            print(f"toolwire: {exc}", file=sys.stderr)
            return 2
    name = _safe_name(args.name or adapter.name.removeprefix("toolwire-"))
    out = Path(args.report or "reports").resolve()
    out.mkdir(parents=True, exist_ok=True)
    results_path = out / f"{name}.results.jsonl"
    md_path = out / f"{name}.md"
    if (args.keyword or args.markexpr) and args.report is None and _complete_run(results_path):
        print(
            f"toolwire: {results_path} holds a complete run, which a selection (-k/-m) would replace with a "
            "partial one: pass --report DIR (or --name NAME) to write the selection elsewhere",
            file=sys.stderr,
        )
        return 2
    results_path.unlink(missing_ok=True)
    state = Run(
        corpus,
        adapter,
        results_path=results_path,
        expectations=expectations,
        strict_expectations=bool(args.strict and expectations is not None),
        max_errors=args.max_errors,
    )
    options = RunOptions(
        adapter_spec=args.adapter,
        corpus_dir=args.corpus,
        keyword=args.keyword,
        markexpr=args.markexpr,
        workers=workers,
        timeout=args.timeout,
        validate_protocol=args.validate_protocol,
        cwd=os.getcwd(),
        verbose=args.verbose,
        quiet=args.quiet,
        argv=["toolwire", *argv],
    )
    code = run_checks(state, options)
    if not results_path.is_file():
        print(f"toolwire: the run ended with exit code {code} and wrote no results", file=sys.stderr)
        return code or 2
    try:
        if getattr(args, "reproducible", False):
            from .reproducible import canonical_argv, pin

            pin(
                results_path,
                canonical_argv(
                    args.adapter,
                    corpus=args.corpus,
                    keyword=args.keyword,
                    markexpr=args.markexpr,
                    expectations=args.expectations,
                    strict=args.strict,
                ),
            )
        results = read_results(results_path)
    except ResultsError as exc:
        print(f"toolwire: {exc}", file=sys.stderr)
        return 2
    status = 0  # the run's closing lines said where the results are
    try:
        report_md = importlib.import_module("toolwire.reports.markdown")
    except ModuleNotFoundError as exc:
        if exc.name != "toolwire.reports.markdown":
            raise
        print("toolwire: toolwire.reports.markdown is not available; no Markdown report written")
    else:
        try:
            md_path.write_text(report_md.render(results), encoding="utf-8")
            print(f"toolwire: wrote {md_path}")
        except Exception as exc:
            print(f"toolwire: the Markdown report failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            status = 2
    if not results.complete:
        print(f"toolwire: partial run ({results.header['run'].get('selection') or 'not every check ran'})")
    if code == 2:
        return 2  # interrupted
    counts = results.counts()
    if counts["failed"] or counts["errored"]:
        return 1
    if counts["skipped"] == sum(counts.values()):
        print(
            "toolwire: no check applied: a run that judged nothing is no pass (see the skip reasons "
            f"in {md_path.name})",
            file=sys.stderr,
        )
        return 1
    if args.strict and args.expectations:
        from .expectations import strict_problems

        problems_found = strict_problems(results)
        for problem in problems_found:
            print(f"toolwire: --strict: {problem}", file=sys.stderr)
        if problems_found:
            return 1
    return status or code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``toolwire`` console script; returns the exit code (2 when interrupted: a run
    interrupted during its checks still writes what it judged, toolwire.runner)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C while the corpus loads, or in a delegated command: no traceback
        print("toolwire: interrupted", file=sys.stderr)
        return 2


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in DELEGATED:
        module_name = DELEGATED[args_list[0]][0]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (module_name + ".").startswith(exc.name + "."):
                raise
            print(f"toolwire: '{args_list[0]}' is not available ({module_name} is missing)", file=sys.stderr)
            return 2
        try:
            return int(module.main(args_list[1:]) or 0)
        except BrokenPipeError:  # the reader stopped early (`| head`): not an error of the command
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    parser = build_parser()
    if not args_list:
        parser.print_help()
        return 2
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if args.command == "run":
        return run(args, args_list)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
