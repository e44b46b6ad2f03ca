"""toolwire peer adapter for LiteLLM (``pip install 'toolwire[litellm]'``; ``--adapter peer:litellm``).

LiteLLM's hub is OpenAI chat. Its surfaces are driven offline (``LITELLM_LOCAL_MODEL_COST_MAP=True`` is set
before import, so the model map is read from the package, not downloaded), each with
``client=HTTPHandler(client=<httpx client on an in-process fake upstream>)`` (:class:`~._common.Upstream`):

- ``litellm.completion(model="anthropic/…" | "gemini/…", messages, **kwargs)``, the SDK entry point:
  ``request`` openai-chat → anthropic / gemini is the JSON body LiteLLM would POST (every member of the chat
  body but ``model``/``messages`` is a keyword argument); ``tools`` / ``tool_choice`` are the same call with a
  one-message request (plus, for a choice, tools named as the choice names them, or one ``f`` tool), keeping
  the target's tool members of the body; ``response`` anthropic / gemini → openai-chat feeds the case's body
  back as the provider's answer and dumps the returned ``ModelResponse`` (:func:`~._common.dump`); ``stream``
  anthropic / gemini → openai-chat feeds the case's events as SSE, one event each time LiteLLM reads more of
  the response (:class:`~._common.SSEStream`), and yields each ``ModelResponseStream`` chunk as LiteLLM yields
  it, dumped as LiteLLM's proxy does (``exclude_none``, ``exclude_unset``), ended by ``[DONE]`` (framing).
- the same ``litellm.completion`` with ``model="mistral/…"`` (``MistralConfig``): ``request``, ``tools`` and
  ``tool_choice`` openai-chat → mistral, ``response`` and ``stream`` mistral → openai-chat.
- ``litellm.responses(model="anthropic/…" | "gemini/…", input, **kwargs)``, its Responses API for providers
  without one (a bridge through chat completions): ``request`` openai-responses → anthropic / gemini,
  ``response`` and ``stream`` anthropic / gemini → openai-responses, the same way (stream events dumped with
  ``exclude_none``, as its proxy writes them). Tool lists and choices reach it inside a request (the harness
  lifts them: INTERPRETING.md, "Kinds lifted into requests"). Toward OpenAI Chat the same bridge, chosen with
  LiteLLM's ``use_chat_completions_api=True`` (``model="openai/…"``): ``request`` openai-responses →
  openai-chat, ``response`` and ``stream`` openai-chat → openai-responses.
- the other way round, ``litellm.completion(model="openai/responses/…")``, its Responses bridge for chat
  callers: ``request``, ``tools`` and ``tool_choice`` openai-chat → openai-responses, ``response`` and
  ``stream`` openai-responses → openai-chat.
- ``litellm.anthropic.messages.create(model="gemini/…" | "openai/…", …)``, its Anthropic Messages API for
  other providers (to Gemini through the ``/v1/messages`` adapter and ``litellm.completion``; to OpenAI
  models through the Responses API, or, with LiteLLM's documented opt-out
  ``use_chat_completions_url_for_anthropic_messages``, through the adapter and ``litellm.completion`` to
  Chat Completions, where the OpenAI SDK's client sends what is judged): ``request`` anthropic → gemini /
  openai-responses / openai-chat (tool lists and choices lifted into it), ``response`` and ``stream``
  gemini / openai-responses / openai-chat → anthropic (its SSE bytes parsed one chunk at a time). From
  OpenAI Chat that is the whole path a library user's stream takes (the OpenAI SDK reads the upstream
  stream, LiteLLM's stream wrapper and the adapter's async SSE writer turn it into Anthropic events), not
  the adapter's synchronous wrapper alone, which no entry point uses for OpenAI models.

Not covered: ``litellm.responses(model="openai/…")`` (a pass-through), canonical (toolwire's own).
Packaging: LiteLLM 1.106's ``completion()`` imports ``mcp`` whenever ``tools`` are given
(``litellm.responses.mcp``), so the ``litellm`` extra installs ``mcp`` too; without it every request with
tools raises ``ModuleNotFoundError``.

Profiles: defaults (LiteLLM sends the model's maximum as Anthropic ``max_tokens``: the default
``anthropic.max-tokens=any``, not ``4096``), ``stream.thinking=keep`` and ``hosted.web-search=map`` (it
turns a web search into the target's own). Errors: :class:`~._common.PeerTranslator`; LiteLLM's own
exceptions (``litellm.exceptions.*``, e.g. ``UnsupportedParamsError``, ``BadRequestError``) and
``ValueError`` become ``peer.error`` refusals.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from ..streams.sse import events_from_sse
from ._common import (
    INCLUDE_USAGE,
    PeerTranslator,
    Upstream,
    answered_model,
    choice_tool_members,
    dump,
    family_model,
    pulled,
    reply_asked,
    response_asking,
    sent_choice,
    sent_tools,
    stream_asking,
    stream_model,
    to_chat_stream,
    to_named_stream,
)

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

#: the provider model each target dialect is reached through (a request naming a model of its family keeps it)
MODELS = {
    "anthropic": "anthropic/claude-sonnet-4-5",
    "gemini": "gemini/gemini-2.5-flash",
    "openai-responses": "openai/gpt-4o",
    "openai-chat": "openai/gpt-4o",
    # Converse (bedrock/converse/…) to the model of the recorded Bedrock traffic; a Converse body names no
    # model (the URL does), so every request goes to this one
    "bedrock-converse": "bedrock/converse/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
}
#: what authenticates each provider's call offline (AWS signs the request with any key pair)
CREDENTIALS: dict[str, dict[str, str]] = {
    "bedrock-converse": {
        "aws_access_key_id": "toolwire-offline",
        "aws_secret_access_key": "toolwire-offline",
        "aws_region_name": "us-east-1",
    },
}
#: how a provider frames a stream, where it is not SSE (the fake upstream's reply kind)
STREAM_FRAMING = {"bedrock-converse": "eventstream"}
MINIMAL_CHAT = {"messages": [{"role": "user", "content": "hi"}]}
MINIMAL_ANTHROPIC = {
    "model": "claude-sonnet-4-5",
    "messages": [{"role": "user", "content": "hi"}],
    "max_tokens": 1024,
}
MINIMAL_RESPONSES = {"input": [{"role": "user", "content": "hi"}]}
CHOICE_MEMBERS = {
    "anthropic": ("tool_choice",),
    "gemini": ("toolConfig", "tool_config"),
    "openai-chat": ("tool_choice", "parallel_tool_calls", "function_call"),
    "openai-responses": ("tool_choice", "parallel_tool_calls"),
}
# Mistral, through ``litellm.completion(model="mistral/…")`` (``MistralConfig``, an OpenAI-compatible config)
MODELS["mistral"] = "mistral/mistral-large-latest"
CHOICE_MEMBERS["mistral"] = ("tool_choice", "parallel_tool_calls")


def _litellm() -> Any:
    import litellm

    litellm.suppress_debug_info = True
    # its error log repeats, with a traceback, each exception it raises to us (which the check records)
    logging.getLogger("LiteLLM").setLevel(logging.CRITICAL)
    return litellm


def _model(target: str, body: dict[str, Any]) -> str:
    """The model to call (``model`` popped from ``body``), routed to the target provider: ``anthropic/…``."""
    provider, _, default = MODELS[target].partition("/")
    return f"{provider}/{family_model(target, body.pop('model', None), default, body)}"


def _completion(target: str, up: Upstream, body: dict[str, Any]) -> Any:
    """``litellm.completion``; toward Responses through its Responses bridge (``openai/responses/…``: a
    chat request sent to the Responses API, the answer read back into a chat completion)."""
    from litellm.llms.custom_httpx.http_handler import HTTPHandler

    body = dict(body)
    keys = CREDENTIALS.get(target, {"api_key": "toolwire-offline"})
    model = _model(target, body)
    if target == "openai-responses":
        model = "openai/responses/" + model.split("/", 1)[1]
    out = _litellm().completion(model=model, client=HTTPHandler(client=up.client()), **keys, **body)
    if body.get("stream"):  # each chunk as LiteLLM yields it
        return (c.model_dump(mode="json", exclude_none=True, exclude_unset=True) for c in out)
    return out


def _responses(target: str, up: Upstream, body: dict[str, Any]) -> Any:
    """``litellm.responses``: a Responses request, bridged to chat completions and on to the provider; toward
    OpenAI Chat with LiteLLM's documented switch to that bridge, ``use_chat_completions_api=True``."""
    from litellm.llms.custom_httpx.http_handler import HTTPHandler

    body = dict(body)
    client: Any = HTTPHandler(client=up.client())
    extra: dict[str, Any] = {}
    if target == "openai-chat":  # the chat-completions route calls the OpenAI SDK's client
        import openai

        extra["use_chat_completions_api"] = True
        client = openai.OpenAI(api_key="toolwire-offline", http_client=up.client(), max_retries=0)
    out = _litellm().responses(
        model=_model(target, body), api_key="toolwire-offline", client=client, **extra, **body
    )
    if body.get("stream"):  # each event as LiteLLM yields it, dumped as its proxy writes them
        return to_named_stream(e.model_dump(mode="json", exclude_none=True) for e in out)
    return out


def _messages(target: str, up: Upstream, body: dict[str, Any]) -> Any:
    """``litellm.anthropic.messages.create``: an Anthropic request served by another provider's model
    (through the ``/v1/messages`` adapter and ``litellm.completion``)."""
    from litellm.llms.custom_httpx.http_handler import HTTPHandler

    body = dict(body)
    litellm = _litellm()
    # toward OpenAI Chat: LiteLLM's documented opt-out of its default route for OpenAI models (the Responses
    # API): use_chat_completions_url_for_anthropic_messages (llms/anthropic/pass_through/messages/handler.py)
    chat, kept = target == "openai-chat", litellm.use_chat_completions_url_for_anthropic_messages
    litellm.use_chat_completions_url_for_anthropic_messages = chat or kept
    client: Any = HTTPHandler(client=up.client())
    if chat:  # the chat/completions route calls the OpenAI SDK's client
        import openai

        client = openai.OpenAI(api_key="toolwire-offline", http_client=up.client(), max_retries=0)
    try:
        out = litellm.anthropic.messages.create(
            model=_model(target, body), api_key="toolwire-offline", client=client, **body
        )
    finally:
        litellm.use_chat_completions_url_for_anthropic_messages = kept
    if body.get("stream"):  # SSE bytes, an event per chunk: parsed as each chunk comes
        if not hasattr(out, "__iter__"):  # the route to OpenAI models streams asynchronously only
            out = pulled(out)
        return (event for chunk in out for event in events_from_sse(chunk))
    return out


#: LiteLLM's whole-request entry points by the dialect they take, with the providers each is driven to
#: here and the smallest request of that dialect
ENTRIES: dict[str, tuple[Any, tuple[str, ...], dict[str, Any]]] = {
    "openai-chat": (
        _completion,
        ("anthropic", "gemini", "bedrock-converse", "openai-responses"),
        MINIMAL_CHAT,
    ),
    "openai-responses": (_responses, ("anthropic", "gemini", "openai-chat"), MINIMAL_RESPONSES),
    "anthropic": (_messages, ("gemini", "openai-responses", "openai-chat"), MINIMAL_ANTHROPIC),
}


class LiteLLMTranslator(PeerTranslator):
    name = "litellm"
    #: LiteLLM carries thinking into the streams it translates (Anthropic ``thinking`` blocks, Responses
    #: ``reasoning`` items; chat chunks get ``reasoning_content``, a member the chat target has no form for)
    #: ``custom.tools=wrap``: LiteLLM makes an OpenAI custom (free-form) tool a function with one string
    #: parameter ``content`` (litellm/responses/litellm_completion_transformation/custom_tools.py,
    #: convert_custom_tool_to_function_tool) and a custom call a call of it;
    #: and it maps a web search to the target's own (RULES.md, "Hosted tools": ``map_web_search_tool``, the
    #: Responses adapter's ``web_search_preview``, Gemini's ``googleSearch``)
    profiles = {
        **PeerTranslator.profiles,
        "stream.thinking": ["keep"],
        "custom.tools": ["wrap"],
        "hosted.web-search": ["map"],
    }
    dist = "litellm"
    library_modules = ("litellm",)

    def setup(self) -> None:
        _litellm()  # imports litellm up front (seconds): a slow first import is not a check's time
        from litellm.llms.anthropic.pass_through.adapters import streaming_iterator, transformation  # noqa: F401
        from litellm.llms.custom_httpx import http_handler  # noqa: F401

        for source, (_entry, targets, _minimal) in ENTRIES.items():
            for target in targets:
                self.routes[("request", source, target)] = self._request(source, target)
                self.routes[("response", target, source)] = self._response(source, target)
                self.stream_routes[(target, source)] = self._stream(source, target)
        for target in ENTRIES["openai-chat"][1]:  # a tool list or choice alone: a one-message completion()
            self.routes[("tools", "openai-chat", target)] = self._tools(target)
            self.routes[("tool_choice", "openai-chat", target)] = self._choice(target)
        self._mistral_routes()

    def _mistral_routes(self) -> None:
        """openai-chat → mistral requests, tools and tool choices, and mistral → openai-chat responses and
        streams: ``litellm.completion(model="mistral/…")`` (``MistralConfig`` transforms the request and
        reads the answer), as for Anthropic and Gemini."""
        self.routes[("request", "openai-chat", "mistral")] = self._request("openai-chat", "mistral")
        self.routes[("response", "mistral", "openai-chat")] = self._response("openai-chat", "mistral")
        self.stream_routes[("mistral", "openai-chat")] = self._stream("openai-chat", "mistral")
        self.routes[("tools", "openai-chat", "mistral")] = self._tools("mistral")
        self.routes[("tool_choice", "openai-chat", "mistral")] = self._choice("mistral")

    # -- litellm.completion, litellm.responses, litellm.anthropic.messages -----------------------------------
    def _request(self, source: str, target: str) -> Any:
        call = ENTRIES[source][0]

        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            return up.capture(lambda: call(target, up, payload), target)

        return run

    def _tools(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            sent = up.capture(lambda: _completion(target, up, {**MINIMAL_CHAT, "tools": payload}), target)
            return sent_tools(target, sent)

        return run

    def _choice(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            body = {**MINIMAL_CHAT, **choice_tool_members("openai-chat", payload), **payload}
            sent = up.capture(lambda: _completion(target, up, body), target)
            return sent_choice(target, sent, CHOICE_MEMBERS.get(target, ()))

        return run

    def _response(self, source: str, target: str) -> Any:
        call, _targets, minimal = ENTRIES[source]

        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream(("json", payload), target)
            asking = response_asking(target, source, payload)
            body = {**minimal, "model": answered_model(payload), **asking}
            return dump(reply_asked(up, asking, lambda: call(target, up, body)))

        return run

    def _stream(self, source: str, target: str) -> Any:
        call, _targets, minimal = ENTRIES[source]

        def run(events: Any, profile: dict[str, str]) -> Any:
            up = Upstream((STREAM_FRAMING.get(target, "sse"), events), target)
            asking = stream_asking(target, source, events)
            body = {**minimal, "model": stream_model(events), "stream": True, **asking}
            if source == "openai-chat":
                # usage in a chat stream is opt-in (stream_options.include_usage): ask for it, as the
                # expectation carries it, so the report shows whether LiteLLM can translate it
                return to_chat_stream(
                    reply_asked(up, asking, lambda: call(target, up, {**body, **INCLUDE_USAGE}))
                )
            return reply_asked(up, asking, lambda: call(target, up, body))

        return run


Translator = LiteLLMTranslator
__all__ = ["LiteLLMTranslator", "Translator"]
