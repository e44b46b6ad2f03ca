"""Timing: medians of single calls after a warm-up; long streams; the suite's own wall time."""

from __future__ import annotations

import atexit
import contextlib
import copy
import gc
import importlib
import io
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.adapters import load_adapter
from toolwire.protocol import refusal_of

from .operations import Operation

__all__ = [
    "BASELINE_COMMIT",
    "Impl",
    "baseline_translate_stream",
    "Timing",
    "floor_call",
    "load_impls",
    "measure",
    "outcome_of",
    "stream_cost",
    "stream_peak_memory",
    "suite_wall_time",
    "synthetic_stream",
]

Call = Callable[[Any], Any]


@dataclass
class Impl:
    """An implementation as the adapter calls it, minus the harness (no deep copy, thread, JSON check)."""

    name: str
    version: str
    translator: Any
    kinds: dict[str, list[list[str]]]

    def supports(self, op: Operation) -> bool:
        pairs = self.kinds.get(op.kind, [])
        return any(a in ("*", op.source) and b in ("*", op.target) for a, b in pairs)

    def call(self, op: Operation) -> Call:
        """The library call for ``op`` (streams are read to the end, as the adapter does)."""
        tr, profile = self.translator, {}
        if op.kind == "stream":

            def run_stream(payload: Any) -> Any:
                out = tr.translate_stream(op.source, op.target, payload, profile)
                return out if isinstance(out, list) else list(out)

            return run_stream
        return lambda payload: tr.translate(op.kind, op.source, op.target, payload, profile)


def load_impls(peers: list[str]) -> tuple[list[Impl], dict[str, str]]:
    """The reference and every peer that loads; the second value says why a peer was left out."""
    impls, skipped = [], {}
    for spec in ["reference", *(f"peer:{p}" for p in peers)]:
        try:
            adapter = load_adapter(spec, timeout=None)
        except Exception as exc:  # not installed, or broken: the table says so
            skipped[spec.partition(":")[2] or spec] = str(exc).splitlines()[0]
            continue
        name = "reference" if spec == "reference" else spec.partition(":")[2]
        impls.append(Impl(name, adapter.version, adapter.impl, adapter.capabilities.get("kinds", {})))
    return impls, skipped


def floor_call(payload: Any) -> Any:
    """The floor: a plain JSON dump and parse of the same payload."""
    return json.loads(json.dumps(payload))


def outcome_of(call: Call, payload: Any) -> str:
    """``ok``, ``refused (code)`` or ``crashed (Type)`` for one call (a refusal's time is not comparable)."""
    try:
        call(copy.deepcopy(payload))
    except Exception as exc:
        refusal = refusal_of(exc)
        if refusal is not None:
            return f"refused ({refusal.get('code')})"
        return f"crashed ({type(exc).__name__})"
    return "ok"


@dataclass
class Timing:
    median_us: float
    reps: int
    outcome: str


def measure(
    calls: dict[str, Call],
    payload: Any,
    *,
    min_reps: int = 200,
    min_time: float = 0.5,
    max_reps: int = 20000,
    max_time: float = 5.0,
    warmup: int = 10,
    warmup_time: float = 0.2,
    slice_time: float = 0.02,
) -> dict[str, Timing]:
    """Median of single calls of each of ``calls``, each on a fresh deep copy of ``payload`` made
    outside the timed region, **interleaved**: the calls take turns in slices of about ``slice_time``
    seconds (at least one call each), so a machine whose load changes during the run slows every
    implementation alike and the ratios between them hold.

    Each call first gets ``warmup`` calls and ``warmup_time`` seconds of untimed calls (on a shared
    machine the first fraction of a second after a switch runs measurably slower); then each is
    repeated until both ``min_reps`` calls and ``min_time`` seconds of calls are done, or ``max_reps``
    calls, or ``max_time`` seconds (a slow call gets fewer repetitions). GC is off while timing, as in
    ``timeit``, and collected between slices (what existed before the timing is frozen, ``gc.freeze``,
    so the collections do not walk the loaded libraries). Exceptions are timed too (``outcome`` says
    whether the call translated)."""
    outcomes = {name: outcome_of(call, payload) for name, call in calls.items()}
    for call in calls.values():
        warm_until = time.perf_counter() + warmup_time
        done = 0
        while done < warmup or time.perf_counter() < warm_until:
            with contextlib.suppress(Exception):
                call(copy.deepcopy(payload))
            done += 1
    samples: dict[str, list[int]] = {name: [] for name in calls}
    spent = dict.fromkeys(calls, 0)
    open_calls = dict(calls)
    perf = time.perf_counter_ns
    was_enabled = gc.isenabled()
    gc.collect()
    gc.freeze()  # what exists now (the loaded libraries) is not walked by the collections between slices
    try:
        while open_calls:
            for name, call in list(open_calls.items()):
                gc.collect()  # a peer that makes much garbage must not grow without bound
                gc.disable()
                mine, slice_end = samples[name], perf() + int(slice_time * 1e9)
                while True:
                    arg = copy.deepcopy(payload)
                    t0 = perf()
                    try:  # noqa: SIM105 (the cheapest guard inside the timed region)
                        call(arg)
                    except Exception:
                        pass
                    dt = perf() - t0
                    mine.append(dt)
                    spent[name] += dt
                    n = len(mine)
                    if n >= max_reps or (n >= min_reps and spent[name] >= min_time * 1e9):
                        del open_calls[name]
                        break
                    if spent[name] >= max_time * 1e9 and n >= 3:
                        del open_calls[name]
                        break
                    if perf() >= slice_end:
                        break
                gc.enable()
    finally:
        gc.unfreeze()
        if not was_enabled:
            gc.disable()
    return {
        name: Timing(statistics.median(samples[name]) / 1000, len(samples[name]), outcomes[name])
        for name in calls
    }


# -- long streams ------------------------------------------------------------------------------------------
def _is_delta(source: str, event: Any) -> bool:
    data = event.get("data") if isinstance(event, dict) else None
    if not isinstance(data, dict):
        return False
    if source == "anthropic":
        return data.get("type") == "content_block_delta"
    if source == "openai-chat":
        choices = data.get("choices") or []
        return bool(choices) and choices[0].get("finish_reason") is None and bool(choices[0].get("delta"))
    raise ValueError(f"synthetic streams are built from anthropic or openai-chat captures, not {source}")


def synthetic_stream(source: str, events: list[Any], total: int) -> Iterator[Any]:
    """``total`` events: the capture's head, its delta events repeated in order, its tail (lazily)."""
    first = next(i for i, e in enumerate(events) if _is_delta(source, e))
    last = max(i for i, e in enumerate(events) if _is_delta(source, e))
    head, deltas, tail = events[:first], events[first : last + 1], events[last + 1 :]
    middle = max(total - len(head) - len(tail), 1)
    yield from head
    for i in range(middle):
        yield deltas[i % len(deltas)]
    yield from tail


#: The reference as the issue on speed found it ("[long streams] are at 1.5 µs today"): the commit its
#: stream target was set on. Per-event times scale with the machine, so the long streams time this
#: code too, in the same run, as the yardstick of that target.
BASELINE_COMMIT = "3fd98bd9b3368033226521fcc60c640d23dca97d"

StreamFn = Callable[..., Iterator[dict]]


def baseline_translate_stream(root: Path) -> tuple[StreamFn | None, str]:
    """``translate_stream`` of the reference at BASELINE_COMMIT, taken from this checkout's git history
    into a temporary folder (removed at exit) and imported as ``toolwire_reference_baseline``; or
    ``(None, why)`` when the history is not there (an export, a shallow clone)."""
    package = "reference_impl/toolwire_reference"
    command = ["git", "-C", str(root), "archive", "--format=tar", BASELINE_COMMIT, package]
    try:
        archive = subprocess.run(command, capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as exc:
        why = exc.stderr.decode(errors="replace").strip() or f"exit {exc.returncode}"
        return None, f"no baseline: `git archive {BASELINE_COMMIT[:7]}` failed ({why})"
    except OSError as exc:
        return None, f"no baseline: git could not run ({exc})"
    folder = Path(tempfile.mkdtemp(prefix="toolwire-baseline-"))
    atexit.register(shutil.rmtree, folder, True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:  # (extraction filters: Python 3.11.4 and later)
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    (folder / "reference_impl" / "toolwire_reference").rename(folder / "toolwire_reference_baseline")
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module("toolwire_reference_baseline")
    finally:
        sys.path.remove(str(folder))
    return module.translate_stream, f"the reference at {BASELINE_COMMIT[:7]}"


def _drain(source: str, target: str, events: Any, translate_stream: StreamFn | None = None) -> int:
    if translate_stream is None:
        from toolwire_reference import translate_stream

    n = 0
    for _ in translate_stream(events, source=source, target=target):
        n += 1
    return n


def _read_interleaved(
    outputs: dict[str, Iterator[Any]], slice_events: int = 500
) -> tuple[dict[str, int], int]:
    """Read the output iterators ``outputs`` to their ends taking turns, ``slice_events`` output events at
    a time: ns spent in each, and the number of events each wrote (RuntimeError when they differ: then they
    are not the same translation). Turns of a few ms make a change in the machine's load slow every one
    alike, as the operations' timing does."""
    spent, read = dict.fromkeys(outputs, 0), dict.fromkeys(outputs, 0)
    open_outputs = dict(outputs)
    perf = time.perf_counter_ns
    while open_outputs:
        for name, output in list(open_outputs.items()):
            n = 0
            t0 = perf()
            for _ in itertools.islice(output, slice_events):
                n += 1
            spent[name] += perf() - t0
            read[name] += n
            if n < slice_events:
                del open_outputs[name]
    if len(set(read.values())) > 1:  # not the same translation: no yardstick
        raise RuntimeError(f"the streams compared wrote different numbers of events: {read}")
    return spent, read["reference"]


def stream_cost(
    source: str, target: str, capture: list[Any], total: int, reps: int = 5, baseline: StreamFn | None = None
) -> dict[str, float]:
    """Reference cost per event over a ``total``-event stream (median of ``reps`` runs), the floor's, and
    (``baseline``: another ``translate_stream``) the baseline's, read in turns with the reference's."""
    from toolwire_reference import translate_stream

    events = list(synthetic_stream(source, capture, total))
    streams = {"reference": translate_stream} | ({"baseline": baseline} if baseline is not None else {})
    for fn in streams.values():  # warm-up
        _drain(source, target, synthetic_stream(source, capture, 200), fn)
    runs: dict[str, list[int]] = {name: [] for name in streams}
    floors: list[int] = []
    out_events = 0
    gc.collect()
    gc.freeze()  # the loaded libraries (peers) are not walked by the collections during the run
    try:
        for _ in range(reps):
            gc.collect()
            outputs = {name: fn(events, source=source, target=target) for name, fn in streams.items()}
            spent, out_events = _read_interleaved(outputs)
            for name, ns in spent.items():
                runs[name].append(ns)
            t0 = time.perf_counter_ns()
            for ev in events:
                json.loads(json.dumps(ev))
            floors.append(time.perf_counter_ns() - t0)
    finally:
        gc.unfreeze()
    per_event = {name: statistics.median(ns) / len(events) / 1000 for name, ns in runs.items()}
    out = {
        "events": len(events),
        "out_events": out_events,
        "us_per_event": per_event["reference"],
        "floor_us_per_event": statistics.median(floors) / len(events) / 1000,
    }
    if "baseline" in per_event:
        out["baseline_us_per_event"] = per_event["baseline"]
    return out


def stream_peak_memory(source: str, target: str, capture: list[Any], total: int) -> dict[str, float]:
    """Peak traced memory while the reference transcodes a ``total``-event stream read lazily (events are
    made one at a time and the output is dropped as it comes, so only the transcoder's own state counts)."""

    def fresh() -> Iterator[Any]:
        for ev in synthetic_stream(source, capture, total):
            yield copy.deepcopy(ev)  # a new object per event, as a network reader makes them

    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        n = _drain(source, target, fresh())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"events": total, "out_events": n, "peak_kib": peak / 1024}


# -- the suite's own wall time -----------------------------------------------------------------------------
def _toolwire_command() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "toolwire")
    if os.path.exists(script):
        return [script]
    found = shutil.which("toolwire")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from toolwire.cli import main; sys.exit(main())"]


def suite_wall_time(workers: str) -> dict[str, Any]:
    """Wall time of ``toolwire run --adapter reference -n WORKERS`` over the whole corpus (a subprocess)."""
    with tempfile.TemporaryDirectory(prefix="toolwire-bench-") as out:
        cmd = [*_toolwire_command(), "run", "--adapter", "reference", "-n", workers, "--report", out]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        outcomes: dict[str, int] = {}
        results = os.path.join(out, "reference.results.jsonl")
        if os.path.exists(results):
            with open(results, encoding="utf-8") as fh:
                for line in fh:
                    record = json.loads(line)
                    if record.get("record") == "check":
                        outcomes[record.get("outcome")] = outcomes.get(record.get("outcome"), 0) + 1
    return {
        "workers": workers,
        "wall_s": wall,
        "returncode": proc.returncode,
        "checks": sum(outcomes.values()),
        "outcomes": outcomes,
        "command": " ".join(["toolwire", *cmd[1:-1], "DIR"]),
        "stderr": proc.stderr.strip().splitlines()[-3:] if proc.returncode else [],
    }
