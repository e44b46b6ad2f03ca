"""Fresh-id checks (INTERPRETING.md "Fresh ids"): an invented tool-call id must not come back when the same
source is translated again."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fake_translators import InventingIds
from toolwire.adapters import PythonAdapter
from toolwire.corpus import load_corpus
from toolwire.corpus.variants import mints_response_id
from toolwire.judge import run_check
from toolwire.judge.fresh_ids import VARIANT, call_ids
from toolwire_reference.translator import Translator

CORPUS = load_corpus()
FRESH = [c for c in CORPUS.checks() if c.variant == VARIANT]


def _results(impl: Any) -> list[Any]:
    adapter = PythonAdapter("python:test", impl, timeout=None)
    return [run_check(adapter, check, CORPUS.profiles) for check in FRESH]


#: the fresh-id checks of responses whose expectation lets the translator mint the response id
MINTED = [c for c in FRESH if mints_response_id(c.expectation.get("payload"))]


def test_every_gemini_source_with_id_less_calls_gets_one_per_target_that_needs_ids() -> None:
    calls = [c for c in FRESH if c not in MINTED]
    assert calls
    assert {c.source for c in calls} == {"gemini", "openai-chat"}  # Gemini calls, legacy function_call
    assert {c.kind for c in calls} == {"response", "stream"}
    assert "gemini" not in {c.target for c in calls}


def test_a_response_id_the_translator_may_mint_gets_one_where_the_source_names_itself() -> None:
    assert MINTED and {c.kind for c in MINTED} == {"response"}
    names = [c.source_payload.get("id") or c.source_payload.get("responseId") for c in MINTED]
    assert all(isinstance(name, str) for name in names)


class MintingResponseIds:
    """Answers a text response in the target's shape with a response id it mints: one constant id (as
    any-llm's ``google_genai_response``) or one derived from the source."""

    def __init__(self, fresh: bool) -> None:
        self.fresh = fresh

    def capabilities(self) -> dict[str, Any]:
        return {"name": "minting", "version": "0", "language": "python", "kinds": {"response": [["*", "*"]]}}

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
        out = Translator().translate(kind, source, target, payload, profile)
        key = "responseId" if target == "gemini" else "id"
        made = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]
        out[key] = "minted-" + (made if self.fresh else "constant")
        return out


def test_a_constant_minted_response_id_fails_and_a_fresh_one_passes() -> None:
    for fresh in (True, False):
        adapter = PythonAdapter("python:minting", MintingResponseIds(fresh), timeout=None)
        outcomes = {run_check(adapter, c, CORPUS.profiles).outcome for c in MINTED}
        assert outcomes == {"passed" if fresh else "failed"}, (fresh, outcomes)


def _fake(fresh: bool) -> InventingIds:
    return InventingIds(fresh, profiles={key: ["*"] for key in CORPUS.profiles})


def test_a_translator_inventing_ids_from_the_response_passes() -> None:
    results = _results(_fake(fresh=True))
    assert all(r.outcome == "passed" for r in results), [r.message for r in results if r.outcome != "passed"]


def test_a_translator_numbering_ids_anew_for_every_response_fails() -> None:
    results = _results(_fake(fresh=False))
    failed = [r for r in results if r.outcome == "failed"]
    assert len(failed) == len(results)
    assert all("got the same invented tool-call id" in (r.message or "") for r in failed)
    assert all("'toolu_1'" in (r.message or "") for r in failed)


def test_the_reference_invents_fresh_ids() -> None:
    """The reference itself (the harness's own checks run on fakes above)."""
    results = _results(Translator())
    assert all(r.outcome == "passed" for r in results), [r.message for r in results if r.outcome != "passed"]


def test_call_ids_are_found_in_every_dialect_s_calls() -> None:
    body = {
        "content": [{"type": "tool_use", "id": "toolu_a", "name": "f", "input": {"id": "not a call"}}],
        "choices": [{"message": {"tool_calls": [{"id": "call_b", "function": {"name": "f"}}]}}],
        "output": [{"type": "function_call", "id": "fc_c", "call_id": "call_c"}],
        "parts": [{"functionCall": {"id": "d", "name": "f"}}],
        "id": "msg_not_a_call",
    }
    assert call_ids(body) == {"toolu_a", "call_b", "fc_c", "call_c", "d"}


def test_the_second_translation_reads_as_the_next_response_of_a_conversation() -> None:
    from toolwire.judge.fresh_ids import another_response

    call = {"functionCall": {"name": "f", "args": {}}}
    body = {"responseId": "r1", "candidates": [{"content": {"parts": [call]}}]}
    assert another_response(body) == {**body, "responseId": "r1-next"}
    events = [{"data": {"id": "chatcmpl-1", "choices": []}}, {"data": "[DONE]"}]
    expected = [{"data": {"id": "chatcmpl-1-next", "choices": []}}, {"data": "[DONE]"}]
    assert another_response(events) == expected
