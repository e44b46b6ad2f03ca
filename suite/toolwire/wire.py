"""Validate payloads against wire schemas (``schemas/wire/<dialect>/<kind>.schema.json``) and corpus files.

Schemas reference each other by ``$id`` (``https://toolwire.dev/schemas/<relative path>``); every schema under
``schemas/`` is registered so ``$ref`` across files works. Validators are built once and cached.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import paths

__all__ = ["BASE_URI", "SchemaError", "schema_path", "validate", "validate_file"]

BASE_URI = "https://toolwire.dev/schemas/"
_MAX_ERRORS = 20
_lock = threading.Lock()


class SchemaError(Exception):
    """A schema file is unreadable or not a valid schema."""


def _root(schemas: Path | None) -> Path:
    return Path(schemas) if schemas is not None else paths.schemas_dir()


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
    cls = validator_for(schema)
    # validate through a one-line root that refers to the registered (already crawled) schema: the root
    # resource is the only uncrawled one, so reference lookups stay cheap
    stub = {"$ref": uri}
    if "$schema" in schema:
        stub["$schema"] = schema["$schema"]
    cls.check_schema(schema)
    return cls(stub, registry=_registry(root))


def _pointer(parts: Any) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _messages(validator: Any, instance: Any) -> list[str]:
    out: list[str] = []
    errors = sorted(
        validator.iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message)
    )
    for err in errors[:_MAX_ERRORS]:
        message = err.message if len(err.message) <= 300 else err.message[:299] + "…"
        out.append(f"{_pointer(err.absolute_path) or '/'}: {message}")
    if len(errors) > _MAX_ERRORS:
        out.append(f"(and {len(errors) - _MAX_ERRORS} more errors)")
    return out


def validate(dialect: str, kind: str, payload: Any, schemas: Path | None = None) -> list[str] | None:
    """Wire-schema errors as ``"<json pointer>: <message>"``; [] when valid, None when no schema exists."""
    root = _root(schemas).resolve()
    path = schema_path(dialect, kind, root)
    if not path.is_file():
        return None
    with _lock:
        validator = _validator(root, path.relative_to(root).as_posix())
    return _messages(validator, payload)


def validate_file(schema_relpath: str, instance: Any, schemas: Path | None = None) -> list[str]:
    """Errors of ``instance`` against ``schemas/<schema_relpath>`` (case, dialect, profiles ... files)."""
    root = _root(schemas).resolve()
    if not (root / schema_relpath).is_file():
        raise SchemaError(f"{root / schema_relpath}: no such schema")
    with _lock:
        validator = _validator(root, schema_relpath)
    return _messages(validator, instance)
