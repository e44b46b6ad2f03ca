"""The harness's verdicts on translators whose behaviour the test knows (tests/support/fake_translators.py):
one that answers every expectation passes, and one that refuses, crashes, hangs, lies or answers a canned
payload gets the outcome that says so. None of this depends on the reference translator."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fake_translators import Canned, Crashing, Hanging, Lying, Oracle, Refusing
from toolwire.adapters import PythonAdapter
from toolwire.corpus import Check, load_corpus
from toolwire.jsonvalue import json_problem
from toolwire.judge import run_check

CORPUS = load_corpus()
EVERY_PROFILE = {key: ["*"] for key in CORPUS.profiles}
PAIR = {"tools": [["canonical", "openai-chat"]]}


def _main_checks() -> list[Check]:
    """The corpus's checks an oracle can answer: no streams, round trips or variants."""
    return [c for c in CORPUS.checks() if c.kind != "stream" and not c.round_trip and c.variant is None]


def _of_pair(checks: list[Check]) -> list[Check]:
    return [c for c in checks if c.kind == "tools" and (c.source, c.target) == ("canonical", "openai-chat")]


def _run(impl: Any, checks: list[Check], timeout: float | None = None) -> list[tuple[Check, Any]]:
    adapter = PythonAdapter("python:fake", impl, timeout=timeout)
    try:
        return [(check, run_check(adapter, check, CORPUS.profiles)) for check in checks]
    finally:
        adapter.close()


def test_a_translator_answering_every_expectation_passes_every_tools_and_tool_choice_check() -> None:
    # (the kinds whose expectations the oracle's sample of the matchers satisfies: a response's ids are
    # `$id`s to be told apart, its text `$regex`es)
    checks = [c for c in _main_checks() if c.kind in ("tools", "tool_choice")]
    results = _run(Oracle(CORPUS, profiles=EVERY_PROFILE), checks)
    assert len(checks) > 500
    wrong = [(c.id, r.outcome, r.message) for c, r in results if r.outcome != "passed"]
    assert wrong == [], wrong[:5]


def test_a_refusal_passes_only_where_the_corpus_expects_one() -> None:
    results = _run(Refusing(kinds=PAIR, profiles=EVERY_PROFILE, codes="own"), _of_pair(_main_checks()))
    expected = [r for c, r in results if "error" in c.expectation]
    accepted = [r for c, r in results if c.expectation.get("refusal_accepted")]
    other = [r for c, r in results if not ({"error", "refusal_accepted"} & set(c.expectation))]
    assert expected and all(r.outcome == "passed" and "refused as expected" in r.message for r in expected)
    assert all(r.outcome == "passed" for r in accepted)  # the case says why a refusal is right there too
    assert other and all(r.outcome == "failed" and "where a payload was expected" in r.message for r in other)


def test_a_refusal_with_another_code_fails_when_the_translator_speaks_toolwire_codes() -> None:
    results = _run(Refusing(kinds=PAIR, profiles=EVERY_PROFILE, codes="toolwire"), _of_pair(_main_checks()))
    expected = [r for c, r in results if "error" in c.expectation]
    assert expected and all(r.outcome == "failed" and "wrong error code" in r.message for r in expected)


def test_a_crash_is_errored_with_the_exception() -> None:
    results = _run(Crashing(kinds=PAIR, profiles=EVERY_PROFILE), _of_pair(_main_checks())[:3])
    assert results and all(r.outcome == "errored" for _, r in results)
    assert all((r.message or "").startswith("KeyError: 'fake crash'") for _, r in results)


def test_a_hung_translator_is_errored_and_the_run_goes_on() -> None:
    fake = Hanging(kinds=PAIR, profiles=EVERY_PROFILE)
    try:
        results = _run(fake, _of_pair(_main_checks())[:2], timeout=0.2)
    finally:
        fake.release.set()
    assert [r.outcome for _, r in results] == ["errored", "errored"]
    assert all("did not answer within 0.2 s (hung)" in (r.message or "") for _, r in results)


def test_a_translator_answering_a_value_that_contains_itself_is_errored_not_hung() -> None:
    """A self-referencing answer has no JSON text: the check errs, naming where the cycle closes, and the
    walk that looks for it ends (it used to loop forever, outside the translation timeout). A value shared
    by two members is no cycle."""

    class Cyclic(Canned):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            tool: dict[str, Any] = {"type": "function", "function": {"name": "f"}}
            tool["function"]["again"] = tool
            return [tool]

    results = _run(Cyclic({}, kinds=PAIR, profiles=EVERY_PROFILE), _of_pair(_main_checks())[:2], timeout=5)
    assert [r.outcome for _, r in results] == ["errored", "errored"]
    assert all("/0/function/again: the value contains itself" in (r.message or "") for _, r in results)
    shared = ["x"]
    assert json_problem({"a": shared, "b": [shared, shared]}) is None


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message")


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (ValueError("x" * 5_000_000), "… (cut: 5,000,000 characters)"),
        (_Unprintable(), "(its message could not be read: str() raised RuntimeError)"),
    ],
)
def test_a_crash_keeps_a_bounded_message_and_an_unreadable_one_is_still_the_translators(
    raised: Exception, said: str
) -> None:
    """A 5 MB exception message is cut (three 50 MB ones made a 150 MB results file); an exception whose
    ``__str__`` raises is the translator's crash, not a failure of the harness."""

    class Raising(Canned):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            raise raised

    ((_, result),) = _run(Raising({}, kinds=PAIR, profiles=EVERY_PROFILE), _of_pair(_main_checks())[:1])
    assert result.outcome == "errored"
    assert said in (result.message or "") and len(result.message or "") < 20_000


class _OwnBase(BaseException):
    """A library's own BaseException subclass."""


@pytest.mark.parametrize("timeout", [5, None])
@pytest.mark.parametrize(
    "raised",
    [asyncio.CancelledError("cancelled"), GeneratorExit("closed"), _OwnBase("own"), KeyboardInterrupt()],
)
def test_a_base_exception_from_the_translator_is_its_crash_and_the_run_goes_on(
    raised: BaseException, timeout: float | None
) -> None:
    """A BaseException that is not an Exception (asyncio's CancelledError, GeneratorExit, a library's own)
    is the translator's crash: the check errs naming it and the next check runs (it used to end the run
    with a traceback and no results file). A KeyboardInterrupt the translator raises in the helper thread
    is its own doing too, never Ctrl-C (signals reach the main thread only); without a timeout the call runs
    in the main thread, where an interrupt may be the user's, so it still ends the run."""

    class Raising(Canned):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            raise raised

    fake = Raising({}, kinds=PAIR, profiles=EVERY_PROFILE)
    if isinstance(raised, KeyboardInterrupt) and timeout is None:
        with pytest.raises(KeyboardInterrupt):
            _run(fake, _of_pair(_main_checks())[:1], timeout=timeout)
        return
    results = _run(fake, _of_pair(_main_checks())[:2], timeout=timeout)
    assert [r.outcome for _, r in results] == ["errored", "errored"]
    name = type(raised).__qualname__
    assert all(name in (r.message or "") for _, r in results), results[0][1].message
    assert all("toolwire harness error" not in (r.message or "") for _, r in results)


def test_a_translator_declaring_what_it_does_not_translate_fails() -> None:
    results = _run(Lying(kinds=PAIR, profiles=EVERY_PROFILE), _of_pair(_main_checks()))
    payloads = [r for c, r in results if "error" not in c.expectation]
    assert payloads and all(r.outcome == "failed" for r in payloads)
    assert any("output differs from the expectation" in (r.message or "") for r in payloads)


def test_a_canned_answer_is_judged_with_a_diff_naming_the_path() -> None:
    check = next(c for c in _of_pair(_main_checks()) if c.expectation.get("payload"))
    oracle = Oracle(CORPUS)
    expected = oracle.translate("tools", check.source, check.target, check.source_payload, check.profile)
    wrong = [{**expected[0], "type": "tool"}]
    [(_, result)] = _run(Canned({("tools", "*", "*"): wrong}, kinds=PAIR, profiles=EVERY_PROFILE), [check])
    assert result.outcome == "failed"
    assert "/0/type" in (result.diff or "")
