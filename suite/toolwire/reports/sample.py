"""``toolwire findings``: list the findings of results files, or draw a seeded random sample to verify.

Publishing a report includes verifying a random sample of its findings in the implementation's code and the
provider's docs, and publishing the false rate found (corpus/INTERPRETING.md, "What a failure means").
``findings sample`` draws that sample: stratified by implementation, area and level (``must`` weighted
more), the same for the same seed and files, each finding printed ready to verify (an example check, its
case's file, title, level, features and references, the check's message and diff) with blank ``verdict:``
and ``evidence:`` slots. The verdicts go into ``reports/AUDIT.json`` (docs/results.md, "Audits"), which
``report combine`` publishes.

    toolwire findings sample [RESULTS...] --seed N [--size 40] [--json] [-o FILE]
    toolwire findings list RESULTS... [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..corpus import CorpusError, load_corpus
from ..results import Results, ResultsError, read_results
from .bugs import Finding, find_bugs
from .scoring import LEVELS

__all__ = ["Drawn", "LEVEL_WEIGHTS", "collect", "draw", "main", "render_json", "render_markdown"]

#: how much more likely a stratum of each level is drawn (a ``must`` finding matters most)
LEVEL_WEIGHTS = {"must": 3.0, "should": 2.0, "may": 1.0}
#: the longest message and diff printed per finding
CLIP = 1200
#: the reference translator's results: never sampled (it passes the corpus by construction)
REFERENCE = "reference.results.jsonl"


@dataclass(frozen=True)
class Drawn:
    """One finding of one implementation's results, with what is needed to verify it."""

    implementation: str
    version: str
    results: str
    finding: Finding

    @property
    def area(self) -> str:
        """The area most of its checks are in."""
        counts = Counter(str(c.get("area", "?")) for c in self.finding.checks)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]

    @property
    def level(self) -> str:
        """Its highest level (``must`` when any of its checks is a must)."""
        levels = {lv for lv, _n in self.finding.levels()}
        return next((lv for lv in LEVELS if lv in levels), min(levels, default="?"))

    @property
    def stratum(self) -> tuple[str, str, str]:
        return (self.implementation, self.area, self.level)

    @property
    def example(self) -> dict[str, Any]:
        """The check shown as its example."""
        return next(
            (c for c in self.finding.checks if c.get("id") == self.finding.example_id), self.finding.checks[0]
        )


def _identity(results: Results, path: Path) -> tuple[str, str]:
    adapter = (results.header or {}).get("adapter") or {}
    name = str(adapter.get("name") or path.name.removesuffix(".results.jsonl"))
    return name, str(adapter.get("version") or "?")


def collect(paths: Sequence[Path | str]) -> list[Drawn]:
    """Every finding of the results files, in a stable order (implementation, file, then the report's)."""
    out: list[Drawn] = []
    for path in sorted(Path(p) for p in paths):
        results = read_results(path)
        name, version = _identity(results, path)
        out += [Drawn(name, version, str(path), f) for f in find_bugs(results.checks)]
    return sorted(out, key=lambda d: (d.implementation, d.results))


def _weight(stratum: tuple[str, str, str]) -> float:
    return LEVEL_WEIGHTS.get(stratum[2], 1.0)


def draw(findings: Sequence[Drawn], size: int, seed: int) -> list[Drawn]:
    """A seeded stratified random sample of ``size`` findings (all of them when fewer).

    Strata are (implementation, area, level). Each stratum's findings are shuffled; then every stratum gives
    one finding (the strata drawn by weight without replacement when there are more strata than ``size``),
    and the rest are drawn one at a time from a stratum chosen with probability proportional to its level's
    weight (:data:`LEVEL_WEIGHTS`). The same findings and seed give the same sample."""
    rng = random.Random(seed)
    strata: dict[tuple[str, str, str], list[Drawn]] = {}
    for item in findings:
        strata.setdefault(item.stratum, []).append(item)
    for key in sorted(strata):
        rng.shuffle(strata[key])
    keys = sorted(strata)
    picked: list[Drawn] = []
    # one per stratum first, in a weighted random order (Efraimidis-Spirakis keys)
    order = sorted(keys, key=lambda k: -(rng.random() ** (1.0 / _weight(k))))
    for key in order[:size]:
        picked.append(strata[key].pop(0))
    while len(picked) < size:
        left = [k for k in keys if strata[k]]
        if not left:
            break
        key = rng.choices(left, weights=[_weight(k) for k in left])[0]
        picked.append(strata[key].pop(0))
    return sorted(picked, key=lambda d: (d.implementation, d.area, d.level, d.finding.plain_title()))


def _clip(text: str, limit: int = CLIP) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _case_info(corpus: Any, case_id: str) -> dict[str, Any]:
    """The case's file (relative to the corpus), title, level, features and references."""
    case = corpus.get(case_id) if corpus is not None else None
    if case is None:
        return {"file": None, "title": None, "level": None, "features": [], "refs": []}
    try:
        rel = str(case.path.relative_to(Path.cwd()))
    except ValueError:
        rel = str(case.path)
    return {
        "file": rel,
        "title": case.title,
        "level": case.level,
        "features": case.features,
        "refs": [str(r) for r in case.data.get("refs") or ()],
    }


def _entry(item: Drawn, cases: dict[str, Any] | None) -> dict[str, Any]:
    check = item.example
    case = _case_info(cases, str(check.get("case", "")))
    return {
        "implementation": item.implementation,
        "version": item.version,
        "results": item.results,
        "finding": item.finding.plain_title(),
        "stratum": {"area": item.area, "level": item.level},
        "checks": item.finding.count,
        "variants": item.finding.variants(),
        "check": str(check.get("id", "?")),
        "case": str(check.get("case", "")),
        "case_file": case["file"],
        "case_title": case["title"],
        "level": str(check.get("level", case["level"] or "?")),
        "features": [str(f) for f in check.get("features") or case["features"]],
        "refs": case["refs"],
        "message": _clip(str(check.get("message") or "")),
        "diff": _clip(str(check.get("diff") or "") or "\n".join(map(str, check.get("wire_errors") or ()))),
        "verdict": "",
        "evidence": [],
    }


def render_json(entries: list[dict[str, Any]], *, seed: int | None, corpus: str | None) -> str:
    """The sample as JSON: the shape of one ``samples`` item of ``reports/AUDIT.json``, verdicts blank."""
    keys = ("implementation", "version", "finding", "check", "verdict", "evidence")
    findings = [{**{k: e[k] for k in keys}, "class": None, "context": e} for e in entries]
    doc = {"seed": seed, "drawn_at": corpus, "findings": findings}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _fence(text: str) -> str:
    ticks = "````" if "```" in text else "```"
    return f"{ticks}text\n{text}\n{ticks}"


def render_markdown(entries: list[dict[str, Any]], *, seed: int | None, corpus: str | None) -> str:
    """The sample as Markdown, one section per finding, with blank verdict and evidence slots."""
    head = f"# Findings to verify (seed {seed}, corpus {corpus or '?'})" if seed is not None else "# Findings"
    lines = [head, ""]
    if seed is not None:
        lines += [
            "Verdict: `true` (a maintainer shown the evidence would agree it is a bug), `false` (with the "
            "class of error) or `unsure`. Evidence: file:line in the implementation, the provider's doc URL.",
            "",
        ]
    for n, e in enumerate(entries, 1):
        variants = f" (and variants {', '.join(e['variants'])})" if e["variants"] else ""
        lines += [
            f"## {n}. {e['implementation']} {e['version']}: {e['finding']}",
            "",
            f"- checks: {e['checks']}{variants}; example `{e['check']}`",
            f"- case: `{e['case_file'] or e['case']}`: {e['case_title'] or '(not in this corpus)'}",
            f"- level: {e['level']}; features: {', '.join(e['features']) or '-'}",
            f"- refs: {', '.join(e['refs']) or '-'}",
            f"- message: {e['message'] or '-'}",
        ]
        if e["diff"]:
            lines += ["", _fence(e["diff"])]
        if seed is not None:
            lines += ["", "verdict:", "", "evidence:", "", "class:"]
        lines.append("")
    return "\n".join(lines)


def _default_results() -> list[Path]:
    return sorted(p for p in Path("reports").glob("*.results.jsonl") if p.name != REFERENCE)


def _corpus(path: str | None) -> tuple[dict[str, Any] | None, str | None]:
    try:
        corpus = load_corpus(path)
    except (CorpusError, FileNotFoundError, OSError) as exc:
        print(f"toolwire findings: no corpus ({exc}): cases not described", file=sys.stderr)
        return None, None
    return {c.id: c for c in corpus.cases}, corpus.version


def _write(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
        print(f"toolwire: wrote {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)


def main(argv: Sequence[str] | None = None) -> int:
    """``toolwire findings sample|list``; returns the exit code."""
    parser = argparse.ArgumentParser(prog="toolwire findings", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sample = sub.add_parser("sample", help="a seeded stratified random sample of findings, to verify")
    sample.add_argument(
        "results", nargs="*", help="results files (default: reports/*.results.jsonl but the reference's)"
    )
    sample.add_argument("--seed", type=int, required=True, help="the random seed (record it in AUDIT.json)")
    sample.add_argument("--size", type=int, default=40, help="how many findings (default: 40)")
    listing = sub.add_parser("list", help="every finding of results files")
    listing.add_argument("results", nargs="+", help="results files")
    for p in (sample, listing):
        p.add_argument("--json", action="store_true", help="JSON instead of Markdown")
        p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
        p.add_argument("--corpus", metavar="DIR", help="the corpus to read the cases from (default: bundled)")
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    paths = [Path(p) for p in args.results] or _default_results()
    if not paths:
        print("toolwire findings: no results files", file=sys.stderr)
        return 2
    try:
        found = collect(paths)
    except (ResultsError, OSError, ValueError) as exc:
        print(f"toolwire findings: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.command == "sample" else None
    chosen = draw(found, max(args.size, 0), args.seed) if args.command == "sample" else found
    cases, version = _corpus(args.corpus)
    entries = [_entry(item, cases) for item in chosen]
    render = render_json if args.json else render_markdown
    _write(render(entries, seed=seed, corpus=version), args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
