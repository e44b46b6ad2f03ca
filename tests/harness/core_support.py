"""Shared helpers for the harness-core tests: a tiny corpus in a temporary directory, tiny translators."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

PROFILES = {
    "openai.strict": {
        "title": "strict",
        "default": "as-is",
        "values": {"as-is": "a", "all-required": "b", "nullable-optional": "c", "off": "d"},
    },
    "tool.description": {
        "title": "description",
        "default": "optional",
        "values": {"optional": "a", "required": "b"},
    },
}

WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}

CASES: dict[str, dict[str, Any]] = {
    "tools/basic": {
        "title": "a tool in the openai-chat envelope",
        "features": ["tools.wrapper"],
        "level": "must",
        "kind": "tools",
        "source": {"dialect": "canonical", "payload": [WEATHER]},
        "expect": [
            {"dialect": "openai-chat", "payload": [{"type": "function", "function": WEATHER}]},
            {
                "dialect": "openai-chat",
                "when": {"openai.strict": "all-required"},
                "payload": [{"type": "function", "function": {**WEATHER, "strict": True}}],
            },
            {
                "dialect": "openai-chat",
                "when": {"openai.strict": "off"},
                "payload": [{"type": "function", "function": {**WEATHER, "strict": False}}],
            },
            {"dialect": "gemini", "payload": [{"functionDeclarations": [WEATHER]}]},
        ],
        "refs": ["test"],
    },
    "tools/missing-name": {
        "title": "a tool without a name is refused",
        "features": ["tools.names"],
        "level": "must",
        "kind": "tools",
        "source": {"dialect": "canonical", "payload": [{"description": "x"}]},
        "expect": [{"dialect": "openai-chat", "error": {"code": "tool.missing_name", "path": "/0/name"}}],
        "refs": ["test"],
    },
    "choice/auto": {
        "title": "auto",
        "features": ["choice.modes"],
        "level": "should",
        "kind": "tool_choice",
        "source": {"dialect": "canonical", "payload": {"tool_choice": {"mode": "auto"}}},
        "expect": [
            {"dialect": "openai-chat", "payload": {"tool_choice": "auto"}},
            {"dialect": "anthropic", "level": "may", "payload": {"tool_choice": {"type": "auto"}}},
        ],
        "refs": ["test"],
    },
}

#: a wire schema for openai-chat tools: every entry has type "function"
OPENAI_TOOLS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "array",
    "items": {
        "type": "object",
        "required": ["type", "function"],
        "properties": {
            "type": {"const": "function"},
            "function": {"$ref": "../../common.schema.json#/$defs/fn"},
        },
    },
}
COMMON_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://toolwire.dev/schemas/common.schema.json",
    "$defs": {"fn": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}},
}


def make_corpus(base: Path, cases: dict[str, dict[str, Any]] | None = None, *, schemas: bool = True) -> Path:
    """Write a small corpus under ``base/corpus`` (and ``base/schemas``); returns the corpus directory."""
    root = base / "corpus"
    (root / "cases").mkdir(parents=True)
    (root / "VERSION").write_text("1.2.3\n")
    (root / "INTERPRETING.md").write_text("# Interpreting\n\nVersion: **1.0.0** (test)\n")
    (root / "profiles.json").write_text(json.dumps(PROFILES))
    (root / "features.json").write_text(
        json.dumps(
            [
                {"key": k, "title": k, "area": k.split(".")[0], "description": k}
                for k in ("tools.wrapper", "tools.names", "choice.modes")
            ]
        )
    )
    (root / "errors.json").write_text(json.dumps({"tool.missing_name": "no name", "payload.invalid": "bad"}))
    for case_id, body in (CASES if cases is None else cases).items():
        path = root / "cases" / f"{case_id}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"id": case_id, **body}, indent=1))
    if schemas:
        sch = base / "schemas"
        (sch / "wire" / "openai-chat").mkdir(parents=True)
        (sch / "common.schema.json").write_text(json.dumps(COMMON_SCHEMA))
        (sch / "wire" / "openai-chat" / "tools.schema.json").write_text(json.dumps(OPENAI_TOOLS_SCHEMA))
    return root


TRANSLATOR_SRC = textwrap.dedent('''
    """Tiny translators for the harness tests: canonical tools -> openai-chat, canonical tool_choice -> *."""


    class Refusal(Exception):
        def __init__(self, code, message, path=None):
            super().__init__(message)
            self.code, self.message, self.path = code, message, path


    class Good:
        name = "toolwire-tiny"

        def capabilities(self):
            return {"name": self.name, "version": "0.0.1", "language": "python",
                    "kinds": {"tools": [["canonical", "openai-chat"]], "tool_choice": [["canonical", "*"]],
                              "stream": [["openai-chat", "anthropic"]]},
                    "profiles": {"openai.strict": ["as-is", "all-required"]}, "error_codes": "toolwire"}

        def translate(self, kind, source, target, payload, profile):
            assert set(profile) >= {"openai.strict", "tool.description"}, profile
            if kind == "tool_choice":
                mode = payload["tool_choice"]["mode"]
                if target == "anthropic":
                    return {"tool_choice": {"type": mode}}
                return {"tool_choice": mode}
            out = []
            for i, tool in enumerate(payload):
                if "name" not in tool:
                    raise Refusal("tool.missing_name", "a tool needs a name", f"/{i}/name")
                fn = self.function(dict(tool))
                if profile["openai.strict"] == "all-required":
                    fn["strict"] = True
                out.append({"type": "function", "function": fn})
            return out

        def function(self, tool):
            return tool

        def translate_stream(self, source, target, events, profile):
            return [{"event": "delta", "data": {"n": i, "id": "msg_1"}} for i, _ in enumerate(events)]


    class Wrong(Good):
        """Drops the description."""
        name = "toolwire-wrong"

        def function(self, tool):
            tool.pop("description", None)
            return tool


    class Crashing(Good):
        name = "crashing"

        def translate(self, kind, source, target, payload, profile):
            return {}["boom"]


    class Erroring(Good):
        name = "erroring"

        def translate(self, kind, source, target, payload, profile):
            raise Refusal("payload.invalid", "I refuse everything", "")


    class NotJson(Good):
        name = "notjson"

        def translate(self, kind, source, target, payload, profile):
            return [{"type": "function", "function": {"name": object()}}]


    class BadWire(Good):
        """Right per the expectation's $any, wrong for the wire schema."""
        name = "badwire"

        def translate(self, kind, source, target, payload, profile):
            out = super().translate(kind, source, target, payload, profile)
            if kind == "tools":
                for entry in out:
                    entry["type"] = "fn"
            return out


    class Sleeper(Good):
        name = "sleeper"

        def translate(self, kind, source, target, payload, profile):
            import time
            time.sleep(3)
            return super().translate(kind, source, target, payload, profile)


    def factory():
        return Good()

    instance = Good()
''')


def write_translator(directory: Path, module: str = "tiny_translator") -> str:
    """Write the tiny translator module into ``directory``; returns the module name."""
    (directory / f"{module}.py").write_text(TRANSLATOR_SRC, encoding="utf-8")
    return module


def run_python(cwd: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in ``cwd`` with ``cwd`` importable (the tiny translator's modules live there)."""
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def make_work(directory: Path, **modules: str) -> Path:
    """A work folder for a subprocess run: the small corpus, the tiny translator, an empty pytest.ini, and
    ``modules`` (name -> the body of a ``Good`` subclass's ``translate``, written as ``<name>.py`` with the
    class ``<Name>``)."""
    make_corpus(directory)
    write_translator(directory)
    (directory / "pytest.ini").write_text("[pytest]\n")
    for name, body in modules.items():
        (directory / f"{name}.py").write_text(
            "import os\nfrom tiny_translator import Good\n"
            f"class {name.capitalize()}(Good):\n"
            "    def translate(self, kind, source, target, payload, profile):\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8)
            + "\n        return super().translate(kind, source, target, payload, profile)\n"
        )
    return directory
