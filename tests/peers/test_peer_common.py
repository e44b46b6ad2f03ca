"""The peer-adapter plumbing that needs no third-party library: `peer:` resolution, the fake upstream,
SSE framing, wire dumps, the refusal rule, and the test helper telling adapter crashes from library ones."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest
from captures import CAPTURES
from peer_support import CountingEvents, adapter_caused
from pydantic import BaseModel
from stream_captures import streams
from toolwire.adapters import AdapterError, PythonAdapter, load_adapter
from toolwire.peers import PEERS, missing_modules
from toolwire.peers._common import (
    PeerTranslator,
    SSEStream,
    Upstream,
    choice_tool_members,
    choice_tools,
    dump,
    eventstream_frame,
    family_model,
    pulled,
    response_asking,
    sse_text,
    stream_model,
    to_chat_stream,
    to_named_stream,
)
from toolwire.protocol import TranslationRefusal

EVENTS = [
    {"event": "message_start", "data": {"type": "message_start", "message": {"model": "m1"}}},
    {"event": "ping", "data": {"type": "ping"}},
    {"data": "[DONE]"},
]


def test_unknown_peer_is_an_adapter_error() -> None:
    with pytest.raises(AdapterError, match="unknown peer 'nope'"):
        load_adapter("peer:nope")


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        (
            "pear:litellm",
            "scheme 'pear' (peer:, python:, cmd:, http:, or 'reference') (did you mean 'peer:'?)",
        ),
        (
            "peer:litelm",
            "unknown peer 'litelm' (known: aisuite, any-llm, langchain, litellm) (did you mean 'litellm'?)",
        ),
        ("refrence", "(did you mean 'reference'?)"),
        ("pyhton:pkg.mod:T", "(did you mean 'python:'?)"),
    ],
)
def test_a_misspelt_adapter_says_what_was_meant(spec: str, said: str) -> None:
    """A typo in an adapter spec names the closest scheme, peer or alias; the list of schemes has peer:."""
    with pytest.raises(AdapterError) as info:
        load_adapter(spec)
    assert said in str(info.value)


def test_missing_library_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        PEERS, "ghost", ("python:toolwire.peers.litellm:Translator", "ghost", ("no_such_mod",))
    )
    assert missing_modules("ghost") == ["no_such_mod"]
    # the extra added to this toolwire as it was installed (the forms: tests/harness/test_sample_project.py)
    with pytest.raises(AdapterError, match=r"not installed; install it with: pip install .*\[ghost\]"):
        load_adapter("peer:ghost")


def test_upstream_records_the_body_and_answers_canned_replies() -> None:
    up = Upstream()

    def send() -> None:
        with up.client() as client:
            client.post("https://example.invalid/v1/messages", json={"a": 1}).raise_for_status()

    assert up.capture(send) == {"a": 1}
    up = Upstream(("sse", sse_text([{"event": "ping", "data": {"type": "ping"}}, {"data": "[DONE]"}])))
    with up.client() as client:
        text = client.get("https://example.invalid/stream").text
    assert text == 'event: ping\ndata: {"type": "ping"}\n\ndata: [DONE]\n\n'


def test_a_stream_reply_is_made_one_event_per_read() -> None:
    events = CountingEvents(EVENTS)
    client = Upstream(("sse", events)).client()
    with client, client.stream("POST", "https://example.invalid/v1/messages", json={}) as response:
        assert events.read == 0  # nothing is read before the library reads the body
        lines = response.iter_lines()
        assert next(lines) == "event: message_start" and events.read == 1
        assert [next(lines) for _ in range(2)][1] == "" and events.read == 1
        assert next(lines) == "event: ping" and events.read == 2
        assert list(lines)[-2:] == ["data: [DONE]", ""] and events.exhausted
    assert sse_text(EVENTS) == "".join(chunk.decode() for chunk in SSEStream(EVENTS))


def test_a_stream_reply_is_lazy_for_async_clients_too() -> None:
    events = CountingEvents(EVENTS)

    async def first_line() -> str:
        client = Upstream(("sse", events)).async_client()
        async with client, client.stream("GET", "https://example.invalid/stream") as response:
            async for line in response.aiter_lines():
                return line
        return ""

    assert asyncio.run(first_line()) == "event: message_start"
    assert events.read == 1 and not events.exhausted


def test_stream_model_reads_the_first_event_only() -> None:
    events = CountingEvents(EVENTS)
    assert stream_model(events) == "m1" and events.read == 1
    assert stream_model(CountingEvents(EVENTS[1:])) is None
    assert stream_model("data: {}\n\n") is None and stream_model([]) is None


def test_capture_drains_a_stream_that_sends_its_request_on_the_first_read() -> None:
    up = Upstream()

    def lazy() -> Iterator[int]:
        with up.client() as client:
            client.post("https://example.invalid/v1/messages", json={"stream": True}).raise_for_status()
        yield 1

    assert up.capture(lazy) == {"stream": True}


def test_capture_propagates_an_error_raised_before_sending() -> None:
    with pytest.raises(ValueError, match="bad"):
        Upstream().capture(lambda: (_ for _ in ()).throw(ValueError("bad")))


def test_dump_keeps_set_members_and_non_null_defaults() -> None:
    class Msg(BaseModel):
        type: str = "message"
        content: str | None = None
        refusal: str | None = None

    assert dump(Msg(content=None)) == {"type": "message", "content": None}
    assert dump([Msg(refusal="no")]) == [{"type": "message", "refusal": "no"}]
    assert list(to_chat_stream([{"x": 1}])) == [{"data": {"x": 1}}, {"data": "[DONE]"}]
    assert list(to_named_stream([{"type": "ping"}])) == [{"event": "ping", "data": {"type": "ping"}}]


def test_a_legacy_function_call_choice_comes_with_functions() -> None:
    """Chat's deprecated `function_call` names functions of `functions`: beside `tools` OpenAI refuses it, so
    no client sends that pair (audit 222, finding 21)."""
    legacy = choice_tool_members("openai-chat", {"function_call": {"name": "g"}})
    assert list(legacy) == ["functions"] and [f["name"] for f in legacy["functions"]] == ["g"]
    modern = choice_tool_members("openai-chat", {"tool_choice": "auto"})
    assert list(modern) == ["tools"] and modern["tools"][0]["type"] == "function"


def test_choice_tools_names_the_chosen_tools() -> None:
    named = choice_tools("openai-chat", {"tool_choice": {"type": "function", "function": {"name": "g"}}})
    assert [t["function"]["name"] for t in named] == ["g"]
    assert [t["name"] for t in choice_tools("anthropic", {"tool_choice": {"type": "any"}})] == ["f"]


class _Lib(PeerTranslator):
    name = "lib"
    dist = "toolwire"
    library_modules = (__name__.split(".")[0],)  # this module plays the library

    def setup(self) -> None:
        def boom(payload, profile):
            raise payload

        def unpack(payload, profile):
            name, schema = payload  # a ValueError Python raises: the library did not mean it
            return [name, schema]

        def typed(payload, profile):
            import pydantic

            class Tool(pydantic.BaseModel):  # a provider SDK's declared type
                name: str

            return Tool(**payload)

        self.routes[("tools", "openai-chat", "anthropic")] = boom
        self.routes[("tools", "openai-chat", "gemini")] = unpack
        self.routes[("tools", "openai-chat", "mistral")] = typed

        def stream(events, profile):
            for ev in events:
                if isinstance(ev, Exception):
                    raise ev
                yield ev

        self.stream_routes[("anthropic", "openai-chat")] = stream


def test_deliberate_errors_are_refusals_and_crashes_stay_crashes() -> None:
    lib = _Lib()
    with pytest.raises(TranslationRefusal) as info:
        lib.translate("tools", "openai-chat", "anthropic", ValueError("tool has no name"), {})
    assert info.value.code == "peer.error"
    with pytest.raises(TranslationRefusal) as info:
        lib.translate("tools", "openai-chat", "anthropic", json.JSONDecodeError("x", "{", 1), {})
    assert info.value.code == "call.invalid_arguments"
    with pytest.raises(KeyError):
        lib.translate("tools", "openai-chat", "anthropic", KeyError("description"), {})
    with pytest.raises(TypeError):  # an empty message is no refusal
        lib.translate("tools", "openai-chat", "anthropic", TypeError(""), {})
    with pytest.raises(ValueError, match="unpack"):  # a ValueError no raise statement of the library made
        lib.translate("tools", "openai-chat", "gemini", [1, 2, 3], {})
    with pytest.raises(TranslationRefusal):  # a typed model refusing a value: a check by design
        lib.translate("tools", "openai-chat", "mistral", {"name": ["not", "a", "string"]}, {})
    caps = lib.capabilities()
    assert caps["kinds"] == {
        "tools": [["openai-chat", "anthropic"], ["openai-chat", "gemini"], ["openai-chat", "mistral"]],
        "stream": [["anthropic", "openai-chat"]],
    }
    assert caps["language"] == "python"


def test_a_lazy_stream_route_yields_as_it_goes_and_refuses_mid_stream() -> None:
    lib = _Lib()
    events = CountingEvents([{"data": 1}, ValueError("bad event"), {"data": 2}])
    out = lib.translate_stream("anthropic", "openai-chat", events, {})
    assert isinstance(out, Iterator) and events.read == 0
    assert next(out) == {"data": 1} and events.read == 1
    with pytest.raises(TranslationRefusal) as info:
        next(out)
    assert info.value.code == "peer.error" and events.read == 2
    with pytest.raises(KeyError):  # a crash stays a crash
        list(lib.translate_stream("anthropic", "openai-chat", [KeyError("x")], {}))
    # the harness reads an iterator to its end: a refusal mid-stream is the answer, as for a list
    adapter = PythonAdapter("python:lib", _Lib(), timeout=None)
    answer = adapter.translate_stream("anthropic", "openai-chat", [{"data": 1}, ValueError("no")], {})
    assert answer.status == "error" and answer.error and answer.error["code"] == "peer.error"
    answer = adapter.translate_stream("anthropic", "openai-chat", [{"data": 1}], {})
    assert answer.status == "payload" and answer.payload == [{"data": 1}]


def test_incrementality_is_measurable_unless_the_translator_says_why_not() -> None:
    lib = _Lib()
    assert lib.incremental_unmeasurable("anthropic", "openai-chat") is None
    lib.not_incremental = "reads ahead on a thread"
    assert lib.incremental_unmeasurable("anthropic", "openai-chat") == "reads ahead on a thread"
    assert lib.incremental_unmeasurable("openai-chat", "anthropic") is None  # no such stream route


def test_adapter_caused_looks_at_the_innermost_frame() -> None:
    ours = (
        'KeyError: x\nTraceback (innermost last):\n  File "/site-packages/litellm/a.py", line 1\n'
        '  File "/repo/suite/toolwire/peers/litellm.py", line 9, in run\n'
    )
    theirs = (
        'KeyError: x\nTraceback (innermost last):\n  File "/repo/suite/toolwire/peers/litellm.py", line 9\n'
        '  File "/site-packages/litellm/a.py", line 1, in f\n'
    )
    assert adapter_caused({"message": ours})
    assert not adapter_caused({"message": theirs})
    assert adapter_caused({"message": "output is not JSON-serialisable: /x: a object"})
    assert not adapter_caused({"message": "the implementation did not answer within 30 s (hung)"})
    assert httpx  # the peers' plumbing needs only httpx, a dev dependency


def test_a_peer_is_called_with_a_model_of_the_target_family() -> None:
    assert family_model("gemini", "gpt-4o", "gemini-2.5-flash") == "gemini-2.5-flash"
    assert family_model("gemini", "gemini-3-pro-preview", "gemini-2.5-flash") == "gemini-3-pro-preview"
    assert family_model("anthropic", None, "claude-sonnet-4-5") == "claude-sonnet-4-5"
    assert family_model("anthropic", "claude-haiku-4-5", "claude-sonnet-4-5") == "claude-haiku-4-5"
    assert family_model("openai-chat", "claude-haiku-4-5", "gpt-4.1") == "gpt-4.1"
    assert family_model("openai-responses", "o3-mini", "gpt-4o") == "o3-mini"


def test_an_async_only_stream_is_pulled_one_item_at_a_time() -> None:
    pulled_so_far: list[int] = []

    async def numbers():
        for n in range(3):
            pulled_so_far.append(n)
            yield n

    items = pulled(numbers())
    assert next(items) == 0 and pulled_so_far == [0]
    assert list(items) == [1, 2]


def test_eventstream_frames_give_the_recorded_bytes_back() -> None:
    """Bedrock's decoded capture, framed again, is the recorded event-stream body byte for byte."""
    found = [(label, events) for label, dialect, events in streams() if dialect == "bedrock-converse"]
    assert found
    for label, events in found:
        recorded = (CAPTURES / label.replace(".decoded.jsonl", ".bin")).read_bytes()
        assert b"".join(eventstream_frame(ev) for ev in events) == recorded


def test_a_choice_naming_a_custom_tool_is_sent_with_that_custom_tool() -> None:
    """A client forcing a custom (free-form) tool declares that custom tool; pairing the choice with a
    function tool ``f`` made a request no client sends (OpenAI refuses a choice naming no declared tool)."""
    chat = choice_tools("openai-chat", {"tool_choice": {"type": "custom", "custom": {"name": "sql_query"}}})
    assert chat == [{"type": "custom", "custom": {"name": "sql_query", "description": "sql_query"}}]
    flat = choice_tools("openai-responses", {"tool_choice": {"type": "custom", "name": "sql_query"}})
    assert flat == [{"type": "custom", "name": "sql_query", "description": "sql_query"}]
    named = choice_tools("openai-chat", {"tool_choice": {"type": "function", "function": {"name": "g"}}})
    assert [t["type"] for t in named] == ["function"]


class _Reader(PeerTranslator):
    """A library whose ``response`` route sends a plain Chat request (``ask`` members added) and reads the
    canned reply back; it refuses any request carrying ``output_config``."""

    name = "reader"
    dist = "toolwire"

    def setup(self) -> None:
        from toolwire.peers._common import reply_asked

        def read(payload, profile):
            up = Upstream(("json", payload), "openai-chat")
            asking = payload.pop("_ask", {})

            def call():
                if "output_config" in asking:
                    raise ValueError("unknown parameter output_config")
                body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], **asking}
                with up.client() as client:
                    return client.post("https://api.openai.com/v1/chat/completions", json=body).json()

            return reply_asked(up, asking, call)

        self.routes[("response", "openai-chat", "anthropic")] = read


REFUSAL = {
    "id": "c1",
    "object": "chat.completion",
    "created": 1,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": None, "refusal": "No."},
            "finish_reason": "stop",
        }
    ],
}


def test_a_reply_the_librarys_request_never_gets_is_no_translation_of_its() -> None:
    """OpenAI refuses (``message.refusal``) only under Structured Outputs: a reply with one to a request that
    asked for none never reaches the library, so the check is skipped, as for a proxy; asked for, it is
    judged; a library that refuses the request asking for it never gets the reply either."""
    from toolwire.protocol import UNSUPPORTED

    lib = _Reader()
    with pytest.raises(TranslationRefusal) as info:
        lib.translate("response", "openai-chat", "anthropic", dict(REFUSAL), {})
    assert info.value.code == UNSUPPORTED and "Structured Outputs" in str(info.value)
    asked = {"response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": {}}}}
    assert lib.translate("response", "openai-chat", "anthropic", {**REFUSAL, "_ask": asked}, {})["id"] == "c1"
    with pytest.raises(TranslationRefusal) as info:
        lib.translate("response", "openai-chat", "anthropic", {**REFUSAL, "_ask": {"output_config": {}}}, {})
    assert info.value.code == UNSUPPORTED and "output_config" in str(info.value)


def test_a_thought_part_stream_is_no_reply_to_a_request_that_asked_for_none() -> None:
    """Gemini streams thought parts only to a request with thinkingConfig.includeThoughts: the upstream notes
    a stream of them answering one without (the check is then skipped), reading the events past their own
    iteration, so the incremental checks do not count the harness's read as the library's."""
    from toolwire.judge.streams import ObservedEvents
    from toolwire.peers._common import UNASKED

    thought = {"candidates": [{"content": {"role": "model", "parts": [{"text": "hm", "thought": True}]}}]}
    text = {"role": "model", "parts": [{"text": "Hi"}]}
    answer = {"candidates": [{"content": text, "finishReason": "STOP"}]}
    events = ObservedEvents([{"data": thought}, {"data": answer}])
    url = "https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse"
    asked = {"generationConfig": {"thinkingConfig": {"includeThoughts": True}}}
    for config, noted in (({}, True), (asked, False)):
        UNASKED.clear()
        up = Upstream(("sse", events), "gemini")
        body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], **config}
        with up.client() as client, client.stream("POST", url, json=body):
            assert events.read == 0  # answered, its body not read yet
        assert bool(UNASKED) is noted
    UNASKED.clear()


def test_a_reply_from_a_dialect_without_an_http_client_asks_for_nothing() -> None:
    """Bedrock Converse has no HTTP client description: a response route toward it asks for nothing (it
    raised KeyError inside the harness before the library was ever called: audit 222, finding 4)."""
    message = {"role": "assistant", "content": [{"text": "hi"}]}
    reply = {"output": {"message": message}, "stopReason": "end_turn"}
    assert response_asking("bedrock-converse", "openai-chat", reply) == {}
    refusal = {"choices": [{"message": {"role": "assistant", "refusal": "no"}, "finish_reason": "stop"}]}
    assert response_asking("openai-chat", "anthropic", refusal) != {}  # Structured Outputs asked for
