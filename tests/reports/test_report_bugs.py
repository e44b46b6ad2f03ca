"""Failing checks grouped into distinct translation bugs (`toolwire.reports.bugs`) and the Markdown section
"Translation bugs found" that lists them (`toolwire.reports.markdown`)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from result_records import check_rec
from toolwire.reports.bugs import SHOWN_FINDINGS, Code, Finding, find_bugs, pointer_pattern
from toolwire.reports.markdown import github_anchor, render


def check(
    case: str,
    source: str = "anthropic",
    target: str = "openai-chat",
    outcome: str = "failed",
    *,
    kind: str = "request",
    level: str = "must",
    features: tuple[str, ...] = ("request.tools",),
    variant: str = "",
    **extra: Any,
) -> dict[str, Any]:
    return check_rec(
        case, source, target, outcome, kind=kind, level=level, features=features, variant=variant, **extra
    )


def diff(*lines: str) -> str:
    n = len(lines)
    head = f"{n} difference{'s' if n != 1 else ''} (JSON Pointer into the output):"
    return "\n".join([head, *(f"  {line}" for line in lines)])


def titles(findings: list[Finding]) -> list[str]:
    return [f.plain_title() for f in findings]


def ids(finding: Finding) -> list[str]:
    return [str(c["id"]) for c in finding.checks]


def check_with_diff(case: str, *lines: str, **kw: Any) -> dict[str, Any]:
    return check(case, diff=diff(*lines), **kw)


# -- grouping ---------------------------------------------------------------------------------------------


def test_array_indexes_are_abstracted_and_checks_grouped():
    checks = [
        check_with_diff(
            "messages/a", '/messages/0/content: expected string "hi", got array [{"type": "text"}]'
        ),
        check_with_diff("messages/b", '/messages/3/content: expected string "yo", got array []'),
        check_with_diff("messages/c", '/messages/1/content/0: expected string "x", got array []'),
    ]
    found = find_bugs(checks)
    assert titles(found) == [
        "anthropic→openai-chat requests: `/messages/*/content` is an array where a string is expected",
        "anthropic→openai-chat requests: `/messages/*/content/*` is an array where a string is expected",
    ]
    assert ids(found[0]) == ["messages/a[anthropic>openai-chat]", "messages/b[anthropic>openai-chat]"]
    assert found[0].count == 2 and found[1].count == 1
    # the example is the relevant line of one check, not its whole diff
    assert found[0].example == '/messages/0/content: expected string "hi", got array [{"type": "text"}]'


def test_pointer_pattern():
    assert pointer_pattern("/choices/0/message/tool_calls/12/id") == "/choices/*/message/tool_calls/*/id"
    assert pointer_pattern("") == "" and pointer_pattern("/") == ""
    # names of schema properties are the user's, like indexes
    assert (
        pointer_pattern("/tools/0/input_schema/properties/city/type")
        == "/tools/*/input_schema/properties/*/type"
    )
    assert pointer_pattern("/tools/0/input_schema/properties/city") == "/tools/*/input_schema/properties/city"


def test_same_pointer_different_kinds_of_difference_are_different_findings():
    checks = [
        check_with_diff("a/one", "/model: missing key 'model', expected \"gpt-4o\""),
        check_with_diff("a/two", '/model: expected "gpt-4o", got "gpt-4"'),
        check_with_diff("a/three", '/model: expected string "gpt-4o", got null null'),
    ]
    found = find_bugs(checks)
    assert len(found) == 3
    assert {f.count for f in found} == {1}
    assert sorted(titles(found)) == [
        'anthropic→openai-chat requests: `/model` is `"gpt-4"` where `"gpt-4o"` is expected',
        "anthropic→openai-chat requests: `/model` is null where a string is expected",
        'anthropic→openai-chat requests: `model` missing at the top level (expected `"gpt-4o"`)',
    ]


def test_values_shown_only_when_the_same_in_every_check():
    same = [check_with_diff(f"v/{i}", '/tools/0/type: expected "function", got "custom"') for i in range(3)]
    varied = [
        check_with_diff(
            f"w/{i}",
            f"/max_tokens: expected {4096}, got {1000 + i}",
            source="openai-chat",
            target="anthropic",
        )
        for i in range(2)
    ]
    found = find_bugs(same + varied)
    assert titles(found) == [
        'anthropic→openai-chat requests: `/tools/*/type` is `"custom"` where `"function"` is expected',
        "openai-chat→anthropic requests: `/max_tokens` has the wrong value (e.g. `1000` where `4096` is "
        "expected)",
    ]


def test_a_key_sent_under_another_name_is_one_finding():
    checks = [
        check_with_diff(
            f"messages/m{i}",
            f"/max_tokens: unexpected key 'max_tokens', value {i}",
            f"/max_completion_tokens: missing key 'max_completion_tokens', expected {i}",
            "/tools/0/function_declarations: unexpected key 'function_declarations', value []",
            "/tools/0/functionDeclarations: missing key 'functionDeclarations', expected []",
        )
        for i in range(2)
    ]
    found = find_bugs(checks)
    # equal counts: by signature (the top-level key first)
    assert titles(found) == [
        "anthropic→openai-chat requests: `max_tokens` sent where `max_completion_tokens` is expected",
        "anthropic→openai-chat requests: `function_declarations` sent where `functionDeclarations` is "
        "expected in `/tools/*`",
    ]
    assert all(f.count == 2 for f in found)
    assert found[0].example.splitlines() == [
        "/max_tokens: unexpected key 'max_tokens', value 0",
        "/max_completion_tokens: missing key 'max_completion_tokens', expected 0",
    ]


def test_unrelated_missing_and_unexpected_keys_are_not_a_rename():
    checks = [
        check_with_diff(
            f"r/{i}",
            "/system_fingerprint: unexpected key 'system_fingerprint', value null",
            "/usage: missing key 'usage', expected {\"prompt_tokens\": 1}",
        )
        for i in range(2)
    ]
    found = find_bugs(checks)
    assert sorted(titles(found)) == [
        'anthropic→openai-chat requests: `usage` missing at the top level (expected `{"prompt_tokens": 1}`)',
        "anthropic→openai-chat requests: unexpected `system_fingerprint` at the top level (value `null`)",
    ]


def test_keys_in_the_same_checks_and_object_are_one_finding_others_apart():
    both = [
        check_with_diff(
            f"u/{i}",
            "/choices/0/message/refusal: unexpected key 'refusal', value null",
            "/choices/0/message/audio: unexpected key 'audio', value null",
            "/choices/0/message/images: unexpected key 'images', value []",
            "/usage/extra: unexpected key 'extra', value null",
        )
        for i in range(3)
    ]
    one = [check_with_diff("u/z", "/choices/0/message/refusal: unexpected key 'refusal', value null")]
    found = find_bugs(both + one)
    # keys of different objects failing in the same checks are not one rule: one finding per object
    assert [(f.count, f.plain_title()) for f in found] == [
        (4, "anthropic→openai-chat requests: unexpected `refusal` in `/choices/*/message` (value `null`)"),
        (3, "anthropic→openai-chat requests: unexpected `audio` and `images` in `/choices/*/message`"),
        (3, "anthropic→openai-chat requests: unexpected `extra` in `/usage` (value `null`)"),
    ]
    assert found[1].example.splitlines() == [
        "/choices/0/message/audio: unexpected key 'audio', value null",
        "/choices/0/message/images: unexpected key 'images', value []",
    ]


def test_sources_grouped_outputs_and_kinds_kept_apart():
    """A finding is about one dialect's output: the same rule broken from several sources is one finding
    naming them; another output dialect or kind is another finding; a round trip's output is its source's,
    so it joins the findings of that dialect's output."""
    line = '/messages/0/content: expected an array, got string "hi"'
    checks = [
        check_with_diff("p/a", line),
        check_with_diff("p/b", line, source="gemini"),
        check_with_diff("p/c", line, kind="response"),
        check_with_diff("p/d", line, round_trip=True),
        check_with_diff("p/e", line, source="openai-chat", target="anthropic", round_trip=True),
        check_with_diff("p/f", line, source="openai-chat", target="gemini", round_trip=True),
    ]
    found = find_bugs(checks)
    assert sorted(titles(found)) == [
        "anthropic, gemini→openai-chat requests (also round trips via anthropic, gemini): "
        "`/messages/*/content` is a string where an array is expected",
        "anthropic→openai-chat responses: `/messages/*/content` is a string where an array is expected",
        "anthropic→openai-chat→anthropic requests (round trip): `/messages/*/content` is a string where an "
        "array is expected",
    ]


def test_ordering_most_checks_first_then_signature_and_independent_of_input_order():
    checks = []
    for i in range(3):
        checks.append(check_with_diff(f"o/big{i}", "/b: expected 1, got 2"))
    for i in range(2):
        checks.append(check_with_diff(f"o/mid{i}", "/a: expected 1, got 2"))
        checks.append(check_with_diff(f"o/mid{i}x", "/c: expected 1, got 2"))
    checks.append(check_with_diff("o/small", "/z: expected 1, got 2"))
    found = find_bugs(checks)
    assert [(f.count, f.title[1]) for f in found] == [(3, "/b"), (2, "/a"), (2, "/c"), (1, "/z")]
    shuffled = list(checks)
    random.Random(7).shuffle(shuffled)
    again = find_bugs(shuffled)
    assert [(f.signature, ids(f), f.example) for f in again] == [
        (f.signature, ids(f), f.example) for f in found
    ]


def test_one_check_counts_in_several_findings_and_passing_checks_in_none():
    checks = [
        check_with_diff("s/a", "/x: expected 1, got 2", "/y: expected 1, got 2"),
        check("s/b", outcome="passed", diff=diff("/x: expected 1, got 2")),
        check("s/c", outcome="skipped"),
    ]
    found = find_bugs(checks)
    assert [ids(f) for f in found] == [["s/a[anthropic>openai-chat]"]] * 2


def test_stream_variants_group_with_the_main_check():
    grammar = (
        "openai-chat stream grammar: event {n}: object must be 'chat.completion.chunk' (got None) "
        "[openai-chat.chunk-object]"
    )
    checks = [
        check(
            "streams/a",
            kind="stream",
            variant=variant,
            level="should" if variant else "must",
            message=f"{label}{grammar.format(n=i)}; the accumulated output differs from the expectation in 1 "
            "place(s)",
            diff="accumulated:\n" + diff('/id: expected string "x", got null null'),
        )
        for i, (variant, label) in enumerate(
            [
                ("", ""),
                ("rechunk=chars", "source re-chunked (chars): "),
                ("rechunk=whole", "source re-chunked (whole): "),
            ]
        )
    ]
    found = find_bugs(checks)
    assert titles(found) == [
        "anthropic→openai-chat streams (accumulated output): `/id` is null where a string is expected",
        "anthropic→openai-chat streams: output breaks the stream grammar: object must be "
        "'chat.completion.chunk' (got None) (`openai-chat.chunk-object`)",
    ]
    # a case's variants count once with their main check (its level), and are listed
    assert [(f.count, f.runs) for f in found] == [(1, 3), (1, 3)]
    assert found[0].levels() == [("must", 1)]
    assert found[0].variants() == ["rechunk=chars", "rechunk=whole"]
    # the main check is the example and the first listed
    assert found[0].example_id == "streams/a[anthropic>openai-chat]"
    assert found[0].sample(5)[0]["id"] == "streams/a[anthropic>openai-chat]"


def test_late_fragments_grouped_by_fragment_kind():
    late = (
        'late fragments: [{"output_event": 1, "emitted_after_input": 6, "available_at_input": 2, "lag": 4, '
        '"kind": "text", "call": null}, {"output_event": 2, "emitted_after_input": 6, '
        '"available_at_input": 3, "lag": 3, "kind": "call_start", "call": 0}]'
    )
    checks = [
        check(
            f"streams/l{i}",
            kind="stream",
            variant="incremental",
            diff=late,
            message="2 of 2 output "
            "fragments lagged more than 1 input event(s); worst: text (output event 1) was emitted late",
        )
        for i in range(2)
    ]
    found = find_bugs(checks)
    assert sorted(titles(found)) == [
        "anthropic→openai-chat streams: not incremental: text held back (emitted more than one input event "
        "late)",
        "anthropic→openai-chat streams: not incremental: the start of tool calls held back (emitted more "
        "than one input event late)",
    ]


# -- refusals, crashes, wire errors -----------------------------------------------------------------------


def refusal(case: str, message: str, code: str = "peer.error", **kw: Any) -> dict[str, Any]:
    return check(
        case,
        actual_error={"code": code, "message": message, "path": None},
        message=f"refused with {code!r} at (none) ({message}) where a payload was expected",
        **kw,
    )


def test_refusals_grouped_by_code_and_exception_without_volatile_parts():
    checks = [
        refusal(
            "r/a",
            "litellm.UnsupportedParamsError: litellm.UnsupportedParamsError: anthropic does not "
            "support parameters: ['store'], for model=gpt-4o. To drop these, set drop_params=True",
        ),
        refusal(
            "r/b",
            "litellm.UnsupportedParamsError: litellm.UnsupportedParamsError: anthropic does not "
            "support parameters: ['store'], for model=gpt-5. To drop these, set drop_params=True",
        ),
        refusal(
            "r/c", "BadRequestError: Invalid tool choice, tool_choice={'type': 'auto', 'id': 'call_8f2a'}"
        ),
        refusal("r/d", "BadRequestError: Invalid tool choice, tool_choice={'type': 'none', 'id': 'call_99'}"),
        refusal(
            "r/e", "BadRequestError: Invalid tool choice, tool_choice={'type': 'none'}", code="choice.invalid"
        ),
    ]
    found = find_bugs(checks)
    assert [(f.count, f.plain_title()) for f in found] == [
        (
            2,
            "anthropic→openai-chat requests: refuses with `peer.error` (`BadRequestError: Invalid tool "
            "choice, tool_choice…`) where a translation is expected",
        ),
        (
            2,
            "anthropic→openai-chat requests: refuses with `peer.error` (`UnsupportedParamsError: anthropic "
            "does not support parameters: ['store'], for model=gpt-4o. To drop these, set…`) where a "
            "translation is expected",
        ),
        (
            1,
            "anthropic→openai-chat requests: refuses with `choice.invalid` (`BadRequestError: Invalid tool "
            "choice, tool_choice…`) where a translation is expected",
        ),
    ]


def test_wrong_error_and_missing_refusal():
    wrong = [
        check(
            f"v/w{i}",
            kind="tools",
            expected_error={"code": "tool.missing_name", "path": f"/{i}/function/name"},
            actual_error={"code": "peer.error", "message": f"ValueError: bad tool #{i}", "path": None},
            message="wrong error code: expected 'tool.missing_name', got 'peer.error' (...)",
        )
        for i in range(2)
    ]
    translated = [
        check(
            f"v/t{i}",
            kind="tools",
            expected_error={"code": "tool.missing_name", "path": f"/{i}/function/name"},
            message="translated where a refusal with 'tool.missing_name' at /0/function/name was expected",
            diff='output: [{"type": "function"}]',
        )
        for i in range(3)
    ]
    found = find_bugs(wrong + translated)
    assert titles(found) == [
        "anthropic→openai-chat tool definitions: translates where the refusal `tool.missing_name` at "
        "`/*/function/name` is expected",
        "anthropic→openai-chat tool definitions: fails with `peer.error` (`ValueError: bad tool #0`) where "
        "the refusal `tool.missing_name` is expected",
    ]
    assert found[0].example_is_diff is False and 'output: [{"type": "function"}]' in found[0].example


def test_crashes_grouped_by_exception():
    def crash(case: str, arg: str, **kw: Any) -> dict[str, Any]:
        text = (
            f"TypeError: Messages.create() got an unexpected keyword argument '{arg}'\n"
            "Traceback (innermost last):\n"
            '  File "<prefix>/site-packages/aisuite/providers/anthropic_provider.py", line 110, in create\n'
            "    return self.client.messages.create(**kwargs)"
        )
        return check(case, "openai-chat", "anthropic", "errored", message=text, **kw)

    found = find_bugs([crash("c/a", "stop"), crash("c/b", "stop"), crash("c/c", "user")])
    assert [(f.count, f.plain_title()) for f in found] == [
        (
            2,
            "openai-chat→anthropic requests: crashes with `TypeError: Messages.create() got an unexpected "
            "keyword argument 'stop'`",
        ),
        (
            1,
            "openai-chat→anthropic requests: crashes with `TypeError: Messages.create() got an unexpected "
            "keyword argument 'user'`",
        ),
    ]
    # the example: the exception and the innermost frame
    assert found[0].example.splitlines() == [
        "TypeError: Messages.create() got an unexpected keyword argument 'stop'",
        '  File "<prefix>/site-packages/aisuite/providers/anthropic_provider.py", line 110, in create',
        "    return self.client.messages.create(**kwargs)",
    ]


def test_python_traceback_first_is_read_from_its_last_line():
    crashed = check(
        "c/t",
        outcome="errored",
        message="Traceback (most recent call last):\n  File \"x.py\", line 3\nKeyError: 'mode'",
    )
    (finding,) = find_bugs([crashed])
    assert finding.plain_title() == "anthropic→openai-chat requests: crashes with `KeyError: 'mode'`"


def test_wire_errors_grouped_across_sources_with_values_abstracted():
    checks = [
        check(
            "w/a",
            source="anthropic",
            kind="response",
            wire_valid=False,
            wire_errors=["/choices/0/message/tool_calls: None is not of type 'array'"],
        ),
        check(
            "w/b",
            source="gemini",
            kind="response",
            wire_valid=False,
            wire_errors=[
                "/choices/1/message/tool_calls: None is not of type 'array'",
                "/choices/0/finish_reason: 'blocklist' is not one of ['stop', 'length']",
            ],
        ),
        check(
            "w/c",
            source="gemini",
            kind="response",
            wire_valid=False,
            wire_errors=["/choices/0/finish_reason: 'spam' is not one of ['stop', 'length']"],
        ),
    ]
    found = find_bugs(checks)
    assert [(f.count, f.plain_title()) for f in found] == [
        (
            2,
            "gemini→openai-chat responses: output invalid for the openai-chat wire schema at "
            "`/choices/*/finish_reason`: string is not one of ['stop', 'length']",
        ),
        (
            2,
            "anthropic, gemini→openai-chat responses: output invalid for the openai-chat wire schema at "
            "`/choices/*/message/tool_calls`: null is not of type 'array'",
        ),
    ]
    assert found[0].example_is_diff is False


def test_every_failing_check_is_in_some_finding():
    odd = check("x/odd", message="something unforeseen happened at 12:00")
    (finding,) = find_bugs([odd])
    assert finding.count == 1 and "something unforeseen happened" in finding.plain_title()


# -- the Markdown section ---------------------------------------------------------------------------------


@dataclass
class Results:
    checks: list[dict[str, Any]]
    header: dict[str, Any] = field(
        default_factory=lambda: {
            "record": "header",
            "corpus": {"version": "0.0.0-test", "hash": "ab" * 32, "path": "/nonexistent"},
            "adapter": {"spec": "peer:demo", "name": "demo", "version": "1.0"},
            "run": {"started": "2026-01-02T03:04:05Z", "selection": None},
        }
    )
    footer: dict[str, Any] | None = field(default_factory=lambda: {"record": "footer", "complete": True})


def section(text: str) -> str:
    start = text.index("## Translation bugs found")
    return text[start : text.index("\n## Failing checks", start)]


def test_no_failures_says_none_found_in_one_line():
    text = render(Results([check("a/ok", outcome="passed"), check("a/skip", outcome="skipped")]))
    assert section(text).strip().splitlines() == [
        "## Translation bugs found",
        "",
        "None found: no check failed.",
    ]


def test_section_lists_findings_before_failing_checks_with_links_to_them():
    checks = [
        check_with_diff(
            f"messages/m{i}",
            "/max_tokens: unexpected key 'max_tokens', value 8",
            "/max_completion_tokens: missing key 'max_completion_tokens', expected 8",
        )
        for i in range(7)
    ] + [refusal("messages/r", "ValueError: nope")]
    text = render(Results(checks))
    bugs = section(text)
    assert text.index("## Translation bugs found") < text.index("## Failing checks")
    headings = re.findall(r"^### .*$", bugs, re.M)
    assert headings == [
        "### 1. anthropic→openai-chat requests: `max_tokens` sent where `max_completion_tokens` is expected",
        "### 2. anthropic→openai-chat requests: refuses with `peer.error` (`ValueError: nope`) where a "
        "translation is expected",
    ]
    assert "**7 checks** (7 must), features `request.tools`." in bugs
    links = re.findall(r"\[`([^`]+)`\]\(#([^)]+)\)", bugs.split("### 2.")[0])
    assert [i for i, _ in links] == [f"messages/m{i}[anthropic>openai-chat]" for i in range(5)]
    assert "and 2 more." in bugs
    # every link points at the heading of that check under "Failing checks"
    failing = text[text.index("## Failing checks") :]
    for check_id, anchor in links:
        assert f"### `{check_id}`" in failing
        assert github_anchor(f"### `{check_id}`") == anchor
    assert "```diff\n/max_tokens: unexpected key 'max_tokens', value 8\n" in bugs


def test_github_anchor():
    assert github_anchor("### `calls/x[anthropic>openai-chat,openai.strict=as-is]`") == (
        "callsxanthropicopenai-chatopenaistrictas-is"
    )
    assert github_anchor("## Failing checks") == "failing-checks"


def test_section_is_bounded():
    checks = [
        check_with_diff(f"b/c{i:02}", f"/field{i:02}: expected 1, got 2") for i in range(SHOWN_FINDINGS + 5)
    ]
    checks.append(check_with_diff("b/extra", "/field00: expected 1, got 2"))
    bugs = section(render(Results(checks)))
    assert len(re.findall(r"^### \d+\. ", bugs, re.M)) == SHOWN_FINDINGS
    assert f"{SHOWN_FINDINGS + 5} distinct problems in the {SHOWN_FINDINGS + 6} failing checks" in bugs
    assert bugs.rstrip().endswith(
        "5 more problems, each in 1 check or fewer: see [Failing checks](#failing-checks)."
    )
    # the finding with two checks comes first
    assert "### 1. anthropic→openai-chat requests: `/field00`" in bugs


def test_title_parts_are_code_or_prose():
    (finding,) = find_bugs([check_with_diff("t/a", "/a_b: expected 1, got 2")])
    assert [type(p) for p in finding.title] == [str, Code, str, Code, str, Code, str]
    text = section(render(Results([check_with_diff("t/a", "/a_b: expected 1, got 2")])))
    assert "### 1. anthropic→openai-chat requests: `/a_b` is `2` where `1` is expected" in text


def test_wire_messages_keep_property_names_and_cut_values():
    checks = [
        check(
            f"w/r{i}",
            kind="response",
            wire_errors=[
                "/: 'id' is a required property",
                f"/choices/0/message/content: [{{'type': 'text', 'text': 'long {i}…",
            ],
        )
        for i in range(2)
    ]
    found = find_bugs(checks)
    assert [(f.count, f.plain_title()) for f in found] == [
        (
            2,
            "anthropic→openai-chat responses: `id` missing at the top level (the openai-chat wire schema "
            "requires it)",
        ),
        (
            2,
            "anthropic→openai-chat responses: output invalid for the openai-chat wire schema at "
            "`/choices/*/message/content`: array is invalid",
        ),
    ]


def test_different_ids_in_a_title_stay_told_apart():
    grammar = (
        "openai-chat stream grammar: event 1: chunk id 'chatcmpl-1723689235636094565' differs from the "
        "first chunk's 'chatcmpl-2858116572799847872' [openai-chat.chunk-id]"
    )
    (finding,) = find_bugs([check("streams/i", kind="stream", message=grammar)])
    assert (
        "chunk id 'chatcmpl-<id>' differs from the first chunk's 'chatcmpl-<id#2>'" in finding.plain_title()
    )


def test_titles_stay_short_with_many_long_keys():
    lines = [
        f"/tools/0/function/parameters/properties/p{i}/properties/q/properties/r/x{i}: "
        f"unexpected key 'x{i}', value 1"
        for i in range(30)
    ]
    lines += [
        f"/deeply/nested/object/number/{i}/with/a/long/name/k{i}: missing key 'k{i}', expected 1"
        for i in range(30)
    ]
    (*found,) = find_bugs([check_with_diff("t/long", *lines)])
    assert all(len(f.plain_title()) < 300 for f in found)
    assert any("and 26 more" in f.plain_title() for f in found)


def test_a_wire_error_where_the_output_differs_is_that_difference():
    """The expected payload is valid for the wire schema: an output invalid at or above a place where it
    differs is that difference seen by the schema, not another bug. A wire error elsewhere stays apart."""
    checks = [
        check_with_diff(
            f"m/{i}",
            '/messages/1/content: expected string "hi", got array [{"type": "text"}]',
            wire_valid=False,
            wire_errors=[
                "/messages/1/content: [{'type': 'text'}] is not valid under any of the given schemas",
                "/model: 5 is not of type 'string'",
            ],
        )
        for i in range(2)
    ]
    found = find_bugs(checks)
    assert sorted((f.count, f.plain_title()) for f in found) == [
        (
            2,
            "anthropic→openai-chat requests: `/messages/*/content` is an array where a string is expected",
        ),
        (
            2,
            "anthropic→openai-chat requests: output invalid for the openai-chat wire schema at `/model`: "
            "number is not of type 'string'",
        ),
    ]
    content = next(f for f in found if "content" in f.plain_title())
    assert (
        "/messages/1/content: [{'type': 'text'}] is not valid under any of the given schemas"
        in content.example
    )


def test_two_bugs_at_one_place_are_two_findings():
    """A lost `Error: ` prefix (is_error dropped) and content cut short at the same pointer are two bugs."""
    lost_flag = [
        check_with_diff(f"results/e{i}", f'/messages/2/content: expected "Error: boom {i}", got "boom {i}"')
        for i in range(2)
    ]
    cut = [
        check_with_diff(f"messages/c{i}", f'/messages/1/content: expected "line one {i}", got "line"')
        for i in range(3)
    ]
    found = find_bugs(lost_flag + cut)
    assert titles(found) == [
        "anthropic→openai-chat requests: `/messages/*/content` has the wrong value (text cut short, e.g. "
        '`"line"` where `"line one 0"` is expected)',
        "anthropic→openai-chat requests: `/messages/*/content` has the wrong value (text missing at its "
        'start, e.g. `"boom 0"` where `"Error: boom 0"` is expected)',
    ]
    assert [{c["id"] for c in f.checks} for f in found] == [
        {c["id"] for c in cut},
        {c["id"] for c in lost_flag},
    ]


def test_every_grammar_violation_of_a_stream_is_its_own_finding():
    """A violation's message may hold "; " itself (block order says what the next index is); each one is read
    up to its rule, whatever the variant's label."""
    message = (
        "upstream stream delivered in one write: anthropic stream grammar: event 5: content_block_start for "
        "index 0; the next block index is 1 [anthropic.block-order]; anthropic stream grammar: event 7: an "
        "event after the end of the stream (ping) [anthropic.after-end]"
    )
    found = find_bugs([check("streams/s", "openai-chat", "anthropic", kind="stream", message=message)])
    assert titles(found) == [
        "openai-chat→anthropic streams: output breaks the stream grammar: an event after the end of the "
        "stream (ping) (`anthropic.after-end`)",
        "openai-chat→anthropic streams: output breaks the stream grammar: content_block_start for index 0; "
        "the next block index is 1 (`anthropic.block-order`)",
    ]
