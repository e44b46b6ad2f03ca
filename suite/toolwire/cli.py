"""The ``toolwire`` command: ``run`` (this module), ``lint``, ``report`` and ``translate`` (delegated)."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from . import __version__, paths

__all__ = ["build_parser", "main", "run"]

#: subcommands implemented elsewhere: name -> (module, one-line help)
DELEGATED = {
    "lint": ("toolwire.lint", "check the corpus: schemas, ids, features, wire validity of every payload"),
    "report": (
        "toolwire.report_cmd",
        "Markdown report of a results.jsonl file; 'report combine' (HTML matrix, badges), 'report diff'",
    ),
    "translate": ("toolwire.translate_cmd", "translate one payload with the reference translator"),
    "expectations": ("toolwire.expectations", "known-failure files: update one from a run, or check one"),
    "serve": ("toolwire.serve", "a translating HTTP proxy between two provider dialects"),
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
        description="Run every corpus check against an implementation (pytest in-process) and write "
        "DIR/NAME.results.jsonl and DIR/NAME.md. Exit 0 when no check failed or errored.",
    )
    run_p.add_argument(
        "--adapter",
        default="reference",
        metavar="SPEC",
        help="'reference' (default), python:pkg.module:obj, peer:NAME (a bundled adapter for litellm, "
        "any-llm, aisuite or langchain; README 'Peer adapters'), cmd:<command line> (a process speaking "
        f"the protocol of {paths.guide('docs/protocol.md')}, e.g. \"cmd:node my-harness.mjs\"; an example: "
        f"{paths.guide('examples/node-harness/harness.mjs')}) or http:CONFIG.toml (a proxy, black-box)",
    )
    run_p.add_argument("--corpus", metavar="DIR", default=None, help="corpus directory (default: bundled)")
    run_p.add_argument(
        "-k", dest="keyword", metavar="EXPR", default=None, help="pytest -k selection of checks"
    )
    run_p.add_argument(
        "-n",
        dest="workers",
        metavar="N",
        default="0",
        help="parallel workers with pytest-xdist (default 0: none)",
    )
    run_p.add_argument(
        "--report", metavar="DIR", default="reports", help="output directory (default: ./reports)"
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
    run_p.add_argument("-v", "--verbose", action="store_true", help="one line per check")
    for name, (_module, text) in DELEGATED.items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def _plugin_autoloaded() -> bool:
    try:
        return any(ep.value == "toolwire.plugin" for ep in importlib.metadata.entry_points(group="pytest11"))
    except Exception:
        return False


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "results"


def run(args: argparse.Namespace, argv: Sequence[str] = ()) -> int:
    """``toolwire run``: pytest with the plugin, then the Markdown report (``argv`` goes in the header)."""
    import pytest

    from . import plugin
    from .adapters import AdapterError, load_adapter
    from .corpus import CorpusError, load_corpus
    from .results import ResultsError, read_results

    try:
        corpus = load_corpus(args.corpus)
        adapter = load_adapter(args.adapter)
    except (CorpusError, AdapterError, FileNotFoundError) as exc:
        print(f"toolwire: {exc}", file=sys.stderr)
        return 2
    adapter.close()  # only its name was needed; pytest loads its own (a cmd: process per worker)
    from .capabilities import problems

    bad = problems(adapter.capabilities, corpus)
    if bad:
        for line in bad:
            print(f"toolwire: {args.adapter}: capabilities: {line}", file=sys.stderr)
        return 2
    if args.expectations:
        from .expectations import ExpectationsError
        from .expectations import load as load_expectations

        try:
            load_expectations(args.expectations, corpus)
        except ExpectationsError as exc:
            print(f"toolwire: {exc}", file=sys.stderr)
            return 2
    name = _safe_name(args.name or adapter.name.removeprefix("toolwire-"))
    out = Path(args.report).resolve()
    out.mkdir(parents=True, exist_ok=True)
    results_path = out / f"{name}.results.jsonl"
    md_path = out / f"{name}.md"
    results_path.unlink(missing_ok=True)

    workers = str(args.workers).strip()
    if workers not in ("0", "") and importlib.util.find_spec("xdist") is None:
        print("toolwire: -n needs pytest-xdist (pip install pytest-xdist)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="toolwire-run-") as tmp:
        ini = Path(tmp) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        pytest_args = [
            tmp,
            "-c",
            str(ini),
            "--rootdir",
            tmp,
            "-p",
            "no:cacheprovider",
            "--assert=plain",
            "-v" if args.verbose else "-q",
        ]
        if not _plugin_autoloaded():
            pytest_args += ["-p", "toolwire.plugin"]
        pytest_args += ["--toolwire-adapter", args.adapter, "--toolwire-corpus", str(corpus.root)]
        pytest_args += ["--toolwire-results", str(results_path)]
        if args.expectations:
            pytest_args += ["--toolwire-expectations", str(Path(args.expectations).resolve())]
            if args.strict:
                pytest_args.append("--toolwire-strict-expectations")
        if args.timeout is not None:
            pytest_args += ["--toolwire-timeout", str(args.timeout)]
        if args.max_errors is not None:
            pytest_args += ["--toolwire-max-errors", str(args.max_errors)]
        if args.validate_protocol:
            pytest_args.append("--toolwire-validate-protocol")
        pytest_args += ["--toolwire-adapter-cwd", os.getcwd()]  # cmd: processes start here, not in tmp
        if args.keyword:
            pytest_args += ["-k", args.keyword]
        if workers not in ("0", ""):
            pytest_args += ["-n", workers]
        # run from the temporary rootdir so node ids print as `toolwire::<check id>`; keep the caller's
        # directory importable (for python: adapters), also in xdist workers, which inherit sys.path
        cwd = os.getcwd()
        sys.path[:] = [cwd if entry in ("", ".") else entry for entry in sys.path]
        os.chdir(tmp)
        plugin.RUN_ARGV = ["toolwire", *argv]
        try:
            code = int(pytest.main(pytest_args))
        finally:
            os.chdir(cwd)
            plugin.RUN_ARGV = None
    if not results_path.is_file():
        print(f"toolwire: pytest ended with exit code {code} and wrote no results", file=sys.stderr)
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
                    expectations=args.expectations,
                    strict=args.strict,
                ),
            )
        results = read_results(results_path)
    except ResultsError as exc:
        print(f"toolwire: {exc}", file=sys.stderr)
        return 2
    print(f"toolwire: wrote {results_path}")
    status = 0
    try:
        report_md = importlib.import_module("toolwire.report_md")
    except ModuleNotFoundError as exc:
        if exc.name != "toolwire.report_md":
            raise
        print("toolwire: toolwire.report_md is not available; no Markdown report written")
    else:
        try:
            md_path.write_text(report_md.render(results), encoding="utf-8")
            print(f"toolwire: wrote {md_path}")
        except Exception as exc:
            print(f"toolwire: the Markdown report failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            status = 2
    if not results.complete:
        print(f"toolwire: partial run ({results.header['run'].get('selection') or 'not every check ran'})")
    counts = results.counts()
    if counts["failed"] or counts["errored"]:
        return 1
    if counts["skipped"] == sum(counts.values()):
        print("toolwire: no check applied: a run that judged nothing is no pass (see the skip reasons "
              f"in {md_path.name})", file=sys.stderr)
        return 1
    if args.strict and args.expectations:
        from .expectations import strict_problems

        problems = strict_problems(results)
        for problem in problems:
            print(f"toolwire: --strict: {problem}", file=sys.stderr)
        if problems:
            return 1
    if code == pytest.ExitCode.INTERRUPTED or code in (
        pytest.ExitCode.INTERNAL_ERROR,
        pytest.ExitCode.USAGE_ERROR,
    ):
        return int(code)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``toolwire`` console script; returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in DELEGATED:
        module_name = DELEGATED[args_list[0]][0]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
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
