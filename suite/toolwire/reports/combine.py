"""``toolwire report combine RESULTS... [-o DIR]``: the matrix of several implementations.

Writes ``DIR/index.html`` (a page that works offline, with ``DIR/<name>.details.js`` holding each
implementation's failing checks, loaded on demand), ``DIR/README.md`` (the same matrix as a Markdown
table, with the audited false rate of the findings when ``DIR/AUDIT.json`` holds verified samples) and
``DIR/<name>.badge.svg`` per implementation (its ``must`` score). Refuses (exit 2) results from
different corpus versions or hashes, unless ``--allow-stale``: then the results whose corpus is not the
current one (``--corpus``, default the bundled corpus) are shown marked "stale: run `make reports`".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..corpus import CorpusError, load_corpus
from ..results import Results, ResultsError, read_results
from .audit import AuditError, audit_section
from .badges import badge_svg
from .html import details_file, render_details, render_html
from .matrix import CombineError, CorpusId, Matrix, build, render_markdown
from .scoring import percent, read_features

__all__ = ["AUDIT", "combine", "main", "write_outputs"]

#: verified samples of the findings, read from the output directory when present (docs/results.md)
AUDIT = "AUDIT.json"


def _current(corpus: str | None) -> tuple[CorpusId | None, dict | None]:
    try:
        loaded = load_corpus(corpus)
    except (CorpusError, FileNotFoundError, OSError) as exc:
        if corpus is not None:
            raise CombineError(f"--corpus: {exc}") from exc
        return None, None
    return CorpusId(loaded.version, loaded.hash), read_features(loaded.root)


def combine(
    paths: Sequence[str | Path], *, corpus: str | None = None, allow_stale: bool = False, output: Path
) -> Matrix:
    """Read the results files and build the matrix (raises ResultsError, CombineError)."""
    results: list[Results] = [read_results(p) for p in paths]
    current, features = _current(corpus)
    return build(results, current=current, features=features, allow_stale=allow_stale, output_dir=output)


def write_outputs(matrix: Matrix, output: Path) -> list[Path]:
    """index.html (with one ``<name>.details.js`` per implementation that fails checks), README.md and one
    badge per implementation, in ``output``."""
    output.mkdir(parents=True, exist_ok=True)
    # the published false rate of the findings, when samples of them were verified (AUDIT.json)
    readme = render_markdown(matrix) + audit_section(output / AUDIT)
    files = {"index.html": render_html(matrix), "README.md": readme}
    for impl in matrix.implementations:
        if impl.failing:
            files[details_file(impl)] = render_details(matrix, impl)
        else:  # one left from a run that failed checks would be served to nobody, and mislead a reader
            (output / details_file(impl)).unlink(missing_ok=True)
    for impl in matrix.implementations:
        passed, applicable = impl.level("must")
        # how much of the corpus applied stands next to the score: 100% of 12 checks is no 100%
        share = percent(impl.total.applicable, len(impl.results.checks)) if impl.results.checks else "0%"
        suffix = f" · {share} applied" + (" partial" if impl.partial else "")
        files[f"{impl.name}.badge.svg"] = badge_svg(passed, applicable, suffix=suffix)
    written = []
    for name, text in files.items():
        path = output / name
        with path.open("w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="toolwire report combine",
        description="Combine results files into a matrix of implementations x features: index.html "
        "(offline, with <name>.details.js beside it), README.md and an SVG badge per implementation.",
    )
    parser.add_argument("results", nargs="+", help="results.jsonl files (one per implementation)")
    parser.add_argument("-o", "--output", default=".", metavar="DIR", help="output directory (default: .)")
    parser.add_argument("--corpus", default=None, metavar="DIR", help="the current corpus (default: bundled)")
    parser.add_argument(
        "--allow-stale",
        action="store_true",
        help="combine results from different corpora; those not from the current corpus are marked stale",
    )
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    output = Path(args.output)
    try:
        matrix = combine(args.results, corpus=args.corpus, allow_stale=args.allow_stale, output=output)
    except (ResultsError, CombineError) as exc:
        print(f"toolwire report combine: {exc}", file=sys.stderr)
        return 2
    try:
        written = write_outputs(matrix, output)
    except AuditError as exc:
        print(f"toolwire report combine: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"toolwire: wrote {path}")
    for impl in matrix.stale:
        print(f"toolwire: {impl.name}: stale (corpus {impl.corpus.short()}): run `make reports`")
    return 0
