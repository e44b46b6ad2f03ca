"""Issue 4 "Done when": `toolwire translate --kind stream --from openai-chat --to anthropic` on a real
parallel tool-call stream prints an Anthropic SSE stream that the official `anthropic` SDK's stream
accumulator reads into the same two tool calls. Offline: the bytes go through an httpx MockTransport
(``httpx2`` for the SDK versions built on it, ``httpx`` for the older ones)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from captures import CAPTURES

anthropic = pytest.importorskip("anthropic")
_base = pytest.importorskip("anthropic._base_client")
httpx = getattr(_base, "httpx2", None) or pytest.importorskip("httpx")

SOURCE = CAPTURES / "openai-chat" / "09_stream_parallel_tool_calls.sse"


def _chat_calls(path: Path) -> list[tuple[str, str, dict]]:
    """The tool calls of the source stream, read naively (id, name, parsed arguments) by index."""
    calls: dict[int, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("data: ") or line == "data: [DONE]":
            continue
        for choice in json.loads(line[6:])["choices"]:
            for frag in choice["delta"].get("tool_calls") or []:
                call = calls.setdefault(frag["index"], {"id": "", "name": "", "arguments": ""})
                call["id"] += frag.get("id") or ""
                call["name"] += (frag.get("function") or {}).get("name") or ""
                call["arguments"] += (frag.get("function") or {}).get("arguments") or ""
    return [(c["id"], c["name"], json.loads(c["arguments"])) for _, c in sorted(calls.items())]


def test_anthropic_sdk_accumulates_the_translated_parallel_stream() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolwire.cli",
            "translate",
            "--kind",
            "stream",
            "--from",
            "openai-chat",
            "--to",
            "anthropic",
            str(SOURCE),
        ],
        capture_output=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr.decode()
    body = run.stdout
    assert body.startswith(b"event: message_start\n")

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/messages"
        assert json.loads(request.content)["stream"] is True
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    transport = httpx.MockTransport(handler)
    client = anthropic.Anthropic(
        api_key="test-key", base_url="http://anthropic.test", http_client=httpx.Client(transport=transport)
    )
    with client.messages.stream(
        model="claude-test", max_tokens=256, messages=[{"role": "user", "content": "weather and stock"}]
    ) as stream:
        kinds = [event.type for event in stream]
        message = stream.get_final_message()

    expected = _chat_calls(SOURCE)
    assert len(expected) == 2
    got = [(b.id, b.name, b.input) for b in message.content if b.type == "tool_use"]
    assert got == expected
    assert [b.type for b in message.content] == ["tool_use", "tool_use"]
    assert message.stop_reason == "tool_use"
    assert message.usage.input_tokens == 149 and message.usage.output_tokens == 60
    assert "input_json" in kinds  # the SDK saw the argument fragments stream in
