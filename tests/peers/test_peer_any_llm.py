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
