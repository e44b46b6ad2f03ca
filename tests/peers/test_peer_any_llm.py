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
