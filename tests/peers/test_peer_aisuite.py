"""peer:aisuite (suite/toolwire/peers/aisuite.py): loads, declares well-formed capabilities,
runs real corpus checks without a harness error of its own.
Skipped when the `aisuite` extra is not installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from peer_support import check_capabilities, read_positions, require, run_subset

NAME = "aisuite"
SELECTION = " or ".join(
    [
        "streams/anthropic-tool-use",
        "choice/openai-chat-required",
        "messages/openai-chat-capture-tool-choice",
        "responses/gemini",
    ]
)


def test_capabilities() -> None:
    require(NAME)
    check_capabilities(NAME, "aisuite")


def test_corpus_subset_runs(tmp_path: Path) -> None:
    require(NAME)
    run_subset(tmp_path, NAME, SELECTION)


@pytest.mark.parametrize(
    "case", ["streams/anthropic-tool-use-capture", "streams/gemini-function-call-thought-signature-capture"]
)
def test_streams_are_driven_lazily(case: str) -> None:
    """Each output event is yielded as aisuite yields it, with the input read only as far as the provider SDK
    read it (the ``incremental`` stream checks measure the library, not the adapter)."""
    require(NAME)
    positions, n = read_positions(NAME, case, "openai-chat")
    assert positions and positions == sorted(positions)
    assert positions[0] <= min(1, n), positions
    assert len(set(positions)) > 1, positions


def test_create_only_keywords_never_reach_the_provider() -> None:
    """aisuite's chat.completions.create() takes ``stream`` (and its tool-runner keywords) itself before it
    calls the provider: a request saying ``"stream": false`` must not carry it into Bedrock's
    additionalModelRequestFields (the adapter used to, an artefact in the audit of seed 201)."""
    require(NAME)
    from toolwire.adapters import load_adapter

    adapter = load_adapter("peer:aisuite")
    try:
        body = {"model": "gpt-4o", "stream": False, "messages": [{"role": "user", "content": "hi"}]}
        answer = adapter.translate("request", "openai-chat", "bedrock-converse", body, {})
        assert answer.status == "payload", answer.crash or answer.error
        assert "stream" not in json.dumps(answer.payload), answer.payload
    finally:
        adapter.close()
