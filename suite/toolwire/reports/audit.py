"""The published false rate: verified samples of findings (``reports/AUDIT.json``, docs/results.md "Audits").

A sample is drawn with ``toolwire findings sample --seed N``; each of its findings is verified in the
implementation's code and the provider's docs and given a verdict (``true``, ``false``, ``unsure``).
``toolwire report combine`` reads the file when present and publishes, per sample and overall, how many
findings were verified, the verdicts and the measured false rate with its 95 % Wilson interval.

A finding may also carry a ``second`` verdict: another auditor's, given blind (without the first verdict),
and, where the two disagree, a ``third`` that decides. The rate stays the first auditors'; the section adds
how often the first two agree, how many findings both judge false, and the false rate by the majority of
the auditors who verified each finding, so a reader can tell a finding a second look confirms from one
auditor's view.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "VERDICTS",
    "AuditError",
    "Tally",
    "audit_section",
    "majority_verdict",
    "read_audit",
    "tally",
    "wilson",
]

VERDICTS = ("true", "false", "unsure")
#: the members holding later auditors' blind verdicts on a finding, in the order they were asked
_LATER = ("second", "third")
#: z for a two-sided 95 % interval
Z95 = 1.959963984540054


class AuditError(ValueError):
    """AUDIT.json is not of the documented shape."""


@dataclass(frozen=True)
class Tally:
    """The verdicts of some verified findings."""

    n: int
    true: int
    false: int
    unsure: int

    @property
    def decided(self) -> int:
        """Findings with a true or false verdict (the rate's denominator: unsure ones are left out)."""
        return self.true + self.false

    def false_rate(self) -> tuple[float, float, float] | None:
        """(rate, low, high): the share of decided findings that are false, with its 95 % Wilson interval;
        None when none is decided."""
        if not self.decided:
            return None
        low, high = wilson(self.false, self.decided)
        return self.false / self.decided, low, high


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (``(0.0, 1.0)`` for ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def read_audit(path: Path | str) -> list[dict[str, Any]]:
    """The samples of an audit file (raises AuditError on a shape docs/results.md does not describe)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AuditError(f"{path}: {exc}") from exc
    samples = doc.get("samples") if isinstance(doc, dict) else doc
    if not isinstance(samples, list):
        raise AuditError(f"{path}: expected a list of samples (or {{'samples': [...]}})")
    for i, sample in enumerate(samples):
        if not isinstance(sample, dict) or not isinstance(sample.get("findings"), list):
            raise AuditError(f"{path}: sample {i} has no list of findings")
        for j, finding in enumerate(sample["findings"]):
            verdict = finding.get("verdict") if isinstance(finding, dict) else None
            if verdict not in VERDICTS:
                raise AuditError(f"{path}: sample {i}, finding {j}: verdict {verdict!r} not in {VERDICTS}")
            for later in _LATER:
                extra = finding.get(later)
                bad = not isinstance(extra, dict) or extra.get("verdict") not in VERDICTS
                if extra is not None and bad:
                    where = f"{path}: sample {i}, finding {j}"
                    raise AuditError(f"{where}: {later} verdict is not one of {VERDICTS}")
    return samples


def tally(findings: list[dict[str, Any]]) -> Tally:
    """The verdicts of ``findings``."""
    verdicts = [str(f.get("verdict")) for f in findings]
    return Tally(len(verdicts), verdicts.count("true"), verdicts.count("false"), verdicts.count("unsure"))


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _row(label: str, t: Tally) -> str:
    rate = t.false_rate()
    shown = "–" if rate is None else f"{_pct(rate[0])} ({_pct(rate[1])}–{_pct(rate[2])})"
    return f"| {label} | {t.n} | {t.true} | {t.false} | {t.unsure} | {shown} |"


def audit_section(path: Path | str) -> str:
    """The README's "Audited findings" section for the audit file at ``path`` ("" when there is none)."""
    if not Path(path).is_file():
        return ""
    samples = read_audit(path)
    lines = [
        "",
        "## Audited findings",
        "",
        "Random samples of the findings above (`toolwire findings sample --seed N`), each verified in the "
        "implementation's code and the provider's docs (`AUDIT.json`). The false rate is false / (true + "
        "false), unsure ones left out, with its 95 % Wilson interval.",
        "",
        "| sample | n | true | false | unsure | false rate (95 % CI) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    everything: list[dict[str, Any]] = []
    for sample in samples:
        findings = sample["findings"]
        everything += findings
        label = f"seed {sample.get('seed', '?')}, corpus {sample.get('drawn_at', '?')}"
        lines.append(_row(label, tally(findings)))
    lines.append(_row("**all samples**", tally(everything)))
    classes: dict[str, int] = {}
    for finding in everything:
        if finding.get("verdict") == "false":
            name = str(finding.get("class") or "unclassified")
            classes[name] = classes.get(name, 0) + 1
    if classes:
        ordered = sorted(classes.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = ", ".join(f"{name} ({n})" for name, n in ordered)
        lines += ["", f"False findings by class: {shown}."]
    lines += _second_opinions(everything)
    return "\n".join(lines) + "\n"


def _second_opinions(findings: list[dict[str, Any]]) -> list[str]:
    """The lines on the findings a second auditor verified blind (none when there are none)."""
    both = [
        (str(f["verdict"]), str(f["second"]["verdict"]))
        for f in findings
        if isinstance(f.get("second"), dict)
    ]
    if not both:
        return []
    agree = sum(first == second for first, second in both)
    false_both = sum(first == second == "false" for first, second in both)
    firsts = {v: sum(first == v for first, _ in both) for v in VERDICTS}
    shown = ", ".join(f"{n} {v}" for v, n in firsts.items() if n)
    lines = [
        "",
        f"A second auditor verified {len(both)} of these findings again without seeing the first verdict "
        f"(first verdicts: {shown}): the two agree on {agree}; both judge {false_both} false.",
    ]
    thirds = sum(isinstance(f.get("third"), dict) for f in findings)
    if thirds:
        majority = tally([{"verdict": majority_verdict(f)} for f in findings])
        rate = majority.false_rate()
        shown_rate = "–" if rate is None else f"{_pct(rate[0])} ({_pct(rate[1])}–{_pct(rate[2])})"
        lines.append(
            f"Where they disagreed a third auditor decided ({thirds} finding{'s' * (thirds != 1)}). By the "
            f"majority of the auditors who verified each finding, {majority.false} of {majority.n} are "
            f"false: {shown_rate}."
        )
    return lines


def majority_verdict(finding: dict[str, Any]) -> str:
    """The verdict most of the auditors who verified ``finding`` gave (the first auditor's on a tie)."""
    votes = [str(finding.get("verdict"))]
    votes += [str(finding[k]["verdict"]) for k in _LATER if isinstance(finding.get(k), dict)]
    counts = Counter(votes)
    best = max(counts.values())
    return votes[0] if counts[votes[0]] == best else next(v for v in votes if counts[v] == best)
