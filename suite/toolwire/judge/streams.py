"""Judging a ``stream`` check (called by :func:`toolwire.judge.run.run_check`).

The main check translates the source stream and fails when an output event is invalid for the target's
``stream`` wire schema (``schemas/wire/<dialect>/stream.schema.json``, one event's ``data``), when the
output breaks the target's grammar, when it does not accumulate to ``accumulated``, or when it differs
from ``events`` (when the case pins them). Variants of the same expectation (``Check.variant``):

- ``rechunk=<strategy>`` (``should``): the SOURCE stream re-chunked (:mod:`toolwire.streams.rechunk`) must
  still give a valid output that accumulates to ``accumulated`` (``events`` are not compared: re-chunked
  input may legitimately give other fragments);
- ``delivery=coalesced`` / ``delivery=split`` (``should``): for an implementation that reads the stream
  from a network connection (the ``http:`` adapter's ``translate_stream_delivered``), the same source
  delivered in one write or with each event cut across two writes (:mod:`toolwire.adapters.delivery`) must
  still accumulate to ``accumulated``; they are checks only of such an implementation
  (``Corpus.network_delivery``);
- ``incremental`` (``should``): the implementation is given the input one event at a time and every output
  fragment must come at most one input event after the input made it emittable
  (:mod:`toolwire.streams.incremental`).
  An in-process implementation is observed through the list it is given (which records how far it has
  read) and the iterator it returns; an adapter may instead provide
  ``translate_stream_steps(source, target, events, profile) -> Answer`` whose payload is, for each input
  event, the output events emitted right after it, plus one last list for the end of the stream. An
  in-process implementation whose ``incremental_unmeasurable(source, target)`` returns a reason (a library
  that reads ahead on a thread of its own: how far it read would depend on thread timing) is skipped.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

from ..adapters.delivery import reads_from_network
from ..corpus import wire
from ..corpus.capabilities import speaks_toolwire_codes, validates_input
from ..corpus.matchers import compare, format_diff, records
from ..corpus.stream_wire import stream_wire_errors
from ..corpus.variants import DELIVERY_PREFIX, INCREMENTAL, ends_in_error
from ..streams.dialects import accumulate, check_stream, rechunk
from ..streams.incremental import measure
from ..streams.payload import StreamError, stream_events
from .checks import (
    CheckResult,
    WireVerdict,
    closest_failure,
    comparable,
    garbage_in,
    handled_pass,
    judge,
    passes_through,
    raised,
    read_by_client,
    truncation_passed_on,
    undeclared_policies,
)
from .envelope import with_envelope

__all__ = ["ObservedEvents", "run_stream_check"]

TOLERANCE = 1
NOT_MEASURABLE = "incrementality is not measurable through this adapter"
NOT_DELIVERED = "delivery shapes apply to a stream read from a network connection (http: adapters)"
DELIVERY_LABELS = {"coalesced": "in one write", "split": "with each event split in two writes"}


def _wire_errors(check: Any, events: list[Any]) -> list[str] | None:
    return stream_wire_errors(check.target, events, schemas=check.schemas_root)


def _judge_output(
    check: Any, output: Any, ms: float, *, compare_events: bool, label: str = "", expected: Any = None
) -> Any:
    """The verdict on a stream output: grammar, event schema, accumulation against ``expected`` (the check's
    ``accumulated`` expectation unless given) and, with ``compare_events``, the pinned events."""
    exp = check.expectation if expected is None else {"accumulated": expected}
    if not isinstance(output, list):
        return CheckResult(
            "failed",
            duration_ms=ms,
            message=f"{label}translate_stream must return a list of events, got {type(output).__name__}",
        )
    problems: list[str] = []
    wire_errors = _wire_errors(check, output) or []
    if wire_errors:
        problems.append(f"{len(wire_errors)} event member(s) invalid for the {check.target} stream schema")
    violations = check_stream(output, check.target)
    problems += [f"{check.target} stream grammar: {violation}" for violation in violations]
    wire_valid = not wire_errors and not violations
    diffs: list[str] = []
    differences: list[dict[str, Any]] = []
    accumulated: Any = None
    try:
        accumulated = accumulate(output, check.target)
    except StreamError as exc:
        problems.append(f"the output does not accumulate ({exc.code}): {exc}")
    else:
        if "accumulated" in exp:
            expected, actual = comparable(check, exp["accumulated"], accumulated)
            client = read_by_client(check.target, "response", accumulated, check.schemas_root)
            found = compare(expected, actual, client.tolerate)
            if found:
                problems.append(
                    f"the accumulated output differs from the expectation in {len(found)} place(s)"
                )
                diffs.append("accumulated:\n" + format_diff(found, expected, actual))
                differences += records(found, "accumulated")
    chunking = None
    if compare_events and "events" in exp:
        expected, actual = comparable(check, exp["events"], output, kind="stream")
        declared = wire.declared_names(check.target, "stream", schemas=check.schemas_root)
        found = compare(expected, actual, WireVerdict(None, [], set(), declared).tolerate)
        if found:
            chunking = f"the output events differ from the expected events in {len(found)} place(s)"
            diffs.append("events:\n" + format_diff(found, expected, actual))
            differences += records(found, "events")
    if chunking and not problems:  # valid, and accumulates to the expected answer: a client reads the same
        return CheckResult(
            "passed",
            message=f"{label}{chunking}, but the stream keeps its grammar and accumulates to the expected "
            "answer, which is what a client reads: the chunking is the implementation's own",
            diff="\n\n".join(diffs),
            wire_valid=True,
            duration_ms=ms,
        )
    if chunking:
        problems.append(chunking)
    if problems:
        extra = ""
        if wire_errors:
            extra = "\n".join(["wire:", *wire_errors[:10]])
        diff = "\n\n".join([*diffs, extra] if extra else diffs) or None
        return CheckResult(
            "failed",
            message=label + "; ".join(problems),
            diff=diff,
            differences=differences,
            wire_valid=wire_valid,
            wire_errors=wire_errors,
            duration_ms=ms,
        )
    return CheckResult("passed", wire_valid=True, duration_ms=ms)


def _source_events(check: Any) -> list[Any]:
    return stream_events(check.source_payload)


def run_stream_check(adapter: Any, check: Any, profile: dict[str, Any]) -> Any:
    """Run one ``stream`` check (main or variant) against ``adapter``."""
    try:
        events = _source_events(check)
    except StreamError as exc:
        return CheckResult("errored", message=f"toolwire: the case's source stream is unreadable: {exc}")
    variant = getattr(check, "variant", None)
    if variant == INCREMENTAL:
        return _run_incremental(adapter, check, events, profile)
    label = ""
    if variant and variant.startswith("rechunk="):
        strategy = variant.split("=", 1)[1]
        events = rechunk(events, check.source, strategy)
        label = f"source re-chunked ({strategy}): "
    if variant and variant.startswith(DELIVERY_PREFIX):
        if not reads_from_network(adapter):
            return CheckResult("skipped", message=NOT_DELIVERED)
        delivery = variant[len(DELIVERY_PREFIX) :]
        answer = adapter.translate_stream_delivered(check.source, check.target, events, profile, delivery)
        label = f"upstream stream delivered {DELIVERY_LABELS[delivery]}: "
    else:
        answer = adapter.translate_stream(check.source, check.target, events, profile)
    answer = with_envelope(adapter.capabilities, check, answer)
    if answer.status == "error" and answer.mutated is None and ends_in_error(check.expectation):
        return raised(check, answer, label)
    caps = adapter.capabilities
    garbage = garbage_in(check) and not validates_input(caps)
    if answer.status == "payload" and "error" in check.expectation and answer.mutated is None and not garbage:
        accepted = _accepted_degrade(check, answer.payload, answer.duration_ms, label)
        if accepted is not None:
            return accepted
    if answer.status != "payload" or "error" in check.expectation or answer.mutated is not None or garbage:
        result = judge(check, answer, codes=speaks_toolwire_codes(caps), validates=validates_input(caps))
        if label and result.message:
            result.message = label + result.message
        return result
    result = _judge_output(check, answer.payload, answer.duration_ms, compare_events=not variant, label=label)
    if result.outcome != "failed":
        return result
    broken = truncation_passed_on(check, answer.payload)
    if broken and check.expectation.get("refusal_accepted"):
        why = (
            f"the {check.target} output {broken}, so the client sees that the answer did not end normally: "
            "the stream's form of the refusal the case accepts as well as its payload"
        )
        return handled_pass("forwarded", label + why, result.wire_valid, answer.duration_ms)
    if _passed_on_unchanged(check, events, answer.payload):
        why = (
            f"valid {check.source} stream passed on unchanged to a {check.target} client: it reads exactly "
            "what the upstream sent, so nothing can have changed meaning"
        )
        return handled_pass("unchanged", label + why, result.wire_valid, answer.duration_ms)
    return _undeclared_policy(check, answer.payload, frozenset(caps.get("profiles") or {}), result, label)


def _accepted_degrade(check: Any, output: Any, ms: float, label: str) -> CheckResult | None:
    """A pass for a stream, where the case expects a refusal, that keeps its grammar and accumulates to the
    answer the case accepts toward the same target under another profile value (``accepted-degrade``, as
    for the other kinds: an unterminated text-embedded call kept as text, which ``text.malformed=keep-text``
    expects); None otherwise."""
    for alternative, policy in undeclared_policies(check, frozenset(), "accumulated"):
        if _judge_output(check, output, ms, compare_events=False, expected=alternative).outcome == "passed":
            want = check.expected_error
            where = f" at {want['path']}" if want.get("path") is not None else ""
            why = (
                "the stream keeps its grammar and accumulates to the degrade the case accepts under "
                f"{policy}, where a refusal with {want.get('code')!r}{where} is expected under this profile"
            )
            return handled_pass("accepted-degrade", label + why, True, ms)
    return None


def _undeclared_policy(
    check: Any, output: list[Any], declared: frozenset[str], result: Any, label: str
) -> Any:
    """The verdict on a stream whose comparison failed (``result``), judged against the accumulated answers
    the case expects under values of keys the implementation did not declare: a pass when it keeps its
    grammar and accumulates to one of them (``another-policy``), else ``result`` or the failure against the
    closest of them, so the finding is titled by what is left (claude-code-router keeps the reasoning as
    thinking, which ``stream.thinking=keep`` accepts, and zeroes the usage: the usage is the defect)."""
    ms = result.duration_ms or 0.0
    tried = [
        (_judge_output(check, output, ms, compare_events=False, expected=alternative), policy)
        for alternative, policy in undeclared_policies(check, declared, "accumulated")
    ]
    for found, policy in tried:
        if found.outcome == "passed":
            why = (
                "the stream keeps its grammar and accumulates to the answer the case expects under "
                f"{policy}, a policy the implementation did not declare against: profiles are choices on "
                "which correct translators differ"
            )
            return handled_pass("another-policy", label + why, True, ms)
    return closest_failure(result, tried, "the answer expected", label)


def _passed_on_unchanged(check: Any, events: list[Any], output: Any) -> bool:
    """Whether the output stream is the source stream, event data for event data, where that is faithful
    (:func:`toolwire.judge.checks.passes_through`; INTERPRETING.md, "Error expectations" 4)."""
    if not isinstance(output, list) or not passes_through(check):
        return False
    data = [e.get("data") if isinstance(e, dict) else e for e in output]
    return data == [e.get("data") for e in events]


class ObservedEvents(list):  # type: ignore[type-arg]
    """The input list handed to an in-process implementation: records how far it has been read (``read``:
    how many events, ``exhausted``: iterated to its end)."""

    def __init__(self, events: list[Any]) -> None:
        super().__init__(events)
        self.read = 0
        self.exhausted = False

    def __iter__(self) -> Any:
        for i in range(list.__len__(self)):
            self.read = max(self.read, i + 1)
            yield list.__getitem__(self, i)
        self.exhausted = True

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            stop = range(list.__len__(self))[index]
            if len(stop):
                self.read = max(self.read, max(stop) + 1)
        else:
            i = index if index >= 0 else list.__len__(self) + index
            self.read = max(self.read, i + 1)
        return list.__getitem__(self, index)


def _python_trace(
    impl: Any, source: str, target: str, events: list[Any], profile: dict[str, Any]
) -> list[list[Any]]:
    observed = ObservedEvents(copy.deepcopy(events))
    n = len(events)
    steps: list[list[Any]] = [[] for _ in range(n + 1)]
    out = impl.translate_stream(source, target, observed, dict(profile))
    if isinstance(out, str | bytes | bytearray | dict | set | frozenset) or not isinstance(out, Iterable):
        raise TypeError(f"translate_stream returned {type(out).__name__}: not a list of stream events")
    for index, event in enumerate(out):
        if not isinstance(event, dict):
            what = f"{type(event).__name__} as event {index}"
            raise TypeError(f"translate_stream returned {what}: not a list of stream events")
        position = n if observed.exhausted else max(observed.read - 1, 0)
        steps[position].append(event)
    return steps


def _run_incremental(adapter: Any, check: Any, events: list[Any], profile: dict[str, Any]) -> Any:
    steps_hook = getattr(adapter, "translate_stream_steps", None)
    if callable(steps_hook):
        answer = steps_hook(check.source, check.target, events, profile)
    elif hasattr(adapter, "impl") and callable(getattr(adapter.impl, "translate_stream", None)):
        unmeasurable = getattr(adapter.impl, "incremental_unmeasurable", None)
        why = unmeasurable(check.source, check.target) if callable(unmeasurable) else None
        if why:
            return CheckResult("skipped", message=f"{NOT_MEASURABLE}: {why}")
        answer = adapter._answer(
            lambda: _python_trace(adapter.impl, check.source, check.target, events, profile)
        )
    else:
        return CheckResult("skipped", message=NOT_MEASURABLE)
    if answer.status == "unsupported":  # no counterpart in the implementation: nothing to judge
        return CheckResult("skipped", message=answer.reason, duration_ms=answer.duration_ms)
    if answer.status == "crash":
        return CheckResult("errored", message=answer.crash, duration_ms=answer.duration_ms)
    caps = adapter.capabilities
    garbage = garbage_in(check) and not validates_input(caps)
    if answer.status == "error" and (garbage or check.expectation.get("refusal_accepted")):
        # a refusal of input invalid in its own dialect, or one the case accepts, is no defect, here as on
        # the main check
        return judge(
            check, answer, codes=speaks_toolwire_codes(caps), validates=validates_input(caps) and not garbage
        )
    if answer.status == "error":
        err = answer.error or {}
        return CheckResult(
            "failed",
            actual_error=err,
            duration_ms=answer.duration_ms,
            message=f"refused with {err.get('code')!r} ({err.get('message')}) where a stream was expected",
        )
    steps = answer.payload
    if not isinstance(steps, list) or not all(isinstance(s, list) for s in steps):
        return CheckResult("errored", message="the stream trace is not a list of lists of events")
    result = measure(events, check.source, steps, check.target)
    if not result.lags:  # vacuously incremental: say so
        return CheckResult("passed", message=result.summary(TOLERANCE), duration_ms=answer.duration_ms)
    if result.ok(TOLERANCE):
        return CheckResult("passed", message=result.summary(TOLERANCE), duration_ms=answer.duration_ms)
    detail = json.dumps(
        [
            {
                "output_event": lag.output_index,
                "emitted_after_input": lag.emitted_after,
                "available_at_input": lag.available_at,
                "lag": lag.lag,
                "kind": lag.fragment.kind,
                "call": lag.fragment.call,
            }
            for lag in result.lags
            if lag.lag > TOLERANCE
        ][:20],
    )
    return CheckResult(
        "failed",
        message=result.summary(TOLERANCE),
        diff="late fragments: " + detail,
        duration_ms=answer.duration_ms,
    )
