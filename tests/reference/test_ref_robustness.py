"""Any malformed input gives a TranslationError (never another exception) and is never modified."""

import copy
import json
import pathlib
import random

from ref_helpers import obj
from toolwire_reference import TranslationError, translate
from toolwire_reference.rules import DIALECTS, PROFILE_VALUES

CASES = pathlib.Path(__file__).resolve().parents[2] / "corpus" / "cases"
WEIRD = [
    None,
    True,
    0,
    -1,
    1.5,
    "",
    "x",
    "OBJECT",
    "null",
    [],
    {},
    [None],
    ["x"],
    {"type": None},
    {"$ref": "#"},
    {"$ref": "#/nope"},
    {"type": "array"},
    {"anyOf": None},
    {"type": {}},
]
KEYS = [
    "type",
    "items",
    "properties",
    "required",
    "enum",
    "nullable",
    "$ref",
    "oneOf",
    "additionalProperties",
    "format",
    "const",
    "default",
    "tool_choice",
    "mode",
    "name",
    "function",
    "parameters",
]
BUILTIN = [
    (
        "tools",
        "canonical",
        [
            {
                "name": "a",
                "description": "d",
                "parameters": obj(
                    {
                        "x": {"type": "array", "items": {"$ref": "#/$defs/i"}},
                        "y": {"anyOf": [{"type": "string"}]},
                    },
                    ["x"],
                    **{"$defs": {"i": obj({"z": {"type": "integer", "enum": [1]}})}},
                ),
            }
        ],
    ),
    (
        "tools",
        "gemini",
        [
            {
                "functionDeclarations": [
                    {
                        "name": "a",
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {"n": {"type": "STRING", "nullable": True}},
                        },
                    }
                ]
            }
        ],
    ),
    (
        "tool_choice",
        "openai-chat",
        {
            "tool_choice": {
                "type": "allowed_tools",
                "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "function": {"name": "a"}}]},
            },
            "parallel_tool_calls": False,
        },
    ),
    (
        "tool_choice",
        "gemini",
        {"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["a"]}}},
    ),
    (
        "tool_choice",
        "anthropic",
        {"tool_choice": {"type": "tool", "name": "a", "disable_parallel_tool_use": True}},
    ),
]


def _seeds():
    seeds = list(BUILTIN)
    for path in sorted(CASES.glob("*/*.json")):
        case = json.loads(path.read_text())
        if case.get("kind") in ("tools", "tool_choice"):
            seeds.append((case["kind"], case["source"]["dialect"], case["source"]["payload"]))
    return seeds


def _mutate(rnd, value):
    value = copy.deepcopy(value)
    places = [()]
    stack = [((), value)]
    while stack:
        path, node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, sub in items:
            places.append(path + (key,))
            stack.append((path + (key,), sub))
    path = rnd.choice(places)
    if not path:
        return copy.deepcopy(rnd.choice(WEIRD))
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    roll = rnd.random()
    if roll < 0.6 or not isinstance(parent, dict):
        parent[path[-1]] = copy.deepcopy(rnd.choice(WEIRD))
    elif roll < 0.8:
        del parent[path[-1]]
    else:
        parent[rnd.choice(KEYS)] = copy.deepcopy(rnd.choice(WEIRD))
    return value


def test_fuzzed_payloads_only_raise_translation_errors():
    rnd = random.Random(20240601)
    seeds = _seeds()
    for _ in range(3000):
        kind, source, payload = rnd.choice(seeds)
        for _ in range(rnd.randint(1, 3)):
            payload = _mutate(rnd, payload)
        before = copy.deepcopy(payload)
        profile = {key: rnd.choice(values) for key, values in PROFILE_VALUES.items()}
        target = rnd.choice(DIALECTS)
        try:
            json.dumps(translate(kind, payload, source=source, target=target, profile=profile))
        except TranslationError as err:
            assert err.path == "" or err.path.startswith("/")
            assert err.message
        assert payload == before
