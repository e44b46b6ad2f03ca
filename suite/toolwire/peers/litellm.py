"""toolwire peer adapter for LiteLLM (``pip install 'toolwire[litellm]'``; ``--adapter peer:litellm``).

LiteLLM's hub is OpenAI chat. Two of its surfaces are driven, offline (``LITELLM_LOCAL_MODEL_COST_MAP=True``
is set before import, so the model map is read from the package, not downloaded):

- ``litellm.completion(model="anthropic/…" | "gemini/…", messages, **kwargs)``, the SDK entry point, with
  ``client=HTTPHandler(client=<httpx client on an in-process fake upstream>)`` (:class:`~._common.Upstream`):
  ``request`` openai-chat → anthropic / gemini is the JSON body LiteLLM would POST (every member of the chat
  body but ``model``/``messages`` is a keyword argument); ``tools`` / ``tool_choice`` are the same call with a
  one-message request (plus, for a choice, tools named as the choice names them, or one ``f`` tool), keeping
  the target's tool members of the body; ``response`` anthropic / gemini → openai-chat feeds the case's body
  back as the provider's answer and dumps the returned ``ModelResponse`` (:func:`~._common.dump`); ``stream``
  anthropic / gemini → openai-chat feeds the case's events as SSE, one event each time LiteLLM reads more of
  the response (:class:`~._common.SSEStream`), and yields each ``ModelResponseStream`` chunk as LiteLLM yields
  it, dumped as LiteLLM's proxy does (``exclude_none``, ``exclude_unset``), ended by ``[DONE]`` (framing).
- The Anthropic ``/v1/messages`` adapter LiteLLM uses to serve Anthropic clients from OpenAI-format models
  (``litellm.llms.anthropic.pass_through.adapters``): ``request`` anthropic → openai-chat is
  ``LiteLLMAnthropicMessagesAdapter().translate_anthropic_to_openai(body)`` (tools and tool choice: that call
  on a one-message request, keeping ``tools`` / ``tool_choice`` / ``parallel_tool_calls``); ``response``
  openai-chat → anthropic is ``translate_openai_response_to_anthropic`` of the body as LiteLLM reads an
  OpenAI answer (``convert_to_model_response_object``); ``stream``
  openai-chat → anthropic is ``AnthropicStreamWrapper`` over ``ModelResponseStream(**chunk)`` for each data
  chunk (made as the wrapper reads it), events named by their ``type`` and yielded as the wrapper yields
  them. These are the library's pure functions; the end-to-end
  ``litellm.anthropic.messages.create(model="openai/…")`` routes OpenAI models through the Responses API and
  its own OpenAI client, which ignores an injected ``client`` and would open a connection.

Not covered: openai-responses (``litellm.responses`` bridges to chat completions internally; not wired up in
this version of the adapter), anthropic → gemini through ``/v1/messages`` (two hops of the above, left out
to keep each pair one LiteLLM translation), canonical (toolwire's own). Packaging: LiteLLM 1.106's
``completion()`` imports ``mcp`` whenever ``tools`` are given (``litellm.responses.mcp``), so the
``litellm`` extra installs ``mcp`` too; without it every request with tools raises ``ModuleNotFoundError``.

Profiles: only defaults are declared (LiteLLM sends the model's maximum as Anthropic ``max_tokens``: the
default ``anthropic.max-tokens=any``, not ``4096``). Errors: :class:`~._common.PeerTranslator`; LiteLLM's own
exceptions (``litellm.exceptions.*``, e.g. ``UnsupportedParamsError``, ``BadRequestError``) and
``ValueError`` become ``peer.error`` refusals.
"""

from __future__ import annotations

import copy
import os
from typing import Any

from ._common import (
    INCLUDE_USAGE,
    PeerTranslator,
    Upstream,
    answered_model,
    choice_tools,
    dump,
    stream_model,
    to_chat_stream,
    to_named_stream,
)

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

MODELS = {"anthropic": "anthropic/claude-sonnet-4-5", "gemini": "gemini/gemini-2.5-flash"}
MINIMAL_CHAT = {"messages": [{"role": "user", "content": "hi"}]}
MINIMAL_ANTHROPIC = {
    "model": "claude-sonnet-4-5",
    "messages": [{"role": "user", "content": "hi"}],
    "max_tokens": 1024,
}
CHOICE_MEMBERS = {
    "anthropic": ("tool_choice",),
    "gemini": ("toolConfig", "tool_config"),
    "openai-chat": ("tool_choice", "parallel_tool_calls", "function_call"),
}


def _litellm() -> Any:
    import litellm

    litellm.suppress_debug_info = True
    return litellm


def _completion(target: str, up: Upstream, body: dict[str, Any]) -> Any:
    from litellm.llms.custom_httpx.http_handler import HTTPHandler

    litellm = _litellm()
    body = dict(body)
    # the source's model, routed to the target provider (``anthropic/gpt-4o``): the model is part of the body
    model = body.pop("model", None) or MODELS[target].partition("/")[2]
    out = litellm.completion(
        model=f"{target}/{model}", api_key="toolwire-offline", client=HTTPHandler(client=up.client()), **body
    )
    if body.get("stream"):  # each chunk as LiteLLM yields it
        return (c.model_dump(mode="json", exclude_none=True, exclude_unset=True) for c in out)
    return out


def _adapter() -> Any:
    _litellm()
    from litellm.llms.anthropic.pass_through.adapters.transformation import LiteLLMAnthropicMessagesAdapter

    return LiteLLMAnthropicMessagesAdapter()


def _anthropic_to_openai(body: dict[str, Any]) -> Any:
    request, _tool_names = _adapter().translate_anthropic_to_openai(body)
    return dump(request)


class LiteLLMTranslator(PeerTranslator):
    name = "litellm"
    dist = "litellm"
    library_modules = ("litellm",)

    def setup(self) -> None:
        _adapter()  # imports litellm up front (seconds): a slow first import is not a check's time
        from litellm.llms.anthropic.pass_through.adapters import streaming_iterator  # noqa: F401
        from litellm.llms.custom_httpx import http_handler  # noqa: F401

        for target in MODELS:
            self.routes[("request", "openai-chat", target)] = self._request(target)
            self.routes[("tools", "openai-chat", target)] = self._tools(target)
            self.routes[("tool_choice", "openai-chat", target)] = self._choice(target)
            self.routes[("response", target, "openai-chat")] = self._response(target)
            self.stream_routes[(target, "openai-chat")] = self._stream(target)
        self.routes[("request", "anthropic", "openai-chat")] = lambda p, _prof: _anthropic_to_openai(p)
        self.routes[("tools", "anthropic", "openai-chat")] = self._adapter_tools
        self.routes[("tool_choice", "anthropic", "openai-chat")] = self._adapter_choice
        self.routes[("response", "openai-chat", "anthropic")] = self._adapter_response
        self.stream_routes[("openai-chat", "anthropic")] = self._adapter_stream

    # -- litellm.completion ------------------------------------------------------------------------------
    def _request(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            return up.capture(lambda: _completion(target, up, payload))

        return run

    def _tools(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            sent = up.capture(lambda: _completion(target, up, {**MINIMAL_CHAT, "tools": payload}))
            return sent.get("tools", [])

        return run

    def _choice(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream()
            body = {**MINIMAL_CHAT, "tools": choice_tools("openai-chat", payload), **payload}
            sent = up.capture(lambda: _completion(target, up, body))
            return {k: sent[k] for k in CHOICE_MEMBERS[target] if k in sent}

        return run

    def _response(self, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            up = Upstream(("json", payload))
            return dump(_completion(target, up, {**MINIMAL_CHAT, "model": answered_model(payload)}))

        return run

    def _stream(self, target: str) -> Any:
        def run(events: Any, profile: dict[str, str]) -> Any:
            up = Upstream(("sse", events))
            # usage in a chat stream is opt-in (stream_options.include_usage): ask for it, as the
            # expectation carries it, so the report shows whether LiteLLM can translate it
            body = {**MINIMAL_CHAT, "model": stream_model(events), "stream": True, **INCLUDE_USAGE}
            return to_chat_stream(_completion(target, up, body))

        return run

    # -- the /v1/messages adapter ---------------------------------------------------------------------------
    def _adapter_tools(self, payload: Any, profile: dict[str, str]) -> Any:
        return _anthropic_to_openai({**MINIMAL_ANTHROPIC, "tools": payload}).get("tools", [])

    def _adapter_choice(self, payload: Any, profile: dict[str, str]) -> Any:
        body = {**MINIMAL_ANTHROPIC, "tools": choice_tools("anthropic", payload), **payload}
        sent = _anthropic_to_openai(body)
        return {k: sent[k] for k in CHOICE_MEMBERS["openai-chat"] if k in sent}

    def _adapter_response(self, payload: Any, profile: dict[str, str]) -> Any:
        from litellm.litellm_core_utils.llm_response_utils.convert_dict_to_response import (
            convert_to_model_response_object,
        )
        from litellm.types.utils import ModelResponse

        # the OpenAI JSON read the way litellm.completion() reads an OpenAI-compatible answer
        response = convert_to_model_response_object(
            response_object=payload, model_response_object=ModelResponse()
        )
        return dump(_adapter().translate_openai_response_to_anthropic(response))

    def _adapter_stream(self, events: Any, profile: dict[str, str]) -> Any:
        from litellm.llms.anthropic.pass_through.adapters.streaming_iterator import AnthropicStreamWrapper
        from litellm.types.utils import ModelResponseStream

        _litellm()
        model = stream_model(events)
        # each chunk made from its own copy: in LiteLLM the chunks come off the network, and building the
        # pydantic model fills in defaults (a tool call's `type`) inside the dict it is given
        chunks = (
            ModelResponseStream(**copy.deepcopy(ev["data"]))
            for ev in events
            if isinstance(ev, dict) and isinstance(ev.get("data"), dict)
        )
        wrapper = AnthropicStreamWrapper(completion_stream=chunks, model=model or "unknown")
        return to_named_stream(dump(e) for e in wrapper)


Translator = LiteLLMTranslator
__all__ = ["LiteLLMTranslator", "Translator"]
