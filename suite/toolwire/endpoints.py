"""The HTTP side of each provider dialect (the `http:` adapter, its mock upstream, and the peers), as the
corpus describes it: a provider dialect is one whose descriptor (``corpus/dialects/<name>.json``) has
``http_errors``, in the order of the dialect names of ``schemas/common.schema.json``; its path is the
descriptor's ``request.endpoint`` (``POST /v1/messages``; Gemini's names the model in the path,
``{model}``), and ``http_client`` says how a client calls it (:class:`HttpClient`: the key header, the
headers it must send, how it asks for a stream, the smallest request). Read once, when this module is
imported."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .descriptors import descriptor
from .jsonvalue import json_copy, value_at, values_at
from .paths import schemas_dir

__all__ = [
    "DIALECT_NAMES",
    "PROVIDER_DIALECTS",
    "HttpClient",
    "expected_path",
    "http_client",
    "is_dialect_path",
]

#: ``request.endpoint``: the method and the path
_ENDPOINT = re.compile(r"^POST (/\S+)")


def _dialect_names() -> list[str]:
    try:
        schema = json.loads((schemas_dir() / "common.schema.json").read_text(encoding="utf-8"))
        return list(schema["$defs"]["dialectName"]["enum"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


@dataclass(frozen=True)
class HttpClient:
    """How a client calls one provider dialect over HTTP (its descriptor's ``request.endpoint`` and
    ``http_client``; schemas/dialect.schema.json says what each member means)."""

    dialect: str
    #: the endpoint's path; ``{model}`` where the model is in the path (Gemini)
    path: str
    spec: dict[str, Any]

    @property
    def model_in_path(self) -> bool:
        """Whether the model is named in the path rather than in the body."""
        return "{model}" in self.path

    @property
    def stream_method(self) -> str | None:
        """The path's other method that streams (Gemini's ``:streamGenerateContent``), or None."""
        method = self.spec["stream"].get("method")
        return method if isinstance(method, str) else None

    def minimal_request(self) -> dict[str, Any]:
        """A copy of the smallest valid request."""
        return json_copy(self.spec["minimal_request"])

    def key_headers(self, key: str) -> dict[str, str]:
        """The headers that send ``key``, and the others every request must send."""
        headers = {self.spec["key_header"]: str(self.spec.get("key_prefix") or "") + key}
        headers.update(self.spec.get("headers") or {})
        return headers

    def request_path(self, model: str, stream: bool, path: str | None = None) -> str:
        """The path (and query) of a request for ``model``, streaming or not (``path``: another path of the
        same shape than the endpoint's, such as a proxy's)."""
        path = (path or self.path).replace("{model}", model)
        method = self.stream_method
        if stream and method is not None:
            base, _, _ = path.rpartition(":")
            query = "&".join(f"{k}={v}" for k, v in self.spec["stream"]["query"].items())
            path = f"{base}{method}" + (f"?{query}" if query else "")
        return path

    def stream_body(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` asking for a stream, with what a client adds to get the stream's usage (a dialect that
        asks for a stream in the path: ``body`` as is)."""
        stream = self.spec["stream"]
        if "member" not in stream:
            return body
        return {**body, stream["member"]: True, **json_copy(stream.get("usage_members") or {})}

    def asks_for_stream(self, path: str, body: Any) -> bool:
        """Whether a request with this path and body asks for a stream."""
        method = self.stream_method
        if method is not None:
            return path.endswith(method)
        return isinstance(body, dict) and body.get(self.spec["stream"]["member"]) is True

    def stream_framing(self, query: dict[str, str]) -> str:
        """How a stream is framed for a request with this query: ``sse``, or the dialect's ``without_query``
        framing when the request lacks the stream's query (Gemini's JSON array)."""
        stream = self.spec["stream"]
        without = stream.get("without_query")
        wanted = stream.get("query") or {}
        if without and any(query.get(k) != v for k, v in wanted.items()):
            return str(without)
        return "sse"

    def reply_model(self, payload: Any) -> Any:
        """What a response body names as its model (``reply_model_at``), or None."""
        return value_at(payload, self.spec["reply_model_at"])

    def calls_beyond_one(self, request: Any, reply: Callable[[], Any]) -> int | None:
        """How many calls the response body ``reply()`` holds when ``request`` asked for at most one
        (``single_call``) and it holds more, which the provider never answers; else None. ``reply`` is read
        only for such a request (accumulating a stream costs)."""
        single = self.spec.get("single_call")
        if not single or value_at(request, single["asked_at"]) != single["value"]:
            return None
        found = value_at(reply(), single["calls_at"])
        types = single.get("call_types")
        items = found if isinstance(found, list) else []
        calls = [c for c in items if not types or (isinstance(c, dict) and c.get("type") in types)]
        return len(calls) if len(calls) > 1 else None

    def asking_for(self, client: str, reply: Callable[[], Any]) -> dict[str, Any]:
        """The members a ``client``-dialect request adds to ask for what the response body ``reply()`` holds
        that the provider gives only when asked (``only_when_asked``' ``ask``): a Structured Outputs
        format for a reply with a refusal, so a proxy that forwards the format upstream is judged on it.
        ``reply`` is read only when the client has something to ask (accumulating a stream costs)."""
        rules = [r for r in self.spec.get("only_when_asked") or [] if (r.get("ask") or {}).get(client)]
        body = reply() if rules else None
        members: dict[str, Any] = {}
        for rule in rules:
            if any(values_at(body, rule["reply_at"])):
                members.update(json_copy(rule["ask"][client]))
        return members

    def unasked(self, request: Any, reply: Callable[[], Any]) -> str | None:
        """Why the response body ``reply()`` never answers ``request``: it holds a member the provider
        gives only to a request that asked for it (``only_when_asked``: a refusal only under Structured
        Outputs, a custom call only where a custom tool was declared); else None."""
        rules = self.spec.get("only_when_asked") or []
        asked = [r for r in rules if not any(any(values_at(request, p)) for p in r["request_at"])]
        if not asked:
            return None
        body = reply()
        for rule in asked:
            if any(values_at(body, rule["reply_at"])):
                return str(rule["why"])
        return None


def _clients() -> dict[str, HttpClient]:
    """Each provider dialect's client facts from its descriptor."""
    found: dict[str, HttpClient] = {}
    for name in _dialect_names():
        spec = descriptor(name)
        request = spec.get("request")
        endpoint = request.get("endpoint") if isinstance(request, dict) else None
        match = _ENDPOINT.match(endpoint) if isinstance(endpoint, str) else None
        client = spec.get("http_client")
        if spec.get("http_errors") and match and isinstance(client, dict):
            found[name] = HttpClient(name, match.group(1), client)
    return found


#: every dialect's name, in the order of ``common.schema.json`` ``dialectName`` (the order reports use)
DIALECT_NAMES: tuple[str, ...] = tuple(_dialect_names())
_CLIENTS = _clients()
PROVIDER_DIALECTS: tuple[str, ...] = tuple(_CLIENTS)


def http_client(dialect: str) -> HttpClient:
    """How a client calls ``dialect`` over HTTP; KeyError for a dialect that is no provider dialect."""
    return _CLIENTS[dialect]


def _pattern(client: HttpClient) -> re.Pattern[str]:
    """The paths of an endpoint: ``{model}`` any model, the method either of the two."""
    other = client.stream_method
    if other is not None:
        base, sep, method = client.path.rpartition(":")
        methods = "|".join(re.escape(m) for m in (method, other.lstrip(":")))
        body = re.escape(base).replace(re.escape("{model}"), "[^/:]+") + f"{sep}({methods})"
    else:
        body = re.escape(client.path).replace(re.escape("{model}"), "[^/:]+")
    return re.compile(body)


_PATTERNS = {name: _pattern(client) for name, client in _CLIENTS.items()}


def is_dialect_path(dialect: str, path: str) -> bool:
    """Whether ``path`` is the API of ``dialect`` (Gemini: either method, for any model)."""
    pattern = _PATTERNS.get(dialect)
    return pattern is not None and pattern.fullmatch(path) is not None


def expected_path(dialect: str) -> str:
    """The path a request to ``dialect`` goes to, as a message shows it."""
    client = _CLIENTS[dialect]
    return client.path if client.stream_method is None else f"{client.path} or {client.stream_method}"
