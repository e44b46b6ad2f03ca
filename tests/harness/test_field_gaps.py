"""Each gap the field showed in the judging is closed: a translator written to have the bug fails the check
that catches it, and the reference, which has none of them, passes it (issue: "catch the bugs users actually
report")."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import toolwire_reference
from toolwire.adapters import Answer
from toolwire.corpus import load_corpus
from toolwire.judge.checks import judge


@pytest.fixture(scope="module")
def corpus() -> Any:
    return load_corpus()


def the_check(corpus: Any, check_id: str) -> Any:
    return next(c for c in corpus.checks() if c.id == check_id)


def reference(check: Any) -> Any:
    return toolwire_reference.translate(
        check.kind, copy.deepcopy(check.source_payload), source=check.source, target=check.target, profile={}
    )


def verdict(check: Any, payload: Any) -> str:
    return judge(check, Answer("payload", payload=payload)).outcome


def test_a_quiet_stop_next_to_calls_toward_chat_keeps_the_calls_readable(corpus: Any) -> None:
    """`tool_calls` or `stop` (OpenAI's own answer next to the calls of a forced function); a reason that says
    the answer was cut short is another meaning."""
    check = the_check(corpus, "responses/stop-end-turn-next-to-calls-from-anthropic[anthropic>openai-chat]")
    good = reference(check)
    assert good["choices"][0]["finish_reason"] == "tool_calls" and verdict(check, good) == "passed"
    stop = copy.deepcopy(good)
    stop["choices"][0]["finish_reason"] = "stop"
    assert verdict(check, stop) == "passed"
    cut = copy.deepcopy(good)
    cut["choices"][0]["finish_reason"] = "length"
    assert verdict(check, cut) == "failed"


def test_a_streamed_request_toward_chat_asks_for_usage(corpus: Any) -> None:
    check = the_check(corpus, "messages/anthropic-stream-asks-chat-for-usage[anthropic>openai-chat]")
    good = reference(check)
    assert good["stream_options"] == {"include_usage": True} and verdict(check, good) == "passed"
    silent = {k: v for k, v in good.items() if k != "stream_options"}  # the client then reads usage 0/0
    assert verdict(check, silent) == "failed"


def test_a_long_tool_name_is_shortened_the_same_way_everywhere_or_not_at_all(corpus: Any) -> None:
    check = the_check(corpus, "tools/anthropic-long-name-to-chat[anthropic>openai-chat,openai.strict=as-is]")
    name = check.source_payload["tools"][0]["name"]
    short = json.loads(json.dumps(check.source_payload).replace(name, "search_docs_by_tag_1a2b3c4d"))
    consistent = toolwire_reference.translate("request", short, source="anthropic", target="openai-chat")
    assert verdict(check, consistent) == "passed"  # a translator that maps the calls back (LiteLLM)
    once = copy.deepcopy(consistent)
    once["messages"][1]["tool_calls"][0]["function"]["name"] = name  # the history still calls the long name
    assert verdict(check, once) == "failed"
    error = {"code": "tool.invalid_name", "message": "too long", "path": "/tools/0/name"}
    refused = Answer("error", error=error)
    assert judge(check, refused).outcome == "passed"


def test_a_malformed_gemini_call_never_becomes_a_tool_use_stop_without_the_call(corpus: Any) -> None:
    check = the_check(corpus, "responses/gemini-malformed-function-call-with-a-call[gemini>openai-chat]")
    good = reference(check)
    assert verdict(check, good) == "passed"
    empty = copy.deepcopy(good)
    del empty["choices"][0]["message"]["tool_calls"]
    empty["choices"][0]["finish_reason"] = "tool_calls"  # a client loops on calls it never gets
    assert verdict(check, empty) == "failed"
