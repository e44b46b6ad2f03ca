"""toolwire peer adapter for aisuite (``pip install 'toolwire[aisuite]'``; ``--adapter peer:aisuite``).

aisuite's interface is OpenAI chat: ``Client().chat.completions.create(model="anthropic:…" | "gemini:…",
messages, **kwargs)``, with one converter per provider. The adapter follows that public API's own path
(every member of the OpenAI chat body but ``model`` and ``messages`` becomes a keyword argument; without
streaming, ``create``'s MCP step is skipped because, without the ``mcp`` extra, aisuite 0.2.0 raises
``NameError: is_mcp_config`` on any dict tool there — an aisuite bug; for tool schemas the step changes
nothing), with
the provider SDK's HTTP client replaced by an in-process fake upstream (:class:`~._common.Upstream`):

- ``request`` openai-chat → anthropic / gemini: the JSON body the ``anthropic`` / ``google-genai`` SDK would
  POST is recorded (``stream: true`` bodies too: the returned iterator is drained);
- ``tools`` / ``tool_choice`` openai-chat → anthropic / gemini: the same call with a one-message request
  (``{"role": "user", "content": "hi"}``; for ``tool_choice`` a tool list naming the chosen tools, or one
  ``f`` tool), keeping only the target's tool members of the recorded body (``tools``; ``tool_choice`` /
  ``toolConfig``). A member the library does not send is absent from the output (``{}`` for a choice);
- ``response`` anthropic / gemini → openai-chat: the fake upstream answers the case's source body; the
  adapter returns aisuite's ``ChatCompletionResponse`` as JSON (its public attributes, as they are: aisuite
  returns an OpenAI-*shaped* object without ``id``, ``object``, ``created`` or ``model``, which it declares
  as ``library_objects``: those wire-only members are not asked of it, INTERPRETING.md "Capabilities");
- bedrock-converse (aisuite's ``aws`` provider, which calls boto3's ``converse``): ``request``, ``tools`` and
  ``tool_choice`` openai-chat → bedrock-converse and ``response`` bedrock-converse → openai-chat, with a real
  ``bedrock-runtime`` client whose HTTP goes to the fake upstream (:func:`~._common.bedrock_runtime_client`:
  botocore writes the JSON body and parses the answer); no stream (the provider never calls
  ``converse_stream``);
- ``stream`` anthropic / gemini → openai-chat: the fake upstream answers the case's events as SSE, one event
  each time the provider SDK reads more of the response (:class:`~._common.SSEStream`); the chunks aisuite
  yields (``stream=True``) are the output, each yielded as aisuite yields it, ended by ``[DONE]`` (framing,
  not translation).

Not covered: aisuite has no Anthropic or Gemini *input* format and no Responses API, so no pair has anthropic,
gemini or openai-responses as its source (nor canonical); its ``openai`` provider needs ``openai<2``, which
conflicts with any-llm and LiteLLM in one environment, and only passes the request through, so openai-chat →
openai-chat is left out too; the ``google`` (Vertex AI) provider needs GCP credentials and the Vertex SDK at
construction and is left out (the ``gemini`` provider, Gemini Developer API, is the one driven).

Profiles: aisuite sends ``max_tokens: 4096`` to Anthropic when none is given, so it declares
``anthropic.max-tokens`` ``any`` (the default) and ``4096``; it refuses nothing on purpose, so the other
profiles keep their defaults. Errors: see
:class:`~._common.PeerTranslator` (a ``ValueError`` aisuite raises, e.g. for an image URL Gemini cannot fetch,
is a ``peer.error`` refusal; a ``KeyError`` on a tool without ``description`` is a crash, ``errored``).
"""

from __future__ import annotations

import json
from typing import Any

from ..protocol import UNSUPPORTED
from ._common import (
    LEGACY_FUNCTIONS,
    PeerTranslator,
    Upstream,
    answered_model,
    bedrock_runtime_client,
    choice_tool_members,
    dump,
    family_model,
    refuse_unsupported_members,
    sent_choice,
    sent_tools,
    stream_model,
    to_chat_stream,
)

PROVIDERS = {
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
    # the model of the recorded Bedrock traffic (a Converse body names no model: the URL does)
    "bedrock-converse": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
}
#: aisuite's provider key for a target dialect, where it is not the dialect's name
PROVIDER_KEYS = {"bedrock-converse": "aws"}
#: the targets aisuite streams from (its ``aws`` provider calls ``converse`` only, never ``converse_stream``)
STREAMED = ("anthropic", "gemini")


def _client(target: str, up: Upstream) -> Any:
    import aisuite

    if target == "bedrock-converse":  # boto3's Converse client, its HTTP sent to the fake upstream
        client = aisuite.Client(provider_configs={"aws": {"region_name": "us-east-1"}})
        client.chat.completions._resolve_provider("aws:x")[0].client = bedrock_runtime_client(up)
        return client
    if target == "anthropic":
        import anthropic

        client = aisuite.Client(provider_configs={"anthropic": {"api_key": "toolwire-offline"}})
        provider = client.chat.completions._resolve_provider("anthropic:x")[0]
        provider.client = anthropic.Anthropic(
            api_key="toolwire-offline", http_client=up.client(), max_retries=0
        )
        return client
    from google.genai import types

    options = types.HttpOptions(httpx_client=up.client(), retry_options=types.HttpRetryOptions(attempts=1))
    return aisuite.Client(
        provider_configs={"gemini": {"api_key": "toolwire-offline", "http_options": options}}
    )


def _create(target: str, up: Upstream, body: dict[str, Any]) -> Any:
    body = dict(body)
    refuse_unsupported_members("aisuite's chat.completions.create()", body, LEGACY_FUNCTIONS)
    key = PROVIDER_KEYS.get(target, target)
    model = f"{key}:{family_model(target, body.pop('model', None), PROVIDERS[target], body)}"
    messages = body.pop("messages", None)
    completions = _client(target, up).chat.completions
    if body.get("stream"):  # each chunk as aisuite yields it
        return (dump(c) for c in completions.create(model, messages, **body))
    # Client.chat.completions.create without streaming, minus its MCP step: with dict tools and without the
    # `mcp` package that step raises NameError (`is_mcp_config` is imported only when mcp is installed);
    # for plain tool schemas the step is a no-op, so what follows is exactly create()'s own path.
    provider, model_name = completions._resolve_provider(model)
    for own in ("stream", "max_turns", "tool_policy", "tool_policy_context"):  # create() takes these itself
        body.pop(own, None)
    if body.get("tools") is not None:
        body["tools"] = completions._provider_ready_tools(body["tools"])
    return completions._extract_thinking_content(
        provider.chat_completions_create(model_name, messages, **body)
    )


CHOICE_MEMBERS = {"anthropic": ("tool_choice",), "gemini": ("toolConfig",), "bedrock-converse": ()}


class AisuiteTranslator(PeerTranslator):
    name = "aisuite"
    dist = "aisuite"
    #: the library and the provider SDKs it drives (their API errors carry the provider's message)
    library_modules = ("aisuite", "anthropic", "google")
    profiles = {**PeerTranslator.profiles, "anthropic.max-tokens": ["any", "4096"]}
    #: its ChatCompletionResponse and stream chunks hold choices and usage, none of the wire envelope
    library_objects = True

    def error_code(self, exc: BaseException) -> str:
        """aisuite's base provider says it on purpose when a provider has no streaming ("AwsProvider does not
        support streaming chat completions", provider.py): no counterpart, not a translation refused."""
        if "does not support streaming" in str(exc):
            return UNSUPPORTED
        return super().error_code(exc)

    def setup(self) -> None:
        import aisuite  # noqa: F401  (imports up front: a slow first import is not a check's time)
        import aisuite.providers.anthropic_provider  # noqa: F401
        import aisuite.providers.aws_provider  # noqa: F401
        import aisuite.providers.gemini_provider  # noqa: F401
        import anthropic  # noqa: F401
        from google import genai  # noqa: F401

        for target in PROVIDERS:
            self.routes[("request", "openai-chat", target)] = self._request(target)
            self.routes[("tools", "openai-chat", target)] = self._tools(target)
            self.routes[("tool_choice", "openai-chat", target)] = self._choice(target)
            self.routes[("response", target, "openai-chat")] = self._response(target)
            if target in STREAMED:
                self.stream_routes[(target, "openai-chat")] = self._stream(target)

    def _request(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            return up.capture(lambda: _create(target, up, payload), target)

        return run

    def _tools(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            body = {"messages": [{"role": "user", "content": "hi"}], "tools": payload}
            sent = up.capture(lambda: _create(target, up, body), target)
            if target == "gemini":
                tools = sent.get("tools")
                if tools is None:
                    tools = (sent.get("generationConfig") or {}).get("tools")
                return tools if tools is not None else []
            return sent_tools(target, sent)

        return run

    def _choice(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            body = {
                "messages": [{"role": "user", "content": "hi"}],
                **choice_tool_members("openai-chat", payload),
                **payload,
            }
            sent = up.capture(lambda: _create(target, up, body), target)
            return sent_choice(target, sent, CHOICE_MEMBERS[target])

        return run

    def _response(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream(("json", payload), target)
            body = {"model": answered_model(payload), "messages": [{"role": "user", "content": "hi"}]}
            return dump(_create(target, up, body))

        return run

    def _stream(self, target: str) -> Any:
        def run(events: Any, profile: dict[str, str]) -> Any:
            up = Upstream(("sse", events), target)
            body = {"model": stream_model(events), "messages": [{"role": "user", "content": "hi"}]}
            body["stream"] = True
            return to_chat_stream(_create(target, up, body))

        return run


Translator = AisuiteTranslator
__all__ = ["AisuiteTranslator", "Translator", "json"]
