"""Validate payloads against wire schemas (``schemas/wire/<dialect>/<kind>.schema.json``) and corpus files.

Schemas reference each other by ``$id`` (``https://toolwire.dev/schemas/<relative path>``); every schema under
``schemas/`` is registered so ``$ref`` across files works. Validators are built once and cached.
"""

from __future__ import annotations

import json
import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import paths
from .verdict_cache import store_for

__all__ = [
    "BASE_URI",
    "SchemaError",
    "declared_names",
    "schema_path",
    "validate",
    "validate_file",
    "validate_tolerant",
]

BASE_URI = "https://toolwire.dev/schemas/"
_DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
_MAX_ERRORS = 20
_lock = threading.Lock()


class SchemaError(Exception):
    """A schema file is unreadable or not a valid schema."""


def _root(schemas: Path | None) -> Path:
    return Path(schemas) if schemas is not None else paths.schemas_dir()


@lru_cache(maxsize=64)
def _resolved(schemas: Path | None) -> Path:
    """The absolute schemas directory (resolving a path touches the file system: once per directory)."""
    return _root(schemas).resolve()


def schema_path(dialect: str, kind: str, schemas: Path | None = None) -> Path:
    """The wire schema file of (dialect, kind); canonical: ``schemas/canonical/<kind>.schema.json``."""
    root = _root(schemas)
    if dialect == "canonical":
        return root / "canonical" / f"{kind}.schema.json"
    return root / "wire" / dialect / f"{kind}.schema.json"


@lru_cache(maxsize=8)
def _registry(root: Path) -> Any:
    from referencing import Resource
    from referencing.jsonschema import DRAFT202012

    resources = []
    for path in sorted(root.rglob("*.json")):
        try:
            doc = json.loads(path.read_bytes())
        except (OSError, ValueError) as exc:
            raise SchemaError(f"{path}: {exc}") from exc
        if not isinstance(doc, dict):
            continue
        if doc.get("$schema") == _DRAFT_2020_12:
            # the draft is the default: without `$schema`, a `$ref` into this file keeps the validator
            # class (jsonschema picks a referenced schema's class by its `$schema`): toolwire's keywords hold
            doc = {k: v for k, v in doc.items() if k != "$schema"}
        resource = Resource.from_contents(doc, default_specification=DRAFT202012)
        uri = BASE_URI + path.relative_to(root).as_posix()
        resources.append((uri, resource))
        if isinstance(doc.get("$id"), str) and doc["$id"] != uri:
            resources.append((doc["$id"], resource))
    from jsonschema_specifications import REGISTRY as SPECIFICATIONS

    # crawled once, with the metaschemas: an uncrawled registry re-crawls on every `$dynamicRef` lookup
    return SPECIFICATIONS.with_resources(resources).crawl()


@lru_cache(maxsize=256)
def _validator(root: Path, rel: str) -> Any:
    from jsonschema.validators import validator_for

    path = root / rel
    try:
        schema = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise SchemaError(f"{path}: {exc}") from exc
    if not isinstance(schema, dict):
        raise SchemaError(f"{path}: a schema must be a JSON object")
    uri = schema.get("$id") if isinstance(schema.get("$id"), str) else BASE_URI + rel
    cls = with_toolwire_keywords(validator_for(schema))
    # validate through a one-line root that refers to the registered (already crawled) schema: the root
    # resource is the only uncrawled one, so reference lookups stay cheap
    stub = {"$ref": uri}
    if "$schema" in schema:
        stub["$schema"] = schema["$schema"]
    cls.check_schema(schema)
    return cls(stub, registry=_registry(root))


#: keywords toolwire adds to JSON Schema for provider rules no standard keyword can say (INTERPRETING.md,
#: "Wire validation"); a validator that does not know them ignores them, as JSON Schema says
TOOLWIRE_KEYWORDS = ("requiredInProperties", "toolResultsAnswerCalls", "toolMessagesAnswerCalls")


def _required_in_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
    """``requiredInProperties: true``: every name an object's ``required`` lists is a key of its
    ``properties`` (Gemini: ``parameters.required[0]: property is not defined``)."""
    from jsonschema.exceptions import ValidationError

    if value is not True or not isinstance(instance, dict) or not isinstance(instance.get("required"), list):
        return
    defined = instance.get("properties")
    defined = defined if isinstance(defined, dict) else {}
    for i, name in enumerate(instance["required"]):
        if isinstance(name, str) and name not in defined:
            yield ValidationError(f"{name!r} is required but not defined in properties", path=["required", i])


def _tool_results_answer_calls(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
    """``toolResultsAnswerCalls: true`` on a message list: every ``tool_result`` block of a user message
    answers a ``tool_use`` block of the last assistant message before it (Anthropic: ``unexpected
    `tool_use_id` found in `tool_result` blocks ... Each `tool_result` block must have a corresponding
    `tool_use` block in the previous message``)."""
    from jsonschema.exceptions import ValidationError

    if value is not True or not isinstance(instance, list):
        return
    calls: set[Any] = set()
    for i, message in enumerate(instance):
        blocks = message.get("content") if isinstance(message, dict) else None
        blocks = blocks if isinstance(blocks, list) else []
        if isinstance(message, dict) and message.get("role") == "user":
            for j, block in enumerate(blocks):
                result = isinstance(block, dict) and block.get("type") == "tool_result"
                if result and block.get("tool_use_id") not in calls:
                    call = block.get("tool_use_id")
                    said = f"tool_result {call!r} answers no tool_use of the last assistant turn"
                    yield ValidationError(said, path=[i, "content", j, "tool_use_id"])
        if isinstance(message, dict) and message.get("role") == "assistant":  # user turns in a row are one
            calls = {b.get("id") for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"}


def _tool_messages_answer_calls(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
    """``toolMessagesAnswerCalls: true`` on a Chat message list: every ``tool`` message answers a call of
    the assistant message the tool messages before it follow (OpenAI: ``messages with role 'tool' must be
    a response to a preceeding message with 'tool_calls'``; ``'tool_call_id' of '…' not found in
    'tool_calls' of previous message``)."""
    from jsonschema.exceptions import ValidationError

    if value is not True or not isinstance(instance, list):
        return
    calls: set[Any] = set()
    for i, message in enumerate(instance):
        role = message.get("role") if isinstance(message, dict) else None
        if role == "tool" and message.get("tool_call_id") not in calls:
            call = message.get("tool_call_id")
            yield ValidationError(
                f"tool message {call!r} answers no call of the message before it", path=[i, "tool_call_id"]
            )
        elif role == "assistant":
            found = message.get("tool_calls")
            calls = {c.get("id") for c in found if isinstance(c, dict)} if isinstance(found, list) else set()
        elif role != "tool":
            calls = set()


@lru_cache(maxsize=8)
def with_toolwire_keywords(cls: Any) -> Any:
    """``cls`` (a jsonschema validator class) that also checks toolwire's keywords (``TOOLWIRE_KEYWORDS``)."""
    from jsonschema.validators import extend

    return extend(
        cls,
        {
            "requiredInProperties": _required_in_properties,
            "toolResultsAnswerCalls": _tool_results_answer_calls,
            "toolMessagesAnswerCalls": _tool_messages_answer_calls,
        },
    )


def _pointer(parts: Any) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _extensions(error: Any) -> list[str] | None:
    """When ``error`` is only about what a client ignores (members the schema does not know, a null
    member), the pointers of the unknown members; else None. A ``oneOf``/``anyOf`` error counts when one
    of its branches fails only that way."""
    if error.instance is None and error.validator in ("type", "enum", "const"):
        return []  # a null member (`delta.role: null`): read as absent by the SDKs
    if error.validator == "additionalProperties" and error.validator_value is False:
        known = error.schema.get("properties", {})
        patterns = list(error.schema.get("patternProperties", {}))
        base = _pointer(error.absolute_path)
        return [
            f"{base}/{_pointer([key])[1:]}"
            for key in error.instance
            if key not in known and not any(re.search(p, key) for p in patterns)
        ]
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[Any]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        for subs in branches.values():
            found = [_extensions(sub) for sub in subs]
            if all(f is not None for f in found):
                return [p for f in found for p in f or ()]
    return None


def _unexpected(pointer: str) -> str:
    """The error line of an unknown member at ``pointer``, as jsonschema words it for its object."""
    parent, _, key = pointer.rpartition("/")
    name = key.replace("~1", "/").replace("~0", "~")
    return f"{parent or '/'}: Additional properties are not allowed ({name!r} was unexpected)"


def _messages(validator: Any, instance: Any, extensions: set[str] | None = None) -> list[str]:
    """Error lines; with ``extensions``, errors about unknown members are left out and their pointers
    added to it instead."""
    out: list[str] = []
    errors = sorted(
        validator.iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message)
    )
    if extensions is not None:
        kept = []
        for err in errors:
            found = _extensions(err)
            if found is None:
                kept.append(err)
            else:
                extensions.update(found)
        errors = kept
    for err in errors[:_MAX_ERRORS]:
        unknown = _extensions(err) if err.validator in ("oneOf", "anyOf") else None
        if unknown:  # a branch fails only by unknown members: name them, not "valid under none"
            out += [_unexpected(pointer) for pointer in unknown]
            continue
        message = err.message if len(err.message) <= 300 else err.message[:299] + "…"
        out.append(f"{_pointer(err.absolute_path) or '/'}: {message}")
    if len(errors) > _MAX_ERRORS:
        out.append(f"(and {len(errors) - _MAX_ERRORS} more errors)")
    return out


@lru_cache(maxsize=256)
def _wire_validator(dialect: str, kind: str, schemas: Path | None) -> Any:
    """The cached validator of the (dialect, kind) wire schema; None when there is no such schema."""
    root = _resolved(schemas)
    path = schema_path(dialect, kind, root)
    if not path.is_file():
        return None
    with _lock:
        return _validator(root, path.relative_to(root).as_posix())


def _verdict(
    dialect: str, kind: str, payload: Any, schemas: Path | None, tolerant: bool
) -> tuple[list[str], set[str]] | None:
    """The verdict on ``payload``, given once per distinct payload and kept between runs
    (toolwire.corpus.verdict_cache)."""
    root = _resolved(schemas)
    store = store_for(root)
    try:
        key: str | None = store.key(dialect, kind, tolerant, payload)
    except (TypeError, ValueError, RecursionError):
        key = None  # not JSON: validated as it is, never kept
    if key is not None:
        known, kept = store.get(key)
        if known:
            return None if kept is None else (list(kept[0]), set(kept[1]))
    validator = _wire_validator(dialect, kind, root)
    found: tuple[list[str], set[str]] | None = None
    if validator is not None:
        extensions: set[str] = set()
        found = (_messages(validator, payload, extensions if tolerant else None), extensions)
    if key is not None:
        store.put(key, None if found is None else (list(found[0]), sorted(found[1])))
    return found


def validate(dialect: str, kind: str, payload: Any, schemas: Path | None = None) -> list[str] | None:
    """Wire-schema errors as ``"<json pointer>: <message>"``; [] when valid, None when no schema exists."""
    found = _verdict(dialect, kind, payload, schemas, False)
    return None if found is None else found[0]


def validate_tolerant(
    dialect: str, kind: str, payload: Any, schemas: Path | None = None
) -> tuple[list[str], set[str]] | None:
    """Like :func:`validate`, for what a client reads (responses, stream events): members the schema does
    not know (vendor extensions, fields newer than the schema) and null members are not errors; the
    unknown members' pointers come back as the second item. None when no schema exists."""
    return _verdict(dialect, kind, payload, schemas, True)


def declared_names(dialect: str, kind: str, schemas: Path | None = None) -> frozenset[str]:
    """Every member name the (dialect, kind) wire schema declares somewhere (``properties`` keys, in it and
    in the schemas of its directory it refers to): a member named otherwise is a vendor extension."""
    root = _resolved(schemas)
    return _declared(root, schema_path(dialect, kind, root).relative_to(root).as_posix())


@lru_cache(maxsize=64)
def _declared(root: Path, rel: str) -> frozenset[str]:
    names: set[str] = set()
    seen: set[Path] = set()
    todo = [root / rel]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        stack = [json.loads(path.read_bytes())]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("properties"), dict):
                    names.update(node["properties"])
                ref = node.get("$ref")
                if isinstance(ref, str) and not ref.startswith(("#", "http")):
                    todo.append(path.parent / ref.split("#")[0])
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return frozenset(names)


def validate_file(schema_relpath: str, instance: Any, schemas: Path | None = None) -> list[str]:
    """Errors of ``instance`` against ``schemas/<schema_relpath>`` (case, dialect, profiles ... files)."""
    root = _resolved(schemas)
    if not (root / schema_relpath).is_file():
        raise SchemaError(f"{root / schema_relpath}: no such schema")
    with _lock:
        validator = _validator(root, schema_relpath)
    return _messages(validator, instance)
