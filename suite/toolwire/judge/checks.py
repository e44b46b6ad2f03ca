"""Whether a check applies to an implementation (its declared kinds, pairs and profiles), the profile it is
handed, and the verdict on its answer: a payload or a refusal compared with the expectation and the wire
schema, a round trip (INTERPRETING.md). :mod:`toolwire.judge.run` runs a check of any kind."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..adapters import Adapter, Answer
from ..corpus import Check, equivalence, matchers, profile_reaches, resolve_profile, wire
from ..corpus.matchers import compare, format_diff, records
from ..corpus.stream_wire import stream_wire_errors
from ..descriptors import without_model_member
from ..jsonvalue import clip
from ..streams.dialects import accumulate, check_stream
from ..streams.payload import StreamError
from .lifting import LIFTABLE

__all__ = [
    "HANDLED",
    "OUTCOMES",
    "READ_BY_CLIENTS",
    "READ_BY_PROVIDERS",
    "WireVerdict",
    "comparable",
    "read_by_client",
    "CheckResult",
    "applicable",
    "affects",
    "handed_profile",
    "garbage_in",
    "raised",
    "passes_through",
    "judge",
    "lifted",
    "judge_round_trip",
    "mutated",
    "run_round_trip",
]

OUTCOMES = ("passed", "failed", "errored", "skipped", "xfailed", "xpassed")

#: what an implementation did where the corpus expects a refusal and that passes all the same: with input
#: invalid in its own dialect (not validating it), ``refused`` it, ``forwarded`` it (the target rejects the
#: output in turn) or ``translated`` it (the target's wire schema accepts the output: repaired, or carried on
#: where no schema can tell); with valid input that the target cannot
#: express, ``left-to-provider`` (an output the target rejects: the client gets the provider's error) or
#: ``accepted-degrade`` (the output the case accepts under another value of a profile key); where the upstream
#: answered with an error, ``raised`` (the implementation answered with an error of its own); and an output
#: the case expects under other values of profile keys the implementation did not declare, ``another-policy``;
#: valid input passed on unchanged to a provider of its own dialect, ``unchanged``; a refusal naming a member
#: the case drops for want of a target form, ``refused-member``; a request member the target has no form for,
#: left out as the implementation documents, ``documented-drop``
HANDLED = (
    "refused",
    "forwarded",
    "translated",
    "left-to-provider",
    "accepted-degrade",
    "raised",
    "another-policy",
    "unchanged",
    "refused-member",
    "documented-drop",
)

#: kinds whose output a provider reads (and rejects when invalid); the others are read by a client
READ_BY_PROVIDERS = frozenset({"tools", "tool_choice", "request"})


@dataclass
class CheckResult:
    """How one check ended: ``diff`` and ``message`` explain a failure, ``wire_*`` describe a payload."""

    outcome: str
    diff: str | None = None
    message: str | None = None
    wire_valid: bool | None = None
    wire_errors: list[str] = field(default_factory=list)
    actual_error: dict[str, Any] | None = None
    duration_ms: float = 0.0
    #: ``request`` when the check reached the implementation inside a request (toolwire.judge.lifting)
    unit: str | None = None
    #: the differences of ``diff`` as records (``matchers.Difference.record``), for the reports to group
    differences: list[dict[str, Any]] = field(default_factory=list)
    #: the input is invalid in its own dialect (``Check.source_problems``) and a refusal was expected
    source_invalid: bool = False
    #: how a passed check met a refusal expectation without the refusal (INTERPRETING.md, "Error
    #: expectations"): one of HANDLED; information for the reports, never a finding
    handled: str | None = None


def _pair_declared(pairs: list[Any], source: str, target: str) -> bool:
    for pair in pairs:
        if isinstance(pair, list | tuple) and len(pair) == 2:
            a, b = pair
            if a in ("*", source) and b in ("*", target):
                return True
    return False


def affects(check: Check, key: str, profiles: dict[str, dict[str, Any]] | None) -> bool:
    """True when the check's expectation depends on profile ``key``: the expectation names it, another
    expectation of the case toward the check's target does (the case says the output differs under another
    value), or the key's ``affects`` (profiles.json) covers the check's kind, target (or source), (when it
    names features) one of the check's features, (when it names members) a member of the expected payload,
    or the check expects a refusal, and (with ``refusals``) the check expects a refusal. Without
    ``affects``, every check."""
    if key in check.when or _varies_with(check, key):
        return True
    spec = (profiles or {}).get(key) or {}
    scope = spec.get("affects")
    if not isinstance(scope, dict):
        return True
    features, members = scope.get("features"), scope.get("members")
    return (
        profile_reaches(spec, check.kind, check.target, check.source)
        and (features is None or not set(features).isdisjoint(check.features))
        and (members is None or _expects_members(check, members))
        and (scope.get("refusals") is not True or "error" in check.expectation)
    )


def _varies_with(check: Check, key: str) -> bool:
    """Whether an expectation of the check's case toward its target is written for a value of ``key``."""
    return any(key in (e.get("when") or {}) for e in check.case.expect if e.get("dialect") == check.target)


def _expects_members(check: Check, members: list[str]) -> bool:
    """Whether the check expects a refusal, or its expected payload or its source has one of ``members``
    (a schema the source gives may be left out of the expectation: Gemini's schema with no properties)."""
    expectation = check.expectation
    return (
        "payload" not in expectation
        or _holds(expectation["payload"], members)
        or _holds(check.case.source_payload, members)
    )


def _holds(value: Any, members: list[str]) -> bool:
    """Whether ``value`` has a member named one of ``members`` at any depth."""
    if isinstance(value, dict):
        return any(k in members or _holds(v, members) for k, v in value.items())
    return isinstance(value, list) and any(_holds(v, members) for v in value)


def handed_profile(
    check: Check, capabilities: dict[str, Any], profiles: dict[str, dict[str, Any]] | None
) -> dict[str, Any]:
    """The profile handed to the implementation: the check's, except that a key the check does not depend
    on carries a value the implementation declared (never one it said it does not implement)."""
    profile = resolve_profile(profiles, check.when) if profiles is not None else dict(check.profile)
    declared = capabilities.get("profiles") or {}
    known = profiles if profiles is not None else check.profiles
    for key, values in declared.items():
        unsupported = key in profile and values and profile[key] not in values and "*" not in values
        if unsupported and not affects(check, key, known):
            profile[key] = values[0]
    return profile


def lifted(check: Check, capabilities: dict[str, Any]) -> bool:
    """True when the check reaches the implementation inside a request: it declares ``request`` for the
    pair but not the check's own kind (INTERPRETING.md, "Kinds lifted into requests")."""
    kinds = capabilities.get("kinds") or {}
    if check.kind not in LIFTABLE or check.round_trip:
        return False
    if _pair_declared(kinds.get(check.kind) or [], check.source, check.target):
        return False
    return _pair_declared(kinds.get("request") or [], check.source, check.target)


def applicable(
    check: Check, capabilities: dict[str, Any], profiles: dict[str, dict[str, Any]] | None = None
) -> str | None:
    """None when the implementation declares the check's kind, pair and profile; else why it is skipped.

    ``profiles`` is ``profiles.json`` (for defaults); without it the check's resolved profile is used.
    A profile key the implementation does not list supports only its default.
    """
    kinds = capabilities.get("kinds") or {}
    if lifted(check, capabilities):
        pass
    elif check.kind not in kinds:
        return f"kind {check.kind!r} not declared by the implementation"
    elif not _pair_declared(kinds.get(check.kind) or [], check.source, check.target):
        return f"pair {check.source}>{check.target} not declared for kind {check.kind!r}"
    if check.round_trip and not _pair_declared(kinds.get(check.kind) or [], check.target, check.source):
        return (
            f"round trip: the reverse pair {check.target}>{check.source} is not declared "
            f"for kind {check.kind!r}"
        )
    if profiles is not None:
        defaults: dict[str, Any] = resolve_profile(profiles, None)
        resolved = resolve_profile(profiles, check.when)
    else:
        defaults = dict(check.defaults)
        resolved = {**defaults, **(check.profile or {}), **check.when}
    declared = capabilities.get("profiles") or {}
    known = profiles if profiles is not None else check.profiles
    for key in sorted(resolved):
        if not affects(check, key, known):
            continue
        value = resolved[key]
        supported = list(declared[key]) if key in declared else [defaults.get(key)]
        if value not in supported and "*" not in supported:
            named = (
                ", ".join(map(str, supported))
                if key in declared
                else f"only the default {defaults.get(key)!r}"
            )
            return f"profile {key}={value} not supported (declares {named})"
    return None


#: kinds a client reads: members unknown to the wire schema, and empty ones, are tolerated there
READ_BY_CLIENTS = frozenset({"response", "stream"})


@dataclass
class WireVerdict:
    """An output's wire validity, and (for an output a client reads) the members a client tolerates."""

    wire_valid: bool | None
    wire_errors: list[str]
    #: pointers of members unknown to the wire schema, for an output a client reads (else None: strict)
    extensions: set[str] | None = None
    #: every member name the wire schema declares (a member named otherwise is a vendor extension)
    declared: frozenset[str] = frozenset()

    def tolerate(self, pointer: str, value: Any) -> bool:
        """A member the expectation does not name that a client reading the output ignores: a vendor
        extension (a name the wire schema does not declare, or a member its schema rejects as unknown),
        or an empty one (null, "", 0, false, or holding only ignorable members: a counter at zero reads
        like no counter)."""
        if pointer in (self.extensions or ()):
            return True
        name = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
        if self.declared and name not in self.declared:
            return True
        return self._ignorable(pointer, value)

    def _ignorable(self, pointer: str, value: Any) -> bool:
        if isinstance(value, dict):
            return all(self.tolerate(pointer + matchers.pointer([k]), v) for k, v in value.items())
        if isinstance(value, list):
            return all(self._ignorable(f"{pointer}/{i}", v) for i, v in enumerate(value))
        return equivalence.empty_scalar(value)


def read_by_client(dialect: str, kind: str, payload: Any, schemas: Path | None = None) -> WireVerdict:
    """The wire verdict of an output a client reads (a response, an accumulated stream): unknown and
    null members are no wire errors, and ``tolerate`` knows the extensions."""
    found = wire.validate_tolerant(dialect, kind, payload, schemas=schemas)
    if found is None:
        return WireVerdict(None, [], set())
    return WireVerdict(not found[0], found[0], found[1], wire.declared_names(dialect, kind, schemas=schemas))


def _wire(check: Check, payload: Any, dialect: str | None = None) -> WireVerdict:
    dialect = dialect or check.target
    try:
        if check.kind == "stream":  # event by event: the stream schema describes one event's data
            found = stream_wire_errors(dialect, payload, schemas=check.schemas_root)
            return WireVerdict(None if found is None else not found, found or [])
        if check.kind in READ_BY_CLIENTS:
            return read_by_client(dialect, check.kind, payload, check.schemas_root)
        errors = wire.validate(dialect, check.kind, payload, schemas=check.schemas_root)
    except Exception as exc:  # a broken schema must not be blamed on the implementation
        return WireVerdict(None, [f"wire schema unusable: {exc}"])
    if errors is None:
        return WireVerdict(None, [])
    return WireVerdict(not errors, errors)


def comparable(
    check: Check, expected: Any, actual: Any, dialect: str | None = None, kind: str | None = None
) -> tuple[Any, Any]:
    """Expectation and output in one spelling of ``dialect`` (the target by default), the expectation
    lenient outside the check's scope (corpus/INTERPRETING.md "Equivalent spellings"). ``kind``: that of
    the payloads compared (a stream's accumulated body is a ``response``; its events a ``stream``)."""
    descriptor = check.dialects.get(dialect or check.target)
    kind = kind or ("response" if check.kind == "stream" else check.kind)
    expected = equivalence.normalize(descriptor, kind, expected, expected=True)
    expected = equivalence.scoped(descriptor, kind, check.features, expected)
    if kind in READ_BY_CLIENTS:
        expected = equivalence.empty_is_absent(descriptor, expected)
    return expected, equivalence.normalize(descriptor, kind, actual)


def _path_of(error: dict[str, Any]) -> str:
    path = error.get("path")
    return "(none)" if path is None else (path or "(root)")


def raised(check: Check, answer: Answer, label: str = "") -> CheckResult:
    """The verdict on an implementation that answered an upstream error (an error event in a stream, a failed
    response) with an error of its own (a library raising the provider's error to its caller, as the official
    SDKs do; a proxy answering with an error status): the error reaches the client either way (rule (c) of
    "What a failure means"), so it passes when it carries what the upstream said."""
    error = answer.error or {}
    upstream = _upstream_messages(check.source_payload)
    said = str(error.get("message") or "").lower()
    if upstream and not any(m.lower() in said for m in upstream):
        return CheckResult(
            "failed",
            actual_error=error,
            duration_ms=answer.duration_ms,
            message=f"{label}refused with {error.get('code')!r} ({error.get('message')}) where the "
            f"upstream's error ({upstream[0]!r}) was to reach the client: the error raised does not carry it",
        )
    return CheckResult(
        "passed",
        actual_error=error,
        duration_ms=answer.duration_ms,
        handled="raised",
        message=f"{label}the upstream's error reached the client as an error of the implementation's own "
        f"({error.get('code')!r}: {error.get('message')})",
    )


def upstream_failed(check: Check) -> bool:
    """Whether the check's source is an upstream's failed answer: a response whose expected payload ends the
    turn in ``error`` (the canonical stop reason of a Responses ``status: failed``)."""
    payload = check.expectation.get("payload")
    return check.kind == "response" and isinstance(payload, dict) and payload.get("stop_reason") == "error"


def _upstream_messages(value: Any) -> list[str]:
    """The ``message`` strings of every ``error`` object in a source payload (what the upstream said)."""
    found: list[str] = []
    if isinstance(value, dict):
        error = value.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str) and error["message"].strip():
            found.append(error["message"].strip())
        for item in value.values():
            found += _upstream_messages(item)
    elif isinstance(value, list):
        for item in value:
            found += _upstream_messages(item)
    return list(dict.fromkeys(found))


def judge(
    check: Check,
    answer: Answer,
    expected_key: str = "payload",
    codes: bool = True,
    validates: bool = True,
    declared: frozenset[str] | None = None,
) -> CheckResult:
    """Compare an implementation's answer with the check's expectation. ``codes``: the implementation
    refuses with toolwire's error codes, so a refusal's code and path are compared with the corpus's;
    otherwise a refusal where one is expected is right, whatever it says. ``validates``: it declares that it
    refuses input invalid in its own dialect; otherwise, where such input is to be refused, anything but a
    crash passes and what it did is recorded (INTERPRETING.md, "Error expectations"). ``declared``: the
    profile keys the implementation declares; an output that another expectation of the case toward the
    same target expects under other values of keys outside it passes (None: only the check's own)."""
    exp = check.expectation
    ms = answer.duration_ms
    if answer.status == "unsupported":  # no counterpart in the implementation: nothing to judge
        return CheckResult("skipped", message=answer.reason, duration_ms=ms)
    refused_by_raising = answer.raised in SHAPE_ERRORS and not validates and garbage_in(check)
    if answer.status == "crash" and not refused_by_raising:
        return CheckResult("errored", message=answer.crash, duration_ms=ms)
    if answer.mutated is not None:
        rest = judge(check, replace(answer, mutated=None), expected_key, codes, validates, declared)
        return mutated(answer, rest)
    if not validates and garbage_in(check):
        return _invalid_input(check, answer)
    if answer.status == "error" and "error" not in exp and upstream_failed(check):
        return raised(check, answer)
    if answer.status == "error":
        actual = answer.error or {}
        if "error" in exp:
            want = check.expected_error
            if not codes:
                return CheckResult(
                    "passed",
                    actual_error=actual,
                    duration_ms=ms,
                    message=f"refused as expected ({want.get('code')!r} in toolwire's codes): "
                    f"{actual.get('code')!r}: {actual.get('message')}",
                )
            if actual.get("code") != want.get("code"):
                return CheckResult(
                    "failed",
                    actual_error=actual,
                    duration_ms=ms,
                    message=f"wrong error code: expected {want.get('code')!r}, "
                    f"got {actual.get('code')!r} ({actual.get('message')})",
                )
            if want.get("path") is not None and actual.get("path") != want["path"]:
                return CheckResult(
                    "failed",
                    actual_error=actual,
                    duration_ms=ms,
                    message=f"error {want.get('code')!r} at the wrong path: expected "
                    f"{want['path']!r}, got {_path_of(actual)}",
                )
            return CheckResult("passed", actual_error=actual, duration_ms=ms)
        member = _refused_member(check, actual.get("message"))
        if member is not None:
            return CheckResult(
                "passed",
                actual_error=actual,
                duration_ms=ms,
                handled="refused-member",
                message=f"refused with {actual.get('code')!r} naming `{member}` ({actual.get('message')}), a "
                f"member the case drops for want of a {check.target} form: refusing it is the other policy",
            )
        if exp.get("refusal_accepted"):
            return CheckResult(
                "passed",
                actual_error=actual,
                duration_ms=ms,
                handled="refused",
                message=f"refused with {actual.get('code')!r} ({actual.get('message')}); the case accepts a "
                f"refusal as well as its payload: {exp['refusal_accepted']}",
            )
        return CheckResult(
            "failed",
            actual_error=actual,
            duration_ms=ms,
            message=f"refused with {actual.get('code')!r} at {_path_of(actual)} "
            f"({actual.get('message')}) where a payload was expected",
        )
    # a payload
    payload = answer.payload
    output = _wire(check, payload)
    if "error" in exp:
        return _translated_instead_of_refused(check, payload, output, ms)
    result = _against(check, exp.get(expected_key), payload, output, ms)
    forwarded = _forwarded_members(check, payload, result) if output.wire_valid is False else []
    if result.outcome == "failed" and forwarded:
        return _left_to_provider(
            output,
            ms,
            f"{', '.join(forwarded)} passed on as given, which the case drops for want of a "
            f"{check.target} form and the {check.target} wire schema rejects, so the client gets the "
            "provider's error instead of a refusal",
        )
    if result.outcome == "failed" and _unchanged(check, payload, output):
        return handled_pass(
            "unchanged",
            f"valid {check.source} input passed on unchanged to a {check.target} reader: it reads exactly "
            "what the client wrote, so nothing can have changed meaning",
            output.wire_valid,
            ms,
        )
    if result.outcome == "failed" and declared is not None and output.wire_valid is not False:
        policy = _another_policy(check, payload, output, declared)
        if policy is not None:
            return handled_pass(
                "another-policy",
                f"the output the case expects under {policy}, a policy the implementation did not declare "
                "against: profiles are choices on which correct translators differ",
                output.wire_valid,
                ms,
            )
        return _closest_policy(check, payload, output, declared, result)
    return result


def _closest_policy(
    check: Check, payload: Any, output: WireVerdict, declared: frozenset[str], result: CheckResult
) -> CheckResult:
    """``result``, or the failure against the expectation of an undeclared policy that the output is
    closer to (fewer differences): what is left is the defect, and the finding is titled by it, not by a
    difference the other policy accepts."""
    ms = result.duration_ms or 0.0
    tried = ((_against(check, e, payload, output, ms), p) for e, p in undeclared_policies(check, declared))
    return closest_failure(result, tried, "the expectation")


def closest_failure(
    result: CheckResult, tried: Iterable[tuple[CheckResult, str]], against: str, label: str = ""
) -> CheckResult:
    """``result``, or the failure among ``tried`` (each judged against ``against`` under an undeclared
    policy) with the fewest differences, fewer than ``result``'s, its message saying so."""
    best = result
    for found, policy in tried:
        if found.outcome == "failed" and 0 < len(found.differences or []) < len(best.differences or []):
            found.message = (
                f"{label}{found.message}, against {against} under {policy} (a policy the "
                "implementation did not declare against), the closest one"
            )
            best = found
    return best


def passes_through(check: Check) -> bool:
    """Whether passing the check's input on unchanged is faithful: a valid source read by a provider or
    client of its own dialect, under the default profile. It reads exactly what was written, which no rule
    of "What a failure means" can fail (a deprecated form the provider still takes, a spelling the case
    upgrades); a profile value chosen for the check asks for a change, and is judged."""
    return check.source == check.target and check.under_defaults and not check.source_problems


def _unchanged(check: Check, payload: Any, output: WireVerdict) -> bool:
    """Whether the output is the check's source, unchanged, where that is faithful (``passes_through``)."""
    if check.round_trip or output.wire_valid is False or not passes_through(check):
        return False
    source, actual = comparable(check, _literal(check.source_payload), payload)
    return not compare(source, actual, output.tolerate if output.extensions is not None else None)


def _another_policy(check: Check, payload: Any, output: WireVerdict, declared: frozenset[str]) -> str | None:
    """The profile (``k=v, …``) of another payload expectation of the case toward the same target that the
    output matches, where it differs from the check's only in keys outside ``declared`` (the keys the
    implementation declared; none, for the degrade a case accepts where it expects a refusal), or None. An
    undeclared key states no policy, and every value of a key is a legitimate one."""
    for alternative, policy in undeclared_policies(check, declared):
        expected, actual = comparable(check, alternative, payload)
        if not compare(expected, actual, output.tolerate if output.extensions is not None else None):
            return policy
    return None


def undeclared_policies(
    check: Check, declared: frozenset[str], member: str = "payload"
) -> Iterator[tuple[Any, str]]:
    """Each payload expectation (``member``: ``accumulated`` for a stream's) of the case toward the check's
    target under another profile that differs from the check's only in keys outside ``declared``, with that
    profile (``k=v, …``)."""
    for alternative, other, changed in _alternatives(check, member):
        if not changed & declared:
            yield alternative[member], ", ".join(f"{k}={other.get(k)}" for k in sorted(changed))


def _against(check: Check, expected: Any, payload: Any, output: WireVerdict, ms: float) -> CheckResult:
    """The verdict on ``payload`` against the payload expectation ``expected``, in the target's spelling."""
    expected, actual = comparable(check, expected, payload)
    return _judge_payload(
        expected,
        actual,
        output,
        ms,
        schema=check.target,
        differs="output differs from the expectation in",
        matches="output matches the expectation but is",
        say_valid=True,
    )


def _alternatives(
    check: Check, member: str = "payload"
) -> list[tuple[dict[str, Any], dict[str, Any], set[str]]]:
    """The case's payload expectations (those with ``member``) toward the check's target under another
    profile, each with that profile (resolved) and the keys whose values differ from the check's."""

    def resolved(when: dict[str, Any] | None) -> dict[str, Any]:
        return resolve_profile(check.profiles, when) if check.profiles else {**check.defaults, **(when or {})}

    own = resolved(check.when)
    out = []
    for e in check.case.expect:
        if e.get("dialect") != check.target or member not in e:
            continue
        other = resolved(e.get("when"))
        changed = {k for k in set(own) | set(other) if own.get(k) != other.get(k)}
        if changed:
            out.append((e, other, changed))
    return out


#: a member name quoted in an error message ('name', "name" or `name`)
_QUOTED_NAME = re.compile(r"['\"`]([A-Za-z_][A-Za-z0-9_.]*)['\"`]")


def _refused_member(check: Check, message: Any) -> str | None:
    """The top-level member of the check's source request that a refusal's message names and that the
    expected translation drops (no trace of its name or of any of its values): a member the target has no
    form for, so refusing it (LiteLLM's ``UnsupportedParamsError``, an SDK's "unexpected keyword argument")
    is the other legitimate policy. Every source member the message names must be such a member: one the
    translation carries on in another form (legacy ``functions`` become ``tools``), or a tool or tool-choice
    member (every choice has a target form, the default one included), makes the refusal a failure."""
    if not isinstance(message, str):
        return None
    named = list(dict.fromkeys(_QUOTED_NAME.findall(message)))
    return ", ".join(named) if _all_dropped(check, named) else None


def _all_dropped(check: Check, names: list[str]) -> bool:
    """Whether ``names`` are top-level members of the check's source request, every one of which the expected
    translation drops: no trace of its name or of any of its values, and no tool or tool-choice member."""
    source, expected = check.source_payload, check.expectation.get("payload")
    if check.kind != "request" or not isinstance(source, dict):
        return False
    names = [n for n in names if n in source]
    lift = check.dialects.get(check.source, {}).get("lift") or {}
    legacy = lift.get("legacy_tools") or {}
    carried = {lift.get("tools_member"), legacy.get("tools_member"), legacy.get("choice_member")}
    carried.update(lift.get("choice_members", ()))
    return bool(names) and all(
        n not in carried and not _holds(expected, [n]) and not _leaves(source[n]) & _leaves(expected)
        for n in names
    )


def _forwarded_members(check: Check, payload: Any, result: CheckResult) -> list[str]:
    """The source request members the output carries on unchanged where the case drops them for want of a
    target form, when they are all that differs and all the target's wire schema rejects: the provider
    refuses them, so the client gets the provider's error as it would get a refusal ([] otherwise)."""
    diffs = result.differences
    if not diffs or not isinstance(payload, dict) or not isinstance(check.source_payload, dict):
        return []
    names = [d.get("key") for d in diffs]
    if any(d.get("kind") != "unexpected-key" or d.get("pointer") != f"/{d.get('key')}" for d in diffs):
        return []
    if not _all_dropped(check, names) or any(payload[n] != check.source_payload[n] for n in names):
        return []
    rest = {k: v for k, v in payload.items() if k not in names}
    return names if not wire.validate(check.target, check.kind, rest, schemas=check.schemas_root) else []


def _leaves(value: Any) -> set[Any]:
    """The strings and numbers anywhere in ``value`` (booleans and null say too little to trace)."""
    if isinstance(value, dict):
        return {leaf for v in value.values() for leaf in _leaves(v)}
    if isinstance(value, list):
        return {leaf for v in value for leaf in _leaves(v)}
    return {value} if isinstance(value, str | int | float) and not isinstance(value, bool) else set()


def garbage_in(check: Check) -> bool:
    """Whether the check's input is invalid in its own dialect and the check judges what becomes of it: a
    refusal is expected, or a payload under the default profile (a profile value chosen for it, such as
    ``ids.orphans=drop``, is a declared way of handling it, and is judged; a ``when`` naming default values
    is the default profile), or any expectation on a source no client of its dialect can be given
    (``unreachable``: no profile value is chosen for input that never arrives)."""
    if not check.source_problems:
        return False
    return "error" in check.expectation or check.under_defaults or bool(check.expectation.get("unreachable"))


#: the built-in exceptions a library raises, on purpose or not, when its input has the wrong type or shape:
#: raised for input invalid in its own dialect, they are how a Python caller learns that the input is bad
SHAPE_ERRORS = frozenset(
    {"TypeError", "ValueError", "KeyError", "IndexError", "LookupError", "AttributeError"}
)


def _invalid_input(check: Check, answer: Answer) -> CheckResult:
    """The verdict on what an implementation that does not validate its input did with input invalid in its
    own dialect, where a refusal is expected: garbage in is no translation bug (rule (a) of "What a failure
    means"), so it passes, and what it did is recorded for the report's input-validation line. A library
    that raises a :data:`SHAPE_ERRORS` exception on it refused it, in the only way Python has."""
    why = check.source_problems[0]
    base = CheckResult("passed", duration_ms=answer.duration_ms, source_invalid=True)
    if answer.status == "crash":
        base.handled = "refused"
        first = (answer.crash or "").splitlines()[0] if answer.crash else answer.raised
        base.message = f"input invalid in its own dialect ({why}): refused by raising {first}"
        return base
    if answer.status == "error":
        actual = answer.error or {}
        base.handled, base.actual_error = "refused", actual
        base.message = f"input invalid in its own dialect ({why}): refused with {actual.get('code')!r}"
        return base
    output = _wire(check, answer.payload)
    base.wire_valid, base.wire_errors = output.wire_valid, output.wire_errors
    if output.wire_valid is False:
        base.handled = "forwarded"
        base.message = (
            f"input invalid in its own dialect ({why}): passed on, and the {check.target} wire schema "
            f"rejects the output in turn ({output.wire_errors[0]})"
        )
    else:
        base.handled = "translated"
        base.message = (
            f"input invalid in its own dialect ({why}): translated into an output the {check.target} wire "
            "schema accepts"
        )
    return base


#: the profile key whose other value only drops what has no target form: a lossy degrade, no faithful form
LOSSY_POLICY = "unsupported"


def _degrade_offered(check: Check) -> list[dict[str, Any]]:
    """The case's payload expectations toward the check's target under other profile values, where this
    check expects a refusal: a faithful form under another policy (Gemini's ``parametersJsonSchema`` for a
    keyword its OpenAPI subset lacks). One that differs only in ``unsupported`` drops what has no form, which
    is no faithful form of it; one graded ``may`` is an alternative the case tolerates, not a form it
    recommends (a custom tool wrapped as a function is another tool)."""
    return [
        e
        for e, _, changed in _alternatives(check)
        if changed - {LOSSY_POLICY} and e.get("level", check.case.level) != "may"
    ]


def _translated_instead_of_refused(check: Check, payload: Any, output: WireVerdict, ms: float) -> CheckResult:
    """The verdict on an output where the corpus expects a refusal of valid input that the target cannot
    express. An output the target accepts changed the meaning silently (rule (b)) unless it is a degrade the
    case accepts; one the target's provider rejects reaches the client as an error, as a refusal would,
    unless a faithful degrade exists; a stream that ends unfinished passes its truncation on to the client."""
    want = check.expected_error
    where = f" at {want['path']}" if want.get("path") is not None else ""
    if check.source_problems:  # reached only by an implementation that declares it validates its input
        return CheckResult(
            "failed",
            wire_valid=output.wire_valid,
            wire_errors=output.wire_errors,
            duration_ms=ms,
            source_invalid=True,
            message=f"translated input invalid in its own dialect ({check.source_problems[0]}) where a "
            f"refusal with {want.get('code')!r}{where} was expected of an implementation that declares "
            "validates_input",
            diff="output: " + clip(json.dumps(payload, ensure_ascii=False), 2000),
        )
    degrades = _degrade_offered(check)
    policy = _another_policy(check, payload, output, frozenset()) if output.wire_valid is not False else None
    if policy is not None:
        return handled_pass(
            "accepted-degrade",
            f"the degrade the case accepts under {policy}, where a refusal with {want.get('code')!r}{where} "
            "is expected under this profile",
            output.wire_valid,
            ms,
        )
    if output.wire_valid is False and check.kind in READ_BY_PROVIDERS and not degrades:
        return _left_to_provider(
            output,
            ms,
            f"{check.target} has no faithful form (a refusal with {want.get('code')!r}{where} is "
            f"expected) and its wire schema rejects the output ({output.wire_errors[0]}), so the client gets "
            "the provider's error instead",
        )
    broken = truncation_passed_on(check, payload) if want.get("code") == "stream.truncated" else None
    if check.kind == "stream" and broken:
        return handled_pass(
            "forwarded",
            f"the truncated source stream is passed on: the {check.target} output {broken}, so the client "
            "sees that the answer did not end normally",
            output.wire_valid,
            ms,
        )
    if output.wire_valid is False:
        found = f"; the {check.target} wire schema rejects the output ({output.wire_errors[0]})"
        if degrades:
            found += ", although the case accepts a degrade the provider takes"
    elif check.kind in READ_BY_PROVIDERS:
        found = f"; the {check.target} provider accepts this output, so the input's meaning changed silently"
    else:
        found = f"; a {check.target} client reads this output as a valid answer that says something else"
    message = f"translated where a refusal with {want.get('code')!r}{where} was expected{found}"
    closest = _closest_degrade(check, payload, output, ms) if output.wire_valid is not False else None
    if closest is not None:
        closest.message = f"{message}; {closest.message}"
        return closest
    return CheckResult(
        "failed",
        wire_valid=output.wire_valid,
        wire_errors=output.wire_errors,
        duration_ms=ms,
        message=message,
        diff="output: " + clip(json.dumps(payload, ensure_ascii=False), 2000),
    )


def _closest_degrade(check: Check, payload: Any, output: WireVerdict, ms: float) -> CheckResult | None:
    """The failure against the degrade the case accepts (under ``unsupported=degrade`` alone: the output the
    refusal would have been under that policy) that the output is closest to, where a refusal is expected
    and the output is neither: what sets it apart from an accepted translation is the defect, and the finding
    is titled by it (claude-code-router losing Anthropic's ``any`` toward Gemini, not its not refusing the
    parallel flag the degrade drops). None for a stream, or where the case accepts no such degrade."""
    if check.kind == "stream":
        return None
    tried = [  # another policy's form says nothing about this one
        (_against(check, e["payload"], payload, output, ms), f"{LOSSY_POLICY}={other.get(LOSSY_POLICY)}")
        for e, other, changed in _alternatives(check)
        if changed == {LOSSY_POLICY}
    ]
    failed = [(found, policy) for found, policy in tried if found.outcome == "failed" and found.differences]
    if not failed:
        return None
    best, policy = min(failed, key=lambda pair: len(pair[0].differences or []))
    best.message = f"the closest degrade the case accepts, under {policy}: {best.message}"
    return best


def handled_pass(handled: str, message: str, wire_valid: bool | None, ms: float) -> CheckResult:
    """A pass for an output that a rule of "Error expectations" or "Undeclared policies" accepts where the
    plain comparison would fail, recorded as ``handled`` (one of :data:`HANDLED`)."""
    return CheckResult("passed", wire_valid=wire_valid, duration_ms=ms, handled=handled, message=message)


def _left_to_provider(output: WireVerdict, ms: float, why: str) -> CheckResult:
    """A pass for an output the target's provider rejects where the client gets its error as it would get a
    refusal (``left-to-provider``); ``why`` follows "left to the provider: "."""
    return CheckResult(
        "passed",
        wire_valid=False,
        wire_errors=output.wire_errors,
        duration_ms=ms,
        handled="left-to-provider",
        message=f"left to the provider: {why}",
    )


def truncation_passed_on(check: Check, payload: Any) -> str | None:
    """How a stream output tells its client that the answer did not end normally, or None: it ends before
    its terminal event (it does not accumulate, or its grammar's end-of-stream rule is broken: no Chat
    ``[DONE]``), it ends in an error, or its stop reason is one the target's descriptor calls ``abnormal``
    (``finish_reasons.abnormal``: Gemini's OTHER, a Responses ``incomplete``, ...)."""
    try:
        body = accumulate(payload, check.target)
    except StreamError as exc:
        return "ends before its terminal event" if exc.code == "stream.truncated" else None
    except Exception:
        return None
    broken = check_stream(payload, check.target) if isinstance(payload, list) else None
    if broken and broken[0].index is None:  # the grammar's end-of-stream rule: unfinished
        return f"ends unfinished ({broken[0].message})"
    if isinstance(body, dict) and set(body) == {"error"}:  # an error event (a Responses body has error: null)
        return "ends in an error"
    reasons = check.dialects.get(check.target, {}).get("finish_reasons") or {}
    abnormal = set(reasons.get("abnormal") or ())
    found = {v for v in _at(body, str(reasons.get("field") or "").split(".")) if isinstance(v, str)}
    if found & abnormal:
        return f"ends with {reasons['field']} {sorted(found & abnormal)[0]!r}"
    return None


def _at(value: Any, parts: list[str]) -> list[Any]:
    """The values at a descriptor's field path (``choices[].finish_reason``: ``[]`` is every item)."""
    if not parts or parts == [""]:
        return [value]
    head, rest = parts[0], parts[1:]
    name, every = (head[:-2], True) if head.endswith("[]") else (head, False)
    inner = value.get(name) if isinstance(value, dict) else None
    if every:
        return [v for item in inner for v in _at(item, rest)] if isinstance(inner, list) else []
    return _at(inner, rest) if inner is not None else []


def mutated(answer: Answer, rest: CheckResult | None = None) -> CheckResult:
    """The verdict on a translator that changed the payload it was handed: the caller's data is not its to
    change (a caller that keeps its messages sees them altered), whatever it answered. ``rest`` is the
    verdict on what it answered: a failure there is kept beside the mutation, never hidden behind it."""
    said = f"mutated its input: the payload it was handed differs afterwards at {answer.mutated}"
    if rest is not None and rest.outcome in ("failed", "errored"):
        rest.outcome = "failed"
        rest.message = f"{rest.message}; {said}" if rest.message else said
        return rest
    return CheckResult("failed", duration_ms=answer.duration_ms, message=said)


def _judge_payload(
    expected: Any,
    payload: Any,
    output: WireVerdict,
    ms: float,
    *,
    schema: str,
    differs: str,
    matches: str,
    say_valid: bool,
) -> CheckResult:
    """Compare ``payload`` with ``expected`` and fold in its validity for the ``schema`` wire schema.
    ``differs`` opens the message of a difference ("... N places"), ``matches`` that of a match that is
    invalid for the wire schema; ``say_valid`` adds to a difference that the output is valid."""
    wire_valid, wire_errors = output.wire_valid, output.wire_errors
    diffs = compare(expected, payload, output.tolerate if output.extensions is not None else None)
    if diffs:
        n = len(diffs)
        msg = f"{differs} {n} place{'s' if n != 1 else ''}"
        if wire_valid is False:
            msg += f"; it is also invalid for the {schema} wire schema"
        elif wire_valid and say_valid:
            msg += f" (it is valid for the {schema} wire schema)"
        return CheckResult(
            "failed",
            diff=format_diff(diffs, expected, payload),
            differences=records(diffs),
            message=msg,
            wire_valid=wire_valid,
            wire_errors=wire_errors,
            duration_ms=ms,
        )
    if wire_valid is False:
        return CheckResult(
            "failed",
            wire_valid=False,
            wire_errors=wire_errors,
            duration_ms=ms,
            message=f"{matches} invalid for the {schema} wire schema: " + "; ".join(wire_errors[:5]),
        )
    return CheckResult("passed", wire_valid=wire_valid, wire_errors=wire_errors, duration_ms=ms)


def _literal(value: Any) -> Any:
    """``value`` as an expected payload compared literally: matcher-like objects wrapped in ``$literal``."""
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)).startswith("$"):
            return {"$literal": value}
        return {k: _literal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_literal(v) for v in value]
    return value


def judge_round_trip(check: Check, there: Answer, back: Answer | None) -> CheckResult:
    """Judge a round trip: ``there`` is source -> target, ``back`` is that output translated target -> source
    (None when ``there`` gave no payload). The result must equal the source payload (INTERPRETING.md)."""
    src, tgt = check.source, check.target
    ms = there.duration_ms + (back.duration_ms if back is not None else 0.0)
    for leg, answer in (("there", there), ("back", back)):
        if answer is None:
            continue
        if answer.status == "unsupported":  # no counterpart in the implementation: nothing to judge
            return CheckResult("skipped", message=answer.reason, duration_ms=ms)
        if answer.mutated is not None and answer.status != "crash":
            return mutated(answer)
        way = f"{src}>{tgt}" if leg == "there" else f"{tgt}>{src}"
        if answer.status == "crash":
            return CheckResult("errored", message=f"round trip, {way}: {answer.crash}", duration_ms=ms)
        if answer.status == "error":
            actual = answer.error or {}
            return CheckResult(
                "failed",
                actual_error=actual,
                duration_ms=ms,
                message=f"round trip: refused on the way {leg} ({way}) "
                f"with {actual.get('code')!r} at {_path_of(actual)} ({actual.get('message')})",
            )
    assert back is not None
    # the source without the member standing for its URL's model: the way back has no URL to restore it from
    source = without_model_member(check.dialects.get(src, {}), check.source_payload)
    expected, actual = comparable(check, _literal(source), back.payload, src)
    return _judge_payload(
        expected,
        actual,
        _wire(check, back.payload, src),
        ms,
        schema=src,
        differs=f"round trip {src}>{tgt}>{src} does not give the source payload back: it differs in",
        matches="round trip gives the source payload back, but it is",
        say_valid=False,
    )


def run_round_trip(adapter: Adapter, check: Check, profile: dict[str, Any]) -> CheckResult:
    """Translate source -> target, then the output target -> source, under the same profile, and judge."""
    there = adapter.translate(check.kind, check.source, check.target, check.source_payload, profile)
    back = None
    if there.status == "payload":
        back = adapter.translate(check.kind, check.target, check.source, there.payload, profile)
    return judge_round_trip(check, there, back)
