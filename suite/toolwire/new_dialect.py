"""``toolwire new-dialect NAME``: the files a new provider dialect starts from, and the checklist.

    toolwire new-dialect NAME [--corpus DIR] [--repo DIR] [--title TEXT] [--docs URL]

In a toolwire checkout (``--repo DIR``, or the checkout this toolwire runs from) it writes:

- the descriptor ``corpus/dialects/NAME.json`` (valid for schemas/dialect.schema.json; ``TODO`` marks each
  placeholder) and two example cases, ``corpus/cases/tools/NAME-example-from-canonical.json`` and
  ``corpus/cases/responses/NAME-example-to-canonical.json``;
- wire schema stubs ``schemas/wire/NAME/<kind>.schema.json`` (one per file the other dialects have), and
  NAME in ``dialectName`` of ``schemas/common.schema.json`` (the one edit to an existing file);
- the reference's package ``reference_impl/toolwire_reference/dialects/<package>/`` (``rules``, ``tools``,
  ``request``, ``response``, ``stream`` and its ``DIALECT``), whose codecs raise ``NotImplementedError``
  naming themselves until they are written;
- the harness's stream folder ``suite/toolwire/streams/<package>/`` (``GRAMMAR``, ``ACCUMULATOR``,
  ``RECHUNKER``), which reject every stream with a message naming the file to write;

then prints the numbered checklist of what to fill in. ``<package>`` is NAME with ``_`` for ``-``.
Registering the dialect (a line in ``registry.py`` and in ``streams/dialects.py``) is left to the user: a
skeleton is never run before it says something.

With ``--corpus DIR`` and no ``--repo`` (a user adding a provider to their own corpus, toolwire installed
as a package), only the corpus parts are written; the output lists what was skipped. Nothing is ever
overwritten: a bad NAME, an existing dialect, or a target that exists or cannot be written is refused
with exit code 2 before anything is written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import keyword
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths

__all__ = ["NAME_PATTERN", "Plan", "ScaffoldError", "main", "plan"]

#: a dialect name: lower-case words of letters and digits joined by ``-`` (``openai-chat``, ``gemini``)
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
MAX_NAME = 24
#: the wire schema files every provider dialect has (schemas/wire/anthropic/), and the kinds its descriptor
#: lists (a stream schema describes one event; `stream` is not listed as a kind by the other descriptors)
WIRE_FILES = ("tools", "tool_choice", "request", "response", "stream", "text")
KINDS = ("tools", "tool_choice", "request", "response", "text")
#: what each stub accepts until it is written (``text``: what the dialect writes for a text's calls)
_STUB_TYPES: dict[str, Any] = {
    "tools": {"type": "array", "items": {"type": "object"}},
    "tool_choice": {"type": "object"},
    "request": {"type": "object"},
    "response": {"type": "object"},
    "stream": {"type": "object"},
    "text": {"type": ["array", "object"]},
}
_STUB_WHAT = {
    "tools": "the request member that carries the tool list",
    "tool_choice": "the request members that carry the tool choice (`{}`: not specified)",
    "request": "the whole JSON request body",
    "response": "the whole non-streaming response body",
    "stream": "the `data` of ONE stream event (the order of events is the harness grammar's)",
    "text": "what the dialect writes for a model's text with tool calls in it (its content or message)",
}
PLACEHOLDER_DOCS = "https://todo.invalid/{name}-api-reference"
WEATHER_PARAMETERS = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "The city"}},
    "required": ["city"],
}


class ScaffoldError(Exception):
    """A refusal: the message says why; nothing was written."""


@dataclass
class Plan:
    """What one run writes (``files``: repository-relative path -> text), changes (``updates``), skips."""

    name: str
    package: str
    corpus: Path
    repo: Path | None
    files: dict[Path, str] = field(default_factory=dict)
    updates: dict[Path, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    def show(self, path: Path) -> str:
        """``path`` as the output names it: from the top of the checkout, else from the current directory
        (absolute when it is outside it)."""
        if self.repo is not None and path.is_relative_to(self.repo):
            return path.relative_to(self.repo).as_posix()
        rel = os.path.relpath(path)
        return path.as_posix() if rel.startswith("..") else Path(rel).as_posix()


# ---- where things go -----------------------------------------------------------------------------------


def is_checkout(top: Path) -> bool:
    """Whether ``top`` is a toolwire checkout: the reference's registry, the harness's stream list and the
    schemas are there to add a dialect to."""
    return (
        (top / "reference_impl" / "toolwire_reference" / "registry.py").is_file()
        and (top / "suite" / "toolwire" / "streams" / "dialects.py").is_file()
        and (top / "schemas" / "common.schema.json").is_file()
    )


def running_checkout() -> Path | None:
    """The checkout this toolwire runs from (``suite/toolwire/``'s grandparent), None when it is installed."""
    top = Path(__file__).resolve().parent.parent.parent
    return top if is_checkout(top) else None


def _package(name: str) -> str:
    return name.replace("-", "_")


def _class_stem(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def _check_name(name: str) -> None:
    if not NAME_PATTERN.match(name) or len(name) > MAX_NAME:
        raise ScaffoldError(
            f"{name!r} is not a dialect name: lower-case letters and digits, words joined by '-', starting "
            f"with a letter, at most {MAX_NAME} characters (like openai-chat or bedrock-converse)"
        )
    if keyword.iskeyword(_package(name)) or keyword.issoftkeyword(_package(name)):
        raise ScaffoldError(f"{name!r} cannot name a Python package (a keyword): choose another name")


def _dialect_names(schemas: Path) -> list[str]:
    try:
        common = json.loads((schemas / "common.schema.json").read_text(encoding="utf-8"))
        return list(common["$defs"]["dialectName"]["enum"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        where = schemas / "common.schema.json"
        raise ScaffoldError(f"cannot read the dialect names of {where}: {exc}") from exc


def _with_name(text: str, name: str) -> str:
    """``common.schema.json``'s text with ``name`` appended to ``dialectName``'s enum, the rest as it was."""
    found = re.search(r'("dialectName"\s*:\s*\{.*?"enum"\s*:\s*\[)(.*?)(\s*\])', text, re.S)
    if found is None:
        raise ScaffoldError("schemas/common.schema.json: no `dialectName` enum to add the name to")
    values = found.group(2)
    multiline = "\n" in values
    indent = re.search(r"\n(\s*)\S", values).group(1) if multiline else ""  # type: ignore[union-attr]
    addition = f",\n{indent}{json.dumps(name)}" if multiline else f", {json.dumps(name)}"
    new = text[: found.end(2)] + addition + text[found.end(2) :]
    before, after = json.loads(text), json.loads(new)
    after_enum = after["$defs"]["dialectName"].pop("enum")
    if after_enum != before["$defs"]["dialectName"].pop("enum") + [name] or after != before:
        raise ScaffoldError("schemas/common.schema.json: could not add the name to `dialectName` safely")
    return new


def _writable(path: Path) -> str | None:
    """Why ``path`` cannot be created (None when it can): it exists, or its nearest existing ancestor is not
    a directory this process may write."""
    if path.exists() or path.is_symlink():
        return f"{path} exists (new-dialect never overwrites a file)"
    parent = path.parent
    while not parent.exists():
        if parent.is_symlink() or parent == parent.parent:
            return f"{parent} is a dangling link or does not exist"
        parent = parent.parent
    if not parent.is_dir():
        return f"cannot write {path}: {parent} is not a directory"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write {path}: {parent} is not writable"
    return None


# ---- the plan ------------------------------------------------------------------------------------------


def plan(
    name: str,
    *,
    corpus: Path | None = None,
    repo: Path | None = None,
    title: str | None = None,
    docs: str | None = None,
) -> Plan:
    """Everything a run would write, checked: raises :class:`ScaffoldError` (nothing written) for a bad
    name, an existing dialect, or a target that exists or cannot be written."""
    _check_name(name)
    if repo is not None:
        repo = Path(repo).resolve()
        if not is_checkout(repo):
            raise ScaffoldError(
                f"{repo} is not a toolwire checkout (it needs reference_impl/toolwire_reference/registry.py, "
                "suite/toolwire/streams/dialects.py and schemas/common.schema.json)"
            )
    elif corpus is None:
        repo = running_checkout()
        if repo is None:
            raise ScaffoldError(
                "no corpus to add the dialect to: this toolwire is installed (no checkout around it), and "
                "its bundled corpus is not yours to change. Pass --corpus DIR (your corpus: the corpus "
                "parts only) or --repo DIR (a toolwire checkout: every part)"
            )
    corpus = Path(corpus).resolve() if corpus is not None else repo / "corpus"  # type: ignore[operator]
    if not (corpus / "dialects").is_dir():
        raise ScaffoldError(f"{corpus} is not a toolwire corpus (it has no dialects/ directory)")
    docs = docs or PLACEHOLDER_DOCS.format(name=name)
    if not re.match(r"^https://[^\s/]+\.[^\s/]+\S*$", docs):
        raise ScaffoldError(f"--docs {docs!r}: the provider's API reference as an https:// URL")
    schemas = repo / "schemas" if repo is not None else paths.schemas_dir()
    if name in _dialect_names(schemas) or (corpus / "dialects" / f"{name}.json").exists():
        raise ScaffoldError(
            f"{name!r} is already a dialect (in {schemas / 'common.schema.json'} or "
            f"{corpus / 'dialects'}): nothing written"
        )
    package = _package(name)
    out = Plan(name, package, corpus, repo)
    title = title or f"TODO: the API's name ({name})"
    out.files[corpus / "dialects" / f"{name}.json"] = _json(descriptor(name, title, docs))
    for case in example_cases(name, docs):
        out.files[corpus / "cases" / f"{case['id']}.json"] = _json(case)
    repo_parts = {
        f"schemas/wire/{name}/": {f"{kind}.schema.json": _json(wire_stub(name, kind)) for kind in WIRE_FILES},
        f"reference_impl/toolwire_reference/dialects/{package}/": reference_package(name),
        f"suite/toolwire/streams/{package}/": stream_package(name),
    }
    if repo is None:
        out.skipped = [*repo_parts, "schemas/common.schema.json (the name in `dialectName`)"]
    else:
        for folder, files in repo_parts.items():
            base = repo / folder
            module = base.parent / f"{base.name}.py"  # dialects/common.py, streams/grammar.py …
            if module.exists():
                raise ScaffoldError(f"{module} exists, so {name!r} cannot name a package: choose another")
            if base.exists():
                raise ScaffoldError(f"{base} exists (new-dialect never overwrites a file): nothing written")
            for rel, text in files.items():
                out.files[base / rel] = text
        common = repo / "schemas" / "common.schema.json"
        out.updates[common] = _with_name(common.read_text(encoding="utf-8"), name)
    for path in out.files:
        why = _writable(path)
        if why is not None:
            raise ScaffoldError(why + ": nothing written")
    for path in out.updates:
        if not os.access(path, os.W_OK):
            raise ScaffoldError(f"cannot write {path}: nothing written")
    return out


def write(run: Plan) -> None:
    """Write ``run``'s files and updates; on an error, remove what was written and restore what was
    updated, then raise :class:`ScaffoldError`."""
    made: list[Path] = []
    dirs: list[Path] = []
    old: dict[Path, str] = {}
    try:
        for path, text in run.files.items():
            missing = [p for p in reversed(path.parents) if not p.exists()]
            for directory in missing:
                directory.mkdir()
                dirs.append(directory)
            with path.open("x", encoding="utf-8", newline="\n") as handle:
                made.append(path)
                handle.write(text)
        for path, text in run.updates.items():
            old[path] = path.read_text(encoding="utf-8")
            path.write_text(text, encoding="utf-8", newline="\n")
    except OSError as exc:
        for path in made:
            path.unlink(missing_ok=True)
        for directory in reversed(dirs):
            with contextlib.suppress(OSError):
                directory.rmdir()
        for path, text in old.items():
            path.write_text(text, encoding="utf-8", newline="\n")
        raise ScaffoldError(f"cannot write: {exc} (what was written is removed again)") from exc


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


# ---- the corpus parts ----------------------------------------------------------------------------------


def descriptor(name: str, title: str, docs: str) -> dict[str, Any]:
    """``corpus/dialects/NAME.json``: every required member, and the ones a provider dialect usually has,
    each ``TODO`` a placeholder to replace with what the provider's sources say."""
    sources = [docs]
    return {
        "name": name,
        "title": title,
        "description": f"TODO: the endpoint (POST /…) and how {name} spells tools, the tool choice, "
        "tool calls and their results.",
        "kinds": list(KINDS),
        "tool_name": {
            "pattern": "^[a-zA-Z0-9_-]{1,64}$",
            "max_length": 64,
            "notes": "TODO: a placeholder (the rule most providers state); write the provider's own rule, "
            "and the same pattern in the reference's rules.py.",
            "sources": sources,
        },
        "call_id_prefix": None,
        "call_ids": {
            "notes": "TODO: the prefix of the tool-call ids the provider generates (read it in a capture), "
            "or null when it has no convention; the reference's rules.py says the same.",
            "sources": sources,
        },
        "finish_reasons": {
            "field": "TODO: where the reason is (a path in the response)",
            "values": ["TODO"],
            "tool_calls": None,
            "notes": "TODO: the full enum of the SDK's type, and the value that marks a tool-call turn.",
            "sources": sources,
        },
        "stream_framing": {
            "transport": "sse",
            "event_names": False,
            "terminator": None,
            "description": "TODO: how a stream is framed (SSE event names? a [DONE] terminator? AWS event "
            "stream?) and the order of its events, from a recorded stream.",
            "sources": sources,
        },
        "request": {
            "endpoint": "TODO: POST /…",
            "required": [],
            "roles": ["user", "assistant"],
            "notes": "TODO: the members the provider requires, the roles, the content block types.",
            "sources": sources,
        },
        "response": {
            "object": "TODO: what the body is",
            "required": [],
            "usage": "TODO: where usage is counted and what the input count includes",
            "sources": sources,
        },
        "schema_keywords": {
            "applies": "always",
            "field": "TODO: the member that carries a tool's JSON Schema",
            "supported": "*",
            "removed": [],
            "unsupported": [],
            "formats": "*",
            "notes": "TODO: the JSON Schema keywords the provider rejects or ignores ('*': all kept).",
            "sources": sources,
        },
        "docs": [docs],
        "notes": [
            f"TODO: written by `toolwire new-dialect {name}`. Replace every TODO with what the provider's "
            "API reference, official SDK types and captures say, and cite them. Then add `http_errors` and "
            "`minimal_reply` (the http: adapter's mock upstream), `equivalent`, `judged` and `lift` as "
            "corpus/dialects/anthropic.json has them; schemas/dialect.schema.json says what each means."
        ],
        "sources": sources,
    }


def example_cases(name: str, docs: str) -> list[dict[str, Any]]:
    """Two example cases: a canonical tool list to NAME, and a NAME response with a call to canonical."""
    tool = {
        "name": "get_weather",
        "description": "Get the weather for a city",
        "parameters": WEATHER_PARAMETERS,
    }
    return [
        {
            "id": f"tools/{name}-example-from-canonical",
            "title": f"TODO (example): a canonical tool list as {name} spells it",
            "features": ["tools.wrapper", "tools.description"],
            "level": "must",
            "kind": "tools",
            "source": {"dialect": "canonical", "payload": [tool]},
            "expect": [{"dialect": name, "payload": [tool]}],
            "refs": [docs],
            "notes": f"TODO: an example written by `toolwire new-dialect {name}`: its expected payload is "
            f"the canonical list, a placeholder. Write the list as {name}'s API reference (or a capture) "
            "spells it, add the other dialects as sources or targets, and cite what it is based on.",
        },
        {
            "id": f"responses/{name}-example-to-canonical",
            "title": f"TODO (example): a {name} response with one tool call becomes a canonical tool_use",
            "features": ["calls.single", "response.stop-reason-with-calls"],
            "level": "must",
            "kind": "response",
            "source": {
                "dialect": name,
                "payload": {
                    "TODO": f'a {name} response body with one call get_weather({{"city": "Paris"}}): '
                    f"best a capture (corpus/captures/{name}/…, with its provenance)"
                },
            },
            "expect": [
                {
                    "dialect": "canonical",
                    "payload": {
                        "content": [
                            {
                                "type": "tool_call",
                                "id": "TODO: the call's id in the source",
                                "name": "get_weather",
                                "arguments": {"city": "Paris"},
                            }
                        ],
                        "stop_reason": "tool_use",
                    },
                }
            ],
            "refs": [docs],
            "notes": f"TODO: an example written by `toolwire new-dialect {name}`: the source is a "
            "placeholder. Put a real response body there (from a capture), the canonical response it means "
            "in the expectation, and the other dialects as targets.",
        },
    ]


def wire_stub(name: str, kind: str) -> dict[str, Any]:
    """``schemas/wire/NAME/<kind>.schema.json``: a stub that accepts any value of the right JSON type."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://toolwire.dev/schemas/wire/{name}/{kind}.schema.json",
        "title": f"{name} {kind.replace('_', ' ')} (TODO: a stub)",
        "description": f"TODO: {_STUB_WHAT[kind]} as the provider accepts it, from its API reference and "
        f"official SDK types (cite them here), as schemas/wire/anthropic/{kind}.schema.json does. Written by "
        "`toolwire new-dialect`: until then it accepts any value of this JSON type, so toolwire lint "
        f"checks nothing of {name}'s payloads.",
        **_STUB_TYPES[kind],
    }


# ---- the code parts ------------------------------------------------------------------------------------

_REF_INIT = '''\
"""The {name} dialect, whole: ``rules`` (its rule tables), ``tools`` (tools and tool
choice), ``request``, ``response`` and ``stream`` (decoder and encoder); ``DIALECT`` holds them for the
registry.

TODO: written by ``toolwire new-dialect`` as a skeleton: every codec raises ``NotImplementedError``
until it is written. Register it in ``registry.py`` once it translates something.
"""

from ...dialect import Dialect
from . import request, response, tools
from .rules import RULES
from .stream import {cls}Decoder, {cls}Encoder

DIALECT = Dialect(
    RULES, tools, request, response, {cls}Decoder, {cls}Encoder
)
'''

_REF_RULES = '''\
"""The {name} dialect's rules as data (``RULES``; what each field means:
``rules.DialectRules``).

TODO: kept equal to corpus/dialects/{name}.json (tests/reference/test_ref_api.py compares
them once the dialect is registered): the tool-name pattern, ``call_id_prefix``, ``http`` (its path is
the descriptor's ``request.endpoint``, once it has ``http_errors``), and the stop reasons both ways
(corpus/RULES.md, "Stop reasons").
"""

from __future__ import annotations

from ...rules import DialectRules

# TODO: how `toolwire serve` speaks the API, once the descriptor has `http_errors`: an HttpApi (rules.py
# says what each field means; dialects/anthropic/rules.py and gemini/rules.py are examples):
#     HTTP = HttpApi(
#         "/v1/TODO",  # the path; "{{model}}" where the model is named in the path
#         ErrorShape(ERROR_BODY),  # ERROR_BODY: the error body's template, with Slot and Coded values
#         key_header="authorization",  # the API key's header, and what its value starts with
#         key_prefix="Bearer ",
#     )
# and `http=HTTP` below (from ...rules import ErrorShape, HttpApi, Slot). None: not served over HTTP.
HTTP = None

RULES = DialectRules(
    name="{name}",
    tool_name_pattern=r"^[a-zA-Z0-9_-]{{1,64}}$",
    http=HTTP,
    call_id_prefix=None,
    # TODO: prefixes of the provider's other ids a call id may carry (an item id), if any
    other_id_prefixes=(),
    # TODO: True when the provider signs its model's reasoning (signatures go back only to it)
    issues_signatures=False,
    request_ignorable=frozenset(),
    stop_reasons_in={{}},
    stop_reasons_out={{}},
)
'''

_REF_TOOLS = '''\
"""{name}: tools and the tool choice (kinds ``tools`` and ``tool_choice``).

TODO: a skeleton written by ``toolwire new-dialect``; each function raises ``NotImplementedError``
until it is written. ``dialects/anthropic/tools.py`` is a complete example; ``dialects/common.py`` and
``choice.py`` hold what the dialects share.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...dialect import not_written
from ...model import Choice, Tool


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    """The {name} tool list ``payload`` as canonical tools."""
    raise not_written(__name__, "decode_tools")


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """True when ``encode_tools`` copies parameter schemas unchanged (``validate_tools(copies=...)``)."""
    raise not_written(__name__, "copies_schemas")


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    """Canonical tools as the {name} tool list."""
    raise not_written(__name__, "encode_tools")


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    """The {name} request members that carry the tool choice, as a canonical choice."""
    raise not_written(__name__, "decode_tool_choice")


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    """A canonical choice as the {name} request members that carry it."""
    raise not_written(__name__, "encode_tool_choice")
'''

_REF_REQUEST = '''\
"""{name} request bodies ↔ the canonical request (kind ``request``).

TODO: a skeleton written by ``toolwire new-dialect``; each function raises ``NotImplementedError``
until it is written. ``dialects/anthropic/request.py`` is a complete example; ``request.py`` and
``messages.py`` hold what the dialects share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dialect import not_written
from ...request import Request


def decode_request(payload: Any, profile: Mapping[str, str]) -> Request:
    """A {name} request body as a canonical request."""
    raise not_written(__name__, "decode_request")


def encode_request(req: Request, profile: Mapping[str, str]) -> dict:
    """A canonical request as a {name} request body."""
    raise not_written(__name__, "encode_request")
'''

_REF_RESPONSE = '''\
"""{name} non-streaming responses ↔ the canonical response (kind ``response``), and the
``text`` kind's output in {name}'s form.

TODO: a skeleton written by ``toolwire new-dialect``; each function raises ``NotImplementedError``
until it is written. ``dialects/anthropic/response.py`` is a complete example; ``dialects/response_common.py``
and ``calls.py`` hold what the dialects share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dialect import not_written


def decode_response(payload: Any, profile: Mapping[str, str]) -> dict:
    """A {name} response body as a canonical response."""
    raise not_written(__name__, "decode_response")


def encode_response(canonical: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
    """A canonical response as a {name} response body."""
    raise not_written(__name__, "encode_response")


def encode_text(parts: list[dict], profile: Mapping[str, str]) -> Any:
    """Kind ``text``: the parts of a text (text and tool calls) in {name}'s form."""
    raise not_written(__name__, "encode_text")
'''

_REF_STREAM = '''\
"""{name} streams ↔ canonical stream events (kind ``stream``; corpus/RULES.md, "Streams").

TODO: a skeleton written by ``toolwire new-dialect``: both classes raise ``NotImplementedError`` until
they are written. ``dialects/anthropic/stream.py`` is a complete example; ``streams/base.py`` has the
shared bookkeeping (open blocks, canonical event builders, truncation).
"""

from __future__ import annotations

from typing import Any

from ...dialect import not_written
from ...streams.base import Decoder, Encoder
from .rules import RULES


class {cls}Decoder(Decoder):
    """{name} stream events → canonical stream events."""

    dialect = RULES.name

    def on_data(self, data: Any) -> list[dict]:
        raise not_written(__name__, "{cls}Decoder.on_data")


class {cls}Encoder(Encoder):
    """Canonical stream events → {name} stream events."""

    dialect = RULES.name

    def feed(self, event: dict) -> list[dict]:
        raise not_written(__name__, "{cls}Encoder.feed")
'''

_STREAM_INIT = '''\
"""{name} streams: the grammar (:mod:`.grammar`), the accumulator
(:mod:`.accumulate`) and the re-chunker (:mod:`.rechunk`), side by side.

TODO: skeletons written by ``toolwire new-dialect``; add the package to ``streams/dialects.py``
once they are written."""

from .accumulate import ACCUMULATOR
from .grammar import GRAMMAR
from .rechunk import RECHUNKER

__all__ = ["ACCUMULATOR", "GRAMMAR", "RECHUNKER"]
'''

_STREAM_RECHUNK = '''\
"""{name} stream fragments: how re-chunking
(:mod:`toolwire.streams.rechunk`) reads and writes them.

TODO: a skeleton written by ``toolwire new-dialect``: it raises until it is written, so the re-chunked
variants of the stream checks from {name}
error (naming this file) instead of passing on an unchanged stream.
``streams/anthropic/rechunk.py`` is a complete example; ``streams/rechunk.py`` is the engine.
"""

from __future__ import annotations

from typing import Any

from ..rechunk import Key, Rechunker

NOT_WRITTEN = (
    "the {name} re-chunker is not written yet "
    "(suite/toolwire/streams/{package}/rechunk.py)"
)


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    """TODO: (the block's key, "text" or "arguments", the fragment) of an event carrying exactly one
    fragment, else None."""
    raise NotImplementedError(NOT_WRITTEN)


def put_fragment(data: Any, text: str, position: int, count: int) -> Any:
    """TODO: ``data`` with ``text`` as its fragment, the ``position``-th of ``count`` events cut from it."""
    raise NotImplementedError(NOT_WRITTEN)


RECHUNKER = Rechunker(get_fragment, put_fragment)
'''

_STREAM_GRAMMAR = '''\
"""{name} stream grammar.

TODO: a skeleton written by ``toolwire new-dialect``: it rejects every stream (rule
``{name}.not-written``) until its rules are written from recorded streams
(corpus/captures/{name}/) and the API reference. ``streams/anthropic/grammar.py`` is a
complete example; ``streams/grammar.py`` is the engine.
"""

from __future__ import annotations

from typing import Any

from ..grammar import Grammar

NOT_WRITTEN = (
    "the {name} stream grammar is not written yet "
    "(suite/toolwire/streams/{package}/grammar.py)"
)


class {cls}Grammar(Grammar):
    dialect = "{name}"
    #: TODO: True when SSE `event:` lines name the events (equal to data.type), False when there are none
    event_names = None
    #: TODO: True when a tool call is only ever sent whole, and when blocks come one after the other (else
    #: the incrementality measure expects more of the dialect than it can do)
    whole_calls = False
    sequential = False

    def on_event(self, name: str | None, data: Any) -> None:
        raise self.fail("not-written", NOT_WRITTEN)

    def on_end(self) -> None:
        raise self.fail("not-written", NOT_WRITTEN, at_end=True)


GRAMMAR = {cls}Grammar
'''

_STREAM_ACCUMULATE = '''\
"""The {name} stream accumulator: a ``{name}`` stream -> its non-streaming
response body.

TODO: a skeleton written by ``toolwire new-dialect``: it refuses every stream
(``stream.invalid_event``) until it is written, as the provider's SDK accumulates a stream. Say here exactly
which body it builds; ``streams/anthropic/accumulate.py`` is a complete example.
"""

from __future__ import annotations

from typing import Any

from ..accumulate import Accumulator, Fragment

__all__ = ["ACCUMULATOR", "{cls}Accumulator"]

NOT_WRITTEN = (
    "the {name} stream accumulator is not written yet "
    "(suite/toolwire/streams/{package}/accumulate.py)"
)


class {cls}Accumulator(Accumulator):
    dialect = "{name}"

    def on_data(self, data: Any) -> list[Fragment] | None:
        raise self.invalid(NOT_WRITTEN)

    def build(self) -> Any:
        raise self.invalid(NOT_WRITTEN)


ACCUMULATOR = {cls}Accumulator
'''


def _fill(template: str, name: str) -> str:
    return template.format(name=name, package=_package(name), cls=_class_stem(name))


def reference_package(name: str) -> dict[str, str]:
    """The reference's package for ``name``: file name -> source."""
    templates = {
        "__init__.py": _REF_INIT,
        "rules.py": _REF_RULES,
        "tools.py": _REF_TOOLS,
        "request.py": _REF_REQUEST,
        "response.py": _REF_RESPONSE,
        "stream.py": _REF_STREAM,
    }
    return {file: _fill(text, name) for file, text in templates.items()}


def stream_package(name: str) -> dict[str, str]:
    """The harness's stream folder for ``name``: file name -> source."""
    templates = {
        "__init__.py": _STREAM_INIT,
        "grammar.py": _STREAM_GRAMMAR,
        "accumulate.py": _STREAM_ACCUMULATE,
        "rechunk.py": _STREAM_RECHUNK,
    }
    return {file: _fill(text, name) for file, text in templates.items()}


# ---- the checklist -------------------------------------------------------------------------------------


def checklist(run: Plan) -> list[str]:
    """What is left to do, in order, each step naming its files."""
    name, package = run.name, run.package
    desc = run.show(run.corpus / "dialects" / f"{name}.json")
    cases = [run.show(p) for p in run.files if "/cases/" in p.as_posix()]
    ref = f"reference_impl/toolwire_reference/dialects/{package}/"
    streams = f"suite/toolwire/streams/{package}/"
    steps = [
        f"Captures: real {name} traffic (requests, responses, streams, errors) under "
        f"corpus/captures/{name}/, byte for byte, each with its entry in corpus/captures/provenance.json "
        "(corpus/captures/README.md).",
        f"Descriptor {desc}: replace every TODO with what the API reference, the official SDK types and "
        "the captures say, citing them in `sources`; then add http_errors, http_client, minimal_reply, "
        "equivalent, "
        "judged and lift (corpus/dialects/anthropic.json has them all; schemas/dialect.schema.json says "
        "what each means).",
        f"Wire schemas schemas/wire/{name}/*.schema.json: replace each stub with the provider's shape "
        "(schemas/wire/anthropic/ is the model); every capture must validate.",
        f"Reference {ref}: rules.py first (equal to the descriptor; its `http` is how `toolwire serve` "
        "speaks the API, equal to the descriptor's http_client), then tools, request, response and "
        f"stream; register it in reference_impl/toolwire_reference/registry.py: add {package} to "
        f"`from .dialects import …` and the line `    {package}.DIALECT,` to DIALECTS.",
        f"Harness streams {streams}grammar.py, accumulate.py and rechunk.py: the order of {name}'s events, "
        "the body they accumulate to, and how an event's one text or argument fragment is read and "
        f"rewritten; register them in suite/toolwire/streams/dialects.py: add {package} to "
        f"`from . import …` and to _PACKAGES.",
        f"corpus/RULES.md: {name}'s rules in each section, where the other dialects have theirs (a "
        f"`### {name} target` under 'Tool definitions', rows in 'Tool choice', 'Stop reasons', 'Reading each "
        "dialect' and 'Writing each dialect' for streams), each with its source.",
        "corpus/features.json for a rule of the dialect's own (each feature covered by a case); "
        "corpus/profiles.json only where correct translators legitimately differ (`affects.targets`).",
        f"Cases: replace the two examples ({', '.join(cases)}) and add one from every capture and one per "
        f"rule; `toolwire lint`, then `toolwire run -k {name} --report tmp` against the reference.",
        f"Peers: where a peer translates to or from {name} and can be driven offline, declare the pairs in "
        f"suite/toolwire/peers/<peer>.py; run `toolwire run --adapter peer:<peer> -k {name} --report tmp`"
        " and check that each failure is a real bug of theirs (or fix the case).",
        "docs: the dialect in README.md and corpus/README.md ('Payloads per kind'); a line for "
        "corpus/CHANGELOG.md and a minor corpus/VERSION. Done when `grep -rn TODO` finds nothing in the "
        "files written here.",
    ]
    if run.repo is None:
        steps.insert(
            0,
            f"In a toolwire checkout: `toolwire new-dialect {name} --repo DIR` writes the parts skipped here "
            "(toolwire lint reports the name and wire schemas missing until toolwire's schemas know them).",
        )
    return [f"{i}. {step}" for i, step in enumerate(steps, 1)]


# ---- the command ---------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``toolwire new-dialect``: 0 when the files are written, 2 on a refusal (nothing written)."""
    parser = argparse.ArgumentParser(
        prog="toolwire new-dialect",
        description="Start a new provider dialect: its descriptor, wire schema stubs, the reference's and "
        "the harness's skeletons and two example cases, then the checklist of what to fill in. Never "
        "overwrites.",
    )
    parser.add_argument("name", help="the dialect's name: lower-case words joined by '-' (e.g. acme-chat)")
    parser.add_argument(
        "--corpus", metavar="DIR", default=None, help="the corpus to add it to (default: the checkout's)"
    )
    parser.add_argument(
        "--repo",
        metavar="DIR",
        default=None,
        help="the toolwire checkout to add the schemas and code to (default: the one this toolwire runs "
        "from, unless --corpus is given: then the corpus parts only)",
    )
    parser.add_argument("--title", default=None, help="the descriptor's title (e.g. 'Acme Chat API')")
    parser.add_argument("--docs", metavar="URL", default=None, help="the provider's API reference (https)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        run = plan(
            args.name,
            corpus=Path(args.corpus) if args.corpus else None,
            repo=Path(args.repo) if args.repo else None,
            title=args.title,
            docs=args.docs,
        )
        write(run)
    except ScaffoldError as exc:
        print(f"toolwire new-dialect: {exc}", file=sys.stderr)
        return 2
    print(f"toolwire new-dialect: {run.name}")
    for path in run.files:
        print(f"  wrote   {run.show(path)}")
    for path in run.updates:
        print(f"  updated {run.show(path)} (dialectName: + {run.name!r})")
    for part in run.skipped:
        print(f"  skipped {part} (no toolwire checkout: --repo DIR)")
    print("\nWhat to fill in, in order:")
    for line in checklist(run):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
