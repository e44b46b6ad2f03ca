"""``make bench``: time the reference and every installed peer on the same corpus operations.

Usage: ``python bench/run.py [--min-reps N] [--min-time S] [--only TEXT] [--peers a,b] [--no-suite]
[--stream-events 10000,100000] [--output reports/benchmarks.md | -]``. Prints the table and writes the
Markdown report. There are no timed assertions anywhere: the figures are for reading.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: `python bench/run.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "bench"  # noqa: A001

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from bench.measure import (  # noqa: E402
    Impl,
    baseline_translate_stream,
    floor_call,
    load_impls,
    measure,
    stream_cost,
    stream_peak_memory,
    suite_wall_time,
)
from bench.operations import operations  # noqa: E402
from bench.report import STREAM_TARGET, OpResult, judge, machine, markdown, text_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PEERS = ["litellm", "any-llm", "aisuite", "langchain"]
#: (source, target, capture case) of the long streams: text deltas repeated (any length stays valid)
LONG_STREAMS = [
    ("anthropic", "openai-chat", "streams/anthropic-text-followup-capture"),
    ("openai-chat", "anthropic", "streams/openai-chat-2026-text-followup-capture"),
]
#: what was changed in reference_impl/ after profiling, shown in the report
OPTIMISATIONS: list[str] = [
    "`schema/walk.py` `walk` (the read-only walk that checks every tool's parameter schema) no longer "
    "runs the copying `transform` underneath: it visits the same nodes, paths, `$ref` targets and levels "
    "in place, without building and dropping a deep copy of each schema (cProfile: the copy was most of "
    "`validate_tools`, which every `tools` and `request` translation runs).",
    "One pass instead of two over each tool schema: `validate_tools(copies=True)` checks a schema and "
    "copies it in the same walk (`schema/checks.py` `_check_copy`, the same checks in the same order) "
    "when the target's encoder would copy it unchanged (each tools codec says so: "
    "`copies_schemas(profile)`; every target but Gemini's OpenAPI rewrite and the OpenAI strict / "
    "inlining rewrites); the encoder takes that copy (`Tool.checked_copy`) instead of copying again. The "
    "shape check itself (`check_shape`) has its own walk, with the usual well-formed values recognised "
    "inline, instead of the generic `walk` with a callback.",
    "A cheaper depth check (`_json.check_depth`, still first, in every kind): one depth-first pass that "
    "stops at `MAX_DEPTH` (so it recurses no deeper than the schema walks after it, with the "
    "level-by-level pass as the fallback should the caller's stack be nearly full), settling a container "
    "of scalars without a call, instead of building a list per level.",
    "Per-call setup removed: tool-name rules compiled once at import; `try`/`except` instead of a "
    "`contextlib` context manager per tool (schema problems, paths inside a request's tool list); the "
    "request codecs' member sets and setting tables made once; one `JSONEncoder` for tool-call arguments "
    "instead of `json.dumps` building one per call; `SchemaOrigin` a named tuple (made once per tool) and"
    " `Tool` built in one call; the OpenAI `as-is` schema path a plain copy without setting up a rewrite.",
    "Kind `tools`: the depth limit checked in the schema walk instead of a walk of its own "
    "(`tools.translate_tools`). The decoders (all but Gemini's, which rewrites schemas) only read the tool "
    "objects' own members; each schema is then checked and copied in one walk bounded by the depth left "
    "at its level (`schema.checks.fast_check`: exact JSON types, no paths built on the way down), and the "
    "rest of the payload is bounded apart (`_json.nests_deeper_outside`). A refusal is only raised once "
    "the whole payload's depth is known, and anything the fast walk does not settle (a problem, unusual "
    "types, too deep) goes the exact way (depth first, then the checks that name the problem): the same "
    "answers, checked on the corpus and 3,400 mutated tool lists × 5 targets × 5 profiles. callgrind, "
    "tools anthropic→openai-chat: 123k → 92k instructions per call.",
    "Long streams, after the depth limit and the other input checks had made them 1.8× the baseline "
    "(callgrind: 43k instructions per event for anthropic→openai-chat, 58k the other way, against 24k and "
    "33k): a fast lane in `transcode.StreamTranscoder` (once a block's first plain text or argument delta "
    "has passed every filter unchanged, its later plain deltas go straight to the encoder; each filter "
    "states the promise that makes this safe, and a test compares every capture, target and filter "
    "profile with the lane closed); dispatch through tables made once (`streams.base.handler_table`) "
    "instead of a method name built per event; the depth check of an event without the wrapper call, "
    "scalars tested first; fragment messages built only on failure. Now 28k and 42k instructions per "
    "event, of which the depth check is 9k and 11k.",
    "Kind `tools`, again: the defaults profile shared read-only (no dict built per call without a "
    "profile), `Tool` with slots, the fast schema walk's scalar checks by role without a tuple per value: "
    "tools openai-chat→anthropic 123k → 111k instructions per call (LangChain's route: 150k), "
    "anthropic→openai-chat 96k (LangChain's: 153k). The wall-time ratio on this shared machine moves by "
    "±15 % between runs (the JSON floor itself moves by 1.6×).",
]


def run_operations(impls: list[Impl], ops: list, **timing) -> list[OpResult]:
    results = []
    for op in ops:
        ref = next(i for i in impls if i.name == "reference")
        if not ref.supports(op):
            continue
        calls = {"floor": floor_call} | {impl.name: impl.call(op) for impl in impls if impl.supports(op)}
        timings = measure(calls, op.payload, **timing)
        result = OpResult(op, timings.pop("floor"))
        result.timings.update(timings)
        shown = ", ".join(f"{n} {t.median_us:,.1f}" for n, t in result.timings.items())
        print(f"  {op.name}: floor {result.floor.median_us:,.1f} µs; {shown}", file=sys.stderr, flush=True)
        results.append(result)
    return results


def run_streams(sizes: list[int]) -> tuple[list[dict], str]:
    """The long streams' rows, and what the baseline is (or why there is none)."""
    from toolwire.corpus import load_corpus

    corpus = load_corpus()
    cases = corpus.cases if isinstance(corpus.cases, dict) else {c.id: c for c in corpus.cases}
    baseline, about = baseline_translate_stream(ROOT)
    print(f"  streams: baseline: {about}", file=sys.stderr, flush=True)
    rows = []
    for source, target, case_id in LONG_STREAMS:
        capture = cases[case_id].source_payload
        for n in sizes:
            cost = stream_cost(source, target, capture, n, baseline=baseline)
            memory = stream_peak_memory(source, target, capture, n)
            rows.append({"name": f"{source}→{target} ({case_id})", **cost, "peak_kib": memory["peak_kib"]})
            base = cost.get("baseline_us_per_event")
            print(
                f"  stream {source}→{target} {n:,} events: {cost['us_per_event']:.2f} µs/event"
                + (f" (baseline {base:.2f})" if base else "")
                + f", peak {memory['peak_kib']:,.1f} KiB",
                file=sys.stderr,
                flush=True,
            )
    return rows, about


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--min-reps", type=int, default=200, help="calls per operation at least (default 200)"
    )
    parser.add_argument("--min-time", type=float, default=0.5, help="seconds of calls at least (default 0.5)")
    parser.add_argument(
        "--max-time", type=float, default=5.0, help="seconds per operation at most (default 5)"
    )
    parser.add_argument("--warmup", type=int, default=10, help="untimed calls first (default 10)")
    parser.add_argument("--only", default="", help="operations whose name contains this text")
    parser.add_argument(
        "--peers", default=",".join(PEERS), help="peers to time, comma-separated ('' for none)"
    )
    parser.add_argument("--stream-events", default="10000,100000", help="long stream sizes ('' to skip)")
    parser.add_argument("--no-suite", action="store_true", help="skip the suite's wall time")
    parser.add_argument(
        "--output", default=str(ROOT / "reports" / "benchmarks.md"), help="'-' to write nothing"
    )
    args = parser.parse_args(argv)
    command = "python bench/run.py" + ("".join(f" {shlex.quote(a)}" for a in (argv or sys.argv[1:])))

    started = time.perf_counter()
    peers = [p for p in args.peers.split(",") if p]
    impls, skipped = load_impls(peers)
    for noisy in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):  # a warning per call would flood the output
        logging.getLogger(noisy).setLevel(logging.ERROR)
    for name, why in skipped.items():
        print(f"bench: peer {name} not measured: {why}", file=sys.stderr)
    ops = [op for op in operations() if args.only in op.name]
    timing = {
        "min_reps": args.min_reps,
        "min_time": args.min_time,
        "max_time": args.max_time,
        "warmup": args.warmup,
    }
    print(f"bench: {len(ops)} operations × {len(impls)} implementations", file=sys.stderr, flush=True)
    results = run_operations(impls, ops, **timing)
    sizes = [int(s) for s in args.stream_events.split(",") if s]
    streams, baseline = run_streams(sizes) if sizes else ([], "")
    suite = [] if args.no_suite else [suite_wall_time(w) for w in ("0", "auto")]

    measured = [i.name for i in impls if i.name != "reference"]
    targets = judge(results, streams)
    print()
    print(text_table(results, measured))
    print()
    for name, ahead in targets.rows:
        mark = "no peer translates it" if ahead is None else f"{'met' if ahead[0] else 'MISSED'} ({ahead[1]})"
        print(f"  {name}: ahead of every peer {mark}")
    for name, (met, text) in targets.streams:
        print(f"  stream {name}: {STREAM_TARGET}, flat memory {'met' if met else 'MISSED'} ({text})")
    for note in targets.notes:
        print(f"  note: {note}")
    print(f"targets met: {'yes' if targets.all_met else 'NO'}")
    for s in streams:
        print(
            f"stream {s['name']}: {s['events']:,} events, {s['us_per_event']:.2f} µs/event "
            f"(baseline {s.get('baseline_us_per_event', float('nan')):.2f}, "
            f"floor {s['floor_us_per_event']:.2f}), peak {s['peak_kib']:,.1f} KiB"
        )
    for s in suite:
        print(f"suite: {s['command']}: {s['checks']} checks in {s['wall_s']:.1f} s (exit {s['returncode']})")

    if args.output != "-":
        versions = {"toolwire-reference": next(i.version for i in impls if i.name == "reference")}
        versions.update({i.name: i.version for i in impls if i.name != "reference"})
        settings = (
            f"≥ {args.min_reps} calls and ≥ {args.min_time:g} s of calls per operation, at most "
            f"{args.max_time:g} s; ≥ {args.warmup} warm-up calls and ≥ 0.2 s of them"
        )
        text = markdown(
            results=results,
            peers=measured,
            skipped=skipped,
            targets=targets,
            streams=streams,
            baseline=baseline,
            suite=suite,
            env=machine(versions),
            command=command,
            settings=settings,
            optimisations=OPTIMISATIONS,
        )
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(
            text + f"\nTotal benchmark time: {time.perf_counter() - started:.0f} s.\n", encoding="utf-8"
        )
        print(f"bench: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
