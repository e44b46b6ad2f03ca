"""Write ``definitions/<dialect>.schema.json``: each provider's own definition of what it accepts and sends,
as one JSON Schema per dialect, from the official SDKs and service model pinned in ``requirements.txt``.

Run it with ``make official-definitions`` (a throwaway venv with exactly those pins); the tests read only its
output, so they need no SDK and run offline. Every entry point is a ``$defs`` member named ``entry.<name>``:
``request``, ``response``, ``stream_event``, ``error``, ``tools``, ``tool_choice`` and ``text`` (what a
``text`` case writes in that dialect). Deep and closed: an object the definition names members of takes no
other member (``additionalProperties: false``, as the SDK would with ``extra=forbid``), lists are checked
item by item (the SDKs' lazily validated ``Iterable`` params included). Where the SDK's type carries no
constraint the API documents (a length, a range), the OpenAPI spec's constraint on the same top-level
request member is laid on it (``OPENAI_SPEC_CONSTRAINTS``).
"""

import gzip
import json
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Literal, Required, Union

import pydantic
from typing_extensions import TypedDict

HERE = Path(__file__).resolve().parent
OUT = HERE / "definitions"
#: request members whose constraints the OpenAPI spec states and the SDK's TypedDict does not carry
OPENAI_SPEC_CONSTRAINTS = {
    "openai-chat": "CreateChatCompletionRequest",
    "openai-responses": "CreateResponse",
}
#: JSON Schema annotations, which say nothing about what is valid
_ANNOTATIONS = ("title", "description", "examples", "default", "discriminator")


# ---- pydantic-typed SDKs -------------------------------------------------------------------------------


def _from_pydantic(entries: dict[str, Any]) -> dict[str, Any]:
    """One schema whose ``$defs`` hold every entry (``entry.<name>``) and what they reference, generated
    together so that pydantic gives two types of one name distinct names."""
    holder = TypedDict("Entries", {name: Required[tp] for name, tp in entries.items()})  # type: ignore[misc]
    schema = pydantic.TypeAdapter(holder).json_schema(mode="validation", by_alias=True)
    defs = schema.pop("$defs", {})
    for name, sub in schema["properties"].items():
        defs[f"entry.{name}"] = sub
    return {"$defs": defs}


def openai_entries(dialect: str) -> dict[str, Any]:
    from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessage
    from openai.types.chat.chat_completion_tool_union_param import ChatCompletionToolUnionParam
    from openai.types.chat.completion_create_params import CompletionCreateParams
    from openai.types.responses import Response, ResponseOutputItem, ResponseStreamEvent, ToolParam
    from openai.types.responses.response_create_params import ResponseCreateParams
    from openai.types.shared import ErrorObject

    class ErrorBody(TypedDict):
        error: Required[ErrorObject]

    if dialect == "openai-chat":
        return {
            "request": CompletionCreateParams,
            "response": ChatCompletion,
            "stream_event": ChatCompletionChunk,
            "error": ErrorBody,
            "tools": list[ChatCompletionToolUnionParam],
            "text": ChatCompletionMessage,
        }
    return {
        "request": ResponseCreateParams,
        "response": Response,
        "stream_event": ResponseStreamEvent,
        "error": ErrorBody,
        "tools": list[ToolParam],
        "text": list[ResponseOutputItem],
    }


def anthropic_entries() -> dict[str, Any]:
    from anthropic.types import (
        ContentBlock,
        ErrorResponse,
        Message,
        RawMessageStreamEvent,
        ToolUnionParam,
    )
    from anthropic.types.message_create_params import MessageCreateParams

    return {
        "request": MessageCreateParams,
        "response": Message,
        "stream_event": Union[RawMessageStreamEvent, ErrorResponse],  # noqa: UP007 (a typing alias on the left)
        "error": ErrorResponse,
        "tools": list[ToolUnionParam],
        "text": list[ContentBlock],
    }


def gemini_entries() -> dict[str, Any]:
    from google.genai import _common, types

    class GenerateContentRequest(_common.BaseModel):
        """The REST body of ``models.generateContent`` (the model is in the URL): google-genai builds it from
        these types (``models.py`` ``_GenerateContentParameters_to_mldev``)."""

        contents: list[types.Content]
        system_instruction: types.Content | None = None
        tools: list[types.Tool] | None = None
        tool_config: types.ToolConfig | None = None
        generation_config: types.GenerationConfig | None = None
        safety_settings: list[types.SafetySetting] | None = None
        cached_content: str | None = None
        labels: dict[str, str] | None = None

    class Status(TypedDict, total=False):
        """google.rpc.Status, the ``error`` of every Google API error body (AIP-193)."""

        code: Required[int]
        message: Required[str]
        status: str
        details: list[dict[str, Any]]

    class ErrorBody(TypedDict):
        error: Required[Status]

    return {
        "request": GenerateContentRequest,
        "response": types.GenerateContentResponse,
        "stream_event": types.GenerateContentResponse,
        "error": ErrorBody,
        "tools": list[types.Tool],
        "text": list[types.Part],
    }


def mistral_entries() -> dict[str, Any]:
    from mistralai.client import models

    class ErrorBody(TypedDict, total=False):
        """Mistral's error body (``models.HTTPValidationError`` for 422, ``{object, message, type, param,
        code}`` otherwise: mistral-common ``protocol/base.py`` ``ErrorResponse``)."""

        object: Literal["error"]
        message: Required[Any]
        type: str
        param: str | None
        code: Any
        detail: Any

    return {
        "request": Union[models.ChatCompletionRequest, models.ChatCompletionStreamRequest],  # noqa: UP007
        "response": models.ChatCompletionResponse,
        "stream_event": models.CompletionChunk,
        "error": ErrorBody,
        "tools": list[models.ChatCompletionRequestTool],
        "text": models.AssistantMessage,
    }


# ---- botocore's service model ----------------------------------------------------------------------------


def bedrock_entries() -> dict[str, Any]:
    import botocore

    path = Path(botocore.__file__).parent / "data" / "bedrock-runtime" / "2023-09-30" / "service-2.json.gz"
    shapes = json.loads(gzip.decompress(path.read_bytes()))["shapes"]
    defs: dict[str, Any] = {}

    def ref(name: str) -> dict[str, Any]:
        if name not in defs:
            defs[name] = {}
            defs[name] = _shape(shapes[name], ref)
        return {"$ref": f"#/$defs/{name}"}

    stream_events = shapes["ConverseStreamOutput"]["members"]
    defs["entry.request"] = ref("ConverseRequest")
    defs["entry.response"] = ref("ConverseResponse")
    # one event of the stream as the corpus writes it: ``{"event": <member of ConverseStreamOutput>, "data"}``
    defs["entry.stream_event"] = {
        "anyOf": [
            {
                "type": "object",
                "properties": {"event": {"const": name}, "data": ref(member["shape"])},
                "required": ["event", "data"],
                "additionalProperties": False,
            }
            for name, member in sorted(stream_events.items())
        ]
    }
    defs["entry.error"] = ref("ValidationException")
    defs["entry.tools"] = {"type": "array", "items": ref("Tool")}
    defs["entry.text"] = {"type": "array", "items": ref("ContentBlock")}
    return {"$defs": defs}


def _shape(shape: dict[str, Any], ref: Any) -> dict[str, Any]:
    """One botocore shape as JSON Schema, on the rest-json wire (blobs base64, timestamps epoch seconds)."""
    kind = shape["type"]
    if kind == "structure":
        if shape.get("document"):
            return {}
        members = {
            name: ref(member["shape"])
            for name, member in shape["members"].items()
            if "location" not in member  # a URI, header or query member: not in the body
        }
        out: dict[str, Any] = {"type": "object", "properties": members, "additionalProperties": False}
        if shape.get("union"):
            out.update(minProperties=1, maxProperties=1)
        required = [name for name in shape.get("required", []) if name in members]
        if required:
            out["required"] = required
        return out
    if kind == "list":
        out = {"type": "array", "items": ref(shape["member"]["shape"])}
        out.update({k: shape[v] for k, v in (("minItems", "min"), ("maxItems", "max")) if v in shape})
        return out
    if kind == "map":
        return {"type": "object", "additionalProperties": ref(shape["value"]["shape"])}
    if kind == "string":
        out = {"type": "string"}
        if "enum" in shape:
            out["enum"] = shape["enum"]
        out.update({k: shape[v] for k, v in (("minLength", "min"), ("maxLength", "max")) if v in shape})
        return out
    if kind in ("integer", "long"):
        out = {"type": "integer"}
        out.update({k: shape[v] for k, v in (("minimum", "min"), ("maximum", "max")) if v in shape})
        return out
    if kind in ("float", "double"):
        out = {"type": "number"}
        out.update({k: shape[v] for k, v in (("minimum", "min"), ("maximum", "max")) if v in shape})
        return out
    if kind == "boolean":
        return {"type": "boolean"}
    if kind == "blob":
        return {"type": "string"}
    if kind == "timestamp":
        return {"type": ["number", "string"]}
    raise ValueError(f"botocore shape type {kind!r}")


# ---- shaping the output ------------------------------------------------------------------------------------


def with_choice_fragment(schema: dict[str, Any]) -> dict[str, Any]:
    """``entry.tool_choice``: what a ``tool_choice`` case writes, the request's members that choose a tool
    (``tool_choice``, ``toolConfig``, ``parallel_tool_calls``…) with none of them required."""
    request = _request_objects(schema)[0]
    schema["$defs"]["entry.tool_choice"] = {
        "type": "object",
        "properties": request["properties"],
        "additionalProperties": False,
    }
    return schema


def closed(schema: Any) -> Any:
    """``schema`` without its annotations (prose, examples, defaults), every object that names its members
    closed to others."""
    if isinstance(schema, list):
        return [closed(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in ("properties", "$defs") and isinstance(value, dict):  # names, not keywords
            out[key] = {name: closed(sub) for name, sub in value.items()}
        elif key not in _ANNOTATIONS:
            out[key] = closed(value)
    if isinstance(out.get("properties"), dict):
        out["additionalProperties"] = False
    return out


def spec_constraints(spec: dict[str, Any], component: str) -> dict[str, dict[str, Any]]:
    """The OpenAPI spec's length, range and pattern constraints on ``component``'s top-level members."""
    keys = ("maxLength", "minLength", "maximum", "minimum", "maxItems", "minItems", "pattern")
    components = spec["components"]["schemas"]

    def members(name: str) -> dict[str, Any]:
        found: dict[str, Any] = {}
        node = components[name]
        for part in [node, *node.get("allOf", [])]:
            if "$ref" in part:
                found.update(members(part["$ref"].rsplit("/", 1)[1]))
            found.update(part.get("properties", {}))
        return found

    out = {}
    for name, prop in sorted(members(component).items()):
        alternatives = [prop, *prop.get("anyOf", []), *prop.get("oneOf", [])]
        found = {k: v for alt in alternatives for k, v in alt.items() if k in keys}
        if found:
            out[name] = found
    return out


def lay_constraints(schema: dict[str, Any], constraints: dict[str, dict[str, Any]]) -> None:
    """Lay ``constraints`` (member -> JSON Schema keywords) on the request entry's members."""
    for request in _request_objects(schema):
        for name, found in constraints.items():
            if name in request["properties"]:
                request["properties"][name] = {"allOf": [request["properties"][name], found]}


def _request_objects(schema: dict[str, Any]) -> list[dict[str, Any]]:
    entry = schema["$defs"]["entry.request"]
    targets = entry.get("anyOf") or entry.get("oneOf") or [entry]
    out = []
    for target in targets:
        if "$ref" in target:
            target = schema["$defs"][target["$ref"].rsplit("/", 1)[1]]
        out.append(target)
    return out


def main(spec_path: str | None = None) -> None:
    """Write every dialect's definition; with ``spec_path`` (openai-openapi's ``openapi.json``) first
    refresh ``openai-spec-constraints.json`` from it."""
    OUT.mkdir(exist_ok=True)
    constraints_file = HERE / "openai-spec-constraints.json"
    if spec_path:
        spec = json.loads(Path(spec_path).read_text())
        refreshed = {"source": f"openai-openapi {spec['info']['version']} openapi.json"}
        refreshed |= {d: spec_constraints(spec, c) for d, c in OPENAI_SPEC_CONSTRAINTS.items()}
        constraints_file.write_text(json.dumps(refreshed, indent=1, sort_keys=True) + "\n")
    constraints = json.loads(constraints_file.read_text())
    builders = {
        "openai-chat": lambda: _from_pydantic(openai_entries("openai-chat")),
        "openai-responses": lambda: _from_pydantic(openai_entries("openai-responses")),
        "anthropic": lambda: _from_pydantic(anthropic_entries()),
        "gemini": lambda: _from_pydantic(gemini_entries()),
        "mistral": lambda: _from_pydantic(mistral_entries()),
        "bedrock-converse": bedrock_entries,
    }
    for dialect, build in builders.items():
        schema = closed(build())
        package = PACKAGES[dialect]
        source = f"{package} {metadata.version(package)}"
        if dialect in constraints:
            lay_constraints(schema, constraints[dialect])
            laid = ", ".join(sorted(constraints[dialect]))
            source += f"; the constraints on {laid} from {constraints['source']}"
        schema = with_choice_fragment(schema)
        document = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "description": f"{dialect}: generated by tests/official/build_definitions.py from {source}",
            **schema,
        }
        text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        (OUT / f"{dialect}.schema.json").write_text(text)
        print(f"{dialect}: {len(schema['$defs'])} definitions from {source}")
    _licences()


#: the package each dialect's definition is generated from
PACKAGES = {
    "openai-chat": "openai",
    "openai-responses": "openai",
    "anthropic": "anthropic",
    "gemini": "google-genai",
    "mistral": "mistralai",
    "bedrock-converse": "botocore",
}


def _licences() -> None:
    """Copy each package's licence beside the definitions derived from it (``licences/<package>``)."""
    folder = HERE / "licences"
    folder.mkdir(exist_ok=True)
    for package in sorted(set(PACKAGES.values())):
        files = metadata.files(package) or []
        texts = [
            f for f in files if re.fullmatch(r"(LICEN[CS]E|COPYING|NOTICE)(\.(txt|md|rst))?", f.name, re.I)
        ]
        if not texts:
            raise SystemExit(f"{package}: no licence file in its distribution")
        body = "\n\n".join(f.read_text() for f in sorted(texts, key=str))
        (folder / f"{package}.txt").write_text(f"{package} {metadata.version(package)}\n\n{body}")


if __name__ == "__main__":
    main(*sys.argv[1:])
