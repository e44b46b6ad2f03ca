"""Property: for every kind and dialect pair, any input gives a payload or a coded ``TranslationError``,
never another exception; an accepted output is JSON and valid for the target's wire schema.

Inputs are arbitrary JSON values and corpus sources (``corpus/cases/**/*.json``) with a few members
replaced, deleted or added, drawn two ways: by Hypothesis (which shrinks a failure to a small input), and
by a seeded ``random.Random`` making the same kind of inputs some twenty times faster, for volume. Bounded
for ``make test`` (deterministic: ``derandomize`` and seed 0, so the same inputs give the same verdict every
run); ``make fuzz`` runs the same property long: ``TOOLWIRE_FUZZ_EXAMPLES`` Hypothesis examples per kind
(``TOOLWIRE_FUZZ_SEED`` for a repeatable run) and ``TOOLWIRE_FUZZ_INPUTS`` random inputs in all, spread
over the kinds (seeded by ``TOOLWIRE_FUZZ_SEED``, else 0; a failure names the seed and index that give it).
"""

from __future__ import annotations

import json
import os
import pathlib
import random
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
#: random inputs in all (spread over the kinds); in `make test`, a few hundred per kind
INPUTS = int(os.environ.get("TOOLWIRE_FUZZ_INPUTS") or 0) or 300 * len(KINDS)
RANDOM_SEED = int(os.environ.get("TOOLWIRE_FUZZ_SEED") or 0)

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


def _change(payload: Any, path: tuple, value: Any, action: str, new_key: Any) -> Any:
    """``payload`` with the member at ``path`` replaced by ``value``, deleted, or ``value`` added beside
    it under ``new_key`` (a change of an array item or of the root is a replacement)."""
    if not path:
        return value
    parent = payload
    for key in path[:-1]:
        parent = parent[key]
    if action == "delete" and isinstance(parent, dict):
        del parent[path[-1]]
    elif action == "add" and isinstance(parent, dict):
        parent[new_key()] = value
    else:
        parent[path[-1]] = value
    return payload


_ACTIONS = ("replace", "delete", "add")


@st.composite
def mutated(draw: st.DrawFn, kind: str) -> tuple[str, Any]:
    """A corpus source of ``kind`` with one to three members replaced, deleted or added."""
    dialect, payload = draw(st.sampled_from(seeds()[kind]))
    payload = _copy(payload)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_places(payload)))
        value = draw(JSON)
        action = draw(st.sampled_from(_ACTIONS)) if path else "replace"
        payload = _change(payload, path, value, action, lambda: draw(_TEXT))
    return dialect, payload


# -- the same inputs from random.Random: no shrinking, a fraction of Hypothesis's cost per input ----------
_RANDOM_TEXT = ["", "\ud800", "a\udc00b", "type", "OBJECT", "{", '{"a":', "<tool_call>", "null", "x", "name"]


def _random_text(rnd: random.Random) -> str:
    if rnd.random() < 0.6:
        return rnd.choice(_RANDOM_TEXT)
    size = rnd.randrange(13)
    return "".join(chr(rnd.choice((rnd.randrange(32, 127), rnd.randrange(0x110000)))) for _ in range(size))


def _random_json(rnd: random.Random, leaves: int = 12) -> Any:
    """What ``JSON`` draws: scalars, and lists and objects of up to four members, at most ``leaves`` deep."""
    roll = rnd.random()
    if leaves <= 1 or roll < 0.55:
        return rnd.choice(
            (
                None,
                rnd.random() < 0.5,
                rnd.randrange(-(2**64), 2**64) if rnd.random() < 0.2 else rnd.randrange(-3, 10),
                rnd.uniform(-1e6, 1e6),
                _random_text(rnd),
            )
        )
    size = rnd.randrange(5)
    if roll < 0.78:
        return [_random_json(rnd, leaves // 2) for _ in range(size)]
    return {_random_text(rnd): _random_json(rnd, leaves // 2) for _ in range(size)}


def random_input(rnd: random.Random, kind: str) -> tuple[tuple[str, Any], str, dict[str, str]]:
    """One input as ``inputs(kind)`` draws it: ((source, payload), target, profile)."""
    if rnd.random() < 0.8:
        dialect, payload = rnd.choice(seeds()[kind])
        payload = _copy(payload)
        for _ in range(rnd.randint(1, 3)):
            path = rnd.choice(_places(payload))
            value = _random_json(rnd)
            action = rnd.choice(_ACTIONS) if path else "replace"
            payload = _change(payload, path, value, action, lambda: _random_text(rnd))
        source = (dialect, payload)
    elif kind == "text":
        source = ("text", _random_text(rnd))
    else:
        source = (rnd.choice(DIALECTS), _random_json(rnd))
    profile = {key: rnd.choice(values) for key, values in PROFILE_VALUES.items()}
    return source, rnd.choice(DIALECTS), profile


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


@pytest.mark.parametrize("kind", KINDS)
def test_payload_or_translation_error_on_random_inputs(kind: str) -> None:
    index = KINDS.index(kind)
    count = INPUTS // len(KINDS) + (index < INPUTS % len(KINDS))
    rnd = random.Random(f"{RANDOM_SEED}:{kind}")
    for i in range(count):
        (source, payload), target, profile = random_input(rnd, kind)
        try:
            check(kind, source, payload, target, profile)
        except Exception as exc:
            shown = json.dumps(payload)[:2000]  # (ASCII: xdist cannot carry a lone surrogate)
            raise AssertionError(
                f"random input {i} of kind {kind} (TOOLWIRE_FUZZ_SEED={RANDOM_SEED}): {source} -> {target}, "
                f"profile {profile}, payload {shown}: {ascii(exc)}"
            ) from exc
