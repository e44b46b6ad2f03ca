"""The benchmark code runs (one operation, 3 repetitions, tiny streams); no timing is asserted."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from bench.measure import (  # noqa: E402
    baseline_translate_stream,
    floor_call,
    load_impls,
    measure,
    stream_cost,
    stream_peak_memory,
)
from bench.operations import operations  # noqa: E402
from bench.report import OpResult, judge, machine, markdown, text_table  # noqa: E402
from bench.run import LONG_STREAMS  # noqa: E402


def test_one_operation_three_repetitions() -> None:
    impls, skipped = load_impls([])
    assert [i.name for i in impls] == ["reference"] and not skipped
    ops = operations()
    assert len({op.key for op in ops}) == len(ops)
    op = next(o for o in ops if o.kind == "tool_choice")
    timing = dict(min_reps=3, min_time=0.0, max_reps=3, warmup=1)
    timings = measure({"floor": floor_call, "reference": impls[0].call(op)}, op.payload, **timing)
    result = OpResult(op, timings["floor"])
    result.timings["reference"] = timings["reference"]
    assert result.reference.reps == 3 and result.reference.outcome == "ok"
    assert result.floor.reps == 3 and result.floor.outcome == "ok"
    assert op.name in text_table([result], [])
    from toolwire.corpus import load_corpus

    corpus_cases = load_corpus().cases
    cases = corpus_cases if isinstance(corpus_cases, dict) else {c.id: c for c in corpus_cases}
    source, target, case_id = LONG_STREAMS[0]
    capture = cases[case_id].source_payload
    cost = stream_cost(source, target, capture, 50, reps=1)
    memory = stream_peak_memory(source, target, capture, 50)
    assert cost["events"] == 50 and memory["out_events"] > 0
    text = markdown(
        results=[result],
        peers=[],
        skipped={},
        targets=judge([result]),
        streams=[{"name": "s", **cost, "peak_kib": memory["peak_kib"]}],
        suite=[],
        env=machine({"toolwire-reference": impls[0].version}),
        command="python bench/run.py",
        settings="3 calls",
        optimisations=[],
    )
    assert "## Targets" in text


def test_the_reference_must_be_ahead_of_every_translating_peer() -> None:
    from bench.measure import Timing
    from bench.operations import Operation

    op = Operation("tools", "anthropic", "openai-chat", [], "tools/x")
    behind = OpResult(op, Timing(10.0, 200, "ok"))
    behind.timings = {
        "reference": Timing(20.0, 200, "ok"),
        "langchain": Timing(12.0, 200, "ok"),
        "litellm": Timing(90.0, 200, "ok"),
    }
    targets = judge([behind])
    assert not targets.all_met
    assert targets.rows[0][1][0] is False and "langchain" in targets.rows[0][1][1]
    assert not any("out of reach" in n for n in targets.notes)  # the JSON floor is no bound

    ahead = OpResult(op, Timing(10.0, 200, "ok"))  # ahead of both, though slower than the floor
    ahead.timings = {
        "reference": Timing(20.0, 200, "ok"),
        "langchain": Timing(21.0, 200, "ok"),
        "litellm": Timing(5.0, 200, "crashed (TypeError)"),  # not a translation: left out, with a note
    }
    targets = judge([ahead])
    assert targets.all_met and "langchain" in targets.rows[0][1][1]
    assert any("litellm crashed" in n for n in targets.notes)


def test_streams_are_judged_per_event_and_for_flat_memory() -> None:
    def row(name, events, us, kib):
        return {
            "name": name,
            "events": events,
            "us_per_event": us,
            "floor_us_per_event": 5.0,
            "peak_kib": kib,
        }

    good = [row("a", 10_000, 1.8, 16.0), row("a", 100_000, 1.9, 16.5)]
    assert judge([], good).all_met
    slow = [row("a", 10_000, 1.8, 16.0), row("a", 100_000, 2.3, 16.5)]
    assert not judge([], slow).all_met
    growing = [row("a", 10_000, 1.5, 16.0), row("a", 100_000, 1.5, 160.0)]
    assert not judge([], growing).all_met


def test_streams_with_a_baseline_are_judged_by_their_ratio_to_it() -> None:
    def row(events, us, baseline):
        return {
            "name": "a",
            "events": events,
            "us_per_event": us,
            "baseline_us_per_event": baseline,
            "floor_us_per_event": 5.0,
            "peak_kib": 16.0,
        }

    # a slow machine: 5 µs per event is within 2 / 1.5 of a baseline taking 4
    assert judge([], [row(10_000, 5.0, 4.0), row(100_000, 5.2, 4.0)]).all_met
    # a fast machine: 1.9 µs per event is under 2, but 1.9 × the baseline's 1.0
    targets = judge([], [row(10_000, 1.9, 1.0), row(100_000, 1.2, 1.0)])
    assert not targets.all_met
    assert "1.90× the baseline" in targets.streams[0][1][1]


def test_the_baseline_is_the_reference_at_its_commit(tmp_path) -> None:
    translate_stream, about = baseline_translate_stream(ROOT)
    if translate_stream is None:  # an export or a shallow clone: the reason is said
        assert about.startswith("no baseline")
        return
    assert translate_stream.__module__.startswith("toolwire_reference_baseline")
    events = [
        {"data": {"type": "message_start"}},
        {"data": {"type": "message_end", "stop_reason": "end_turn"}},
    ]
    assert [e["event"] for e in translate_stream(events, source="canonical", target="anthropic")] == [
        "message_start",
        "message_delta",
        "message_stop",
    ]
    missing, why = baseline_translate_stream(tmp_path)  # no git history here
    assert missing is None and why.startswith("no baseline")
