"""Shared plumbing for the peer adapters: a fake upstream, SSE framing, wire dumps, refusal mapping.

Every peer adapter drives a third-party library *offline*. Libraries that talk to a provider through an SDK
(the ``anthropic``, ``openai`` and ``google-genai`` clients, LiteLLM's own ``HTTPHandler``) are given an
``httpx`` client whose transport is an in-process :class:`Upstream`: it records the JSON body the library
would have sent (the ``request`` kinds) and answers with a canned body, the case's source response or
stream (the ``response`` and ``stream`` kinds). No socket is opened, no key is needed. What the library does
between its public API and the wire is left exactly as it is: this module frames and unframes JSON, it never
repairs a payload.

Streams are driven lazily where the library streams lazily: the fake upstream's SSE body
(:class:`SSEStream`) frames one input event each time the library reads more of the response, and a stream
route returns a generator that yields each output event as the library yields it (``[DONE]`` and the like
appended at the end), so the ``incremental`` stream checks measure the library, not the adapter. A library
that reads ahead on a thread of its own says so (:meth:`PeerTranslator.incremental_unmeasurable`).
"""

from __future__ import annotations

import asyncio
import binascii
import enum
import importlib.metadata
import json
import linecache
import re
import struct
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from typing import Any

import httpx

from ..descriptors import descriptor
from ..endpoints import PROVIDER_DIALECTS, expected_path, http_client, is_dialect_path
from ..http_errors import error_status
from ..protocol import LIBRARY_OBJECTS, UNSUPPORTED, TranslationRefusal
from ..streams.dialects import accumulate
from ..streams.payload import StreamError
from ..streams.sse import events_from_sse
from ..tool_names import custom_names, referenced_names

__all__ = [
    "CAPTURED_REPLY",
    "LEGACY_FUNCTIONS",
    "refuse_unsupported_members",
    "accumulated_body",
    "answered_model",
    "bedrock_runtime_client",
    "choice_tool_members",
    "choice_tools",
    "sent_choice",
    "sent_tools",
    "PeerTranslator",
    "Route",
    "SSEStream",
    "Upstream",
    "dump",
    "eventstream_frame",
    "installed_version",
    "sse_event",
    "INCLUDE_USAGE",
    "sse_text",
    "stream_model",
    "to_chat_stream",
    "to_named_stream",
]

#: what the fake upstream answers to a request it only records (a 400 every SDK raises at once, no retry)
CAPTURED_REPLY = {
    "type": "error",
    "error": {
        "type": "invalid_request_error",
        "message": "toolwire: request recorded, not sent",
        "code": 400,
        "status": "INVALID_ARGUMENT",
    },
}

Route = Callable[[Any, dict[str, str]], Any]


def installed_version(dist: str) -> str:
    """The installed version of distribution ``dist`` (``"not installed"`` when it is not)."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _eventstream_header(name: str, value: str) -> bytes:
    key, data = name.encode("utf-8"), value.encode("utf-8")
    return struct.pack(">B", len(key)) + key + b"\x07" + struct.pack(">H", len(data)) + data  # 7: string


def eventstream_frame(ev: Any) -> bytes:
    """One corpus stream event of AWS's event stream (``{"event": <type>, "data": payload}``, RULES.md
    "Streams") as the binary frame Bedrock sends (``application/vnd.amazon.eventstream``: prelude with
    its CRC, string headers, the compact JSON payload, the message CRC). An exception's name goes in
    ``:exception-type``. Re-framing the decoded capture gives its recorded bytes back (tests/peers)."""
    name = ev.get("event") if isinstance(ev, dict) else None
    data = ev.get("data") if isinstance(ev, dict) else ev
    kind = "exception" if isinstance(name, str) and name.endswith("Exception") else "event"
    headers = {f":{kind}-type": str(name), ":content-type": "application/json", ":message-type": kind}
    block = b"".join(_eventstream_header(k, v) for k, v in headers.items())
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    prelude = struct.pack(">II", 12 + len(block) + len(payload) + 4, len(block))
    message = prelude + struct.pack(">I", binascii.crc32(prelude)) + block + payload
    return message + struct.pack(">I", binascii.crc32(message))


class SSEStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """An SSE response body made lazily: each time the reader asks for more bytes, the next input event is
    taken from ``events`` and framed (:func:`sse_event`), one SSE message per chunk. Usable by both
    ``httpx.Client`` and ``httpx.AsyncClient`` (on a ``MockTransport``); every iteration reads ``events``
    afresh, so a harness that records how far ``events`` was read sees how far the library read."""

    def __init__(self, events: Iterable[Any], frame: Callable[[Any], bytes] | None = None) -> None:
        self.events = events
        #: how one event is framed (default: an SSE message; :func:`eventstream_frame` for AWS)
        self.frame = frame or (lambda ev: sse_event(ev).encode("utf-8"))

    def _chunks(self) -> Iterator[bytes]:
        for ev in self.events:
            yield self.frame(ev)

    def __iter__(self) -> Iterator[bytes]:
        yield from self._chunks()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks():
            yield chunk


#: why a canned reply never answers the request the library sent (a custom tool call where the request
#: declared no custom tool: the descriptor's ``http_client.only_when_asked``), noted by :class:`Upstream` as
#: it answers and read by :meth:`PeerTranslator._guard`, which skips the check, as the ``http:`` adapter does
#: for a proxy: what the library makes of a reply its provider never gives says nothing of it. One list per
#: process: checks run one at a time in it.
UNASKED: list[str] = []


class Upstream:
    """An in-process provider endpoint (``httpx.MockTransport``): records requests, answers canned bodies."""

    def __init__(self, reply: tuple[str, Any] | None = None, dialect: str | None = None) -> None:
        #: ``("json", body)``, ``("sse", text)`` (answered whole), ``("sse", events)`` (an :class:`SSEStream`
        #: over the event list, read as the library reads the response), ``("eventstream", events)`` (the
        #: same, each event an AWS event-stream frame) or None (record, answer 400)
        self.reply = reply
        #: the provider answering: a ``json`` body that is one of its error bodies is sent with the status it
        #: comes with (descriptor ``http_errors``), as a real upstream does, never with 200; a reply it gives
        #: only to a request that asked for it is noted (:data:`UNASKED`) when the request did not
        self.dialect = dialect
        self.requests: list[dict[str, Any]] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        raw = request.content
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.requests.append({"method": request.method, "url": str(request.url), "body": body})
        if self.reply is None:
            return httpx.Response(400, json=CAPTURED_REPLY)
        kind, data = self.reply
        self._note_unasked(body, kind, data)
        if kind == "eventstream":
            headers = {"content-type": "application/vnd.amazon.eventstream"}
            return httpx.Response(200, stream=SSEStream(data, eventstream_frame), headers=headers)
        if kind == "sse":
            headers = {"content-type": "text/event-stream"}
            if isinstance(data, str):
                return httpx.Response(200, content=data.encode("utf-8"), headers=headers)
            return httpx.Response(200, stream=SSEStream(data), headers=headers)
        status = error_status(self.dialect, data) if self.dialect else None
        return httpx.Response(status or 200, json=data)

    def _note_unasked(self, request: Any, kind: str, data: Any) -> None:
        """Note (in :data:`UNASKED`) why this upstream's reply never answers ``request``, when it does not: a
        member the provider gives only when asked (a stream read as the body it accumulates to)."""
        if self.dialect not in PROVIDER_DIALECTS or isinstance(data, bytes):
            return
        if kind == "json":
            if isinstance(data, str) or error_status(self.dialect, data):
                return
            why = http_client(self.dialect).unasked(request, lambda: data)
        else:
            events = events_from_sse(data) if isinstance(data, str) else data
            why = http_client(self.dialect).unasked(request, lambda: accumulated_body(events, self.dialect))
        if why:
            UNASKED.append(f"the library's {self.dialect} request never gets this reply: {why}")

    @property
    def transport(self) -> httpx.MockTransport:
        """The ``httpx`` transport answering from this upstream."""
        return httpx.MockTransport(self.handler)

    def client(self) -> httpx.Client:
        """A synchronous ``httpx`` client talking to this upstream."""
        return httpx.Client(transport=self.transport)

    def async_client(self) -> httpx.AsyncClient:
        """An asynchronous ``httpx`` client talking to this upstream."""
        return httpx.AsyncClient(transport=self.transport)

    def capture(self, call: Callable[[], Any], dialect: str | None = None) -> Any:
        """Run ``call`` (which makes the library send one request) and return the JSON body it sent.

        An iterator ``call`` returns (a stream) is drained: a library may send its request on the first
        read. The library's exception for the canned 400 is expected and swallowed; an exception raised
        before anything was sent is the library's own answer and propagates. With ``dialect``, a request
        the library sent to another API of the provider (OpenAI Responses instead of Chat Completions, a
        Gemini cachedContents call) is no translation into ``dialect``: the check is skipped with that
        reason, never judged as one.
        """
        self.requests.clear()
        try:
            out = call()
            if isinstance(out, Iterator):
                for _ in out:
                    pass
        except Exception:
            if not self.requests:
                raise
        if not self.requests:
            raise RuntimeError("toolwire peer adapter: the library sent no request")
        sent = self.requests[0]
        path = urllib.parse.urlsplit(sent["url"]).path
        if dialect in PROVIDER_DIALECTS and not is_dialect_path(dialect, path):
            raise TranslationRefusal(  # skipped with its reason: nothing of the library's to judge
                UNSUPPORTED,
                f"the library sent this request to {path}, not to the {dialect} API "
                f"({expected_path(dialect)}): it chose another API of the provider for this input (LiteLLM "
                f"creates Gemini cachedContents for cache_control first), so there is no {dialect} request "
                "to judge through this adapter",
            )
        return sent["body"]


class _RawBody:
    """The raw body botocore reads a response from (``stream()``: its bytes, chunk by chunk)."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    def stream(self, **_kwargs: Any) -> Iterator[bytes]:
        stream = self.response.stream
        if isinstance(stream, httpx.SyncByteStream):
            yield from stream
        else:
            yield self.response.content


def bedrock_runtime_client(up: Upstream) -> Any:
    """A real boto3 ``bedrock-runtime`` client whose HTTP requests go to ``up`` instead of AWS (a
    ``before-send`` handler): botocore serialises the call's parameters to the JSON body the service would
    get (``modelId`` in the path) and parses the upstream's answer as it parses AWS's, event streams
    included. Signed with a dummy key pair; nothing leaves the process."""
    import boto3
    from botocore.awsrequest import AWSResponse

    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="toolwire-offline",
        aws_secret_access_key="toolwire-offline",
    )

    def send(request: Any, **_kwargs: Any) -> Any:
        sent = httpx.Request(request.method, request.url, headers=dict(request.headers), content=request.body)
        answer = up.handler(sent)
        return AWSResponse(request.url, answer.status_code, dict(answer.headers), _RawBody(answer))

    client.meta.events.register("before-send.bedrock-runtime", send)
    return client


def accumulated_body(events: Any, dialect: str) -> Any:
    """The body the stream ``events`` accumulate to in ``dialect`` (None when they do not). A list is read
    past its own iteration: the harness reading it is no read by the library (the incremental checks
    watch how far the library has read its input)."""
    plain = list(list.__iter__(events)) if isinstance(events, list) else events
    try:
        return accumulate(plain, dialect)
    except StreamError:
        return None


def response_asking(upstream: str, client: str, body: Any) -> dict[str, Any]:
    """The members a ``client``-dialect request adds to ask for what the ``upstream`` response ``body`` holds
    that the provider gives only when asked (``HttpClient.asking_for``)."""
    return _asking(upstream, client, lambda: body)


def stream_asking(upstream: str, client: str, events: Any) -> dict[str, Any]:
    """The members a ``client``-dialect request adds to ask for what the ``upstream`` stream ``events`` hold
    that the provider gives only when asked (``HttpClient.asking_for``)."""
    return _asking(upstream, client, lambda: accumulated_body(events, upstream))


def _asking(upstream: str, client: str, reply: Callable[[], Any]) -> dict[str, Any]:
    """{} for no provider dialect (Bedrock Converse has no HTTP client description, and asks for nothing)."""
    if upstream not in PROVIDER_DIALECTS:
        return {}
    return http_client(upstream).asking_for(client, reply)


def reply_asked(up: Upstream, asking: dict[str, Any], call: Callable[[], Any]) -> Any:
    """``call()``, which makes the library send a request with ``asking`` (the members a client adds to ask
    for what ``up``'s reply holds: a Structured Outputs format for a refusal; ``HttpClient.asking_for``).
    A library that refuses such a request before sending it never gets this reply: the check is skipped
    (``protocol.unsupported``), as the ``http:`` adapter skips it for a proxy."""
    try:
        return call()
    except Exception:
        if asking and not up.requests:
            raise TranslationRefusal(
                UNSUPPORTED,
                f"the library refuses a request asking for what this reply answers ({', '.join(asking)}), "
                "so it never gets this reply",
            ) from None
        raise


def sse_event(ev: Any) -> str:
    """One corpus stream event (``{"event"?, "data"}``) as the SSE message a provider sends."""
    if not isinstance(ev, dict):
        return f"data: {json.dumps(ev, ensure_ascii=False)}\n\n"
    lines = []
    if ev.get("event"):
        lines.append(f"event: {ev['event']}")
    data = ev.get("data")
    lines.append("data: " + (data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)))
    return "\n".join(lines) + "\n\n"


#: a chat request's opt-in to usage in its stream (the last chunk); the stream expectations carry usage
INCLUDE_USAGE = {"stream_options": {"include_usage": True}}


def sse_text(events: Any) -> str:
    """A corpus stream (list of ``{"event"?, "data"}``) as the SSE text a provider sends; raw text as is."""
    if isinstance(events, str):
        return events
    return "".join(sse_event(ev) for ev in events)


def dump(obj: Any) -> Any:
    """A library object (pydantic model, plain object, dict, list) as plain JSON data.

    A pydantic model member is written when the library set it (even to ``None``: ``content: null`` next to
    tool calls means something) or when its value is not ``None`` (a ``type`` literal left at its default);
    members never set and ``None`` are left out, as an SDK parsing the wire would have them. Extra members
    (``model_extra``) are written as they are. A plain object is written as its public attributes.
    """
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if isinstance(obj, dict):
        return {str(k): dump(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [dump(v) for v in obj]
    if isinstance(obj, enum.Enum):
        return dump(obj.value)
    fields = getattr(type(obj), "model_fields", None)
    if isinstance(fields, dict) and hasattr(obj, "model_fields_set"):
        out: dict[str, Any] = {}
        for name, info in fields.items():
            value = getattr(obj, name, None)
            if name in obj.model_fields_set or value is not None:
                out[info.serialization_alias or info.alias or name] = dump(value)
        for name, value in (getattr(obj, "model_extra", None) or {}).items():
            out[name] = dump(value)
        return out
    if hasattr(obj, "model_dump"):
        return dump(obj.model_dump(mode="json"))
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return dump({k: v for k, v in vars(obj).items() if not k.startswith("_")})
    from pydantic_core import to_jsonable_python

    return to_jsonable_python(obj)


def to_chat_stream(chunks: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """OpenAI chat chunks (already plain JSON) as corpus stream events, ended by ``[DONE]`` (lazily: each
    chunk is yielded as ``chunks`` yields it).

    ``[DONE]`` is SSE framing (a Python iterator that stops is the same signal), not translation.
    """
    for c in chunks:
        yield {"data": c}
    yield {"data": "[DONE]"}


def pulled(source: Any) -> Iterator[Any]:
    """The items of an async iterator, pulled one at a time on a private event loop, as a plain iterator
    (lazily: a library whose synchronous call returns an async-only stream is read as its own server would
    read it)."""
    loop = asyncio.new_event_loop()
    items = source.__aiter__()
    try:
        while True:
            try:
                yield loop.run_until_complete(items.__anext__())
            except StopAsyncIteration:
                return
    finally:
        loop.close()


def to_named_stream(events: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Anthropic / Responses events (plain JSON with ``type``) as corpus stream events named by their type
    (lazily: each is yielded as ``events`` yields it)."""
    for e in events:
        yield {"event": e.get("type"), "data": e} if isinstance(e, dict) else {"data": e}


def answered_model(payload: Any) -> str | None:
    """The model a provider's response body (or the first event of a stream that names one) says answered.

    The response and stream kinds make the library send a request first; naming this model in it keeps a
    library that reports the *requested* model from differing on a model name the adapter made up.
    """
    items = payload if isinstance(payload, list) else [{"data": payload}]
    for item in items:
        data = item.get("data") if isinstance(item, dict) else None
        if not isinstance(data, dict):
            continue
        for holder in (data, data.get("message"), data.get("response")):
            if isinstance(holder, dict):
                model = holder.get("model") or holder.get("modelVersion")
                if isinstance(model, str) and model:
                    return model
    return None


def stream_model(events: Sequence[Any] | str) -> str | None:
    """The model the first event of a stream names (:func:`answered_model`); reads no other event.

    Every stream of the corpus that names a model names it in its first event (Anthropic ``message_start``,
    a chat chunk, a Gemini chunk's ``modelVersion``); reading further would read the input ahead of the
    library (the ``incremental`` stream checks count how far the input was read).
    """
    if isinstance(events, str):
        return None
    return answered_model(list(events[:1]))


#: how the model names of a target dialect's provider start
_OPENAI = ("gpt-", "chatgpt-", "o1", "o3", "o4")
FAMILIES: dict[str, tuple[str, ...]] = {
    "anthropic": ("claude-",),
    "gemini": ("gemini-",),
    "openai-chat": _OPENAI,
    "openai-responses": _OPENAI,
    "mistral": ("mistral-", "magistral-", "codestral-", "devstral-", "ministral-", "pixtral-", "open-"),
}


#: the model of the target's family a request that asks for reasoning goes to, where ``default`` does not
#: reason (LiteLLM refuses ``reasoning_effort`` for gpt-4o, as OpenAI would)
REASONING_MODELS = {"openai-chat": "gpt-5", "openai-responses": "gpt-5"}
_REASONING_MEMBERS = ("thinking", "reasoning_effort", "reasoning")


def family_model(target: str, requested: Any, default: str, body: Any = None) -> str:
    """The model a peer adapter calls the library with for ``target``: the request's model when it is of
    the target provider's family (a response names it back), else ``default`` (a reasoning model when
    ``body``, the rest of the request, asks for reasoning). Libraries pick code paths by model name
    (LiteLLM: Gemini 3 behaviour, Anthropic's ``max_tokens``, reasoning parameters), so a foreign name
    (``gpt-4o`` sent to Gemini, ``claude-…`` to OpenAI, which LiteLLM then fakes a stream for) would test a
    path no user takes. A target with no family in :data:`FAMILIES` (Bedrock Converse: the body names no
    model, the URL does) always gets ``default``."""
    family = FAMILIES.get(target)
    if family and isinstance(requested, str) and requested and requested.startswith(family):
        return requested
    if isinstance(body, dict) and any(body.get(k) is not None for k in _REASONING_MEMBERS):
        return REASONING_MODELS.get(target, default)
    return default


#: where a request body of each dialect keeps its tool list, when not in ``tools``
_TOOLS_AT = {"bedrock-converse": ("toolConfig", "tools")}


def sent_tools(target: str, body: dict[str, Any]) -> Any:
    """The tool list of a ``target`` request body a library sent (Converse: ``toolConfig.tools``)."""
    outer, inner = _TOOLS_AT.get(target, (None, "tools"))
    holder = (body.get(outer) or {}) if outer else body
    return holder.get(inner, []) if isinstance(holder, dict) else []


def sent_choice(target: str, body: dict[str, Any], members: Sequence[str]) -> dict[str, Any]:
    """The tool-choice members of a ``target`` request body a library sent: ``members`` of the body
    (Converse: ``toolConfig`` holding its ``toolChoice`` alone, the tools being the ``tools`` kind)."""
    if target == "bedrock-converse":
        config = body.get("toolConfig") or {}
        return {"toolConfig": {"toolChoice": config["toolChoice"]}} if "toolChoice" in config else {}
    return {k: body[k] for k in members if k in body}


def choice_tools(source: str, choice: dict[str, Any]) -> list[dict[str, Any]]:
    """A tool list (in ``source``'s shape) naming the tools a tool-choice payload names, or one tool ``f``.

    A ``tool_choice`` case holds only the choice; libraries drop a choice sent without tools, so the adapters
    that drive a whole request send it with these tools and keep only the choice members of the output. A
    choice naming a custom (free-form) tool gets that custom tool, as a client forcing one declares it.
    """
    custom = custom_names(choice)
    names = referenced_names(choice)
    schema = {"type": "object", "properties": {}}
    unique = names or ["f"]
    if source == "anthropic":
        return [{"name": n, "description": n, "input_schema": schema} for n in unique]
    return [
        _custom_tool(source, n)
        if n in custom
        else {"type": "function", "function": {"name": n, "description": n, "parameters": schema}}
        for n in unique
    ]


def choice_tool_members(source: str, choice: Any) -> dict[str, Any]:
    """The request members that declare :func:`choice_tools` beside a tool-choice payload: ``tools``, or, for
    a deprecated choice member (Chat's ``function_call``: the descriptor's ``lift.legacy_tools``), the
    deprecated list it names functions of (``functions``); OpenAI refuses ``function_call`` beside ``tools``,
    so no client sends that pair."""
    tools = choice_tools(source, choice)
    legacy = (descriptor(source).get("lift") or {}).get("legacy_tools")
    if isinstance(legacy, dict) and isinstance(choice, dict) and legacy.get("choice_member") in choice:
        # the deprecated list holds the function objects themselves (the descriptor's legacy_tools.tool)
        return {legacy["tools_member"]: [t["function"] for t in tools if "function" in t]}
    return {"tools": tools}


def _custom_tool(source: str, name: str) -> dict[str, Any]:
    """A custom (free-form) tool named ``name`` in ``source``'s shape (Chat nests it under ``custom``)."""
    if source == "openai-responses":
        return {"type": "custom", "name": name, "description": name}
    return {"type": "custom", "custom": {"name": name, "description": name}}


#: OpenAI Chat's deprecated function-calling members (``functions``, ``function_call``)
LEGACY_FUNCTIONS = ("functions", "function_call")


def refuse_unsupported_members(library: str, body: dict[str, Any], members: tuple[str, ...]) -> None:
    """Raise ``protocol.unsupported`` when the request carries one of ``members``, request members the library
    has no parameter for (its extra keyword arguments go to the provider as they are): no user of it can ask
    for them, so the check is not the library's to pass or fail (the harness skips it with this reason)."""
    found = [m for m in members if m in body]
    if found:
        raise TranslationRefusal(
            UNSUPPORTED,
            f"{library} has no parameter for {', '.join(found)}: its extra keyword arguments reach the "
            "provider as they are, so no user of it can ask for them",
        )


def _validation(exc: BaseException) -> bool:
    """Whether ``exc`` is a typed model refusing a value (pydantic's ``ValidationError``): the library's or
    the provider SDK's declared types saying what they take, a check by design."""
    return type(exc).__module__.split(".")[0] in ("pydantic", "pydantic_core")


#: Python's message for a call with a keyword the function does not take
_UNEXPECTED_KEYWORD = re.compile(r"got an unexpected keyword argument '\w+'")


class PeerTranslator:
    """Base class: a route table ``{(kind, source, target): fn(payload, profile)}`` and the refusal rule.

    Refusals: an exception the library raises on purpose for a bad input (a ``ValueError`` its own code
    raises with a ``raise`` statement, a ``json.JSONDecodeError``, or a pydantic ``ValidationError``: a typed
    model, the library's or its provider SDK's, refusing a value; or an exception class defined by the
    library itself, with a non-empty message; or a ``TypeError`` for an unexpected keyword argument, the
    provider SDK's signature refusing a parameter the library passed on as given) becomes a refusal with
    the code from :meth:`error_code`: an obvious corpus code where there is one (invalid JSON arguments →
    ``call.invalid_arguments``), else ``peer.error``, so an expected refusal with a specific code fails on
    the code, honestly. Every other exception (``KeyError``, ``TypeError``, ``AttributeError``,
    ``IndexError``, a ``ValueError`` Python or a third party raised on the way …) is a crash: the check is
    ``errored``.
    """

    #: the library's name in reports, and the distribution whose version is reported
    name = "peer"
    dist = ""
    #: top-level packages whose exception classes count as the library's deliberate errors (the library's
    #: own, and the provider SDKs it drives: an ``anthropic.APIStatusError`` for an ``error`` event in a
    #: stream is the library's answer to that event)
    library_modules: tuple[str, ...] = ()
    #: profile values the library really implements (keys left out: only the default). A library is called
    #: with the model to use, so the request's model is ``routed``, never translated (the adapter picks one
    #: of the target's family: :func:`family_model`)
    profiles: dict[str, list[str]] = {"request.model": ["routed"]}
    #: why the ``incremental`` stream checks cannot measure the library through this adapter, for every
    #: stream route (None: they can); see :meth:`incremental_unmeasurable`
    not_incremental: str | None = None
    #: True when its responses and streams are its own objects, without the wire envelope (capability
    #: ``library_objects``: INTERPRETING.md, "Capabilities")
    library_objects = False

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str, str], Route] = {}
        self.stream_routes: dict[tuple[str, str], Route] = {}
        self.setup()

    def setup(self) -> None:
        """Fill :attr:`routes` and :attr:`stream_routes` (and import the library up front)."""
        raise NotImplementedError

    def incremental_unmeasurable(self, source: str, target: str) -> str | None:
        """Why how far the library reads its input before it yields cannot be measured deterministically
        for the ``(source, target)`` stream route (e.g. it reads the upstream on a background thread), or
        None when it can. The harness skips the ``incremental`` stream checks of such a route."""
        return self.not_incremental if (source, target) in self.stream_routes else None

    def capabilities(self) -> dict[str, Any]:
        """The capabilities of the ``python:`` protocol: the declared routes and profiles."""
        kinds: dict[str, list[list[str]]] = {}
        for kind, source, target in self.routes:
            kinds.setdefault(kind, []).append([source, target])
        for source, target in self.stream_routes:
            kinds.setdefault("stream", []).append([source, target])
        return {
            "name": self.name,
            "version": installed_version(self.dist),
            "language": "python",
            "kinds": kinds,
            "profiles": {k: list(v) for k, v in self.profiles.items()},
            LIBRARY_OBJECTS: self.library_objects,
        }

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        """Run the route of ``(kind, source, target)`` on ``payload`` (the library's errors: refusals)."""
        route = self.routes.get((kind, source, target))
        if route is None:
            raise NotImplementedError(f"{self.name}: ({kind}, {source}, {target}) is not declared")
        return self._guard(lambda: route(payload, profile))

    def translate_stream(self, source: str, target: str, events: list[Any], profile: dict[str, str]) -> Any:
        """Run the stream route of ``(source, target)``: a list, or an iterator yielding each output event
        as the library yields it (the library's errors, raised at any point: refusals)."""
        route = self.stream_routes.get((source, target))
        if route is None:
            raise NotImplementedError(f"{self.name}: (stream, {source}, {target}) is not declared")
        out = self._guard(lambda: route(events, profile))
        return self._guard_iter(out) if isinstance(out, Iterator) else out

    def _guard(self, call: Callable[[], Any]) -> Any:
        UNASKED.clear()
        try:
            out = call()
        except TranslationRefusal:
            raise
        except Exception as exc:
            if UNASKED:
                raise TranslationRefusal(UNSUPPORTED, UNASKED[0]) from exc
            if self.is_deliberate(exc):
                raise TranslationRefusal(
                    self.error_code(exc), f"{type(exc).__module__}.{type(exc).__qualname__}: {exc}"
                ) from exc
            raise
        if UNASKED:
            raise TranslationRefusal(UNSUPPORTED, UNASKED[0])
        return out

    def _guard_iter(self, events: Iterator[Any]) -> Iterator[Any]:
        """``events``, read one at a time, with :meth:`_guard`'s refusal rule applied to each read."""
        end = object()
        try:
            while (event := self._guard(lambda: next(events, end))) is not end:
                yield event
        finally:
            close = getattr(events, "close", None)
            if callable(close):
                close()

    def is_deliberate(self, exc: BaseException) -> bool:
        """Whether ``exc`` is the library refusing a bad input on purpose (see the class docstring)."""
        if not str(exc).strip():
            return False
        if isinstance(exc, ValueError):
            return isinstance(exc, json.JSONDecodeError) or _validation(exc) or self._raised_by_library(exc)
        if isinstance(exc, TypeError) and _UNEXPECTED_KEYWORD.search(str(exc)):
            return True  # a provider SDK's signature refusing a parameter the library passed through as given
        return any(cls.__module__.split(".")[0] in self.library_modules for cls in type(exc).__mro__[:-1])

    def _raised_by_library(self, exc: BaseException) -> bool:
        """Whether ``exc`` was raised by a ``raise`` statement in the library's own code (a check it makes),
        not by Python or a third party on the way (``not enough values to unpack``, a validation model the
        library builds from input it should have read)."""
        tb = exc.__traceback__
        if tb is None:
            return False
        while tb.tb_next is not None:
            tb = tb.tb_next
        frame = tb.tb_frame
        module = str(frame.f_globals.get("__name__") or "")
        if module.split(".")[0] not in self.library_modules:
            return False
        line = linecache.getline(frame.f_code.co_filename, tb.tb_lineno, frame.f_globals).strip()
        return line.startswith("raise")

    def error_code(self, exc: BaseException) -> str:
        """The corpus error code of a deliberate library error."""
        if isinstance(exc, json.JSONDecodeError):
            return "call.invalid_arguments"
        return "peer.error"
