"""One bug, one finding: a translator with a single bug (the reference with that bug put in,
``buggy_translators.py``) run on the checks it affects gives a report with that bug as one finding, whatever
the depth, the schema keyword, the source dialect or the kind of payload it shows in. Differences are
structured records in the results (format 2); a format-1 file's diff text gives the same records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from buggy_translators import ForgetsNestedAdditionalProperties, ReordersAssistantMessage
from toolwire.adapters import PythonAdapter
from toolwire.corpus import load_corpus
from toolwire.corpus.matchers import KINDS, compare, format_diff, records
from toolwire.corpus.wire import validate_file
from toolwire.judge import run_check
from toolwire.paths import schemas_dir
from toolwire.reports.bugs import find_bugs
from toolwire.reports.legacy import legacy_differences
from toolwire.results import check_record


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


def _run(corpus, translator: Any, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """The records of every check of ``kinds`` whose output is openai-chat (round trips from it too)."""
    adapter = PythonAdapter("python:buggy", translator)
    checks = [
        c
        for c in corpus.checks()
        if c.kind in kinds and (c.source if c.round_trip else c.target) == "openai-chat"
    ]
    return [check_record(c, run_check(adapter, c, corpus.profiles)) for c in checks]


def test_nested_additional_properties_forgotten_is_one_finding(corpus) -> None:
    recs = _run(corpus, ForgetsNestedAdditionalProperties(), ("tools", "request"))
    failed = [r for r in recs if r["outcome"] == "failed"]
    assert len(failed) > 20, "the bug must show in many checks (depths, $defs, items, anyOf, sources)"
    (finding,) = find_bugs(recs)
    assert finding.count == len(failed)
    title = finding.plain_title()
    assert "`additionalProperties` missing in the schemas at" in title and title.endswith("(any depth)")
    sources = "anthropic, canonical, gemini, mistral, openai-responses"
    assert title.startswith(f"{sources}→openai-chat JSON Schemas")
    assert len(title) < 250
    # the same key reported by the wire schema ("'additionalProperties' is a required property") is the
    # same finding, not one per property name
    assert any(r.get("wire_errors") for r in failed)


def test_reordered_assistant_message_is_one_move(corpus) -> None:
    recs = _run(corpus, ReordersAssistantMessage(), ("request",))
    moved = [r for r in recs if any(d["kind"] == "moved" for d in r.get("differences", ()))]
    assert len(moved) > 10
    # one difference per check: the message moved, not one per later position (a `$oneOf` says first
    # that no alternative matches, then the closest one's differences)
    assert all(
        [d["kind"] for d in r["differences"] if d["kind"] != "no-alternative"] == ["moved"] for r in moved
    )
    found = find_bugs(recs)
    diffs = [f for f in found if f.signature[0] == "diff"]
    assert len(diffs) == 1
    assert diffs[0].count == len(moved)
    assert "items of `/messages` out of order" in diffs[0].plain_title()
    # what else fails is no difference of the output (a round trip refused on the way back)
    assert all(f.signature[0] != "diff" for f in found if f is not diffs[0])


def test_records_are_in_the_results_and_valid(corpus) -> None:
    recs = _run(corpus, ReordersAssistantMessage(), ("request",))
    failing = [r for r in recs if r.get("differences")]
    assert failing
    assert (schemas_dir() / "results.schema.json").is_file()
    for rec in failing[:10]:
        assert validate_file("results.schema.json", rec) == [], rec
    schema = json.loads((schemas_dir() / "results.schema.json").read_text(encoding="utf-8"))
    assert set(schema["$defs"]["difference"]["properties"]["kind"]["enum"]) == set(KINDS)


# -- the records and format 1 ------------------------------------------------------------------------------

PAIRS: list[tuple[Any, Any]] = [
    ({"a": 1, "b": {"c": "x"}}, {"a": 2, "b": {"d": "x"}, "e": None}),
    ({"m": [1, 2, 3]}, {"m": [1, 2]}),
    ({"m": [1, 2]}, {"m": [1, 2, 3]}),
    ({"m": "s"}, {"m": 5}),
    ({"m": {"$type": "integer"}}, {"m": "5"}),
    ({"m": {"$regex": "^call_"}}, {"m": "toolu_1"}),
    ({"m": {"$json": {"x": 1, "y": [1]}}}, {"m": '{"x": 2, "z": 1}'}),
    ({"m": {"$json": {"x": 1}}}, {"m": "{nope"}),
    ({"m": {"$id": {"prefix": "call_"}}}, {"m": "toolu_1"}),
    ({"a": {"$id": {"capture": "c"}}, "b": {"$id": {"capture": "c"}}}, {"a": "x", "b": "y"}),
    ({"a": {"$absent": True}}, {"a": 1}),
    ({"u": {"$unordered": [1, 2]}}, {"u": [1, 3]}),
    ({"o": {"$oneOf": [{"k": 1}, {"k": 2, "j": 1}]}}, {"o": {"k": 3}}),
    ([{"r": "a"}, {"r": "b"}, {"r": "c"}, {"r": "d"}], [{"r": "a"}, {"r": "c"}, {"r": "b"}, {"r": "d"}]),
    ([{"r": "a"}, {"r": "b"}, {"r": "c"}], [{"r": "z"}, {"r": "a"}, {"r": "b"}, {"r": "c"}]),
]


@pytest.mark.parametrize(("expected", "actual"), PAIRS)
def test_format_1_diff_text_reads_back_as_the_records(expected: Any, actual: Any) -> None:
    found = compare(expected, actual)
    assert found
    written = records(found)
    read = legacy_differences(format_diff(found))
    assert [(r["pointer"], r["kind"], r.get("key"), r.get("in_json")) for r in read] == [
        (r["pointer"], r["kind"], r.get("key"), r.get("in_json")) for r in written
    ]
    for new, old in zip(written, read, strict=True):
        assert new["message"] == old["message"]
        for name in ("expected", "got", "from"):
            if name in old:
                assert old[name] == new.get(name), (name, new, old)


def test_a_reordering_is_one_move_and_an_insertion_one_extra_item() -> None:
    rows = [{"role": r, "content": r * 3} for r in ("system", "user", "assistant", "tool", "user")]
    swapped = [rows[0], rows[1], rows[3], rows[2], rows[4]]
    (moved,) = compare({"messages": rows}, {"messages": swapped})
    assert (moved.path, moved.kind, moved.moved_from) == ("/messages/3", "moved", 2)
    (extra,) = compare(rows, [{"role": "developer"}, *rows])
    assert (extra.path, extra.kind) == ("/0", "extra-item")
    # one item changed in place stays a difference inside that item
    changed = [*rows[:2], {"role": "assistant", "content": "other"}, *rows[3:]]
    (inside,) = compare(rows, changed)
    assert (inside.path, inside.kind) == ("/2/content", "value")


def test_alignment_keeps_id_captures_in_order() -> None:
    expected = [{"id": {"$id": {"capture": "a"}}}, {"ref": {"$id": {"capture": "a"}}}, {"k": 1}]
    actual = [{"id": "x1"}, {"ref": "x1"}, {"k": 2}]
    (diff,) = compare(expected, actual)
    assert (diff.path, diff.kind) == ("/2/k", "value")
    swapped = [{"k": 1}, {"id": "x1"}, {"ref": "x2"}]
    kinds = sorted(d.kind for d in compare(expected, swapped))
    assert "id-link" in kinds
