"""peer:litellm (suite/toolwire/peers/litellm.py): loads, declares well-formed capabilities,
runs real corpus checks without a harness error of its own.
Skipped when the `litellm` extra is not installed."""

from __future__ import annotations

from pathlib import Path

from peer_support import check_capabilities, require, run_subset

NAME = "litellm"
SELECTION = " or ".join(
    [
        "streams/anthropic-tool-use",
        "streams/openai-chat-parallel",
        "choice/openai-chat-required",
        "messages/anthropic-capture-tool-choice",
    ]
)


def test_capabilities() -> None:
    require(NAME)
    check_capabilities(NAME, "litellm")


def test_corpus_subset_runs(tmp_path: Path) -> None:
    require(NAME)
    run_subset(tmp_path, NAME, SELECTION)
