"""The peer-adapter plumbing that needs no third-party library: `peer:` resolution, the fake upstream,
SSE framing, wire dumps, the refusal rule, and the test helper telling adapter crashes from library ones."""

from __future__ import annotations

import json

import httpx
import pytest
from peer_support import adapter_caused
from pydantic import BaseModel
from toolwire.adapters import AdapterError, load_adapter
from toolwire.peers import PEERS, missing_modules
from toolwire.peers._common import PeerTranslator, Upstream, choice_tools, dump, sse_text, to_chat_stream
from toolwire.protocol import TranslationRefusal


def test_unknown_peer_is_an_adapter_error() -> None:
    with pytest.raises(AdapterError, match="unknown peer 'nope'"):
        load_adapter("peer:nope")


def test_missing_library_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        PEERS, "ghost", ("python:toolwire.peers.litellm:Translator", "ghost", ("no_such_mod",))
    )
    assert missing_modules("ghost") == ["no_such_mod"]
    with pytest.raises(AdapterError, match=r"pip install 'toolwire\[ghost\]'"):
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
    assert to_chat_stream([{"x": 1}]) == [{"data": {"x": 1}}, {"data": "[DONE]"}]


def test_choice_tools_names_the_chosen_tools() -> None:
    named = choice_tools("openai-chat", {"tool_choice": {"type": "function", "function": {"name": "g"}}})
    assert [t["function"]["name"] for t in named] == ["g"]
    assert [t["name"] for t in choice_tools("anthropic", {"tool_choice": {"type": "any"}})] == ["f"]


class _Lib(PeerTranslator):
    name = "lib"
    dist = "toolwire"

    def setup(self) -> None:
        def boom(payload, profile):
            raise payload

        self.routes[("tools", "openai-chat", "anthropic")] = boom


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
    caps = lib.capabilities()
    assert caps["kinds"] == {"tools": [["openai-chat", "anthropic"]]} and caps["language"] == "python"


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
