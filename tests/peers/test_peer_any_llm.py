"""peer:any-llm (suite/toolwire/peers/any_llm.py): loads, declares well-formed capabilities,
runs real corpus checks without a harness error of its own.
Skipped when the `any-llm` extra is not installed."""

from __future__ import annotations

from pathlib import Path

from peer_support import check_capabilities, require, run_subset

NAME = "any-llm"
SELECTION = " or ".join(
    [
        "streams/anthropic-tool-use",
        "choice/anthropic-any",
        "messages/openai-chat-capture-tool-choice",
        "responses/gemini",
    ]
)


def test_capabilities() -> None:
    require(NAME)
    check_capabilities(NAME, "any-llm-sdk")


def test_corpus_subset_runs(tmp_path: Path) -> None:
    require(NAME)
    run_subset(tmp_path, NAME, SELECTION)


def test_incrementality_is_declared_unmeasurable() -> None:
    """any-llm's sync streaming reads ahead on a background thread: the adapter says so for every stream route
    (the ``incremental`` stream checks are skipped) and answers streams whole, as a list."""
    require(NAME)
    from toolwire.peers.any_llm import AnyLLMTranslator

    tr = AnyLLMTranslator()
    assert tr.stream_routes
    for source, target in tr.stream_routes:
        why = tr.incremental_unmeasurable(source, target)
        assert why and "background" in why
    assert tr.incremental_unmeasurable("openai-chat", "openai-responses") is None


def test_legacy_function_members_are_no_counterpart_not_a_finding() -> None:
    """completion() has no ``functions`` / ``function_call`` parameter (its extra keywords go to the provider
    as they are): a check that needs them is skipped with that reason, never judged as any-llm's refusal."""
    require(NAME)
    from toolwire.adapters.inprocess import PythonAdapter
    from toolwire.peers.any_llm import AnyLLMTranslator

    adapter = PythonAdapter("peer:any-llm", AnyLLMTranslator())
    request = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Weather?"}],
        "functions": [{"name": "get_weather", "parameters": {"type": "object", "properties": {}}}],
        "function_call": {"name": "get_weather"},
    }
    answer = adapter.translate("request", "openai-chat", "gemini", request, {})
    assert answer.status == "unsupported" and "function_call" in (answer.reason or "")
