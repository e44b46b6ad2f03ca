"""``toolwire serve`` under faults: a client's bad input is a 4xx in the client dialect's error shape, an
upstream's bad output a 502 (or, mid-stream, the client dialect's error event), a client going away one
line in the log; never a bare 500, never a traceback for any of them. Everything runs on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from serve_support import (  # noqa: E402
    CHAT_OK,
    CHAT_STREAM_END,
    Upstream,
    chat_chunk,
    post,
    raw_answer,
    serve,
    sse_answer,
)
from toolwire.adapters.http import _error_codes, refusal_in  # noqa: E402
from toolwire.adapters.upstream import LoopThread, minimal_response  # noqa: E402
from toolwire.endpoints import PROVIDER_DIALECTS, http_client  # noqa: E402
from toolwire_reference.streams.sse import read_sse  # noqa: E402

#: the smallest request of each provider dialect (its descriptor's http_client.minimal_request)
MINIMAL_REQUESTS = {d: http_client(d).minimal_request() for d in PROVIDER_DIALECTS}

CODES = _error_codes()
PATHS = {
    "anthropic": "/v1/messages",
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "gemini": "/v1beta/models/m:generateContent",
}
STREAM_PATHS = dict(PATHS, gemini="/v1beta/models/m:streamGenerateContent?alt=sse")


@pytest.fixture
def upstream():
    loop = LoopThread()
    up = Upstream(loop).start()
    yield up
    up.stop()
    loop.stop()


def call(up: Upstream, url: str, data: bytes) -> tuple[int, dict]:
    status, raw = up.loop.run(post(url, data, {"x-api-key": "k", "authorization": "Bearer k"}), 30)
    return status, json.loads(raw)


def request_bytes(client: str, text: str = "hi", stream: bool = False) -> bytes:
    """The smallest request of ``client`` with ``text`` as the user's words (JSON-escaped as given)."""
    body = dict(MINIMAL_REQUESTS[client])
    if stream and client != "gemini":
        body["stream"] = True
    return json.dumps(body).replace('"hi"', json.dumps(text)).encode()


def answer_minimal(dialect: str):
    async def script(request, body):
        return await raw_answer(json.dumps(minimal_response(dialect)).encode())

    return script


def assert_clean_log(proxy, count: int) -> list[str]:
    """No traceback in the proxy's log, and one line per request."""
    deadline = time.monotonic() + 10  # a line is written once its answer is out: the client may be first
    while len(proxy.request_lines()) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)  # and no more lines than that
    text = proxy.log_text()
    assert "Traceback" not in text, text[-3000:]
    lines = proxy.request_lines()
    assert len(lines) == count, text[-3000:]
    return lines


@pytest.mark.parametrize(
    ("client", "where"),
    [
        ("anthropic", "/messages/0/content"),
        ("openai-chat", "/messages/0/content"),
        ("gemini", "/contents/0/parts/0/text"),
    ],
)
def test_a_lone_surrogate_in_the_request_is_the_clients_400(tmp_path: Path, upstream, client, where) -> None:
    target = "anthropic" if client == "openai-chat" else "openai-chat"
    upstream.script = answer_minimal(target)
    with serve(tmp_path, client, target, upstream.url) as proxy:
        # JSON text may spell a lone surrogate; it is no Unicode text: the client's error, not the upstream's
        status, body = call(upstream, proxy.url + PATHS[client], request_bytes(client, "a\ud800b"))
        assert status == 400, body
        refusal = refusal_in(body, CODES)
        assert refusal is not None, body
        assert (refusal["code"], refusal["path"]) == ("payload.invalid", where)
        assert "lone surrogate" in refusal["message"]
        # a surrogate pair spelled as escapes is an ordinary character
        status, body = call(upstream, proxy.url + PATHS[client], request_bytes(client, "a\U0001f600b"))
        assert status == 200, body
        assert len(upstream.bodies) == 1
        assert "\U0001f600" in json.dumps(upstream.bodies[0], ensure_ascii=False)
        lines = assert_clean_log(proxy, 2)
        assert "-> 400 payload.invalid" in lines[0]


def test_json_nested_too_deeply_is_the_clients_400(tmp_path: Path, upstream) -> None:
    deep_body = b"[" * 100_000 + b"]" * 100_000
    tool_turn = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 0}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]},
        ],
    }
    deep_input = json.dumps(tool_turn).replace('{"a": 0}', '{"a": ' + "[" * 700 + "]" * 700 + "}").encode()
    deep_object = (
        b'{"model": "m", "max_tokens": 5, "messages": ' + b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"}"
    )
    with serve(tmp_path, "anthropic", "openai-chat", upstream.url) as proxy:
        for data in (deep_body, deep_input, deep_object):
            status, body = call(upstream, proxy.url + "/v1/messages", data)
            assert status == 400, body
            assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
            assert body["error"]["code"] in CODES
            assert "deep" in body["error"]["message"], body
        assert upstream.bodies == []
        assert_clean_log(proxy, 3)


def test_nan_in_the_request_is_a_400_and_huge_usage_the_upstreams_502(tmp_path: Path, upstream) -> None:
    """``NaN`` is no JSON (Python's reader takes it): the client's 400, never forwarded upstream; an upstream
    whose usage counts run to thousands of digits is the upstream's 502, not a 500 with a traceback."""
    completion = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10**4000, "completion_tokens": 10**4000, "total_tokens": 1},
    }

    async def script(request, body):
        return await raw_answer(json.dumps(completion).encode())

    upstream.script = script
    with serve(tmp_path, "anthropic", "openai-chat", upstream.url) as proxy:
        data = request_bytes("anthropic").replace(b'"max_tokens": ', b'"temperature": NaN, "max_tokens": ')
        status, body = call(upstream, proxy.url + "/v1/messages", data)
        assert status == 400 and "NaN is not JSON" in body["error"]["message"], body
        assert upstream.bodies == []
        status, body = call(upstream, proxy.url + "/v1/messages", request_bytes("anthropic"))
        assert status == 502 and "2**53 - 1" in body["error"]["message"], body
        assert_clean_log(proxy, 2)


def test_undecodable_or_surrogate_upstream_response_is_a_502_in_the_clients_shape(
    tmp_path: Path, upstream
) -> None:
    completion = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "\ud800"}, "finish_reason": "stop"}
        ],
    }
    answers = {
        "not-utf8": b'{"id": "\xff"}',
        "surrogate": json.dumps(completion).encode(),  # ensure_ascii: the surrogate is spelled \ud800
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "not-json": b"<html>oops</html>",
    }

    async def script(request, body):
        return await raw_answer(answers[body["messages"][0]["content"]])

    upstream.script = script
    with serve(tmp_path, "anthropic", "openai-chat", upstream.url) as proxy:
        said = {}
        for name in answers:
            status, body = call(upstream, proxy.url + "/v1/messages", request_bytes("anthropic", name))
            assert status == 502, (name, body)
            assert body["type"] == "error" and body["error"]["type"] == "api_error", body
            assert body["error"]["code"] == "response.invalid"
            said[name] = body["error"]
        assert "not UTF-8" in said["not-utf8"]["message"]
        assert "lone surrogate" in said["surrogate"]["message"]
        assert said["surrogate"]["param"] == "/choices/0/message/content"
        assert "deep" in said["deep"]["message"]
        assert "not JSON" in said["not-json"]["message"]
        assert_clean_log(proxy, len(answers))


@pytest.mark.parametrize("client", ["anthropic", "openai-chat", "openai-responses", "gemini"])
def test_undecodable_or_surrogate_upstream_stream_ends_with_the_clients_error_event(
    tmp_path: Path, upstream, client: str
) -> None:
    faults = {
        "not-utf8": chat_chunk({"content": "lo"}).replace(b'"lo"', b'"l\xffo"'),
        "surrogate": chat_chunk({"content": "\ud800"}),  # spelled \ud800 (json.dumps escapes it)
    }

    async def script(request, body):
        fault = faults[body["messages"][-1]["content"]]
        return await sse_answer(
            request, [chat_chunk({"role": "assistant", "content": "Hel"}), fault, CHAT_STREAM_END]
        )

    upstream.script = script
    with serve(tmp_path, client, "openai-chat", upstream.url) as proxy:
        for name in faults:
            status, raw = upstream.loop.run(
                post(proxy.url + STREAM_PATHS[client], request_bytes(client, name, stream=True)), 30
            )
            assert status == 200
            events = list(read_sse(raw.decode("utf-8")))
            # what came before the fault reached the client, then the error event ended the stream
            assert "Hel" in json.dumps(events[:-1]), events
            refusal = refusal_in(events[-1]["data"], CODES)
            assert refusal is not None and refusal["code"] == "stream.invalid_event", events[-1]
            assert ("not UTF-8" if name == "not-utf8" else "lone surrogate") in refusal["message"]
            if client in ("anthropic", "openai-responses"):
                assert events[-1]["event"] == "error"
            # the upstream's fault, typed as the same fault before the stream began (a 502), not the client's
            said = json.dumps(events[-1]["data"])
            assert "invalid_request_error" not in said and "INVALID_ARGUMENT" not in said, said
        lines = assert_clean_log(proxy, len(faults))
        assert all("stream ended by an error event stream.invalid_event" in line for line in lines)


def test_a_client_going_away_is_one_line_in_the_log(tmp_path: Path, upstream) -> None:
    release = asyncio.Event()  # set on the loop thread: the upstream goes on only then

    async def script(request, body):
        async def between(i: int) -> None:
            if i == 1:
                await release.wait()
            if i >= 1:
                await asyncio.sleep(0.01)

        if body.get("stream"):
            writes = [chat_chunk({"role": "assistant", "content": "Hel"})]
            writes += [chat_chunk({"content": "lo"})] * 30 + [CHAT_STREAM_END]
            return await sse_answer(request, writes, between)
        await release.wait()
        return await raw_answer(CHAT_OK)

    async def leave_stream(url: str) -> None:
        from aiohttp import ClientSession

        async with ClientSession() as session:
            resp = await session.post(
                url + "/v1/messages",
                data=request_bytes("anthropic", stream=True),
                headers={"content-type": "application/json"},
            )
            first = b""
            while b"Hel" not in first:
                first += await asyncio.wait_for(resp.content.readany(), 10)
            resp.close()  # the connection goes with it

    async def leave_waiting(url: str) -> None:
        from aiohttp import ClientSession

        async with ClientSession() as session:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(
                    session.post(
                        url + "/v1/messages",
                        data=request_bytes("anthropic"),
                        headers={"content-type": "application/json"},
                    ),
                    0.5,
                )

    upstream.script = script
    with serve(tmp_path, "anthropic", "openai-chat", upstream.url) as proxy:
        for n in range(1, 4):
            release.clear()
            upstream.loop.run(leave_stream(proxy.url), 30)
            upstream.loop.loop.call_soon_threadsafe(release.set)
            proxy.wait_for_log(rf"(?s)(client went away.*){{{n}}}")
        release.clear()
        upstream.loop.run(leave_waiting(proxy.url), 30)
        upstream.loop.loop.call_soon_threadsafe(release.set)
        proxy.wait_for_log(r"-> 200 \(")
        lines = assert_clean_log(proxy, 4)
        assert all(re.search(r"-> 200 stream: the client went away after \d+ events", x) for x in lines[:3])


def test_an_unsupported_member_names_itself_and_the_profile_that_accepts_it(tmp_path: Path, upstream) -> None:
    body = json.loads(request_bytes("anthropic"))
    # Claude Code's members translate (thinking) or are ignorable (metadata); an MCP server list has no
    # equivalent in an OpenAI Chat request
    body.update(
        thinking={"type": "enabled", "budget_tokens": 1024},
        metadata={"user_id": "u-1"},
        mcp_servers=[{"type": "url", "url": "https://mcp.example.com/sse", "name": "example"}],
    )
    with serve(tmp_path, "anthropic", "openai-chat", upstream.url) as proxy:
        status, answer = call(upstream, proxy.url + "/v1/messages", json.dumps(body).encode())
    assert status == 400
    err = answer["error"]
    assert (err["code"], err["param"]) == ("request.unsupported_field", "/mcp_servers")
    assert "`mcp_servers`" in err["message"] and "request member /mcp_servers" in err["message"]
    assert "--profile unsupported=degrade" in err["message"], err["message"]
    assert upstream.bodies == []
    # started so, the proxy drops it (its translation is another matter) and sends the rest
    with serve(
        tmp_path, "anthropic", "openai-chat", upstream.url, "--profile", "unsupported=degrade"
    ) as proxy:
        upstream.script = None

        async def script(request, sent):
            return await raw_answer(CHAT_OK)

        upstream.script = script
        status, answer = call(upstream, proxy.url + "/v1/messages", json.dumps(body).encode())
    assert status == 200, answer
    assert "mcp_servers" not in upstream.bodies[-1] and "metadata" not in upstream.bodies[-1]
    assert upstream.bodies[-1]["reasoning_effort"] == "low"  # the thinking budget, as a level


def test_an_unsupported_member_no_profile_accepts_says_where_it_could_be_supported(monkeypatch) -> None:
    from toolwire_reference import TranslationError
    from toolwire_reference import serve as serve_module

    error = TranslationError("request.unsupported_field", "the anthropic member `x` has no equivalent", "/x")

    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(serve_module, "translate", refuse)
    hint = serve_module.unsupported_hint(error, {"x": 1}, "anthropic", "gemini", {"unsupported": "error"})
    assert "request member /x, anthropic to gemini" in hint
    assert "No translation profile accepts it" in hint
    assert "reference_impl/toolwire_reference/dialects/anthropic/request.py" in hint


def test_a_bug_of_the_proxy_is_a_500_in_the_clients_shape_with_its_traceback(monkeypatch, caplog) -> None:
    from aiohttp import web
    from toolwire_reference import serve as serve_module

    def broken(*args, **kwargs):
        raise KeyError("choices")

    monkeypatch.setattr(serve_module, "translate", broken)
    loop = LoopThread()
    app = serve_module.build_app("gemini", "openai-chat", "http://127.0.0.1:9")
    runner = web.AppRunner(app, access_log=None)

    async def start() -> int:
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return site._server.sockets[0].getsockname()[1]

    try:
        port = loop.run(start(), 30)
        with caplog.at_level("INFO", logger="toolwire.serve"):
            status, raw = loop.run(
                post(f"http://127.0.0.1:{port}/v1beta/models/m:generateContent", request_bytes("gemini")), 30
            )
    finally:
        loop.run(runner.cleanup(), 10)
        loop.stop()
    assert status == 500
    err = json.loads(raw)["error"]
    assert err["status"] == "INTERNAL" and "KeyError" in err["message"]
    bugs = [r for r in caplog.records if r.exc_info]
    assert len(bugs) == 1 and "a bug of toolwire serve" in bugs[0].getMessage()
    assert any("-> 500 internal error KeyError" in r.getMessage() for r in caplog.records)


def test_a_client_leaving_during_its_upload_is_one_line_and_a_silent_upstream_a_504(
    tmp_path: Path, upstream
) -> None:
    """A client that goes away before its body ends is the client's doing (one log line, no traceback, not
    "a bug of toolwire serve"); an upstream that stays silent past ``--upstream-timeout`` gets the client a
    504 in its own error shape, not a wait of 600 s."""
    import socket

    async def silent(request, body):
        await asyncio.sleep(4)  # past the proxy's timeout, and over before the upstream is stopped
        return await raw_answer(CHAT_OK)

    upstream.script = silent
    with serve(tmp_path, "anthropic", "openai-chat", upstream.url, "--upstream-timeout", "1") as proxy:
        host, port = proxy.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            head = "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 999\r\n\r\n"
            sock.sendall(head.encode() + b'{"model":')
            time.sleep(0.3)
        proxy.wait_for_log(r"-> 400 client went away")
        # (call() gives up after 30 s: a proxy still waiting on its upstream fails the test without timing it)
        status, body = call(upstream, proxy.url + "/v1/messages", request_bytes("anthropic"))
        assert status == 504 and body["type"] == "error", body
        assert "did not answer within 1 s" in body["error"]["message"]
        lines = assert_clean_log(proxy, 2)
        assert "a bug of toolwire serve" not in proxy.log_text()
        assert "-> 504 upstream timeout" in lines[1]


@pytest.mark.parametrize("client", ["anthropic", "openai-chat"])
def test_an_html_page_answering_a_streaming_request_is_a_502_naming_it(
    tmp_path: Path, upstream, client
) -> None:
    """A gateway in between that answers a streaming request with an HTML page (200, text/html) is the
    upstream's fault, said as such before any event: not a stream that "ended early"."""

    async def html(request, body):
        return await raw_answer(b"<html><body>Sign in</body></html>", content_type="text/html")

    upstream.script = html
    with serve(tmp_path, client, "openai-chat", upstream.url) as proxy:
        status, raw = upstream.loop.run(
            post(proxy.url + STREAM_PATHS[client], request_bytes(client, stream=True)), 30
        )
        assert status == 502, raw
        said = json.dumps(json.loads(raw))
        assert "text/html, not an event stream" in said and "Sign in" in said, said
        assert_clean_log(proxy, 1)
