"""The benchmark's table (printed) and ``reports/benchmarks.md``; the targets, judged on one run's ratios."""

from __future__ import annotations

import platform
from dataclasses import dataclass, field
from typing import Any

from .measure import BASELINE_COMMIT, Timing
from .operations import Operation

__all__ = ["OpResult", "Targets", "judge", "machine", "markdown", "text_table"]

#: the issue's targets for the reference: ahead of every peer on every shared operation (in one run), and
#: long streams at or under STREAM_US_PER_EVENT µs per event with flat memory, where the reference of
#: measure.BASELINE_COMMIT took BASELINE_US_PER_EVENT: per-event times scale with the machine, so a run
#: holds the reference to the same ratio over that code, timed on the same streams in the same run
STREAM_US_PER_EVENT = 2.0
BASELINE_US_PER_EVENT = 1.5
STREAM_RATIO = STREAM_US_PER_EVENT / BASELINE_US_PER_EVENT
STREAM_TARGET = f"≤ {STREAM_US_PER_EVENT:g} µs/event where the baseline took {BASELINE_US_PER_EVENT:g}"
#: memory is "flat" when the longest stream's peak is within this factor of the shortest's (same route)
FLAT_MEMORY_FACTOR = 1.5


@dataclass
class OpResult:
    op: Operation
    floor: Timing
    #: implementation name → timing ("reference" first; a peer only when it declares the operation)
    timings: dict[str, Timing] = field(default_factory=dict)

    @property
    def reference(self) -> Timing:
        return self.timings["reference"]

    def ratio(self, name: str) -> float:
        return self.timings[name].median_us / self.reference.median_us


@dataclass
class Targets:
    """Per operation: (met, text) for "ahead of every peer" (None: no peer translates it); per long stream
    route: (met, text) for the per-event cost and flat memory; ``notes`` explain a comparison left out."""

    rows: list[tuple[str, tuple[bool, str] | None]]
    notes: list[str]
    streams: list[tuple[str, tuple[bool, str]]] = field(default_factory=list)

    @property
    def all_met(self) -> bool:
        return all(t is None or t[0] for _, t in self.rows) and all(t[0] for _, t in self.streams)


def judge(results: list[OpResult], streams: list[dict[str, Any]] | None = None) -> Targets:
    """The reference must be faster than every peer that translated the operation (``ok``), in this run's
    medians; a peer that refused or crashed is left out (its time is not a translation's), with a note."""
    rows, notes = [], []
    for r in results:
        translating = {n: t for n, t in r.timings.items() if n != "reference" and t.outcome == "ok"}
        for n, t in r.timings.items():
            if n != "reference" and t.outcome != "ok":
                notes.append(f"{r.op.name}: {n} {t.outcome}; its time is not a translation's, left out")
        ahead = None
        if translating:
            fastest = min(translating, key=lambda n: translating[n].median_us)
            x = r.ratio(fastest)
            ahead = (x > 1.0, f"{x:.2f}× ({fastest}, the fastest peer)")
        rows.append((r.op.name, ahead))
    return Targets(rows, notes, _judge_streams(streams or []))


def _judge_streams(streams: list[dict[str, Any]]) -> list[tuple[str, tuple[bool, str]]]:
    """Per route: every size at or under STREAM_RATIO × the baseline's cost per event (the absolute
    STREAM_US_PER_EVENT when the run has no baseline), and the peak memory of the longest stream within
    FLAT_MEMORY_FACTOR of the shortest's."""
    routes: dict[str, list[dict[str, Any]]] = {}
    for s in streams:
        routes.setdefault(s["name"], []).append(s)
    out = []
    for name, rows in routes.items():
        rows = sorted(rows, key=lambda s: s["events"])
        short, long = rows[0], rows[-1]
        growth = long["peak_kib"] / short["peak_kib"] if short["peak_kib"] else 1.0
        flat = growth <= FLAT_MEMORY_FACTOR
        if all("baseline_us_per_event" in s for s in rows):
            worst = max(rows, key=lambda s: s["us_per_event"] / s["baseline_us_per_event"])
            ratio = worst["us_per_event"] / worst["baseline_us_per_event"]
            fast = ratio <= STREAM_RATIO
            text = (
                f"{ratio:.2f}× the baseline, at most {STREAM_RATIO:.2f}× ({worst['us_per_event']:.2f} vs "
                f"{worst['baseline_us_per_event']:.2f} µs/event, {worst['events']:,} events)"
            )
        else:
            worst_us = max(s["us_per_event"] for s in rows)
            fast = worst_us <= STREAM_US_PER_EVENT
            text = f"no baseline in this run: worst {worst_us:.2f} µs/event, at most {STREAM_US_PER_EVENT:g}"
        text += f"; peak {short['peak_kib']:,.1f} → {long['peak_kib']:,.1f} KiB"
        if len(rows) > 1:
            text += f" ({short['events']:,} → {long['events']:,} events)"
        out.append((name, (fast and flat, text)))
    return out


def _baseline_cells(stream: dict[str, Any]) -> list[str]:
    base = stream.get("baseline_us_per_event")
    return ["—", "—"] if base is None else [f"{base:.2f}", f"{stream['us_per_event'] / base:.2f}"]


def machine(versions: dict[str, str]) -> dict[str, str]:
    import os

    return {
        "cpu": platform.processor() or platform.machine(),
        "cores": str(os.cpu_count()),
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        **{f"{name}": version for name, version in versions.items()},
    }


def _cell(r: OpResult, name: str) -> str:
    t = r.timings.get(name)
    if t is None:
        return "—"
    if name == "reference":
        return f"{t.median_us:,.1f}"
    text = f"{t.median_us:,.1f} (×{r.ratio(name):,.1f})"
    return text if t.outcome == "ok" else f"{text} {t.outcome}"


def _columns(results: list[OpResult], peers: list[str]) -> tuple[list[str], list[list[str]]]:
    head = ["operation", "floor µs", "reference µs", "ref/floor", *(f"{p} µs (×ref)" for p in peers)]
    body = []
    for r in results:
        body.append(
            [
                r.op.name,
                f"{r.floor.median_us:,.1f}",
                _cell(r, "reference"),
                f"{r.reference.median_us / r.floor.median_us:.1f}",
                *(_cell(r, p) for p in peers),
            ]
        )
    return head, body


def text_table(results: list[OpResult], peers: list[str]) -> str:
    head, body = _columns(results, peers)
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in [head, *body]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _md_table(head: list[str], body: list[list[str]], align: str = "r") -> list[str]:
    out = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(":--" if i == 0 else "--:" for i in range(len(head))) + "|",
    ]
    out += ["| " + " | ".join(row) + " |" for row in body]
    return out


def _mark(t: tuple[bool, str] | None) -> str:
    if t is None:
        return "—"
    return f"{'met' if t[0] else '**missed**'}: {t[1]}"


def markdown(
    *,
    results: list[OpResult],
    peers: list[str],
    skipped: dict[str, str],
    targets: Targets,
    streams: list[dict[str, Any]],
    suite: list[dict[str, Any]],
    env: dict[str, str],
    baseline: str = "",
    command: str,
    settings: str,
    optimisations: list[str],
) -> str:
    lines = [
        "# toolwire benchmark",
        "",
        f"Written by `{command}` (`make bench`). All figures come from one process and one run; the "
        f"ratios are",
        "computed within it. Times are medians of single calls after a warm-up, each call on a fresh "
        "deep copy",
        f"of the payload made outside the timed region, GC off while timing ({settings}). The",
        "implementations of one operation (and the floor) are timed **interleaved**, in turns of about "
        "20 ms each,",
        "so a change in the machine's load during the run slows them alike and their ratios hold.",
        "",
        "- **reference**: `toolwire_reference.Translator.translate` (streams: `translate_stream`, read "
        "to the end).",
        "- **peers**: the peer adapter's `translate` / `translate_stream` (`toolwire.peers`), called "
        "directly,",
        "  without the harness (no deep copy, thread or JSON check). This *includes the adapter's conversion",
        "  between the library's objects and wire JSON*, and for the routes that drive a library's "
        "public client",
        "  (e.g. `litellm.completion`, aisuite's `Client`, any-llm's `completion`) the in-process fake HTTP",
        "  upstream the adapter gives it: that is what any user of the library pays to get wire JSON out "
        "of it.",
        "- **floor**: `json.loads(json.dumps(payload))` of the same payload.",
        "- `×ref` is the peer's median over the reference's (higher: the reference is faster). An "
        "outcome other",
        "  than `ok` marks a call that refused or crashed instead of translating; its time is not "
        "comparable.",
        "",
        "## Translations (µs per call)",
        "",
        *_md_table(*_columns(results, peers)),
        "",
    ]
    if skipped:
        lines += ["Peers not measured: " + "; ".join(f"{k}: {v}" for k, v in skipped.items()), ""]
    lines += ["Payloads:", ""]
    lines += [f"- {r.op.name}: `{r.op.origin}`" for r in results]
    lines += [
        "",
        "## Targets",
        "",
        "The reference ahead of every peer on every shared operation, measured in one run (this one);",
        f"long streams at or under {STREAM_US_PER_EVENT:g} µs per event with flat memory (the longest "
        f"stream's peak within {FLAT_MEMORY_FACTOR:g}× of",
        "the shortest's). A peer that refused or crashed is left out of the comparison (its time is not a",
        "translation's).",
        "",
        f"The {STREAM_US_PER_EVENT:g} µs were set where the reference then took {BASELINE_US_PER_EVENT:g} µs "
        "per event (the baseline: commit",
        f"`{BASELINE_COMMIT[:7]}`, before the depth limit and the other input checks). A cost per event is "
        "only as good as the",
        "machine, so each run times the baseline on the same streams, in turns with the reference, and holds "
        "the reference",
        f"to the same ratio: at most {STREAM_US_PER_EVENT:g} / {BASELINE_US_PER_EVENT:g} = "
        f"{STREAM_RATIO:.2f}× the baseline (baseline here: {baseline or 'none'}).",
        "",
        *_md_table(
            ["operation", "ahead of every peer (fastest peer ÷ reference)"],
            [[name, _mark(ahead)] for name, ahead in targets.rows],
        ),
        "",
    ]
    if targets.streams:
        lines += _md_table(
            ["stream", f"≤ {STREAM_RATIO:.2f}× the baseline per event, flat memory"],
            [[name, _mark(t)] for name, t in targets.streams],
        )
        lines += [""]
    lines += [f"All targets met: **{'yes' if targets.all_met else 'no'}**.", ""]
    if targets.notes:
        lines += [f"- {n}" for n in targets.notes] + [""]
    lines += ["## Streams (reference)", ""]
    lines += [
        "A long synthetic stream: a real capture's head, its delta events repeated in order, its tail. "
        "Cost per",
        "event: the whole stream translated and read (median of 5 runs) over its event count; baseline: "
        "the same for",
        f"the reference at `{BASELINE_COMMIT[:7]}`, both read in turns of 500 output events; floor: a JSON "
        "dump and parse per event.",
        "Peak memory: `tracemalloc` peak while the stream is read lazily (one new event object at a time, "
        "output",
        "dropped as it comes), so it is the transcoder's own state.",
        "",
    ]
    lines += _md_table(
        [
            "stream", "events", "µs / event", "baseline µs / event", "×baseline", "floor µs / event",
            "peak memory KiB",
        ],
        [
            [
                s["name"],
                f"{s['events']:,}",
                f"{s['us_per_event']:.2f}",
                *_baseline_cells(s),
                f"{s['floor_us_per_event']:.2f}",
                f"{s['peak_kib']:,.1f}",
            ]
            for s in streams
        ],
    )
    lines += [""]
    if suite:
        lines += ["## The suite's own wall time", ""]
        lines += _md_table(
            ["command", "checks", "wall s", "exit"],
            [
                [f"`{s['command']}`", str(s["checks"]), f"{s['wall_s']:.1f}", str(s["returncode"])]
                for s in suite
            ],
        )
        lines += [""]
    if optimisations:
        lines += ["## Optimisations made to reach the targets", ""] + [f"- {o}" for o in optimisations] + [""]
    lines += ["## Machine", ""] + [f"- {k}: {v}" for k, v in env.items()] + [""]
    return "\n".join(lines)
