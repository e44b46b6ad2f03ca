"""toolwire peer adapter for LangChain (``langchain-core`` + ``langchain-anthropic`` + ``langchain-openai``;
``pip install 'toolwire[langchain]'``; ``--adapter peer:langchain``).

LangChain's hub is its own message objects. A request is translated the way a LangChain user sends a
wire-format history to another provider: the source messages go through ``convert_to_messages`` (which reads
OpenAI chat dicts, tool calls and tool messages included, and keeps Anthropic content blocks as they are);
Anthropic messages first through LangChain's converter for provider-format messages,
``convert_to_openai_messages`` (Anthropic ``tool_use`` / ``tool_result`` blocks → tool calls and tool
messages; ``_openai_messages``), the Anthropic ``system`` as a ``SystemMessage``; the tools and tool
choice through the chat model's ``bind_tools(tools, tool_choice=…, parallel_tool_calls=…)``, generation
settings into the chat model's constructor (``max_tokens``, ``temperature``, ``top_p``; ``stop`` /
``stop_sequences`` as the ``stop`` argument; any other member as an invocation keyword), and the body is the
chat model's own ``_get_request_payload`` (``ChatAnthropic``, ``ChatOpenAI``, ``ChatOpenAI(use_responses_api=
True)``): pure functions, no client call, no network.

- ``request`` openai-chat → anthropic, openai-chat → openai-responses, anthropic → openai-chat;
- ``tools``: openai-chat / anthropic → openai-chat with ``langchain_core.utils.function_calling.
  convert_to_openai_tool``, openai-chat / anthropic → anthropic with ``langchain_anthropic.chat_models.
  convert_to_anthropic_tool`` (each tool of the list), openai-chat → openai-responses through
  ``bind_tools`` + the Responses payload (its ``tools`` member);
- ``tool_choice``: the same ``bind_tools`` + payload path on a one-message request (tools named as the choice
  names them, or one ``f`` tool), keeping the target's choice members. The source's ``tool_choice`` reaches
  ``bind_tools`` as a LangChain user writes it: a string as it is (what ``ChatAnthropic`` makes of
  ``"required"`` or ``"none"``, a tool of that name, is LangChain's translation and is judged), a provider's
  dict in ``bind_tools``' own vocabulary (a tool's name, a mode), since no user hands ``ChatOpenAI`` an
  Anthropic dict (``_langchain_choice``).

Not covered, and why: ``response`` and ``stream``. LangChain reads a provider's response (a Responses API
output too, with ``ChatOpenAI(use_responses_api=True)``) into an ``AIMessage`` / ``AIMessageChunk`` and never
writes a response in another provider's wire format, so there is no (provider → provider) response or stream
translation to test; gemini needs ``langchain-google-genai``, which
the issue does not name; canonical is toolwire's own. Profiles: only defaults (``ChatAnthropic`` sends the
model's maximum as ``max_tokens``: that is the default ``anthropic.max-tokens=any``, not ``4096``). Errors:
:class:`~._common.PeerTranslator` (a ``ValueError`` from LangChain, e.g. an unsupported tool format, is a
``peer.error`` refusal).
"""

from __future__ import annotations

from typing import Any

from ..protocol import DOCUMENTED_DROPS, UNSUPPORTED, TranslationRefusal
from ._common import PeerTranslator, choice_tool_members, dump, family_model, refuse_unsupported_members

DEFAULT_MODEL = {"anthropic": "claude-sonnet-4-5", "openai-chat": "gpt-4.1", "openai-responses": "gpt-4.1"}
MINIMAL = {
    "openai-chat": {"messages": [{"role": "user", "content": "hi"}]},
    "anthropic": {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 1024},
}
CHOICE_MEMBERS = {
    "anthropic": ("tool_choice",),
    "openai-chat": ("tool_choice", "parallel_tool_calls", "function_call"),
    "openai-responses": ("tool_choice", "parallel_tool_calls"),
}
REQUEST_PAIRS = [
    ("openai-chat", "anthropic"),
    ("openai-chat", "openai-responses"),
    ("anthropic", "openai-chat"),
]


def _model(target: str, settings: dict[str, Any]) -> Any:
    if target == "anthropic":
        from langchain_anthropic import ChatAnthropic

        return ChatAnthropic(api_key="toolwire-offline", **settings)
    from langchain_openai import ChatOpenAI

    extra = {"use_responses_api": True} if target == "openai-responses" else {}
    return ChatOpenAI(api_key="toolwire-offline", **extra, **settings)


def _payload(source: str, target: str, body: dict[str, Any]) -> Any:
    from langchain_core.messages import convert_to_messages

    body = dict(body)
    messages = body.pop("messages", None)
    tools = body.pop("tools", None)
    if isinstance(tools, list) and any(_is_custom(t) for t in tools):
        if target == "anthropic":
            raise TranslationRefusal(
                UNSUPPORTED,
                "an OpenAI custom tool is declared with langchain_openai's custom_tool, which no LangChain "
                "user binds to ChatAnthropic",
            )
        tools = [_custom_tool(t) if _is_custom(t) else t for t in tools]
    choice = {k: body.pop(k) for k in ("tool_choice", "parallel_tool_calls") if k in body}
    if "tool_choice" in choice:
        choice.update(_langchain_choice(choice["tool_choice"], foreign=_family(source) != _family(target)))
    model = family_model(target, body.pop("model", None), DEFAULT_MODEL[target], body)
    settings: dict[str, Any] = {"model": model}
    max_tokens = body.pop("max_completion_tokens", None) or body.pop("max_tokens", None)
    body.pop("max_tokens", None)
    if max_tokens is not None:
        settings["max_tokens"] = max_tokens
    for key in ("temperature", "top_p"):
        if key in body:
            settings[key] = body.pop(key)
    stop = body.pop("stop", None) if source == "openai-chat" else body.pop("stop_sequences", None)
    if isinstance(stop, str):
        stop = [stop]
    if source == "anthropic" and body.get("system") is not None:  # a system message in the same converter
        messages = [{"role": "system", "content": body.pop("system")}, *(messages or [])]
    history = convert_to_messages(_openai_messages(source, messages))
    settings.update(_fields(target, body))
    foreign = _foreign_members(source, target, body)
    llm = _model(target, settings)
    kwargs: dict[str, Any] = {}
    if tools is not None:
        kwargs.update(llm.bind_tools(tools, **choice).kwargs)
    else:
        kwargs.update(choice)
    kwargs.update(body)
    stream_usage = getattr(llm, "_should_stream_usage", None)
    if kwargs.get("stream") is True and stream_usage is not None and stream_usage(**kwargs):
        # what ChatOpenAI's own streaming entry point (_stream) adds before it builds this payload
        kwargs["stream_options"] = {"include_usage": True}
    # every public entry point (invoke, stream, generate) normalizes the messages first (OpenAI Chat `file`
    # and other provider blocks become LangChain's standard blocks) and then builds this payload
    from langchain_core.language_models.chat_models import _normalize_messages

    payload = dump(llm._get_request_payload(_normalize_messages(history), stop=stop, **kwargs))
    if foreign:  # after the library has read the rest: a crash on the messages is its own
        refuse_unsupported_members(foreign[0], foreign[1], tuple(foreign[1]))
    return payload


def _openai_messages(source: str, messages: Any) -> Any:
    """The source messages as a LangChain user hands them to a chat model. ``convert_to_messages`` reads
    OpenAI chat dicts (tool calls, tool messages) but keeps other content blocks as they are: an Anthropic
    ``tool_use`` is no tool call of the ``AIMessage``, a ``tool_result`` stays a block of a ``HumanMessage``.
    LangChain's converter for provider-format messages is ``convert_to_openai_messages``
    (``langchain_core.messages.utils``: "objects whose contents are in OpenAI, Anthropic, Bedrock Converse,
    or VertexAI formats"; ``tool_use`` → ``tool_calls``, ``tool_result`` → a ``tool`` message), called
    with its defaults; its OpenAI dicts then go through ``convert_to_messages``, as ``invoke`` does."""
    if source != "anthropic" or not isinstance(messages, list):
        return messages
    from langchain_core.messages import convert_to_openai_messages

    return convert_to_openai_messages(messages)


def _fields(target: str, body: dict[str, Any]) -> dict[str, Any]:
    """The request members a LangChain user sets as fields of the chat model (``ChatOpenAI(n=2, seed=1)``),
    taken out of ``body``. What is left is handed over as the call's keywords, which LangChain copies into
    the payload as they are: how a user passes a member of the provider's own API that LangChain has no field
    for."""
    if target == "anthropic":
        return {}
    from langchain_openai import ChatOpenAI

    return {k: body.pop(k) for k in list(body) if k in ChatOpenAI.model_fields and k not in _NOT_FIELDS}


def _foreign_members(source: str, target: str, body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The members left in ``body`` that belong to another API than the chat model's (an OpenAI
    ``web_search_options`` for ``ChatAnthropic``, an Anthropic ``thinking`` for ``ChatOpenAI``, a Chat-only
    ``function_call`` toward the Responses API),
    taken out, with the model they were meant for; None when there are none. No user passes them as the
    call's keywords: LangChain has no counterpart for them there, so the check is not LangChain's to pass
    or fail (once the library has read the rest)."""
    if target == "anthropic" and source != "anthropic":
        where = "ChatAnthropic for OpenAI request members"
    elif target == "openai-responses":
        where = "ChatOpenAI toward the Responses API"
    elif source == "anthropic":  # toward Chat: what ChatOpenAI would forward although OpenAI has no such one
        where = "ChatOpenAI for Anthropic request members"
        found = {k: body.pop(k) for k in _ANTHROPIC_ONLY if k in body}
        return (where, found) if found else None
    else:
        return None
    found = {k: body.pop(k) for k in list(body)}
    return (where, found) if found else None


#: Anthropic request members with no ChatOpenAI parameter and no Chat Completions member: ChatOpenAI passes
#: them to OpenAI as they are, so no LangChain user hands them to it (``reasoning_effort`` is its knob)
_ANTHROPIC_ONLY = ("thinking",)

#: ChatOpenAI fields that are no request members of the same meaning (``stop`` is read above; ``metadata``,
#: ``name`` and ``profile`` are LangChain's own)
_NOT_FIELDS = frozenset({"stop", "metadata", "name", "profile", "max_tokens"})


def _family(dialect: str) -> str:
    """The provider whose chat model LangChain uses for ``dialect`` (``ChatAnthropic``, ``ChatOpenAI``)."""
    return "anthropic" if dialect == "anthropic" else "openai"


def _langchain_choice(choice: Any, *, foreign: bool = False) -> dict[str, Any]:
    """A wire ``tool_choice`` as a LangChain user writes it for ``bind_tools``, whose vocabulary is a tool's
    name or a mode string (``"auto"``, ``"any"``, ...): a provider's dict that names one tool (OpenAI's
    ``{"type": "function", ...}``, Anthropic's ``{"type": "tool", ...}``) becomes that name, Anthropic's mode
    dicts their mode (``disable_parallel_tool_use`` is ``parallel_tool_calls=False``). A string is handed over
    as it is: what ``bind_tools`` makes of ``"required"`` or ``"none"`` is LangChain's own translation
    (``ChatAnthropic`` reads them as tool names), and is what is judged. Any other dict is a provider's own
    form, which ``bind_tools`` hands to that provider as it is: ``foreign`` (the source is another provider's
    API than the target's, e.g. OpenAI's ``allowed_tools`` toward ``ChatAnthropic``) no user writes it, so
    the check is not LangChain's to pass or fail."""
    if not isinstance(choice, dict):
        return {"tool_choice": choice}
    out = _choice_as_written(choice)
    if out is None and foreign:
        raise TranslationRefusal(
            UNSUPPORTED,
            "bind_tools takes a tool_choice dict in the chat model's own provider format; "
            f"{choice.get('type')!r} is another provider's, which no LangChain user hands to this chat model",
        )
    return out or {"tool_choice": choice}


def _is_custom(tool: Any) -> bool:
    return isinstance(tool, dict) and tool.get("type") == "custom"


def _custom_tool(tool: dict[str, Any]) -> Any:
    """An OpenAI custom (free-form) tool as a LangChain user declares one: ``langchain_openai.custom_tool``
    on a function of the tool's name and description (with its grammar ``format``), LangChain's documented
    form; a raw custom-tool dict is no form ``bind_tools`` documents."""
    from langchain_openai import custom_tool

    spec = tool.get("custom") if isinstance(tool.get("custom"), dict) else tool

    def declared(text: str) -> str:
        return text

    declared.__name__ = str(spec.get("name") or "custom")
    declared.__doc__ = str(spec.get("description") or declared.__name__)
    fmt = spec.get("format")
    return custom_tool(format=fmt)(declared) if isinstance(fmt, dict) else custom_tool(declared)


def _choice_as_written(choice: dict[str, Any]) -> dict[str, Any] | None:
    """``bind_tools``'s keywords for a provider's choice dict that names a tool or a mode, else None."""
    function = choice.get("function") or choice.get("custom")
    named = function.get("name") if isinstance(function, dict) else None
    if choice.get("type") in ("function", "custom") and isinstance(named, str) and len(choice) == 2:
        return {"tool_choice": named}
    if not set(choice) <= {"type", "name", "disable_parallel_tool_use"}:
        return None
    kind = choice.get("type")
    if kind in ("auto", "any", "none") and "name" not in choice:
        out: dict[str, Any] = {"tool_choice": kind}
    elif kind == "tool" and isinstance(choice.get("name"), str):
        out = {"tool_choice": choice["name"]}
    else:
        return None
    if choice.get("disable_parallel_tool_use") is True:
        out["parallel_tool_calls"] = False
    return out


class LangChainTranslator(PeerTranslator):
    name = "langchain"
    dist = "langchain-core"
    library_modules = ("langchain_core", "langchain_anthropic", "langchain_openai")

    def capabilities(self) -> dict[str, Any]:
        from ._common import installed_version

        caps = super().capabilities()
        caps["version"] = installed_version("langchain-core")
        caps["components"] = {
            d: installed_version(d) for d in ("langchain-core", "langchain-anthropic", "langchain-openai")
        }
        caps[DOCUMENTED_DROPS] = [  # the Responses API has no stop sequences: dropped, not sent to be refused
            {"kind": "request", "target": "openai-responses", "member": "stop",
             "ref": "https://github.com/langchain-ai/langchain/pull/38336"},
        ]  # fmt: skip
        return caps

    def setup(self) -> None:
        import langchain_anthropic  # noqa: F401  (imports up front, outside any check)
        import langchain_core.messages  # noqa: F401
        import langchain_openai  # noqa: F401

        for source, target in REQUEST_PAIRS:
            self.routes[("request", source, target)] = self._request(source, target)
            self.routes[("tool_choice", source, target)] = self._choice(source, target)
        for source in ("openai-chat", "anthropic"):
            self.routes[("tools", source, "openai-chat")] = self._to_openai_tools
            self.routes[("tools", source, "anthropic")] = self._to_anthropic_tools
        self.routes[("tools", "openai-chat", "openai-responses")] = self._to_responses_tools

    def _request(self, source: str, target: str) -> Any:
        return lambda payload, profile: _payload(source, target, payload)

    def _choice(self, source: str, target: str) -> Any:
        def run(payload: Any, profile: dict[str, str]) -> Any:
            body = {**MINIMAL[source], **choice_tool_members(source, payload), **payload}
            sent = _payload(source, target, body)
            return {k: sent[k] for k in CHOICE_MEMBERS[target] if k in sent}

        return run

    @staticmethod
    def _to_openai_tools(payload: Any, profile: dict[str, str]) -> Any:
        from langchain_core.utils.function_calling import convert_to_openai_tool

        return dump([convert_to_openai_tool(t) for t in payload])

    @staticmethod
    def _to_anthropic_tools(payload: Any, profile: dict[str, str]) -> Any:
        from langchain_anthropic.chat_models import convert_to_anthropic_tool

        return dump([convert_to_anthropic_tool(t) for t in payload])

    @staticmethod
    def _to_responses_tools(payload: Any, profile: dict[str, str]) -> Any:
        return _payload("openai-chat", "openai-responses", {**MINIMAL["openai-chat"], "tools": payload}).get(
            "tools", []
        )


Translator = LangChainTranslator
__all__ = ["LangChainTranslator", "Translator"]
