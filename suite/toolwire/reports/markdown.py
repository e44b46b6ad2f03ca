"""The Markdown compatibility report: `toolwire report RESULTS.jsonl [-o FILE]`.

`render(results)` is a pure function of the results file (plus the corpus's feature titles, read from the
corpus the header names): the same results always give the same bytes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..endpoints import DIALECT_NAMES
from ..results import ResultsError, read_results
from .bugs import SHOWN_CHECKS, SHOWN_FINDINGS, Code, Finding, find_bugs
from .scoring import (
    AREA_ORDER,
    FAILING,
    LEVELS,
    PASSING,
    STATUS_ALL,
    STATUS_NA,
    STATUS_NONE,
    STATUS_SOME,
    STATUS_UNCOVERED,
    Tally,
    cell_text,
    errored_streak,
    load_features,
    percent,
)
from .scoring import area_key as _area_key
from .scoring import tally as _tally
from .upstream import Regression, of_implementation, regressions, reported_upstream, repositories

#: a finding's issue links in the implementation's own tracker (:mod:`.upstream`)
Upstream = Callable[[Finding], list[str]]

__all__ = [
    "AREA_ORDER",
    "FAILING",
    "LEVELS",
    "PASSING",
    "Tally",
    "github_anchor",
    "load_features",
    "main",
    "percent",
    "render",
]


class ResultsLike(Protocol):
    """What `render` needs: `toolwire.results.Results` or anything with the same three attributes."""

    header: dict[str, Any]
    checks: list[dict[str, Any]]
    footer: dict[str, Any] | None


# -- small helpers ---------------------------------------------------------------------------------------


def _cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _flat(text: object) -> str:
    """Text on one line."""
    return " ".join(str(text).split())


def _code(text: object) -> str:
    """Inline code that survives backticks in `text`."""
    s = str(text)
    run = max((len(m) for m in re.findall(r"`+", s)), default=0)
    ticks = "`" * (run + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{ticks}{pad}{s}{pad}{ticks}"


def _fence(text: str, info: str = "text") -> str:
    """A fenced block whose fence is longer than any backtick run in `text`."""
    run = max((len(m) for m in re.findall(r"`{3,}", text)), default=0)
    fence = "`" * max(3, run + 1)
    return f"{fence}{info}\n{text.rstrip(chr(10))}\n{fence}"


def _prose(text: str) -> str:
    """Text that Markdown shows as written (no emphasis, links or HTML)."""
    text = re.sub(r"([\\`*\[\]<])", r"\\\1", text)  # `>` is only special opening a line
    return re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", text)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading (before numbering duplicates): its text without code spans'
    backticks, escapes and punctuation, lowercased, spaces as hyphens."""
    text = re.sub(r"\\(.)", r"\1", heading.lstrip("#").strip().replace("`", ""))
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _heading_anchors(lines: list[str]) -> dict[str, str]:
    """Heading line -> its anchor in a document of `lines` (GitHub numbers repeated anchors -1, -2, ...);
    fenced blocks are skipped. A heading line that repeats keeps its first anchor."""
    seen: Counter[str] = Counter()
    anchors: dict[str, str] = {}
    fence = ""
    for block in lines:
        for line in block.split("\n"):
            ticks = re.match(r"^(`{3,})", line)
            if fence:
                if ticks and len(ticks.group(1)) >= len(fence) and not line.strip("`").strip():
                    fence = ""
                continue
            if ticks:
                fence = ticks.group(1)
                continue
            if not re.match(r"^#{1,6} ", line):
                continue
            base = github_anchor(line)
            anchor = base if not seen[base] else f"{base}-{seen[base]}"
            seen[base] += 1
            anchors.setdefault(line, anchor)
    return anchors


def _score(passed: int, applicable: int) -> str:
    return "—" if applicable == 0 else f"{percent(passed, applicable)} ({passed}/{applicable})"


# -- sections ------------------------------------------------------------------------------------------------


def _partial_reason(results: ResultsLike) -> str | None:
    footer = results.footer
    if not footer:
        return "the run did not finish: the results file has no footer"
    if footer.get("complete") is not True:
        selection = (results.header.get("run") or {}).get("selection")
        if selection:
            return f"a filtered run ({_code(selection)}): not every check of the corpus was run"
        return "the run was interrupted or incomplete: not every check of the corpus has a result"
    return None


def _date(run: dict[str, Any]) -> str:
    started = _cell(run.get("started", "?"))
    if not run.get("reproducible"):
        return started
    if started.startswith("1970-01-01T00:00:00"):
        return "not recorded (reproducible run)"
    return f"{started} (SOURCE_DATE_EPOCH: reproducible run)"


def _summary(results: ResultsLike, tally: Tally) -> list[str]:
    header = results.header
    adapter = header.get("adapter") or {}
    corpus = header.get("corpus") or {}
    run = header.get("run") or {}
    reason = _partial_reason(results)
    implementation = " ".join(str(x) for x in (adapter.get("name"), adapter.get("version")) if x) or "unknown"
    if adapter.get("language"):
        implementation += f" ({adapter['language']})"
    corpus_text = f"{corpus.get('version', '?')}, hash {_code(corpus.get('hash', '?'))}"
    if corpus.get("interpreting_version"):
        corpus_text += f", interpreted by INTERPRETING.md {corpus['interpreting_version']}"
    rows = [
        ("Implementation", _cell(implementation)),
        ("Adapter", _code(adapter.get("spec", "?"))),
        ("Corpus", corpus_text),
        ("toolwire", _cell(header.get("toolwire_version", "?"))),
        ("Date", _date(run)),
        ("Run", "complete" if reason is None else f"**PARTIAL**: {reason}"),
    ]
    lines = ["## Summary", "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in rows]
    lines += ["", "| level | passed | applicable | score |", "|---|---:|---:|---:|"]
    for level in LEVELS:
        passed, applicable = tally.passed_by_level[level], tally.applicable_by_level[level]
        lines.append(f"| {level} | {passed} | {applicable} | {percent(passed, applicable)} |")
    counts = ", ".join(
        f"{tally.outcomes[o]} {o}"
        for o in ("passed", "failed", "errored", "skipped", "xfailed", "xpassed")
        if tally.outcomes[o] or o in ("passed", "failed", "errored", "skipped")
    )
    lines += [
        "",
        f"{len(results.checks)} checks: {counts} (skipped = not applicable to this implementation).",
    ]
    streak = errored_streak(results.checks)
    if streak:
        lines += ["", f"> **Warning**: {streak}."]
    return lines


#: skip reasons that name a varying part (the value or pair): grouped without it
_PROFILE_SKIP = re.compile(r"profile ([\w.-]+)=\S+ not supported")
_PAIR_SKIP = re.compile(r"pair \S+ not declared for kind ('\w+')")


def _reason_group(message: str) -> str:
    if not message:
        return "(no reason recorded)"
    m = _PROFILE_SKIP.match(message)
    if m is not None:
        return f"profile {m.group(1)}: the value the check needs is not implemented"
    m = _PAIR_SKIP.match(message)
    return f"pair not declared for kind {m.group(1)}" if m is not None else message


def _unreached(checks: list[dict[str, Any]]) -> list[str]:
    """Features that checks of a declared kind and pair carry, none of which applied: the exceptions to
    "every feature a declared pair can express is tested", each with why."""
    by_feature: dict[str, list[dict[str, Any]]] = {}
    for check in checks:
        for key in check.get("features") or ():
            by_feature.setdefault(str(key), []).append(check)
    rows = []
    for key in sorted(by_feature):
        group = by_feature[key]
        if any(c.get("outcome") != "skipped" for c in group):
            continue
        reasons = Counter(
            _reason_group(str(c.get("message") or ""))
            for c in group
            if not str(c.get("message") or "").startswith(("kind ", "pair "))
        )
        if reasons:  # some check had a declared kind and pair: only a policy kept it out
            why, _ = min(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
            rows.append(f"| {_code(key)} | {_cell(why)} |")
    if not rows:
        return []
    return [
        "",
        "Features that checks of a declared kind and pair carry, none of which applied:",
        "",
        "| feature | why |",
        "|---|---|",
        *rows,
    ]


def _coverage(results: ResultsLike) -> list[str]:
    """What the implementation declared, how much of the corpus applied to it, and why the rest did not."""
    caps = ((results.header or {}).get("adapter") or {}).get("capabilities") or {}
    checks = results.checks
    ran = [c for c in checks if c.get("outcome") != "skipped"]
    lines = ["## Coverage", ""]
    kinds = caps.get("kinds") or {}
    if kinds:
        lines += ["| kind | declared pairs (source > target) | checks applied |", "|---|---|---:|"]
        for kind in sorted(kinds):
            pairs = ", ".join(_code(">".join(p)) for p in kinds[kind]) or "none"
            applied = sum(1 for c in ran if c.get("kind") == kind)
            lines.append(f"| {_code(kind)} | {pairs} | {applied} |")
        lines.append("")
    share = percent(len(ran), len(checks)) if checks else "0%"
    lines.append(f"{len(ran)} of {len(checks)} checks of the corpus applied ({share}).")
    projected = sum(1 for c in ran if c.get("projected_from"))
    lifted = sum(1 for c in ran if c.get("unit") == "request")
    if projected or lifted:
        lines.append(
            f"Of these, {projected} start from a canonical source written in a provider dialect "
            f'(INTERPRETING.md, "Sources in every dialect") and {lifted} reached it inside a request '
            f'("Kinds lifted into requests").'
        )
    skipped = [c for c in checks if c.get("outcome") == "skipped"]
    lines += _unreached(checks)
    reasons = Counter(_reason_group(str(c.get("message") or "")) for c in skipped)
    if reasons:
        lines += ["", "| why the other checks did not apply | checks |", "|---|---:|"]
        ranked = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        lines += [f"| {_cell(why)} | {n} |" for why, n in ranked]
    return lines


def _areas(results: ResultsLike, features: dict[str, dict[str, Any]]) -> list[str]:
    by_feature: dict[str, list[dict[str, Any]]] = {}
    for check in results.checks:
        for key in check.get("features") or ():
            by_feature.setdefault(str(key), []).append(check)
    complete = _partial_reason(results) is None
    keys = set(by_feature) | (set(features) if complete else set())

    def home(key: str) -> str:
        area = (features.get(key) or {}).get("area")
        if isinstance(area, str):
            return area
        areas = sorted({str(c.get("area", "?")) for c in by_feature.get(key, ())}, key=_area_key)
        return areas[0] if areas else key.split(".")[0]

    order = {key: i for i, key in enumerate(features)}
    rows_by_area: dict[str, list[str]] = {}
    for key in keys:
        rows_by_area.setdefault(home(key), []).append(key)
    checks_by_area: dict[str, list[dict[str, Any]]] = {}
    for check in results.checks:
        checks_by_area.setdefault(str(check.get("area", "?")), []).append(check)

    lines: list[str] = []
    for area in sorted(set(rows_by_area) | set(checks_by_area), key=_area_key):
        area_tally = _tally(checks_by_area.get(area, ()))
        lines += [f"## Area: {area}", ""]
        scores = ", ".join(
            f"{level} {_score(area_tally.passed_by_level[level], area_tally.applicable_by_level[level])}"
            for level in LEVELS
        )
        lines += [f"{area_tally.status} Checks of `cases/{area}/`: {scores}.", ""]
        # a feature row only where something applied: what was not declared has nothing to say
        keys_here = sorted(
            (k for k in rows_by_area.get(area, ()) if _tally(by_feature.get(k, ())).applicable),
            key=lambda k: (order.get(k, len(order)), k),
        )
        if not keys_here:
            continue
        lines += [
            "| | feature | checks | passed | failed | errored | skipped | must | should | may |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for key in keys_here:
            t = _tally(by_feature.get(key, ()))
            title = (features.get(key) or {}).get("title")
            name = f"{_cell(title)} ({_code(key)})" if title else _code(key)
            not_passing = t.outcomes["failed"] + t.outcomes["xfailed"]
            levels = " | ".join(_score(t.passed_by_level[lv], t.applicable_by_level[lv]) for lv in LEVELS)
            lines.append(
                f"| {t.status} | {name} | {t.applicable} | {t.passed} | {not_passing} | "
                f"{t.outcomes['errored']} | {t.outcomes['skipped']} | {levels} |"
            )
        lines.append("")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# -- field coverage by dialect pair ----------------------------------------------------------------------

#: the kinds with a field-level view, and the feature areas whose features are its rows
FIELD_KINDS: tuple[tuple[str, str], ...] = (("request", "Requests"), ("response", "Responses"))
FIELD_AREAS = frozenset({"messages", "calls", "results", "responses"})
#: feature-key prefixes of those areas, for features the vocabulary does not describe
_FIELD_PREFIXES = frozenset({"messages", "request", "calls", "results", "ids", "response"})
#: the dialects in the order of their names' list (``common.schema.json``)
DIALECT_ORDER: tuple[str, ...] = DIALECT_NAMES


def _dialect_key(name: str) -> tuple[int, str]:
    return (DIALECT_ORDER.index(name), name) if name in DIALECT_ORDER else (len(DIALECT_ORDER), name)


def _is_field(key: str, features: dict[str, dict[str, Any]]) -> bool:
    area = (features.get(key) or {}).get("area")
    if isinstance(area, str):
        return area in FIELD_AREAS
    return key.split(".", 1)[0] in _FIELD_PREFIXES


def _field_coverage(results: ResultsLike, features: dict[str, dict[str, Any]]) -> list[str]:
    """Per kind (request, response) and source dialect, a table: rows are the fields (features of the
    areas messages, calls, results, responses), columns the target dialects, cells derived from checks."""
    order = {key: i for i, key in enumerate(features)}
    body: list[str] = []
    for kind, title in FIELD_KINDS:
        checks = [c for c in results.checks if c.get("kind") == kind]
        if not checks:
            continue
        # (source, target) -> feature -> tally, and the pairs with at least one applicable check
        cells: dict[tuple[str, str], dict[str, Tally]] = {}
        applicable_pairs: set[tuple[str, str]] = set()
        for check in checks:
            pair = (str(check.get("source", "?")), str(check.get("target", "?")))
            if check.get("outcome") != "skipped":
                applicable_pairs.add(pair)
            for key in check.get("features") or ():
                if _is_field(str(key), features):
                    cells.setdefault(pair, {}).setdefault(str(key), Tally()).add(check)
        body += ["", f"### {title}", ""]
        all_pairs = {(str(c.get("source", "?")), str(c.get("target", "?"))) for c in checks}
        skipped_pairs = sorted(
            all_pairs - applicable_pairs, key=lambda p: (_dialect_key(p[0]), _dialect_key(p[1]))
        )
        shown = [p for p in applicable_pairs if cells.get(p)]
        if not applicable_pairs:
            n = len(checks)
            body.append(
                f"{STATUS_NA} Not applicable: {'every one' if n != 1 else 'the one'} of the {n} `{kind}` "
                f"check{'s' if n != 1 else ''} was skipped (no pair of kind `{kind}` declared)."
            )
            continue
        if not shown:
            body += [f"No applicable `{kind}` check is about a request or response field.", ""]
        for source in sorted({p[0] for p in shown}, key=_dialect_key):
            targets = sorted({p[1] for p in shown if p[0] == source}, key=_dialect_key)
            keys = sorted(
                {k for t in targets for k in cells.get((source, t), {})},
                key=lambda k: (order.get(k, len(order)), k),
            )
            body += [
                f"From **{source}**:",
                "",
                "| Field | " + " | ".join(f"→ {_cell(t)}" for t in targets) + " |",
                "|---|" + "---|" * len(targets),
            ]
            for key in keys:
                name = (features.get(key) or {}).get("title")
                label = f"{_cell(name)} ({_code(key)})" if name else _code(key)
                row = [cell_text(cells.get((source, t), {}).get(key)) for t in targets]
                body.append(f"| {label} | " + " | ".join(row) + " |")
            support = []
            for target in targets:
                tallies = [t for t in cells.get((source, target), {}).values() if t.applicable]
                ok = sum(t.status == STATUS_ALL for t in tallies)
                support.append(f"**{ok}/{len(tallies)} ({percent(ok, len(tallies))})**")
            body += ["| **Fields fully supported** | " + " | ".join(support) + " |", ""]
        if skipped_pairs:
            listed = ", ".join(_code(f"{a} → {b}") for a, b in skipped_pairs)
            body.append(f"Not applicable (every check skipped): {listed}.")
        elif body[-1] == "":
            body.pop()
    if not body:
        return []
    legend = (
        "Which request and response fields each dialect pair translates, derived from the checks of kinds "
        "`request` and `response` (round trips included): one table per source dialect, one column per "
        f"target. {STATUS_ALL} every applicable check of the field passes · {STATUS_SOME} some pass · "
        f"{STATUS_NONE} none pass · {STATUS_NA} not applicable · {STATUS_UNCOVERED} the corpus has no "
        "check of this field for the pair; `n/m` = passed / applicable checks."
    )
    return ["## Field coverage by dialect pair", "", legend, *body]


def _error_text(error: Any) -> str:
    if not isinstance(error, dict):
        return _code(json.dumps(error, ensure_ascii=False))
    text = _code(error.get("code", "?"))
    if error.get("path") is not None:
        text += f" at {_code(error['path'] or '(root)')}"
    return text


def _failure_heading(check_id: object) -> str:
    return f"### {_code(check_id)}"


def _failure(check: dict[str, Any]) -> list[str]:
    outcome = check.get("outcome")
    target = check.get("target", "?")
    lines = [_failure_heading(check.get("id", "?")), ""]
    features = ", ".join(_code(f) for f in check.get("features") or ()) or "—"
    lines.append(f"- **{outcome}** · level **{check.get('level', '?')}** · features {features}")
    pair = f"{check.get('source', '?')} → {target}"
    if check.get("round_trip"):
        # the output judged is the one translated back: its wire schema is the source's
        target = check.get("source", "?")
        pair += f" → {target}"
    lines.append(f"- {_code(pair)}, kind {_code(check.get('kind', '?'))}")
    if check.get("round_trip"):
        lines.append("- round trip: translated there and back, compared with the source payload")
    wire_valid = check.get("wire_valid")
    if wire_valid is True:
        lines.append(
            f"- the output is valid for the {target} wire schema (different, but the provider accepts it)"
        )
    elif wire_valid is False:
        lines.append(
            f"- the output is **not valid** for the {target} wire schema (the provider would reject it)"
        )
    else:
        lines.append(f"- wire schema: not checked (no output payload, or no {target} schema for this kind)")
    if check.get("expected_error") is not None:
        lines.append(f"- expected error: {_error_text(check['expected_error'])}")
    if check.get("actual_error") is not None:
        lines.append(f"- actual error: {_error_text(check['actual_error'])}")
    if check.get("message"):
        first, *rest = str(check["message"]).splitlines() or [""]
        if rest:
            lines += ["- message:", "", _fence(str(check["message"]))]
        else:
            lines.append(f"- message: {_prose(first)}")
    if check.get("wire_errors"):
        lines += ["", "Wire-schema errors:", "", _fence("\n".join(str(e) for e in check["wire_errors"]))]
    if check.get("diff"):
        lines += ["", "Diff:", "", _fence(str(check["diff"]), "diff")]
    lines.append("")
    return lines


def _failures(results: ResultsLike) -> list[str]:
    failing = sorted(
        (c for c in results.checks if c.get("outcome") in FAILING), key=lambda c: str(c.get("id"))
    )
    lines = ["## Failing checks", ""]
    if not failing:
        return lines + ["None: every applicable check passed."]
    for check in failing:
        lines += _failure(check)
    lines.pop()
    return lines


def _title_md(finding: Finding) -> str:
    return "".join(_code(p) if isinstance(p, Code) else _prose(p) for p in finding.title)


def _finding_lines(
    number: int, finding: Finding, anchors: dict[str, str], known: list[str] | None = None
) -> list[str]:
    n = finding.count
    levels = ", ".join(f"{count} {level}" for level, count in finding.levels())
    features = [_code(key) for key, _count in finding.features()]
    if len(features) > 6:
        features = [*features[:6], f"{len(features) - 6} more"]
    links = []
    for check in finding.sample(SHOWN_CHECKS):
        check_id = str(check.get("id", "?"))
        anchor = anchors.get(_failure_heading(check_id))
        links.append(f"[{_code(check_id)}](#{anchor})" if anchor else _code(check_id))
    if finding.runs > len(links):
        links.append(f"and {finding.runs - len(links)} more")
    summary = f"**{n} check{'s' if n != 1 else ''}** ({levels})"
    if features:
        summary += f", features {', '.join(features)}"
    variants = finding.variants()
    if variants:
        # a stream case's variants repeat its main check's problem: listed, counted once
        shown = ", ".join(_code(v) for v in variants)
        summary += f"; also in the variants {shown} ({finding.runs} runs in all)"
    lines = [f"### {number}. {_title_md(finding)}", "", summary + ".", "", f"Checks: {', '.join(links)}."]
    if known:
        lines += ["", f"Reported upstream: {', '.join(f'<{url}>' for url in known)}."]
    if finding.example:
        where = "" if n == 1 else f" (from {_code(finding.example_id)})"
        lines += [
            "",
            f"Example{where}:",
            "",
            _fence(finding.example, "diff" if finding.example_is_diff else "text"),
        ]
    return lines


#: what an implementation did with an input (``handled`` on a passed check), as the report words it
HANDLED = {
    "refused": "refused",
    "forwarded": "passed on (the target rejects it in turn)",
    "translated": "translated (the target's wire schema accepts the output)",
    "left-to-provider": "left to the provider",
    "accepted-degrade": "translated with a degrade the case accepts",
    "raised": "an upstream stream error raised as the implementation's own error",
}
#: what the report says of a check with valid input that passed without the refusal the corpus expects
VALID_INPUT_NOTES = {
    "left-to-provider": (
        "Left to the provider",
        "a valid input with no faithful form in the target, passed on for the provider to refuse",
    ),
    "accepted-degrade": ("Accepted degrades", "translated with a degrade the case lists as accepted"),
    "forwarded": (
        "Truncations passed on",
        "a truncated upstream stream whose output tells the client that the answer did not end normally",
    ),
    "raised": ("Upstream errors raised", "an upstream stream error raised as the implementation's own error"),
    "another-policy": (
        "Other policies",
        "the output the case expects under another value of a profile key the implementation did not declare",
    ),
    "refused-member": (
        "Members refused",
        "a refusal naming a request member the target has no form for (the case drops it; refusing is the "
        "other policy)",
    ),
    "documented-drop": (
        "Documented drops",
        "a request member the target has no form for, left out as the implementation documents (its "
        "capabilities' documented_drops cite where)",
    ),
    "unchanged": (
        "Passed on unchanged",
        "a valid input passed on unchanged to a reader of its own dialect (the case upgrades its spelling)",
    ),
}
#: example check ids shown per kind of handling
HANDLED_EXAMPLES = 3


def _input_validation(checks: Sequence[dict[str, Any]]) -> list[str]:
    """The "Input validation" section: what the implementation did with inputs already invalid in their own
    dialect (``source_invalid``), and how many valid inputs without a faithful target form it left to the
    provider (``handled``). Information, never findings; empty when no record says."""
    invalid: dict[str, list[str]] = {}
    valid: dict[str, list[str]] = {}
    for check in sorted(checks, key=lambda c: str(c.get("id"))):
        how = check.get("handled")
        if not isinstance(how, str) or check.get("outcome") != "passed":
            continue
        check_id = str(check.get("id", "?"))
        if check.get("source_invalid") is True:
            invalid.setdefault(how, []).append(check_id)
        else:
            valid.setdefault(how, []).append(check_id)
    if not (invalid or valid):
        return []
    lines = ["## Input validation", ""]
    if invalid:
        total = sum(len(v) for v in invalid.values())
        lines += [
            f"{total} check{'s' if total != 1 else ''} gave an input already invalid in its own dialect. "
            "Garbage in is no translation bug: what the implementation did is shown as information, not as a "
            "finding.",
            "",
            "| what it did with invalid input | checks | for example |",
            "|---|---:|---|",
        ]
        order = [h for h in HANDLED if h in invalid] + sorted(set(invalid) - set(HANDLED))
        for how in order:
            ids = invalid[how]
            examples = ", ".join(_code(i) for i in ids[:HANDLED_EXAMPLES])
            more = f" and {len(ids) - HANDLED_EXAMPLES} more" if len(ids) > HANDLED_EXAMPLES else ""
            lines.append(f"| {_prose(HANDLED.get(how, how))} | {len(ids)} | {examples}{more} |")
    for how, (label, what) in VALID_INPUT_NOTES.items():
        ids = valid.get(how)
        if ids:
            examples = ", ".join(_code(i) for i in ids[:HANDLED_EXAMPLES])
            checks_word = "check" if len(ids) == 1 else "checks"
            lines += ["", f"{label}: {len(ids)} {checks_word} ({what}), e.g. {examples}."]
    return lines


def _bugs(
    findings: list[Finding], failing: int, anchors: dict[str, str], upstream: Upstream | None = None
) -> list[str]:
    lines = ["## Translation bugs found", ""]
    if not findings:
        return lines + ["None found: no check failed."]
    shown = findings[:SHOWN_FINDINGS]
    lines.append(
        f"{len(findings)} distinct problem{'s' if len(findings) != 1 else ''} in the {failing} failing "
        f"check{'s' if failing != 1 else ''}, grouped by the rule broken in one dialect's output, whatever "
        "the source (JSON Pointers with array indexes as `*`; in JSON Schemas, the same keyword at any depth "
        "is one problem); a check with several problems counts in each. The most checks first; every "
        "check is in [Failing checks](#failing-checks) with its whole diff."
    )
    for number, finding in enumerate(shown, 1):
        known = upstream(finding) if upstream else None
        lines += ["", *_finding_lines(number, finding, anchors, known)]
    rest = findings[SHOWN_FINDINGS:]
    if rest:
        top = max(f.count for f in rest)
        lines += [
            "",
            f"{len(rest)} more problem{'s' if len(rest) != 1 else ''}, "
            f"{'each in' if len(rest) != 1 else 'in'} {top} check{'s' if top != 1 else ''} or fewer: see "
            "[Failing checks](#failing-checks).",
        ]
    return lines


def _issue_link(url: object) -> str:
    text = str(url)
    return f"[issue](<{text}>)" if re.search(r"[\s()<>]", text) else f"[issue]({text})"


def _known(results: ResultsLike) -> list[str]:
    # records carry `expected_failure` {reason, issue?}; the header's `expectations` names the file
    info = (results.header or {}).get("expectations") or {}
    strict = "; under strict expectations each one fails the run" if info.get("strict") else ""
    lines: list[str] = []
    for outcome, title, note in (
        (
            "xpassed",
            "Unexpected passes",
            f"listed as known failures but passed: the entry is stale, remove it{strict}",
        ),
        ("xfailed", "Known failures", "listed in the implementation's expectations file"),
    ):
        checks = sorted(
            (c for c in results.checks if c.get("outcome") == outcome), key=lambda c: str(c.get("id"))
        )
        if not checks:
            continue
        lines += ["", f"## {title}", "", f"{len(checks)} check{'s' if len(checks) != 1 else ''} {note}.", ""]
        for check in checks:
            expected = check.get("expected_failure") or {}
            text = expected.get("reason") or check.get("message")
            reason = f": {_prose(_flat(text))}" if text else ""
            if expected.get("issue"):
                reason += f" ({_issue_link(expected['issue'])})"
            lines.append(f"- {_code(check.get('id', '?'))} ({check.get('level', '?')}){reason}")
            if expected.get("reason") and outcome == "xfailed" and check.get("message"):
                lines.append(f"  - failure: {_prose(_flat(check['message']))}")
    unmatched = info.get("unmatched") or []
    if unmatched:
        name = Path(str(info.get("path") or "expectations")).name
        n = len(unmatched)
        lines += [
            "",
            "## Stale expectations entries",
            "",
            f"{n} entr{'y' if n == 1 else 'ies'} of {_code(name)} match{'es' if n == 1 else ''} no check of "
            f"the corpus (a typo, or a check since removed){strict.replace('each one fails', 'this fails')}.",
            "",
        ]
        for entry in unmatched:
            where = [f"case {_code(entry.get('case', '?'))}"]
            if entry.get("pair"):
                where.append(f"pair {_code(entry['pair'])}")
            if entry.get("profile"):
                values = ",".join(f"{k}={v}" for k, v in sorted(entry["profile"].items()))
                where.append(f"profile {_code(values)}")
            reason = f": {_cell(entry['reason'])}" if entry.get("reason") else ""
            lines.append(f"- entry #{entry.get('entry', '?')}, {', '.join(where)}{reason}")
    return lines


def _secrets_logged(results: ResultsLike) -> list[str]:
    """What the implementation wrote of its keys into its own log (the results' footer)."""
    logged = (results.footer or {}).get("secrets_logged") or []
    if not logged:
        return []
    what = ", ".join(str(x) for x in logged)
    return [
        "",
        "## Keys in its log",
        "",
        f"**It wrote {what} into its own log** while the checks ran: whoever reads its logs can use them. "
        "The run fails on it (the keys are the ones its recipe names; their values are never written here).",
    ]


def _field_regressions(results: ResultsLike, mine: list[Regression]) -> list[str]:
    """The bugs users reported against this implementation that a case catches (corpus/regressions.json),
    and whether its case still fails here."""
    if not mine:
        return []
    failing: dict[str, list[str]] = {}
    ran: set[str] = set()
    for check in results.checks:
        case = str(check.get("case"))
        if check.get("outcome") not in ("skipped", None):
            ran.add(case)
        if check.get("outcome") in FAILING:
            failing.setdefault(case, []).append(str(check.get("id")))
    still = [r for r in mine if r.case in failing]
    passing = [r for r in mine if r.case in ran and r.case not in failing]
    lines = [
        "",
        "## Bugs reported upstream",
        "",
        f"{len(mine)} bug{'s' if len(mine) != 1 else ''} users reported against this implementation "
        f"{'have' if len(mine) != 1 else 'has'} a case of its own (corpus/regressions.json): "
        f"{len(still)} of those cases fail here, {len(passing)} pass, "
        f"{len(mine) - len(still) - len(passing)} did not run. A failing case may fail for another reason "
        "than the bug it was made for: the findings above name the report only where the finding is how that "
        "bug shows.",
    ]
    if still:
        lines.append("")
    for regression in still:
        ids = failing[regression.case]
        shown = ", ".join(_code(i) for i in ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
        lines.append(f"- <{regression.issue}>: {_code(regression.case)} fails ({shown})")
    return lines


def _fix_first(results: ResultsLike, features: dict[str, dict[str, Any]]) -> list[str]:
    failing: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for check in results.checks:
        if check.get("level") != "must" or check.get("outcome") == "skipped":
            continue
        for key in check.get("features") or ():
            total[key] += 1
            if check.get("outcome") in FAILING:
                failing[key] += 1
    lines = ["## Fix first", ""]
    if not failing:
        return lines + ["Nothing: every applicable `must` check passes."]
    lines += ["Features with failing `must` checks, the most failures first:", ""]
    for i, (key, count) in enumerate(sorted(failing.items(), key=lambda kv: (-kv[1], kv[0])), 1):
        entry = features.get(key) or {}
        title = entry.get("title")
        name = f"**{title}** ({_code(key)})" if title else f"**{_code(key)}**"
        lines.append(
            f"{i}. {name}: {count} of {total[key]} `must` check{'s' if total[key] != 1 else ''} fail"
        )
    return lines


def render(results: ResultsLike) -> str:
    """The Markdown report for one results file (deterministic: no clock, stable ordering)."""
    header = results.header or {}
    adapter = header.get("adapter") or {}
    features = load_features(header)
    name = (
        " ".join(str(x) for x in (adapter.get("name"), adapter.get("version")) if x)
        or "unknown implementation"
    )
    lines = [f"# toolwire compatibility report: {name}", ""]
    reason = _partial_reason(results)
    if reason is not None:
        lines += [f"> **PARTIAL**: {reason}. Scores cover only the checks that ran.", ""]
    tally = _tally(results.checks)
    lines += _summary(results, tally)
    lines += _secrets_logged(results)
    lines += ["", *_coverage(results)]
    area_lines = _areas(results, features)
    if area_lines:
        lines += ["", *area_lines]
    field_lines = _field_coverage(results, features)
    if field_lines:
        lines += ["", *field_lines]
    handled = _input_validation(results.checks)
    if handled:
        lines += ["", *handled]
    failing = _failures(results)
    findings = find_bugs(results.checks)
    count = sum(1 for c in results.checks if c.get("outcome") in FAILING)
    # the checks' anchors depend on every heading before them: lay the page out once without links
    mine = of_implementation(regressions(header), repositories(header))

    def upstream(finding: Finding) -> list[str]:
        return reported_upstream(finding, mine)

    draft = [*lines, *_bugs(findings, count, {}, upstream), *failing]
    lines += ["", *_bugs(findings, count, _heading_anchors(draft), upstream)]
    lines += _field_regressions(results, mine)
    lines += ["", *failing]
    lines += _known(results)
    lines += ["", *_fix_first(results, features)]
    legend = (
        f"{STATUS_ALL} every applicable check passes · {STATUS_SOME} some pass · {STATUS_NONE} none pass · "
        f"{STATUS_NA} not applicable. Score = passed / applicable; skipped checks are not applicable."
    )
    lines += ["", "---", "", legend]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`toolwire report RESULTS.jsonl [-o FILE]`: write the Markdown report (stdout by default)."""
    parser = argparse.ArgumentParser(
        prog="toolwire report", description="Render a Markdown compatibility report."
    )
    parser.add_argument("results", help="a results.jsonl file written by `toolwire run`")
    parser.add_argument("-o", "--output", help="write the report here instead of stdout")
    args = parser.parse_args(argv)
    try:
        results = read_results(Path(args.results))
    except (ResultsError, OSError, ValueError) as exc:
        print(f"toolwire report: {exc}", file=sys.stderr)
        return 2
    text = render(results)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
