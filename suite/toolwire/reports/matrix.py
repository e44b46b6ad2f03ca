"""The combined matrix of implementations × features, built from several results files.

:func:`build` checks that the results belong together (one corpus version and hash, unless stale ones are
allowed), and gathers per implementation the tallies per level, area and feature and the failing checks.
:func:`render_markdown` writes the matrix as a Markdown table (``reports/README.md``); :mod:`.html`
and ``badges`` render the same :class:`Matrix`. Everything is a function of the results files and the
corpus's features (no clock, no absolute paths), so the same inputs always give the same bytes.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..results import Results
from .scoring import (
    FAILING,
    LEVELS,
    STATUS_UNCOVERED,
    Tally,
    area_key,
    cell_text,
    load_features,
    percent,
    tally,
)

__all__ = [
    "CombineError",
    "CorpusId",
    "Implementation",
    "Matrix",
    "STALE_TEXT",
    "STATUS_UNCOVERED",
    "build",
    "implementation_name",
    "render_markdown",
]

STALE_TEXT = "stale: run `make reports`"


class CombineError(Exception):
    """The results cannot be combined (different corpora, duplicate names)."""


@dataclass(frozen=True)
class CorpusId:
    """What identifies a corpus: its version and content hash."""

    version: str
    hash: str

    @classmethod
    def of(cls, results: Results) -> CorpusId:
        corpus = results.header.get("corpus") or {}
        return cls(str(corpus.get("version", "?")), str(corpus.get("hash", "?")))

    def short(self) -> str:
        return f"{self.version} (hash {self.hash[:12]})"


def implementation_name(results: Results) -> str:
    """The column name: the results file's stem (``reports/litellm.results.jsonl`` → ``litellm``), else
    the adapter's name."""
    if results.path is not None:
        name = Path(results.path).name
        for suffix in (".results.jsonl", ".jsonl", ".json"):
            if name.endswith(suffix) and len(name) > len(suffix):
                return name[: -len(suffix)]
        return name
    adapter = results.header.get("adapter") or {}
    return re.sub(r"[^A-Za-z0-9._-]+", "-", str(adapter.get("name") or "results")).strip("-.") or "results"


@dataclass
class Implementation:
    """One column of the matrix."""

    name: str
    results: Results
    corpus: CorpusId
    label: str
    total: Tally
    by_area: dict[str, Tally]
    by_feature: dict[str, Tally]
    failing: list[dict[str, Any]]
    partial: str | None = None
    stale: bool = False
    report: str | None = None  # the Markdown report, relative to the output directory

    def level(self, level: str) -> tuple[int, int]:
        return self.total.passed_by_level[level], self.total.applicable_by_level[level]

    def failing_for(self, feature: str) -> list[dict[str, Any]]:
        return [c for c in self.failing if feature in (c.get("features") or ())]


@dataclass
class Matrix:
    """Implementations (columns) × features (rows, grouped by area)."""

    implementations: list[Implementation]
    features: dict[str, dict[str, Any]]
    areas: list[tuple[str, list[str]]]
    corpus: CorpusId
    current: CorpusId | None = None
    interpreting_version: str | None = None

    @property
    def stale(self) -> list[Implementation]:
        return [impl for impl in self.implementations if impl.stale]


def partial_reason(results: Results) -> str | None:
    """Why a results file does not cover the whole corpus (None: a complete run)."""
    if not results.footer:
        return "the run did not finish (no footer)"
    if results.footer.get("complete") is not True:
        selection = (results.header.get("run") or {}).get("selection")
        if selection:
            return f"a filtered run ({selection})"
        return "an interrupted or incomplete run"
    return None


def _order_key(name: str) -> tuple[int, str]:
    return (0 if name == "reference" else 1, name)


def build(
    results: list[Results],
    *,
    current: CorpusId | None = None,
    features: dict[str, dict[str, Any]] | None = None,
    allow_stale: bool = False,
    output_dir: Path | None = None,
) -> Matrix:
    """The matrix of ``results``. Raises :class:`CombineError` when they come from different corpora (by
    version or hash), unless ``allow_stale``: then those whose corpus is not ``current`` are marked stale.

    ``current`` is the corpus the reports should describe (``make reports`` regenerates the stale ones);
    ``features`` its features.json (default: the one the results name). ``output_dir`` is where the
    combined files go: each implementation links its Markdown report (``<name>.md`` next to its results)
    relative to it.
    """
    if not results:
        raise CombineError("no results files to combine")
    ids = {CorpusId.of(r) for r in results}
    if len(ids) > 1 and not allow_stale:
        lines = []
        for r in sorted(results, key=lambda r: str(r.path)):
            lines.append(f"  {r.path or implementation_name(r)}: corpus {CorpusId.of(r).short()}")
        hint = (
            "regenerate them against one corpus (make reports), or pass --allow-stale to show the ones "
            "that are not from the current corpus marked stale"
        )
        what = "results from different corpus versions (or hashes) cannot be combined"
        raise CombineError(f"{what}:\n" + "\n".join(lines) + f"\n{hint}")
    seen: dict[str, Results] = {}
    for r in results:
        name = implementation_name(r)
        if name in seen:
            raise CombineError(f"two results files for {name!r}: {seen[name].path} and {r.path}")
        seen[name] = r
    if current is None:
        if len(ids) > 1:
            raise CombineError("results from different corpora, and no current corpus to judge them by")
        current = next(iter(ids))
    ordered = sorted(seen.items(), key=lambda kv: _order_key(kv[0]))
    if features is None:
        preferred = [r for _, r in ordered if CorpusId.of(r) == current] or [r for _, r in ordered]
        features = load_features(preferred[0].header)

    impls = [_implementation(name, r, current, output_dir) for name, r in ordered]
    areas = _areas(impls, features)
    base = next((i for i in impls if not i.stale), impls[0])
    corpus_header = base.results.header.get("corpus") or {}
    interpreting = corpus_header.get("interpreting_version")
    return Matrix(
        implementations=impls,
        features=features,
        areas=areas,
        corpus=next(iter(ids)) if len(ids) == 1 else current,  # what the results are from, if one corpus
        current=current,
        interpreting_version=str(interpreting) if interpreting else None,
    )


def _implementation(name: str, r: Results, current: CorpusId, output_dir: Path | None) -> Implementation:
    adapter = r.header.get("adapter") or {}
    label = " ".join(str(x) for x in (adapter.get("name"), adapter.get("version")) if x) or name
    by_area: dict[str, Tally] = {}
    by_feature: dict[str, Tally] = {}
    for check in r.checks:
        by_area.setdefault(str(check.get("area", "?")), Tally()).add(check)
        for key in check.get("features") or ():
            by_feature.setdefault(str(key), Tally()).add(check)
    failing = sorted((c for c in r.checks if c.get("outcome") in FAILING), key=lambda c: str(c.get("id")))
    report = None
    if r.path is not None:
        md = Path(r.path).with_name(f"{name}.md")
        if md.is_file():
            base = (output_dir or Path(r.path).parent).resolve()
            report = Path(os.path.relpath(md.resolve(), base)).as_posix()
    return Implementation(
        name=name,
        results=r,
        corpus=CorpusId.of(r),
        label=label,
        total=tally(r.checks),
        by_area=by_area,
        by_feature=by_feature,
        failing=failing,
        partial=partial_reason(r),
        stale=CorpusId.of(r) != current,
        report=report,
    )


def _areas(impls: list[Implementation], features: dict[str, dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """(area, feature keys) in the corpus's order: every feature of the vocabulary, plus any a check
    names that the vocabulary lacks (under the area of its first check)."""
    home: dict[str, str] = {}
    for key, entry in features.items():
        area = entry.get("area")
        home[key] = area if isinstance(area, str) else key.split(".")[0]
    extra_areas: set[str] = set()
    for impl in impls:
        extra_areas |= set(impl.by_area)
        for check in impl.results.checks:
            for key in check.get("features") or ():
                home.setdefault(str(key), str(check.get("area", "?")))
    order = {key: i for i, key in enumerate(features)}
    grouped: dict[str, list[str]] = {area: [] for area in extra_areas}
    for key, area in home.items():
        grouped.setdefault(area, []).append(key)
    return [
        (area, sorted(keys, key=lambda k: (order.get(k, len(order)), k)))
        for area, keys in sorted(grouped.items(), key=lambda kv: area_key(kv[0]))
    ]


def feature_title(matrix: Matrix, key: str) -> str | None:
    title = (matrix.features.get(key) or {}).get("title")
    return str(title) if title else None


def score_text(passed: int, applicable: int) -> str:
    return "—" if applicable == 0 else f"{percent(passed, applicable)} ({passed}/{applicable})"


def stale_detail(impl: Implementation, matrix: Matrix) -> str:
    """Which corpus a stale implementation's results are from, and which one is current."""
    current = matrix.current or matrix.corpus
    if impl.corpus.version != current.version:
        return f"its results are from corpus {impl.corpus.version}, the current corpus is {current.version}"
    return (
        f"its results are from corpus {impl.corpus.version} with hash {impl.corpus.hash[:12]}, the current "
        f"corpus has hash {current.hash[:12]}"
    )


def run_text(impl: Implementation, matrix: Matrix) -> str:
    """Plain text: complete, or partial and/or stale (with the corpus the results are from)."""
    parts = []
    if impl.stale:
        parts.append(f"{STALE_TEXT} (corpus {impl.corpus.version})")
    if impl.partial:
        parts.append(f"partial: {impl.partial}")
    return "; ".join(parts) or "complete"


# -- Markdown ----------------------------------------------------------------------------------------------


def _md_cell(text: object) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def render_markdown(matrix: Matrix, *, badges: bool = True, html: str | None = "index.html") -> str:
    """``README.md``: the matrix as one Markdown table (features as rows, implementations as columns)."""
    impls = matrix.implementations
    lines = ["# toolwire compatibility matrix", ""]
    intro = (
        f"{len(impls)} implementation{'s' if len(impls) != 1 else ''} against corpus "
        f"{matrix.corpus.version} (hash `{matrix.corpus.hash[:12]}`)"
    )
    if matrix.interpreting_version:
        intro += f", judged by INTERPRETING.md {matrix.interpreting_version}"
    intro += ". Generated by `toolwire report combine` from the `*.results.jsonl` files here (`make reports`)"
    intro += "; never edit by hand."
    if html:
        intro += f" [`{html}`]({html}) shows the same matrix with every failing check and its diff."
    lines += [intro, ""]
    for impl in impls:
        if impl.stale:
            lines += [f"> **{impl.name}: {STALE_TEXT}**: {stale_detail(impl, matrix)}.", ""]
        if impl.partial:
            why = _md_cell(impl.partial)
            lines += [
                f"> **{impl.name}: PARTIAL run**: {why}; its scores cover only the checks that ran.",
                "",
            ]

    def name_cell(impl: Implementation) -> str:
        return f"[{_md_cell(impl.name)}]({impl.report})" if impl.report else _md_cell(impl.name)

    lines.append("| | " + " | ".join(name_cell(i) for i in impls) + " |")
    lines.append("|---|" + "---|" * len(impls))
    lines.append("| implementation | " + " | ".join(_md_cell(i.label) for i in impls) + " |")
    lines.append("| run | " + " | ".join(_md_cell(run_text(i, matrix)) for i in impls) + " |")
    if badges:
        badge_cells = [f"![{_md_cell(i.name)}: must]({i.name}.badge.svg)" for i in impls]
        lines.append("| badge | " + " | ".join(badge_cells) + " |")
    for level in LEVELS:
        lines.append(f"| **{level}** | " + " | ".join(score_text(*i.level(level)) for i in impls) + " |")
    for area, keys in matrix.areas:
        cells = []
        for impl in impls:
            t = impl.by_area.get(area)
            text = STATUS_UNCOVERED if t is None else f"{t.status} {score_text(t.passed, t.applicable)}"
            cells.append(text)
        lines.append(f"| **area: {_md_cell(area)}** | " + " | ".join(f"**{c}**" for c in cells) + " |")
        for key in keys:
            title = feature_title(matrix, key)
            label = f"{_md_cell(title)} (`{key}`)" if title else f"`{key}`"
            lines.append(f"| {label} | " + " | ".join(cell_text(i.by_feature.get(key)) for i in impls) + " |")
    lines += [
        "",
        "✅ every applicable check passes · ⚠️ some pass · ❌ none pass · ➖ not applicable (every check "
        "skipped) · — no check of this feature ran; `n/m` = passed / applicable checks. Scores per level "
        "count applicable checks only; an implementation declares what it translates, and the rest is "
        "not applicable, never failed.",
    ]
    return "\n".join(lines) + "\n"
