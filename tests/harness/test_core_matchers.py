"""Matchers and comparison rules of corpus/INTERPRETING.md."""

from __future__ import annotations

import json

import pytest
from toolwire.corpus.matchers import Difference, compare, format_diff, instantiate, is_matcher


def ok(expected, actual) -> bool:
    return compare(expected, actual) == []


def paths(expected, actual) -> list[str]:
    return [d.path for d in compare(expected, actual)]


# -- plain JSON equality ----------------------------------------------------------------------------------


def test_equal_values_match() -> None:
    doc = {"a": [1, "x", None, True, {"b": 2.5}], "c": {}}
    assert ok(doc, json.loads(json.dumps(doc)))


def test_numbers_compare_as_numbers() -> None:
    assert ok(1, 1.0)
    assert ok({"n": 1.0}, {"n": 1})
    assert not ok(1, 2)


def test_booleans_are_never_numbers() -> None:
    assert not ok(True, 1)
    assert not ok(1, True)
    assert not ok(False, 0)
    assert not ok(0, False)
    assert not ok(None, False)


def test_strings_exact_no_normalisation() -> None:
    assert not ok("é", "e\u0301")
    assert not ok("a", "a ")
    assert not ok("1", 1)


def test_extra_key_is_a_difference_naming_its_path() -> None:
    diffs = compare({"a": {"b": 1}}, {"a": {"b": 1, "strict": True}})
    assert diffs == [Difference("/a/strict", diffs[0].message)]
    assert "unexpected key" in diffs[0].message


def test_missing_key_and_order_of_keys() -> None:
    assert ok({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert paths({"a": 1, "b": 2}, {"a": 1}) == ["/b"]


def test_arrays_in_order_and_same_length() -> None:
    assert not ok([1, 2], [2, 1])
    assert paths([1, 2], [1]) == ["/1"]
    assert paths([1], [1, 2]) == ["/1"]
    assert paths([1], {"0": 1}) == [""]


def test_pointer_escaping() -> None:
    assert paths({"a/b": {"c~d": 1}}, {"a/b": {"c~d": 2}}) == ["/a~1b/c~0d"]


# -- matchers ---------------------------------------------------------------------------------------------


def test_any_requires_presence() -> None:
    assert ok({"id": {"$any": True}}, {"id": None})
    assert ok({"id": {"$any": True}}, {"id": [1]})
    assert paths({"id": {"$any": True}}, {}) == ["/id"]


def test_absent() -> None:
    assert ok({"a": 1, "description": {"$absent": True}}, {"a": 1})
    assert paths({"a": 1, "description": {"$absent": True}}, {"a": 1, "description": None}) == [
        "/description"
    ]
    # outside an object member it can never match
    assert not ok([{"$absent": True}], [1])


@pytest.mark.parametrize(
    ("name", "good", "bad"),
    [
        ("string", "x", 1),
        ("number", 1.5, "1"),
        ("number", 2, True),
        ("integer", 3, 3.5),
        ("integer", 3.0, False),
        ("boolean", False, 0),
        ("object", {}, []),
        ("array", [], {}),
        ("null", None, 0),
    ],
)
def test_type(name: str, good, bad) -> None:
    assert ok({"$type": name}, good)
    assert not ok({"$type": name}, bad)


def test_json_matcher_parses_and_matches_inner_matchers() -> None:
    exp = {"arguments": {"$json": {"city": "Paris", "n": 1, "id": {"$any": True}}}}
    assert ok(exp, {"arguments": '{"n": 1.0, "city": "Paris", "id": 7}'})
    diffs = compare(exp, {"arguments": '{"city": "Lyon", "n": 1, "id": 7}'})
    assert [d.path for d in diffs] == ["/arguments"] and "/city" in diffs[0].message
    assert not ok(exp, {"arguments": {"city": "Paris", "n": 1, "id": 7}})
    assert not ok(exp, {"arguments": "{not json"})


def test_unordered() -> None:
    exp = {"$unordered": [1, {"a": 2}, "x"]}
    assert ok(exp, ["x", 1, {"a": 2}])
    assert not ok(exp, ["x", 1, {"a": 3}])
    assert not ok(exp, ["x", 1])
    assert not ok({"$unordered": [1, 1]}, [1, 2])  # each expected element used once
    assert not ok(exp, {"a": 1})


def test_unordered_needs_backtracking() -> None:
    exp = {"$unordered": [{"$type": "number"}, 1]}
    assert ok(exp, [1, 2])


def test_regex_search_semantics() -> None:
    assert ok({"$regex": "^call_"}, "call_123")
    assert ok({"$regex": "[0-9]+"}, "abc123")
    assert not ok({"$regex": "^call_"}, "toolu_1")
    assert not ok({"$regex": "x"}, 1)


def test_id_prefix_and_non_empty() -> None:
    assert ok({"$id": {"prefix": "call_"}}, "call_abc")
    assert not ok({"$id": {"prefix": "call_"}}, "toolu_abc")
    assert not ok({"$id": {}}, "")
    assert not ok({"$id": {}}, 5)
    assert ok({"$id": {}}, "anything")


def test_id_capture_consistency() -> None:
    exp = [
        {"id": {"$id": {"prefix": "call_", "capture": "c1"}}},
        {"tool_call_id": {"$id": {"capture": "c1"}}},
        {"id": {"$id": {"capture": "c2"}}},
    ]
    assert ok(exp, [{"id": "call_1"}, {"tool_call_id": "call_1"}, {"id": "call_2"}])
    diffs = compare(exp, [{"id": "call_1"}, {"tool_call_id": "call_9"}, {"id": "call_2"}])
    assert [d.path for d in diffs] == ["/1/tool_call_id"]
    assert "c1" in diffs[0].message


def test_captures_are_per_comparison() -> None:
    exp = {"$id": {"capture": "c"}}
    assert ok(exp, "a")
    assert ok(exp, "b")  # a new compare() is a new check


def test_unordered_with_captures() -> None:
    exp = {
        "calls": {
            "$unordered": [
                {"id": {"$id": {"capture": "a"}}, "n": 1},
                {"id": {"$id": {"capture": "b"}}, "n": 2},
            ]
        },
        "results": [{"id": {"$id": {"capture": "a"}}}, {"id": {"$id": {"capture": "b"}}}],
    }
    assert ok(
        exp, {"calls": [{"id": "y", "n": 2}, {"id": "x", "n": 1}], "results": [{"id": "x"}, {"id": "y"}]}
    )
    assert not ok(
        exp, {"calls": [{"id": "y", "n": 2}, {"id": "x", "n": 1}], "results": [{"id": "y"}, {"id": "x"}]}
    )


def test_one_of() -> None:
    exp = {"$oneOf": [{"type": "auto"}, {"$absent": True}, "x"]}
    assert ok(exp, {"type": "auto"})
    assert ok(exp, "x")
    diffs = compare(exp, {"type": "any"})
    assert diffs and "none of the 3" in diffs[0].message


def test_one_of_shows_the_alternative_of_the_outputs_type() -> None:
    """A string output is compared with the string spelling: its diff names the differing text, not
    "expected an array" (both alternatives differ in one place)."""
    exp = {"$oneOf": [[{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "a\nb"]}
    diffs = compare(exp, "ab")
    assert [d.kind for d in diffs][1:] == ["value"]
    assert 'expected "a\\nb", got "ab"' in diffs[1].message
    # a nested $oneOf's own heading is no extra difference in the count
    nested = {"$oneOf": [{"x": 3, "y": 2}, {"x": {"$oneOf": [1, 2]}, "y": 1}]}
    assert [d.path for d in compare(nested, {"x": 5, "y": 1})][1:] == ["/x", "/x"]


def test_one_of_binds_captures_of_the_matching_branch() -> None:
    exp = [
        {"$oneOf": [{"a": {"$id": {"capture": "k"}}}, {"b": {"$id": {"capture": "k"}}}]},
        {"$id": {"capture": "k"}},
    ]
    assert ok(exp, [{"b": "q"}, "q"])
    assert not ok(exp, [{"b": "q"}, "r"])


def test_literal() -> None:
    assert ok({"$literal": {"$ref": "#/$defs/x"}}, {"$ref": "#/$defs/x"})
    assert not ok({"$literal": {"$ref": "#/$defs/x"}}, {"$ref": "#/$defs/y"})
    # the content is literal at every depth
    assert ok({"$literal": {"a": {"$any": True}}}, {"a": {"$any": True}})
    assert not ok({"$literal": {"a": {"$any": True}}}, {"a": 1})


def test_dollar_keys_in_multi_key_objects_are_literal() -> None:
    exp = {"$ref": "#/a", "description": "x"}
    assert ok(exp, {"$ref": "#/a", "description": "x"})
    assert not ok(exp, {"$ref": "#/b", "description": "x"})


def test_unknown_matcher_is_reported() -> None:
    diffs = compare({"$ref": "#/a"}, {"$ref": "#/a"})
    assert diffs and "unknown matcher" in diffs[0].message
    assert is_matcher({"$ref": "#/a"}) and not is_matcher({"$ref": "#/a", "x": 1})


# -- diff and instantiate ---------------------------------------------------------------------------------


def test_format_diff_names_json_paths() -> None:
    expected = [{"type": "function", "function": {"parameters": {"additionalProperties": False}}}]
    actual = [{"type": "function", "function": {"parameters": {}}}]
    diffs = compare(expected, actual)
    text = format_diff(diffs, expected, actual)
    assert "/0/function/parameters/additionalProperties" in text
    assert "missing key" in text
    assert format_diff([], 1, 1) == ""


def test_instantiate() -> None:
    expected = {
        "id": {"$id": {"prefix": "call_"}},
        "args": {"$json": {"a": 1, "b": {"$any": True}}},
        "gone": {"$absent": True},
        "t": {"$type": "string"},
        "u": {"$unordered": [1, 2]},
        "lit": {"$literal": {"$ref": "#/x"}},
        "r": {"$regex": "^x"},
        "o": {"$oneOf": [1, 2]},
        "plain": [True, None],
    }
    value, unknown = instantiate(expected)
    assert value["id"] == "call_x1"
    assert json.loads(value["args"]) == {"a": 1, "b": None}
    assert "gone" not in value
    assert isinstance(value["t"], str)
    assert value["u"] == [1, 2] and value["lit"] == {"$ref": "#/x"} and value["plain"] == [True, None]
    assert value["o"] == 1
    assert {"/r", "/o"} <= unknown
    assert "/id" not in unknown and "/args" not in unknown


def test_optional_member_may_be_absent_or_match() -> None:
    from toolwire.corpus.matchers import compare

    expected = {"a": 1, "logprobs": {"$optional": None}}
    assert compare(expected, {"a": 1}) == []
    assert compare(expected, {"a": 1, "logprobs": None}) == []
    (diff,) = compare(expected, {"a": 1, "logprobs": 3})
    assert diff.path == "/logprobs"


def test_different_captures_must_bind_different_ids() -> None:
    from toolwire.corpus.matchers import compare

    expected = [{"$id": {"prefix": "toolu_", "capture": "a"}}, {"$id": {"prefix": "toolu_", "capture": "b"}}]
    assert compare(expected, ["toolu_1", "toolu_2"]) == []
    (diff,) = compare(expected, ["toolu_1", "toolu_1"])
    assert diff.path == "/1" and "already captured" in diff.message
