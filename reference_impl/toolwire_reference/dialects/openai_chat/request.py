"""OpenAI Chat Completions request bodies (``POST /v1/chat/completions``) ↔ the canonical request: the
Chat-family codec (``dialects/chat_request.py``) with OpenAI's own members: ``developer`` system messages,
the legacy ``functions`` / ``function_call`` / ``function`` role, ``max_completion_tokens``,
``reasoning_effort``, ``verbosity``, ``web_search_options``, ``file`` parts, custom (free-form) calls and
the ``openai.strict`` rewrite of response-format schemas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import custom
from ... import messages as msgs
from ..._json import MISSING, expect_object
from ...errors import Segments
from ...request import Request, drop_setting, put_settings, read_verbosity, response_format, schema_tool
from ...rules import DialectRules
from .. import openai_common
from ..chat_request import KNOWN, ChatRequestCodec, read_reasoning_effort, write_reasoning_effort
from . import tools as openai_chat
from .rules import RULES
from .web_search import read_web_search, web_search_options

NAME = RULES.name


class OpenAIChatRequest(ChatRequestCodec):
    """OpenAI's Chat Completions request."""

    stream_usage_option = True

    known = KNOWN | {
        "functions",
        "function_call",
        "max_completion_tokens",
        "reasoning_effort",
        "verbosity",
        "web_search_options",
    }
    system_roles = ("system", "developer")
    legacy = True
    max_tokens_in = {"max_tokens": "max_tokens", "max_completion_tokens": "max_tokens"}
    max_tokens_out = "max_completion_tokens"

    def decode_extras(self, req: Request, body: dict, profile: Mapping[str, str]) -> None:
        read_reasoning_effort(req, body)
        read_verbosity(req, body, "verbosity", ())
        read_web_search(req, body, profile)

    def decode_user_part(self, part: dict, kind: Any, where: Segments, profile) -> dict | None:
        if kind != "file":
            return super().decode_user_part(part, kind, where, profile)
        file = expect_object(part.get("file", MISSING), where + ("file",), "`file`")
        return msgs.document_from_openai(file, where + ("file",), "file_data", profile)

    def encode_extras(self, req: Request, out: dict, profile: Mapping[str, str]) -> None:
        write_reasoning_effort(req, out)
        search = web_search_options(req, profile)
        if search is not None:
            out["web_search_options"] = search
            if "tools" not in out and out.get("tool_choice") == "auto":
                del out["tool_choice"]  # Chat takes a tool choice only with tools; `auto` is the default
        put_settings(req, out, {"verbosity": "verbosity"})
        drop_setting(req, "top_k", NAME, profile)

    def encode_format(self, req: Request, profile: Mapping[str, str]) -> dict:
        fmt = encode_format(req, RULES, profile)
        if fmt.get("type") == "json_object":
            return fmt
        return {"type": "json_schema", "json_schema": fmt}

    def encode_document(self, req: Request, part: dict, profile) -> dict | None:
        file = msgs.openai_file(req, part, profile, NAME, urls=False)
        return None if file is None else {"type": "file", "file": file}

    def call_body(self, req: Request, part: dict, profile) -> dict:
        return openai_common.chat_call_body(part, wrap=custom.wrapping(profile))


CODEC = OpenAIChatRequest(RULES, openai_chat)
decode_request = CODEC.decode_request
encode_request = CODEC.encode_request


def encode_format(req: Request, target: DialectRules, profile: Mapping[str, str]) -> dict:
    """The canonical response format as OpenAI's ``{type, name, schema, strict?}`` (Chat nests it in
    ``json_schema``, Responses puts it in ``text.format``); the ``openai.strict`` profile rewrites the
    schema exactly as it rewrites tool parameters; the name is held to ``target``'s rule."""
    fmt = response_format(req, target, profile)
    if fmt["type"] == "json":
        return {"type": "json_object"}
    tool = schema_tool(req)
    with tool.params_origin.reporting():
        schema = openai_common.parameters(tool, profile, always=True)
    out = {"name": fmt.get("name", "response"), "schema": schema}
    strict = openai_common.strict_flag(tool, profile, undeclared=MISSING)
    if strict is not MISSING:
        out["strict"] = strict
    return out
