"""Real clients' conversations through ``toolwire serve``, end to end, with the official SDKs as clients.

A Claude Code-shaped conversation (its captured first request, with extended thinking and streaming as
Claude Code sends them, then the turns that follow: thinking and parallel ``tool_use`` sent back,
``tool_result`` with ``is_error``, a non-streaming turn) goes from the official Anthropic SDK through
``serve`` to an OpenAI Chat, a Responses and a Gemini upstream; a Codex-shaped one (its captured first
request, then reasoning items, ``function_call`` and ``function_call_output`` sent back) goes from the
official OpenAI SDK to an Anthropic and a Chat upstream. The upstream replays captured provider replies
(``corpus/captures``). Every body the upstream receives must be valid for its wire schema; every answer
must parse in the SDK and carry what the upstream said. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")
anthropic = pytest.importorskip("anthropic")
openai = pytest.importorskip("openai")

from serve_support import Upstream, raw_answer, serve, sse_answer  # noqa: E402
from toolwire import paths  # noqa: E402
from toolwire.adapters.upstream import LoopThread  # noqa: E402
from toolwire.corpus import wire  # noqa: E402

#: the captured Claude Code request names a model the SDK warns about
pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

CAPTURES = paths.corpus_dir() / "captures"
KEY = "sk-test-not-a-key"


def capture(name: str) -> Any:
    return json.loads((CAPTURES / name).read_text(encoding="utf-8"))


def sse_writes(name: str) -> list[bytes]:
    """A captured stream as the upstream writes it: one SSE event per write. A ``.chunks.jsonl`` file holds
    one JSON payload a line, framed here as ``data:`` events; ``file.chunks.jsonl#N`` is the Nth of the
    Responses streams recorded one after another in it (each begins with ``response.created``)."""
    name, _, nth = name.partition("#")
    data = (CAPTURES / name).read_bytes()
    if name.endswith(".chunks.jsonl"):
        streams: list[list[bytes]] = []
        for line in filter(bytes.strip, data.splitlines()):
            if not streams or (nth and json.loads(line).get("type") == "response.created"):
                streams.append([])
            streams[-1].append(b"data: " + line + b"\n\n")
        return streams[int(nth or 1) - 1]
    events = re.split(rb"(?<=\r\n\r\n)|(?<=\n\n)(?<!\r\n\r\n)", data)
    return [event for event in events if event]


class Replayer:
    """The upstream's script: each request gets the next captured reply, in order."""

    def __init__(self, replies: list[tuple[str, list[str]]]) -> None:
        self.replies = [name for name, _ in replies]

    async def __call__(self, request: Any, body: Any) -> Any:
        assert self.replies, f"the upstream got one request more than the conversation has: {request.path}"
        name = self.replies.pop(0)
        if name.partition("#")[0].endswith((".sse", ".chunks.jsonl")):
            return await sse_answer(request, sse_writes(name))
        return await raw_answer((CAPTURES / name).read_bytes())


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    loop = LoopThread()
    up = Upstream(loop).start()
    yield up
    up.stop()
    loop.stop()


def result_links(dialect: str, body: dict[str, Any]) -> dict[str, str]:
    """The tool results of a request body: the call id each answers → its text (as sent)."""
    if dialect == "openai-chat":
        return {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}
    if dialect == "openai-responses":
        return {i["call_id"]: i["output"] for i in body["input"] if i.get("type") == "function_call_output"}
    if dialect == "anthropic":
        blocks = [b for m in body["messages"] if isinstance(m["content"], list) for b in m["content"]]
        return {b["tool_use_id"]: json.dumps(b.get("content")) for b in blocks if b["type"] == "tool_result"}
    parts = [p["functionResponse"] for c in body["contents"] for p in c["parts"] if "functionResponse" in p]
    return {p["id"]: json.dumps(p["response"]) for p in parts}


def assert_wire_valid(dialect: str, bodies: list[Any]) -> None:
    for turn, body in enumerate(bodies, 1):
        errors = wire.validate(dialect, "request", body)
        assert not errors, f"turn {turn}: the {dialect} upstream got an invalid request: {errors}"


# ---------------------------------------------------------------------------------------------------
# Claude Code → serve → OpenAI Chat / Responses / Gemini, checked by the Anthropic SDK

#: per upstream: the captured replies of the three turns (a stream with calls, a stream of text, a whole
#: reply with calls), each with the names of the calls it holds
CLAUDE_CODE_UPSTREAMS = {
    "openai-chat": [
        ("openai-chat/09_stream_parallel_tool_calls.sse", ["GetWeatherArgs", "get_stock_price"]),
        ("openai-chat/12_stream_followup_after_tool.response.sse", []),
        ("openai-chat/07_response_parallel_tool_calls.response.json", ["GetWeatherArgs", "get_stock_price"]),
    ],
    "openai-responses": [
        ("openai-responses/11_stream_reasoning_then_function_call_2025-12.chunks.jsonl#1", ["calculator"]),
        ("openai-responses/10_stream_followup_2025-03.response.sse", []),
        ("openai-responses/07_parallel_function_calls.response.json", ["get_location"] * 2),
    ],
    "gemini": [
        ("gemini/12_stream_function_call_gemini3.chunks.jsonl", ["weather"]),
        ("gemini/10_stream_followup_after_functionResponse.response.sse", []),
        ("gemini/06_parallel_3_function_calls.response.json", ["generate_topic"] * 3),
    ],
}


def claude_code_first_turn() -> dict[str, Any]:
    """Claude Code's captured first request, with extended thinking on and streaming, as it sends them."""
    body = capture("anthropic/17_claude_code_first_turn.request.json")
    body["thinking"] = {"type": "enabled", "budget_tokens": 10000}
    return body


def blocks_of(message: Any) -> list[dict[str, Any]]:
    """A message's content blocks as Claude Code sends them back in the next request."""
    return [block.model_dump(exclude_none=True) for block in message.content]


def sdk_params(body: dict[str, Any], known: set[str]) -> dict[str, Any]:
    """Keyword arguments of an SDK call: the members it names, the others as ``extra_body``."""
    params = {k: v for k, v in body.items() if k in known}
    extra = {k: v for k, v in body.items() if k not in known}
    if extra:
        params["extra_body"] = extra
    return params


#: what every Anthropic SDK names in ``messages.create`` and ``.stream``; the rest goes as ``extra_body``
#: (SDK versions differ in the keyword arguments they take, never in the body they send)
ANTHROPIC_PARAMS = {"model", "max_tokens", "messages"}


@pytest.mark.parametrize("upstream_dialect", sorted(CLAUDE_CODE_UPSTREAMS))
def test_claude_code_conversation(tmp_path: Path, upstream: Upstream, upstream_dialect: str) -> None:
    replies = CLAUDE_CODE_UPSTREAMS[upstream_dialect]
    upstream.script = Replayer(replies)
    # a Gemini 3 upstream refuses a call of the current turn without a thought signature, and an Anthropic
    # client cannot carry Gemini's back: the documented stand-in (RULES.md, "Thinking and signatures")
    extra = ("--profile", "gemini.unsigned-calls=skip-validator") if upstream_dialect == "gemini" else ()
    with serve(tmp_path, "anthropic", upstream_dialect, upstream.url, *extra) as proxy:
        client = anthropic.Anthropic(base_url=proxy.url, api_key=KEY, max_retries=0, timeout=30)
        body = claude_code_first_turn()

        # turn 1: streamed; the model thinks and calls tools
        with client.messages.stream(**sdk_params(body, ANTHROPIC_PARAMS)) as stream:
            first = stream.get_final_message()
        calls = [block for block in first.content if block.type == "tool_use"]
        assert first.stop_reason == "tool_use", first
        assert [call.name for call in calls] == replies[0][1]
        assert len({call.id for call in calls}) == len(calls)

        # turn 2: everything sent back as Claude Code does, one result an error; streamed text answer
        messages = copy.deepcopy(body["messages"])
        messages.append({"role": "assistant", "content": blocks_of(first)})
        results = [
            {"type": "tool_result", "tool_use_id": call.id, "content": f"output of {call.name}"}
            for call in calls
        ]
        results[0] |= {"is_error": True, "content": "Exit code 1\nNo such file or directory"}
        messages.append({"role": "user", "content": results})
        with client.messages.stream(**sdk_params(dict(body, messages=messages), ANTHROPIC_PARAMS)) as stream:
            second = stream.get_final_message()
        assert second.stop_reason == "end_turn", second
        sent = result_links(upstream_dialect, upstream.bodies[1])
        assert list(sent) == [call.id for call in calls], "every result must answer its call, by id"
        assert "No such file" in sent[calls[0].id]
        if upstream_dialect == "gemini":
            model_turn = upstream.bodies[1]["contents"][-2]
            assert model_turn["parts"][0]["thoughtSignature"] == "skip_thought_signature_validator"
        assert "".join(b.text for b in second.content if b.type == "text").strip()

        # turn 3: not streamed; the model calls tools again
        messages += [
            {"role": "assistant", "content": blocks_of(second)},
            {"role": "user", "content": "Now check the other files too."},
        ]
        third = client.messages.create(**sdk_params(dict(body, messages=messages), ANTHROPIC_PARAMS))
        assert third.stop_reason == "tool_use"
        assert [b.name for b in third.content if b.type == "tool_use"] == replies[2][1]

    assert len(upstream.bodies) == 3


# ---------------------------------------------------------------------------------------------------
# Codex → serve → Anthropic / OpenAI Chat, checked by the OpenAI SDK

CODEX_UPSTREAMS = {
    "anthropic": [
        ("anthropic/11_stream_tool_use.response.sse", ["get_weather"]),
        ("anthropic/12_stream_followup_after_tool_result.response.sse", []),
        ("anthropic/06_parallel_tool_use_4_calls.response.json", ["retrieve_entity_info"] * 4),
    ],
    "openai-chat": [
        ("openai-chat/11_stream_tool_call_2026.response.sse", ["get_capital"]),
        ("openai-chat/12_stream_followup_after_tool.response.sse", []),
        ("openai-chat/07_response_parallel_tool_calls.response.json", ["GetWeatherArgs", "get_stock_price"]),
    ],
}


#: the same for the OpenAI SDK's ``responses.create`` / ``responses.stream``
RESPONSES_PARAMS = {"model", "input"}


def items_of(response: Any) -> list[dict[str, Any]]:
    """A response's output items as Codex sends them back in ``input`` (with ``store: false``)."""
    return [item.model_dump(exclude_none=True) for item in response.output]


@pytest.mark.parametrize("upstream_dialect", sorted(CODEX_UPSTREAMS))
def test_codex_conversation(tmp_path: Path, upstream: Upstream, upstream_dialect: str) -> None:
    replies = CODEX_UPSTREAMS[upstream_dialect]
    upstream.script = Replayer(replies)
    with serve(tmp_path, "openai-responses", upstream_dialect, upstream.url) as proxy:
        client = openai.OpenAI(base_url=proxy.url + "/v1", api_key=KEY, max_retries=0, timeout=30)
        body = capture("openai-responses/16_codex_first_turn.request.json")
        del body["stream"]

        # turn 1: streamed; the model calls a tool
        with client.responses.stream(**sdk_params(body, RESPONSES_PARAMS)) as stream:
            first = stream.get_final_response()
        calls = [item for item in first.output if item.type == "function_call"]
        assert first.status == "completed", first
        assert [call.name for call in calls] == replies[0][1]
        assert all(isinstance(json.loads(call.arguments), dict) for call in calls)

        # turn 2: the output items sent back with the outputs, one of them a failure; streamed text
        history = [*body["input"], *items_of(first)]
        history += [
            {"type": "function_call_output", "call_id": call.call_id, "output": f"output of {call.name}"}
            for call in calls
        ]
        history[-len(calls)]["output"] = "bash: no such file or directory (exit code 127)"
        with client.responses.stream(**sdk_params(dict(body, input=history), RESPONSES_PARAMS)) as stream:
            second = stream.get_final_response()
        assert second.status == "completed" and second.output_text.strip(), second
        sent = result_links(upstream_dialect, upstream.bodies[1])
        assert list(sent) == [call.call_id for call in calls], "every output must answer its call, by id"
        assert "exit code 127" in sent[calls[0].call_id]

        # turn 3: not streamed; parallel calls
        history += [*items_of(second), {"role": "user", "content": "Now run the tests."}]
        third = client.responses.create(**sdk_params(dict(body, input=history), RESPONSES_PARAMS))
        assert [item.name for item in third.output if item.type == "function_call"] == replies[2][1]

    assert len(upstream.bodies) == 3
    assert_wire_valid(upstream_dialect, upstream.bodies)
