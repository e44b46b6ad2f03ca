"""toolwire peer adapter for any-llm (PyPI ``any-llm-sdk``; ``pip install 'toolwire[any-llm]'``; ``--adapter
peer:any-llm``).

any-llm has two client-facing formats: ``completion()`` takes and returns OpenAI chat, ``messages()`` takes
and returns Anthropic Messages (converted to and from chat completions for providers without a native
Messages API, ``any_llm.utils.messages_compat``). Each provider then converts to its own wire format
(``any_llm.providers.anthropic.utils``, ``any_llm.providers.gemini.utils``). The adapter calls
``AnyLLM.create(provider, api_key=…, <the SDK's own HTTP client option>).completion(…)`` / ``.messages(…)``
exactly as a user would (every member of the source body but ``model`` becomes a keyword argument), with the
provider SDK's HTTP client (``anthropic.AsyncAnthropic``, ``openai.AsyncOpenAI``, ``google.genai.Client``)
talking to an in-process fake upstream (:class:`~._common.Upstream`), never to the network:

- ``request`` (source API → provider): the JSON body the SDK would POST is recorded: openai-chat → anthropic,
  → gemini, → bedrock-converse and → mistral (``completion``; Mistral through the ``mistralai`` SDK),
  anthropic → openai-chat and → gemini (``messages``). The ``bedrock`` provider calls boto3's ``converse``:
  it is given a real ``bedrock-runtime`` client whose HTTP goes to the fake upstream
  (:func:`~._common.bedrock_runtime_client`), so botocore writes the JSON body and parses the answer, event
  streams included (their frames: :func:`~._common.eventstream_frame`);
- ``tools`` / ``tool_choice``, same pairs: the same call with a one-message request (plus, for a tool choice,
  tools named as the choice names them, or one ``f`` tool), keeping only the target's tool members of the
  recorded body (``tools``; ``tool_choice``/``parallel_tool_calls``, ``toolConfig``);
- ``response`` (provider → source API): the fake upstream answers the case's source body; the output is the
  object any-llm returns (``ChatCompletion`` / ``MessageResponse``) as JSON (:func:`~._common.dump`: members
  the library set, or whose value is not None);
- ``stream``: the fake upstream answers the case's events as SSE; the output is what any-llm yields
  (chat chunks, ended by ``[DONE]``; Anthropic events named by their ``type``: both framing only). The
  stream is answered whole and the output read to the end before it is returned: any-llm's synchronous
  ``completion`` / ``messages`` with ``stream=True`` read the provider's stream on a background event-loop
  thread into an unbounded queue (``any_llm.utils.aio._async_source_to_sync_iter``), so how far it has read
  when it yields a chunk depends on thread timing. The ``incremental`` stream checks are therefore skipped
  (:attr:`AnyLLMTranslator.not_incremental`), not measured on the adapter's own buffering.

Not covered: the ``anthropic`` provider serves ``messages()`` natively (anthropic → anthropic is a
pass-through, not a translation) and ``completion()`` with provider ``openai`` is OpenAI chat → OpenAI chat;
``responses()`` goes to Gemini through its *Interactions* API (a different wire format from
``generateContent``, which toolwire has no dialect for) and is native for OpenAI, so openai-responses is left
out; canonical is toolwire's own. Profiles: any-llm sends Anthropic ``max_tokens`` only when given (none is
declared); only defaults are declared. Errors: :class:`~._common.PeerTranslator` (any-llm's own exceptions,
e.g. ``UnsupportedParameterError``, and ``ValueError`` become ``peer.error`` refusals).
"""

from __future__ import annotations

from typing import Any

from ._common import (
    INCLUDE_USAGE,
    LEGACY_FUNCTIONS,
    PeerTranslator,
    Upstream,
    answered_model,
    bedrock_runtime_client,
    choice_tool_members,
    dump,
    family_model,
    refuse_unsupported_members,
    reply_asked,
    response_asking,
    sent_choice,
    sent_tools,
    sse_text,
    stream_asking,
    stream_model,
    to_chat_stream,
    to_named_stream,
)

#: source dialect → any-llm API; target dialect → (provider, model)
APIS = {"openai-chat": "completion", "anthropic": "messages"}
PROVIDERS = {
    "anthropic": ("anthropic", "claude-sonnet-4-5"),
    "gemini": ("gemini", "gemini-2.5-flash"),
    "openai-chat": ("openai", "gpt-4.1"),
    # the model of the recorded Bedrock traffic (a Converse body names no model: the URL does)
    "bedrock-converse": ("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    # the official ``mistralai`` SDK, its ``async_client`` talking to the fake upstream
    "mistral": ("mistral", "mistral-large-latest"),
}
PAIRS = [
    ("openai-chat", "anthropic"),
    ("openai-chat", "gemini"),
    ("anthropic", "openai-chat"),
    ("anthropic", "gemini"),
    ("openai-chat", "bedrock-converse"),
    ("openai-chat", "mistral"),
]
MINIMAL = {
    "openai-chat": {"messages": [{"role": "user", "content": "hi"}]},
    "anthropic": {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 1024},
}
#: how a provider answers a stream, where it is not SSE (AWS: event-stream frames)
STREAM_REPLY = {"bedrock-converse": lambda events: ("eventstream", events)}
CHOICE_MEMBERS = {
    "anthropic": ("tool_choice",),
    "gemini": ("toolConfig",),
    "openai-chat": ("tool_choice", "parallel_tool_calls", "function_call"),
    "mistral": ("tool_choice", "parallel_tool_calls"),
}


def _llm(target: str, up: Upstream) -> Any:
    from any_llm import AnyLLM

    provider = PROVIDERS[target][0]
    if provider == "bedrock":  # boto3's Converse client, its HTTP sent to the fake upstream
        return AnyLLM.create(provider, client=bedrock_runtime_client(up))
    if provider == "gemini":
        from google.genai import types

        options = types.HttpOptions(
            httpx_client=up.client(),
            httpx_async_client=up.async_client(),
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        return AnyLLM.create(provider, api_key="toolwire-offline", http_options=options)
    if provider == "mistral":  # mistralai.client.Mistral takes its httpx client as ``async_client``
        return AnyLLM.create(provider, api_key="toolwire-offline", async_client=up.async_client())
    return AnyLLM.create(provider, api_key="toolwire-offline", http_client=up.async_client(), max_retries=0)


def _call(source: str, target: str, up: Upstream, body: dict[str, Any]) -> Any:
    body = dict(body)
    if APIS[source] == "completion":
        refuse_unsupported_members("any-llm's completion()", body, LEGACY_FUNCTIONS)
    model = family_model(target, body.pop("model", None), PROVIDERS[target][1], body)
    llm = _llm(target, up)
    out = getattr(llm, APIS[source])(model=model, **body)
    if body.get("stream"):
        return [dump(c) for c in out]
    return out


class AnyLLMTranslator(PeerTranslator):
    name = "any-llm"
    dist = "any-llm-sdk"
    #: the library and the provider SDKs it drives (their API errors carry the provider's message)
    library_modules = ("any_llm", "anthropic", "google", "openai", "mistralai")
    #: ``mistral.tool-then-user=bridge``: any-llm writes ``{"role": "assistant", "content": "OK"}`` between a
    #: ``tool`` message and a ``user`` message it sends to Mistral ("Mistral expects an assistant message
    #: after a tool message": any_llm/providers/mistral/utils.py, ``_patch_messages``, any-llm-sdk 1.40.2)
    profiles = {**PeerTranslator.profiles, "mistral.tool-then-user": ["bridge"]}
    not_incremental = (
        "any-llm's synchronous streaming (completion/messages with stream=True) reads the provider's stream "
        "on a background event-loop thread into an unbounded queue (any_llm.utils.aio), so how far it has "
        "read when it yields depends on thread timing; the adapter reads the stream whole instead"
    )

    def setup(self) -> None:
        import any_llm.providers.anthropic.anthropic  # noqa: F401  (imports up front, outside any check)
        import any_llm.providers.bedrock.bedrock  # noqa: F401
        import any_llm.providers.gemini.gemini  # noqa: F401
        import any_llm.providers.mistral.mistral  # noqa: F401
        import any_llm.providers.openai.openai  # noqa: F401

        for source, target in PAIRS:
            self.routes[("request", source, target)] = self._request(source, target)
            self.routes[("tools", source, target)] = self._tools(source, target)
            self.routes[("tool_choice", source, target)] = self._choice(source, target)
            self.routes[("response", target, source)] = self._response(source, target)
            self.stream_routes[(target, source)] = self._stream(source, target)

    def _request(self, source: str, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            return up.capture(lambda: _call(source, target, up, payload), target)

        return run

    def _tools(self, source: str, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            body = {**MINIMAL[source], "tools": payload}
            sent = up.capture(lambda: _call(source, target, up, body), target)
            return sent_tools(target, sent)

        return run

    def _choice(self, source: str, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            body = {**MINIMAL[source], **choice_tool_members(source, payload), **payload}
            sent = up.capture(lambda: _call(source, target, up, body), target)
            return sent_choice(target, sent, CHOICE_MEMBERS.get(target, ()))

        return run

    def _response(self, source: str, target: str) -> Any:
        """The provider (the request's ``target``) answers ``payload``; any-llm returns it as ``source``."""

        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream(("json", payload), target)
            asking = response_asking(target, source, payload)
            body = {**MINIMAL[source], "model": answered_model(payload), **asking}
            return dump(reply_asked(up, asking, lambda: _call(source, target, up, body)))

        return run

    def _stream(self, source: str, target: str) -> Any:
        def run(events: Any, profile: dict[str, str]) -> Any:
            up = Upstream(STREAM_REPLY.get(target, lambda ev: ("sse", sse_text(ev)))(events), target)
            asking = stream_asking(target, source, events)
            body = {**MINIMAL[source], "model": stream_model(events), "stream": True, **asking}
            if source == "openai-chat":  # usage in a chat stream is opt-in: ask for it (_common)
                body.update(INCLUDE_USAGE)
            chunks = reply_asked(up, asking, lambda: _call(source, target, up, body))
            return to_chat_stream(chunks) if source == "openai-chat" else to_named_stream(chunks)

        return run


Translator = AnyLLMTranslator
__all__ = ["AnyLLMTranslator", "Translator"]
