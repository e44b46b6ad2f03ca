"""Property: for every kind and dialect pair, any input gives a payload or a coded ``TranslationError``,
never another exception; an accepted output is JSON and valid for the target's wire schema.

Inputs are arbitrary JSON values and corpus sources (``corpus/cases/**/*.json``) with a few members
replaced, deleted or added. Bounded for ``make test`` (deterministic: ``derandomize``, so the same inputs
give the same verdict every run); ``make fuzz`` runs the same properties long (``TOOLWIRE_FUZZ_EXAMPLES``
examples per kind, random inputs; ``TOOLWIRE_FUZZ_SEED`` for a repeatable run).
"""

from __future__ import annotations

import json
import os
import pathlib
from functools import cache
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from toolwire.corpus import wire  # noqa: E402
from toolwire.corpus.stream_wire import stream_wire_errors  # noqa: E402
from toolwire_reference import TranslationError, translate  # noqa: E402
from toolwire_reference.registry import NAMES as DIALECTS  # noqa: E402
from toolwire_reference.rules import KINDS, PROFILE_VALUES  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CODES = frozenset(json.loads((ROOT / "corpus" / "errors.json").read_text(encoding="utf-8")))
FUZZ = int(os.environ.get("TOOLWIRE_FUZZ_EXAMPLES") or 0)
#: examples per kind in `make test`: about half a second each
EXAMPLES = FUZZ or 40

_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=not FUZZ,
    database=None,
    deadline=None,
    print_blob=bool(FUZZ),
    suppress_health_check=list(HealthCheck),
)
if FUZZ and os.environ.get("TOOLWIRE_FUZZ_SEED"):
    _SETTINGS = settings(_SETTINGS, derandomize=False)


@cache
def seeds() -> dict[str, list[tuple[str, Any]]]:
    """Corpus sources by kind: (source dialect, payload)."""
    found: dict[str, list[tuple[str, Any]]] = {kind: [] for kind in KINDS}
    for path in sorted((ROOT / "corpus" / "cases").glob("**/*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        source = case.get("source") or {}
        if case.get("kind") in found and "payload" in source:
            found[case["kind"]].append((source["dialect"], source["payload"]))
    return found


_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "\ud800", "a\udc00b", "type", "OBJECT", "{", '{"a":', "<tool_call>", "null"]),
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**64), 2**64),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXT,
)
JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=12,
)


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, sub in value.items():
            out += _places(sub, path + (key,))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            out += _places(sub, path + (i,))
    return out


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


@st.composite
def mutated(draw: st.DrawFn, kind: str) -> tuple[str, Any]:
    """A corpus source of ``kind`` with one to three members replaced, deleted or added."""
    dialect, payload = draw(st.sampled_from(seeds()[kind]))
    payload = _copy(payload)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_places(payload)))
        value = draw(JSON)
        if not path:
            payload = value
            continue
        parent = payload
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(("replace", "delete", "add")))
        if action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(_TEXT)] = value
        else:
            parent[path[-1]] = value
    return dialect, payload


def inputs(kind: str) -> st.SearchStrategy:
    source = st.just("text") if kind == "text" else st.sampled_from(DIALECTS)
    arbitrary = st.tuples(source, st.text() if kind == "text" else JSON)
    return st.tuples(
        st.one_of(mutated(kind), arbitrary),
        st.sampled_from(DIALECTS),
        st.fixed_dictionaries({key: st.sampled_from(values) for key, values in PROFILE_VALUES.items()}),
    )


def _strict_as_declared(kind: str, output: Any) -> Any:
    """``output`` without the ``strict: true`` of its OpenAI tools: under ``openai.strict=as-is`` the flag
    is the source's, written as it came over a schema left unchanged (corpus/RULES.md), so whether that
    schema meets strict mode is the source's business, not the translation's."""
    tools = output if kind == "tools" else output.get("tools") if isinstance(output, dict) else None
    if not isinstance(tools, list):
        return output
    relaxed = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(tool, dict) and tool.get("strict") is True:  # responses
            tool = {k: v for k, v in tool.items() if k != "strict"}
        elif isinstance(function, dict) and function.get("strict") is True:  # chat
            tool = {**tool, "function": {k: v for k, v in function.items() if k != "strict"}}
        relaxed.append(tool)
    return relaxed if kind == "tools" else {**output, "tools": relaxed}


def wire_errors(kind: str, target: str, output: Any, profile: dict) -> list[str]:
    """The output's wire-schema errors (a strict flag written as declared: ``_strict_as_declared``)."""
    if target.startswith("openai-") and profile["openai.strict"] == "as-is" and kind != "stream":
        output = _strict_as_declared(kind, output)
    if kind == "stream":
        errors = stream_wire_errors(target, output) or []
    elif kind == "response":
        found = wire.validate_tolerant(target, kind, output)
        errors = found[0] if found else []
    else:
        errors = wire.validate(target, kind, output) or []
    return errors


def check(kind: str, source: str, payload: Any, target: str, profile: dict) -> None:
    """The property, for one input."""
    before = json.dumps(payload)
    try:
        output = translate(kind, payload, source=source, target=target, profile=profile)
    except TranslationError as err:
        assert err.code in CODES, err.code
        assert err.message and (err.path == "" or err.path.startswith("/")), err
    else:
        json.dumps(output, allow_nan=False)  # JSON, nothing else
        errors = wire_errors(kind, target, output, profile)
        assert not errors, f"{kind} {source} -> {target}: wire-invalid output {errors[:3]}"
    assert json.dumps(payload) == before, "the input was modified"


@pytest.mark.parametrize("kind", KINDS)
def test_payload_or_translation_error(kind: str) -> None:
    @_SETTINGS
    @given(inputs(kind))
    def run(example: tuple) -> None:
        (source, payload), target, profile = example
        check(kind, source, payload, target, profile)

    if FUZZ and os.environ.get("TOOLWIRE_FUZZ_SEED"):
        run = seed(int(os.environ["TOOLWIRE_FUZZ_SEED"]))(run)
    run()
