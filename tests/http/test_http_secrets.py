"""The ``http:`` adapter never writes a key: not the client's, not the ``secrets`` of its config, not one the
proxy sent the mock upstream, wherever a proxy echoes it (an error message, a refusal at the end of a stream);
header values of a recipe take the mock's URL; the mock answers Gemini streams asked without ``?alt=sse`` as
one JSON array, as Google's servers do."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from toolwire.adapters import load_adapter  # noqa: E402
from toolwire.adapters.base import AdapterError  # noqa: E402
from toolwire.adapters.delivery import delivery_writes  # noqa: E402
from toolwire.adapters.upstream import (  # noqa: E402
    LoopThread,
    MockUpstream,
    upstream_keys,
    usage_on_finish_chunk,
    without_path_model,
)

CLIENT_KEY = "sk-client-DO-NOT-LEAK-1111"
UPSTREAM_KEY = "sk-upstream-DO-NOT-LEAK-2222"
LISTED = "sk-listed-DO-NOT-LEAK-3333"

# a proxy that calls its upstream with its own key, then quotes every key it holds in its answer: an error
# body for a plain request, a last error event with a toolwire code for a streaming one
LEAKY_PROXY = f"""
import json, sys, urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer
UPSTREAM = sys.argv[2]
class H(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get('content-length') or 0)))
        headers = {{'x-api-key': {UPSTREAM_KEY!r}, 'content-type': 'application/json'}}
        data = json.dumps(body).encode()
        req = urllib.request.Request(UPSTREAM + '/v1/messages', data=data, headers=headers)
        urllib.request.urlopen(req).read()
        told = 'keys: ' + self.headers.get('authorization', '') + ' {UPSTREAM_KEY} {LISTED}'
        if sys.argv[3:] == ['log']:  # a proxy that also writes them into its log
            print('request with', told, file=sys.stderr, flush=True)
        if body.get('stream'):
            event = {{'error': {{'code': 'payload.invalid', 'message': told}}}}
            out, status, ctype = ('data: ' + json.dumps(event) + '\\n\\n').encode(), 200, 'text/event-stream'
        else:
            out = json.dumps({{'error': {{'type': 'invalid_request_error', 'message': told}}}}).encode()
            status, ctype = 400, 'application/json'
        self.send_response(status)
        self.send_header('content-type', ctype)
        self.send_header('content-length', str(len(out)))
        self.end_headers()
        self.wfile.write(out)
    def log_message(self, *args):
        pass
HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
"""


def test_upstream_keys_reads_every_credential_header_and_the_gemini_query() -> None:
    headers = {"authorization": "Bearer sk-bearer-123456", "x-api-key": "sk-anthropic-1", "content-type": "x"}
    assert upstream_keys(headers, {"key": "AIza-gemini-key"}) == {
        "Bearer sk-bearer-123456",
        "sk-bearer-123456",
        "sk-anthropic-1",
        "AIza-gemini-key",
    }
    assert upstream_keys({"x-api-key": "abc"}, {}) == set()  # too short to scrub without garbling outputs


def leaky_recipe(tmp_path: Path, *args: str) -> Path:
    """The recipe of :data:`LEAKY_PROXY` (``args``: its extra arguments, ``log`` to log the keys too)."""
    proxy = tmp_path / "leaky_proxy.py"
    proxy.write_text(LEAKY_PROXY, encoding="utf-8")
    config = tmp_path / "leaky.toml"
    command = [sys.executable, str(proxy), "{port}", "{upstream_url}", *args]
    config.write_text(
        'client_dialect = "openai-chat"\nupstream_dialect = "anthropic"\nname = "leaky-proxy"\n'
        f'api_key = "{CLIENT_KEY}"\nsecrets = ["{LISTED}"]\nready_timeout = 30\n'
        f"command = {json.dumps(command)}\n",
        encoding="utf-8",
    )
    return config


def test_no_key_a_proxy_echoes_reaches_an_answer(tmp_path: Path) -> None:
    adapter = load_adapter(f"http:{leaky_recipe(tmp_path)}")
    try:
        reply = {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "m",
            "content": [],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        refused = adapter.translate("response", "anthropic", "openai-chat", reply, {})
        events = [{"event": "message_stop", "data": {"type": "message_stop"}}]
        streamed = adapter.translate_stream("anthropic", "openai-chat", events, {})
        assert adapter.logged_secrets() == []  # it says them, but logs none
    finally:
        adapter.close()
    assert refused.status == "error" and streamed.status == "error", (refused, streamed)
    assert streamed.error["code"] == "payload.invalid"
    for answer in (refused, streamed):
        text = json.dumps(answer.error)
        assert "keys: Bearer [redacted] [redacted] [redacted]" in text, text
        for key in (CLIENT_KEY, UPSTREAM_KEY, LISTED):
            assert key not in text


def test_a_proxy_that_logs_the_keys_fails_the_run(tmp_path: Path) -> None:
    """The recipe knows the keys: a proxy writing its client's, its upstream's or a listed key into its
    log is told, by what the key is (never its value), in the footer, and the run fails."""
    config = leaky_recipe(tmp_path, "log")
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "toolwire.cli",
        "run",
        "--adapter",
        f"http:{config}",
        "--report",
        str(out),
    ]
    proc = subprocess.run(
        [*command, "-k", "responses/anthropic-end-turn-capture"], capture_output=True, text=True
    )
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "wrote the client's API key into its log" in proc.stdout
    lines = (out / "leaky-proxy.results.jsonl").read_text(encoding="utf-8").splitlines()
    footer = json.loads(lines[-1])
    assert footer["secrets_logged"] == [
        "the client's API key",
        "a key of the recipe's `secrets`",
        "a key it sent the upstream",
    ]
    text = "\n".join(lines) + (out / "leaky-proxy.md").read_text(encoding="utf-8")
    for key in (CLIENT_KEY, UPSTREAM_KEY, LISTED):
        assert key not in text
    assert "## Keys in its log" in (out / "leaky-proxy.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('secrets = "sk-one"', "`secrets` must be a list of strings"),
        ('ready_logs = "Ready"', "unknown key 'ready_logs'"),  # a misspelt key is never silently ignored
    ],
)
def test_a_bad_config_is_refused_with_what_is_wrong(tmp_path: Path, line: str, message: str) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(
        'client_dialect = "anthropic"\nupstream_dialect = "openai-chat"\nurl = "http://127.0.0.1:9"\n'
        f"{line}\n",
        encoding="utf-8",
    )
    with pytest.raises(AdapterError, match=re.escape(message)):
        load_adapter(f"http:{config}")


def test_header_values_take_the_mock_url(tmp_path: Path) -> None:
    config = tmp_path / "gateway.toml"
    config.write_text(
        'client_dialect = "openai-chat"\nupstream_dialect = "anthropic"\nurl = "http://127.0.0.1:9"\n'
        '[headers]\nx-custom-host = "{upstream_url}/v1"\n',
        encoding="utf-8",
    )
    adapter = load_adapter(f"http:{config}")
    try:
        assert adapter._client_headers()["x-custom-host"] == adapter.mock.url + "/v1"
    finally:
        adapter.close()


def test_json_array_delivery_is_one_array_cut_where_google_cuts_it() -> None:
    events = [{"data": {"candidates": [{"index": 0}]}}, {"data": {"usageMetadata": {"totalTokenCount": 2}}}]
    writes = delivery_writes(events, "events", "json-array")
    assert len(writes) == 2
    whole = b"".join(writes)
    assert json.loads(whole) == [e["data"] for e in events]
    # elements are separated by "\n,\r\n" and the array closes with "\n]" (what proxies split on)
    assert whole.startswith(b"[{") and b"\n,\r\n{" in whole and whole.endswith(b"}\n]")
    assert b"".join(delivery_writes(events, "split", "json-array")) == whole
    assert delivery_writes(events, "coalesced", "json-array") == [whole]
    assert delivery_writes([], "events", "json-array") == [b"[]"]
    with pytest.raises(ValueError, match="unknown framing"):
        delivery_writes(events, "events", "ndjson")


def test_the_gemini_mock_streams_a_json_array_without_alt_sse() -> None:
    loop = LoopThread()
    mock = MockUpstream("gemini", loop).start()
    try:
        events = [{"data": {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}]}}]
        path = "/v1beta/models/m:streamGenerateContent"
        body = json.dumps({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}).encode()
        for query, ctype, expect in (
            ("", "application/json", json.dumps([events[0]["data"]], indent=2)),
            ("?alt=sse", "text/event-stream", "data: "),
        ):
            mock.reset({"events": events})
            req = urllib.request.Request(
                mock.url + path + query, data=body, headers={"content-type": "application/json"}
            )
            with urllib.request.urlopen(req, timeout=20) as resp:
                assert resp.headers["content-type"].startswith(ctype)
                text = resp.read().decode()
            assert mock.recorded["problem"] is None and mock.recorded["stream"] is True
            if query:
                assert text.startswith(expect)
            else:
                assert json.loads(text) == json.loads(expect)
    finally:
        mock.stop()
        loop.stop()


def test_a_proxy_that_hangs_up_mid_stream_leaves_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    # a proxy may give up on a stream (after an error of its own): the mock ends quietly, noting it
    loop = LoopThread()
    mock = MockUpstream("openai-chat", loop).start()
    try:
        chunk = {"data": {"id": "c", "object": "chat.completion.chunk", "choices": []}}
        hold = threading.Event()
        mock.reset({"events": [chunk, chunk, {"data": "[DONE]"}], "hold": hold})
        body = json.dumps({"model": "m", "messages": [], "stream": True}).encode()
        with socket.create_connection(("127.0.0.1", mock.port), timeout=20) as conn:
            conn.sendall(
                b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                + f"content-length: {len(body)}\r\n\r\n".encode()
                + body
            )
            assert conn.recv(65536).startswith(b"HTTP/1.1 200")
        hold.set()  # the last write comes after the proxy is gone
        deadline = time.monotonic() + 20
        while not mock.recorded.get("hung_up") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert mock.recorded["hung_up"] is True
        assert "Error handling request" not in caplog.text
    finally:
        mock.stop()
        loop.stop()


def test_a_log_excerpt_starts_where_a_line_does() -> None:
    from toolwire.adapters.http import _last_lines

    log = "".join(f"line {i}: {'x' * i}\n" for i in range(40))
    excerpt = _last_lines(log, 200)
    assert len(excerpt) <= 200 and excerpt.endswith("x" * 39)
    assert all(line.startswith("line ") for line in excerpt.split("\n"))
    assert _last_lines("y" * 500, 100) == "y" * 100 + "…"  # one line longer than the limit: cut, marked


def test_a_gemini_body_naming_the_paths_model_is_the_same_request() -> None:
    path = "/v1beta/models/gpt-4o:streamGenerateContent"
    body = {"model": "gpt-4o", "contents": []}
    assert without_path_model(body, path) == {"contents": []}
    assert without_path_model({"model": "models/gpt-4o", "contents": []}, path) == {"contents": []}
    # another model than the path's is kept: the check then shows it
    other = {"model": "gemini-pro", "contents": []}
    assert without_path_model(other, path) == other


def test_an_openai_chat_stream_request_asks_for_usage_and_names_the_configs_model(tmp_path: Path) -> None:
    config = tmp_path / "chat.toml"
    config.write_text(
        'client_dialect = "openai-chat"\nupstream_dialect = "anthropic"\nurl = "http://127.0.0.1:9"\n'
        'model = "gpt-4o"\n',
        encoding="utf-8",
    )
    adapter = load_adapter(f"http:{config}")
    sent: list[dict] = []

    def fake_send(plan: object, body: dict, stream: bool) -> tuple[int, bytes, dict]:
        sent.append(body)
        return 200, b"data: [DONE]\n\n", {"problem": None, "stream": True}

    try:
        adapter._send = fake_send  # type: ignore[method-assign]
        adapter._stream_inner([], "events")
    finally:
        adapter.close()
    assert sent[0]["stream"] is True and sent[0]["stream_options"] == {"include_usage": True}
    assert sent[0]["model"] == "gpt-4o"


def test_an_upstream_that_sends_usage_on_the_finish_chunk_gets_the_stream_so(tmp_path: Path) -> None:
    def chunk(choices: list, **extra: object) -> dict:
        return {"data": {"id": "c", "object": "chat.completion.chunk", "choices": choices, **extra}}

    usage = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
    events = [
        chunk([{"index": 0, "delta": {"content": "hi"}, "finish_reason": None}]),
        chunk([{"index": 0, "delta": {}, "finish_reason": "stop"}]),
        chunk([], usage=usage),
        {"data": "[DONE]"},
    ]
    moved = usage_on_finish_chunk(events)
    assert [e["data"] for e in moved] == [events[0]["data"], {**events[1]["data"], "usage": usage}, "[DONE]"]
    assert usage_on_finish_chunk(events[:2]) == events[:2]  # no usage chunk: unchanged
    config = tmp_path / "copilot.toml"
    config.write_text(
        'client_dialect = "anthropic"\nupstream_dialect = "openai-chat"\nurl = "http://127.0.0.1:9"\n'
        'upstream_usage = "finish-chunk"\n',
        encoding="utf-8",
    )
    adapter = load_adapter(f"http:{config}")
    planned: list = []

    def fake_send(plan: dict, body: dict, stream: bool) -> tuple[int, bytes, dict]:
        planned.append(plan["events"])
        return 200, b"", {"problem": None, "stream": True}

    try:
        adapter._send = fake_send  # type: ignore[method-assign]
        adapter._stream_inner(events, "events")
    finally:
        adapter.close()
    assert planned == [moved]
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('"finish-chunk"', '"last"'), encoding="utf-8")
    with pytest.raises(AdapterError, match="upstream_usage"):
        load_adapter(f"http:{config}")


# a server whose worker dies on its first request while its parent process lives on (as a proxy server that
# runs its app in a worker process may)
DYING_WORKER = """
import os, socket, subprocess, sys, time
if sys.argv[1] == "worker":
    srv = socket.create_server(("127.0.0.1", int(sys.argv[2])))
    while True:  # a readiness probe sends nothing: only a request kills the worker
        conn, _ = srv.accept()
        if conn.recv(65536):
            os._exit(0)  # the listening socket goes with the connection: no probe can slip in between
        conn.close()
subprocess.Popen([sys.executable, __file__, "worker", sys.argv[1]])
time.sleep(3600)
"""


def test_a_proxy_that_stops_accepting_connections_is_restarted(tmp_path: Path) -> None:
    script = tmp_path / "dying.py"
    script.write_text(DYING_WORKER, encoding="utf-8")
    config = tmp_path / "dying.toml"
    config.write_text(
        'client_dialect = "openai-chat"\nupstream_dialect = "anthropic"\nready_timeout = 30\n'
        f"command = {json.dumps([sys.executable, str(script), '{port}'])}\n",
        encoding="utf-8",
    )
    adapter = load_adapter(f"http:{config}")
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    try:
        first = adapter.translate("request", "openai-chat", "anthropic", request, {})
        second = adapter.translate("request", "openai-chat", "anthropic", request, {})
    finally:
        adapter.close()
    assert first.status == "crash" and "restarted" in first.crash, first
    # the next check reaches a fresh server (whose worker drops it again), not a closed port
    assert second.status == "crash" and "Cannot connect" not in second.crash, second


def test_a_done_after_a_responses_stream_changes_nothing_a_client_accumulates() -> None:
    from toolwire.descriptors import descriptor
    from toolwire.streams.dialects import accumulate

    events = descriptor("openai-responses")["minimal_reply"]["stream"]
    done = [{"data": "[DONE]"}]
    assert accumulate(events + done, "openai-responses") == accumulate(events, "openai-responses")


@pytest.mark.parametrize(
    ("path", "status"),
    [("/v1/responses", "unsupported"), ("/v1/messages", "crash")],
)
def test_a_proxy_calling_another_api_of_the_same_provider_is_no_crash(
    tmp_path: Path, path: str, status: str
) -> None:
    """LiteLLM sends a reasoning model on its Chat route to the Responses API: the mock serves only Chat, so
    the check has nothing to judge; a call to another provider's API stays a crash."""
    config = tmp_path / "chat.toml"
    config.write_text(
        'client_dialect = "anthropic"\nupstream_dialect = "openai-chat"\nurl = "http://127.0.0.1:9"\n',
        encoding="utf-8",
    )
    adapter = load_adapter(f"http:{config}")
    problem = f"the proxy sent POST {path} to the openai-chat upstream; expected /v1/chat/completions"

    def fake_send(plan: object, body: dict, stream: bool, model: object = None) -> tuple[int, bytes, dict]:
        return 404, b"", {"problem": problem, "path": path, "stream": False, "body": {}}

    try:
        adapter._send = fake_send  # type: ignore[method-assign]
        request = {"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]}
        answer = adapter.translate("request", "anthropic", "openai-chat", request, {})
    finally:
        adapter.close()
    assert answer.status == status
    assert path in (answer.reason or answer.crash or "")
