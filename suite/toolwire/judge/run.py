"""Run one check of any kind against an adapter: skipped when it does not apply, else sent to its runner
(a stream check, a fresh-id check, a round trip, a check lifted into a request, or a plain translation)
and judged. Never raises: a harness error is the check's ``errored`` outcome."""

from __future__ import annotations

import time
from typing import Any

from ..adapters import Adapter, describe_crash
from ..corpus import Check
from ..corpus.capabilities import speaks_toolwire_codes, validates_input
from ..corpus.variants import FRESH_IDS
from . import fresh_ids
from .checks import CheckResult, applicable, handed_profile, judge, lifted, run_round_trip
from .documented_drops import dropped_as_documented
from .envelope import with_envelope
from .lifting import lift_request, lower_answer, refused_at_added_tools
from .streams import run_stream_check

__all__ = ["run_check"]


def run_check(
    adapter: Adapter, check: Check, profiles: dict[str, dict[str, Any]] | None = None
) -> CheckResult:
    """Run one check against an adapter. Never raises (except KeyboardInterrupt)."""
    start = time.perf_counter()
    try:
        reason = applicable(check, adapter.capabilities, profiles)
        if reason is not None:
            return CheckResult("skipped", message=reason)
        profile = handed_profile(check, adapter.capabilities, profiles)
        codes = speaks_toolwire_codes(adapter.capabilities)
        validates = validates_input(adapter.capabilities)
        declared = frozenset(adapter.capabilities.get("profiles") or {})
        if check.variant == FRESH_IDS:
            return fresh_ids.run_fresh_ids(adapter, check, profile)
        if check.kind == "stream":
            return run_stream_check(adapter, check, profile)
        if check.round_trip:
            return run_round_trip(adapter, check, profile)
        if lifted(check, adapter.capabilities):
            request = lift_request(check)
            answer = adapter.translate("request", check.source, check.target, request, profile)
            codes = codes and not refused_at_added_tools(check, answer)
            lowered = lower_answer(check, answer)
            result = judge(check, lowered, codes=codes, validates=validates, declared=declared)
            result.unit = "request"
            return result
        answer = adapter.translate(check.kind, check.source, check.target, check.source_payload, profile)
        answer = with_envelope(adapter.capabilities, check, answer)
        result = judge(check, answer, codes=codes, validates=validates, declared=declared)
        return dropped_as_documented(adapter, check, profile, answer, result) or result
    except Exception as exc:
        return CheckResult(
            "errored",
            message="toolwire harness error (not the implementation's fault): " + describe_crash(exc),
            duration_ms=(time.perf_counter() - start) * 1000,
        )
