"""The ``http:`` adapter against ``toolwire serve``: whole runs equal the in-process reference, upstream
errors pass through in the client's shape, streams are relayed without buffering, API keys stay out of
results. Every server runs on 127.0.0.1 with an ephemeral port and is stopped by the test."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from toolwire.adapters import AdapterError, load_adapter  # noqa: E402
from toolwire.endpoints import PROVIDER_DIALECTS, http_client  # noqa: E402

#: the smallest request of each provider dialect (its descriptor's http_client.minimal_request)
MINIMAL_REQUESTS = {d: http_client(d).minimal_request() for d in PROVIDER_DIALECTS}

REPO = Path(__file__).resolve().parents[2]
SECRET = "sk-toolwire-test-DO-NOT-LEAK-4242"


def write_config(tmp_path: Path, client: str, upstream: str, **extra: str) -> Path:
    command = [
        sys.executable,
        "-m",
        "toolwire.cli",
        "serve",
        "-q",
        "--listen",
        "127.0.0.1:{port}",
        "--client-dialect",
        client,
        "--upstream-dialect",
        upstream,
        "--upstream-url",
        "{upstream_url}",
    ]
    lines = [
        f'client_dialect = "{client}"',
        f'upstream_dialect = "{upstream}"',
        f'api_key = "{SECRET}"',
        f"command = {json.dumps(command)}",
        "ready_timeout = 30",
        *(f"{k} = {json.dumps(v)}" for k, v in extra.items()),
    ]
    path = tmp_path / f"{client}-{upstream}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def toolwire_run(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "run", "--report", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env=env,
    )


def records(out: Path) -> dict[str, dict]:
    (path,) = out.glob("*.results.jsonl")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return {r["id"]: r for r in lines if r.get("record") == "check"}


@pytest.mark.parametrize(
    ("client", "upstream", "keyword"),
    [
        ("anthropic", "openai-chat", "anthropic"),
        ("openai-chat", "anthropic", "anthropic"),
        ("gemini", "openai-chat", "gemini"),
    ],
)
def test_http_suite_equals_reference(tmp_path: Path, client: str, upstream: str, keyword: str) -> None:
    config = write_config(tmp_path, client, upstream, error_codes="toolwire")
    http_out, ref_out = tmp_path / "http", tmp_path / "ref"
    run = toolwire_run(http_out, "--adapter", f"http:{config}", "-k", keyword)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    ref = toolwire_run(ref_out, "--adapter", "reference", "-k", keyword)
    assert ref.returncode == 0, ref.stdout[-3000:] + ref.stderr[-3000:]
    got, want = records(http_out), records(ref_out)
    ran = {i: r for i, r in got.items() if r["outcome"] != "skipped"}
    assert not [i for i, r in got.items() if r["outcome"] == "errored"]
    kinds = {r["kind"] for r in ran.values()}
    # tools and tool choices reach the proxy inside the smallest request of the client dialect
    assert kinds == {"request", "response", "stream", "tools", "tool_choice"}, kinds
    assert all(r.get("unit") == "request" for r in ran.values() if r["kind"] in ("tools", "tool_choice"))
    for r in ran.values():  # only the proxy's pair, in the right direction
        pair = (r["source"], r["target"])
        upwards = r["kind"] in ("request", "tools", "tool_choice")
        assert pair == ((client, upstream) if upwards else (upstream, client)), r["id"]
    assert len(ran) > 20
    # the delivery variants run only over HTTP: they must agree with the main check of the reference
    delivered = [i for i in ran if ",delivery=" in i]
    assert delivered and all(got[i]["outcome"] == "passed" for i in delivered)
    main = {i: re.sub(r",delivery=\w+\]$", "]", i) for i in ran}
    assert {i: r["outcome"] for i, r in ran.items()} == {i: want[main[i]]["outcome"] for i in ran}
    # the key never reaches results or reports
    for path in http_out.iterdir():
        assert SECRET not in path.read_text(encoding="utf-8"), path.name


@pytest.fixture
def adapter(tmp_path: Path, request: pytest.FixtureRequest):
    client, upstream = request.param
    ad = load_adapter(f"http:{write_config(tmp_path, client, upstream)}")
    yield ad
    ad.close()
    assert ad.proc is None


def exchange(ad, body: dict, stream: bool = False) -> tuple[int, dict]:
    status, raw = ad.loop.run(ad._exchange(body, stream), 20)
    return status, json.loads(raw)


@pytest.mark.parametrize("adapter", [("anthropic", "openai-chat")], indirect=True)
def test_upstream_error_passes_through_as_anthropic_error(adapter) -> None:
    adapter.mock.reset(
        {
            "status": 429,
            "json": {
                "error": {
                    "message": "Rate limit reached",
                    "type": "requests",
                    "param": None,
                    "code": "rate_limit_exceeded",
                }
            },
        }
    )
    status, body = exchange(adapter, MINIMAL_REQUESTS["anthropic"])
    assert status == 429
    assert body["type"] == "error"
    assert body["error"]["message"] == "Rate limit reached"
    assert isinstance(body["error"]["type"], str)
    # the key went to the upstream in its own header
    assert adapter.mock.recorded["headers"]["authorization"] == f"Bearer {SECRET}"
    assert "x-api-key" not in adapter.mock.recorded["headers"]


@pytest.mark.parametrize("adapter", [("openai-chat", "gemini")], indirect=True)
def test_upstream_error_passes_through_as_openai_error(adapter) -> None:
    adapter.mock.reset(
        {
            "status": 400,
            "json": {
                "error": {
                    "code": 400,
                    "message": "Forced function calling (ANY mode) … is unsupported",
                    "status": "INVALID_ARGUMENT",
                }
            },
        }
    )
    status, body = exchange(adapter, MINIMAL_REQUESTS["openai-chat"])
    assert status == 400
    assert body["error"]["message"].startswith("Forced function calling")
    assert body["error"]["type"] == "invalid_request_error"
    recorded = adapter.mock.recorded
    assert recorded["path"] == "/v1beta/models/toolwire-model:generateContent"
    assert recorded["headers"]["x-goog-api-key"] == SECRET


@pytest.mark.parametrize("adapter", [("anthropic", "openai-chat")], indirect=True)
def test_translation_error_is_a_400_with_the_toolwire_code(adapter) -> None:
    status, body = exchange(adapter, {"model": "m", "max_tokens": 5, "messages": "not a list"})
    assert status == 400
    assert body["type"] == "error"
    assert body["error"]["code"] in json.loads((REPO / "corpus" / "errors.json").read_text())
    assert adapter.mock.recorded is None  # the upstream was never called
    answer = adapter.translate(
        "request", "anthropic", "openai-chat", {"model": "m", "max_tokens": 5, "messages": "not a list"}, {}
    )
    assert answer.status == "error" and answer.error["code"] == body["error"]["code"]


@pytest.mark.parametrize("adapter", [("anthropic", "openai-chat")], indirect=True)
def test_stream_first_chunk_arrives_before_the_upstream_finishes(adapter) -> None:
    from toolwire_reference.streams.sse import read_sse

    events = [
        {
            "data": {
                "id": "c1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [
                    {"index": 0, "delta": {"role": "assistant", "content": "Hel"}, "finish_reason": None}
                ],
            }
        },
        {
            "data": {
                "id": "c1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": None}],
            }
        },
        {
            "data": {
                "id": "c1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            }
        },
        {"data": "[DONE]"},
    ]
    hold = threading.Event()
    adapter.mock.reset({"events": events, "hold": hold})
    body = dict(MINIMAL_REQUESTS["anthropic"], stream=True)

    async def talk() -> tuple[bytes, bytes]:
        from aiohttp import ClientSession

        async with (
            ClientSession() as session,
            session.post(
                adapter.base_url + "/v1/messages", json=body, headers=adapter._client_headers()
            ) as resp,
        ):
            assert resp.status == 200
            first = b""
            while b"content_block_delta" not in first:  # the text "Hel" is out while upstream is held
                first += await asyncio.wait_for(resp.content.readany(), 10)
            assert not hold.is_set()
            hold.set()
            return first, await resp.read()

    first, rest = adapter.loop.run(talk(), 30)
    out = list(read_sse((first + rest).decode()))
    assert out[0]["event"] == "message_start"
    assert out[-1]["event"] == "message_stop"
    texts = [e["data"]["delta"].get("text") for e in out if e["event"] == "content_block_delta"]
    assert "".join(t for t in texts if t) == "Hello"


@pytest.mark.parametrize("adapter", [("gemini", "anthropic")], indirect=True)
def test_stream_check_through_gemini_client(adapter) -> None:

    events = [
        {
            "event": "message_start",
            "data": {
                "type": "message_start",
                "message": {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude",
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 3, "output_tokens": 1},
                },
            },
        },
        {
            "event": "content_block_start",
            "data": {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        },
        {
            "event": "content_block_delta",
            "data": {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "héllo"},
            },
        },
        {"event": "content_block_stop", "data": {"type": "content_block_stop", "index": 0}},
        {
            "event": "message_delta",
            "data": {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 2},
            },
        },
        {"event": "message_stop", "data": {"type": "message_stop"}},
    ]
    answer = adapter.translate_stream("anthropic", "gemini", events, {})
    assert answer.status == "payload", answer.crash
    text = "".join(
        p.get("text", "")
        for e in answer.payload
        for c in e["data"].get("candidates", [])
        for p in c.get("content", {}).get("parts", [])
    )
    assert text == "héllo"
    recorded = adapter.mock.recorded
    assert recorded["body"]["stream"] is True and recorded["body"]["model"] == "toolwire-model"
    assert recorded["headers"]["x-api-key"] == SECRET


def test_a_relative_config_path_resolves_against_the_callers_directory_one_proxy(tmp_path: Path) -> None:
    write_config(tmp_path, "anthropic", "openai-chat")
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolwire.cli",
            "run",
            "--report",
            "out",
            "--adapter",
            "http:anthropic-openai-chat.toml",
            "-k",
            "choice/anthropic-auto",
            "-n",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    ran = [r for r in records(tmp_path / "out").values() if r["outcome"] != "skipped"]
    assert ran and all(r["outcome"] == "passed" for r in ran)
    # one proxy per run: -n is not applied to an http: adapter, and the run says so
    assert "an http: adapter runs in one process" in run.stderr


def test_an_errored_check_shows_what_the_proxy_logged_meanwhile(tmp_path: Path) -> None:
    proxy = tmp_path / "broken_proxy.py"
    proxy.write_text(
        "import sys, threading, time\n"
        "from http.server import BaseHTTPRequestHandler, HTTPServer\n"
        "def banner():  # a startup banner printed after the port is open (as Portkey's gateway does)\n"
        "    for frame in '|/-\\\\' * 3:\n"
        "        time.sleep(0.1)\n"
        "        print('\\r' + frame + ' Starting the proxy...', end='', flush=True)\n"
        "    print('\\rReady for connections!', flush=True)\n"
        "threading.Thread(target=banner).start()\n"
        "class H(BaseHTTPRequestHandler):\n"
        "    def do_POST(self):\n"
        "        self.rfile.read(int(self.headers.get('content-length') or 0))\n"
        "        time.sleep(0.5)\n"
        "        print('upstream exploded: KeyError choices', file=sys.stderr, flush=True)\n"
        "        self.send_response(500)\n"
        "        self.end_headers()\n"
        "        self.wfile.write(b'Internal Server Error')\n"
        "    def log_message(self, *args):\n"
        "        pass\n"
        "HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()\n"
    )
    config = tmp_path / "broken.toml"
    config.write_text(
        'client_dialect = "anthropic"\nupstream_dialect = "openai-chat"\n'
        f"command = {json.dumps([sys.executable, str(proxy), '{port}'])}\nready_timeout = 30\n"
        'ready_log = "Ready for connections!"\n',
        encoding="utf-8",
    )
    adapter = load_adapter(f"http:{config}")
    try:
        answer = adapter.translate("request", "anthropic", "openai-chat", MINIMAL_REQUESTS["anthropic"], {})
    finally:
        adapter.close()
    assert answer.status == "crash"
    assert "HTTP 500" in answer.crash and "the proxy's log during this check" in answer.crash
    assert "upstream exploded: KeyError choices" in answer.crash
    # the first check waited for the recipe's ready_log: the banner is in no check's log, every run
    assert "Starting the proxy" not in answer.crash and "Ready for" not in answer.crash


@pytest.mark.parametrize("adapter", [("openai-chat", "anthropic")], indirect=True)
def test_an_error_body_is_served_with_its_status_and_forwarded_as_a_refusal(adapter) -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    answer = adapter.translate("response", "anthropic", "openai-chat", body, {})
    assert answer.status == "error", answer
    assert answer.error["code"] == "response.invalid"
    assert "upstream's HTTP 529 error reached the client as HTTP 529" in answer.error["message"]
    # a successful response is still served with 200 and translated
    ok = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    answer = adapter.translate("response", "anthropic", "openai-chat", ok, {})
    assert answer.status == "payload" and answer.payload["choices"][0]["message"]["content"] == "hi"


@pytest.mark.parametrize("adapter", [("gemini", "anthropic")], indirect=True)
def test_a_response_check_asks_for_the_model_the_upstream_answers_with(adapter) -> None:
    # a proxy that reports the model its client asked for (LiteLLM's) is then judged like one that reports
    # the upstream's: the client asked for the model that answered, as a real client does
    reply = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    answer = adapter.translate("response", "anthropic", "gemini", reply, {})
    assert answer.status == "payload", answer.crash
    assert adapter.mock.recorded["body"]["model"] == "claude-sonnet-4-5-20250929"
    assert answer.payload["modelVersion"] == "claude-sonnet-4-5-20250929"


def test_reply_model_is_a_plain_name_or_none() -> None:
    from toolwire.adapters.http import reply_model

    assert reply_model("openai-chat", {"model": "gpt-4o-mini-2024-07-18"}) == "gpt-4o-mini-2024-07-18"
    assert reply_model("gemini", {"modelVersion": "gemini-2.5-flash"}) == "gemini-2.5-flash"
    assert reply_model("gemini", {"model": "gemini-2.5-flash"}) is None
    assert reply_model("anthropic", {"type": "error", "error": {}}) is None
    assert reply_model("anthropic", {"model": "../../x?y"}) is None  # never a path or query of its own
    assert reply_model("anthropic", ["not", "an", "object"]) is None


def test_a_gateway_error_body_is_a_refusal_whatever_its_5xx_status() -> None:
    """The client gets an error either way: LiteLLM answers 500 to a tool_choice it rejects on purpose,
    a gateway 502 to a reply it cannot use. The status stays in the code, so a refusal where a translation
    is expected still says it."""
    from toolwire.adapters.http import client_refusal

    body = {"error": {"message": "Provider error: no choices", "type": "api_error"}}
    assert client_refusal(body, 502)["code"] == "http.502.api_error"
    assert client_refusal(body, 500)["code"] == "http.500.api_error"
    assert client_refusal(body, 400)["code"] == "http.400.api_error"
    assert client_refusal({"choices": []}, 502) is None  # no error body


def test_a_config_names_its_own_directory(tmp_path: Path) -> None:
    # a shipped recipe (integrations/) points at files next to it, wherever the run starts
    config = tmp_path / "recipe" / "proxy.toml"
    config.parent.mkdir()
    config.write_text(
        'client_dialect = "anthropic"\nupstream_dialect = "openai-chat"\nurl = "http://127.0.0.1:9"\n',
        encoding="utf-8",
    )
    ad = load_adapter(f"http:{config}")
    try:
        assert ad._subst("{config_dir}/home") == f"{config.parent}/home"
    finally:
        ad.close()


def test_the_config_docstring_shows_every_key_a_config_may_hold() -> None:
    """A user writes their first ``http:`` config from the module's docstring: every key it may hold is
    shown there, with the line that explains it."""
    import re

    from toolwire.adapters import http

    doc = http.__doc__ or ""
    shown = set(re.findall(r"^ {4}(?:# )?(?:\[\[)?([a-z_]+)(?:\]\])? ?=?", doc, flags=re.M))
    assert shown >= http.CONFIG_KEYS, sorted(http.CONFIG_KEYS - shown)
    assert "needed with `url`" in doc  # mock_port matters for a proxy already running, not for `command`


def test_pin_model_names_the_configs_model_in_response_requests_too(tmp_path: Path) -> None:
    """A proxy that routes only the model names it lists cannot route the model an upstream reply names:
    ``pin_model`` sends the config's ``model`` in response checks as in stream checks (a Gemini client
    names it in the path)."""
    reply = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
             "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn", "stop_sequence": None,
             "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    config = write_config(tmp_path, "gemini", "anthropic", model="listed-model", pin_model=True)
    ad = load_adapter(f"http:{config}")
    try:
        answer = ad.translate("response", "anthropic", "gemini", reply, {})
        assert answer.status == "payload", answer.crash
        assert ad.mock.recorded["body"]["model"] == "listed-model"
    finally:
        ad.close()
    (tmp_path / "x").mkdir()
    unpinned = write_config(tmp_path / "x", "gemini", "anthropic", pin_model="yes")
    with pytest.raises(AdapterError, match="`pin_model` must be true or false"):
        load_adapter(f"http:{unpinned}")


@pytest.mark.parametrize("adapter", [("gemini", "openai-chat")], indirect=True)
def test_a_gemini_request_s_model_goes_into_the_url_and_on_to_the_upstream(adapter) -> None:
    """A Gemini request names its model in ``model`` (INTERPRETING.md, "The model of a request"): the adapter
    calls the proxy's URL for that model, without the member in the body, and the proxy's upstream request
    names it."""
    request = {"model": "gemini-2.5-flash", **MINIMAL_REQUESTS["gemini"]}
    assert adapter._path_model(request) == (MINIMAL_REQUESTS["gemini"], "gemini-2.5-flash")
    out = adapter.translate("request", "gemini", "openai-chat", request, {})
    assert out.status == "payload", out
    assert out.payload["model"] == "gemini-2.5-flash"
    recorded = adapter.mock.recorded
    assert recorded is not None and recorded["body"]["model"] == "gemini-2.5-flash"
