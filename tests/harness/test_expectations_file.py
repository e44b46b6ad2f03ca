"""Expectation files: parsing and validation, matching, the TOML writer, ``update`` (no pytest runs)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest
from core_support import make_corpus
from toolwire.corpus import load_corpus
from toolwire.expectations import Entry, ExpectationsError, dumps, load, main, parse, update
from toolwire.judge.checks import CheckResult
from toolwire.results import check_record

BASIC = '[[known-failure]]\ncase = "tools/basic"\nreason = "x"\n'
GOOD = """\
[[known-failure]]
case = "tools/basic"
pair = "canonical>openai-chat"
profile = { "openai.strict" = "all-required" }
reason = "we do not set strict"
issue = "https://github.com/acme/gw/issues/12"

[[known-failure]]
case = "choice/auto"
reason = "all of them"
"""


@pytest.fixture
def corpus(tmp_path: Path):
    return load_corpus(make_corpus(tmp_path))


def checks_by_id(corpus) -> dict:
    return {c.id: c for c in corpus.checks()}


def test_load_matches_by_case_pair_and_profile(tmp_path: Path, corpus) -> None:
    path = tmp_path / "exp.toml"
    path.write_text(GOOD)
    exp = load(path, corpus)
    assert exp.sha256 == hashlib.sha256(GOOD.encode()).hexdigest() and exp.path == path.resolve()
    assert [(e.index, e.line) for e in exp.entries] == [(1, 1), (2, 8)]
    by_id = checks_by_id(corpus)
    strict = exp.lookup(by_id["tools/basic[canonical>openai-chat,openai.strict=all-required]"])
    assert strict is not None and strict.issue == "https://github.com/acme/gw/issues/12"
    for other in (
        "tools/basic[canonical>openai-chat]",
        "tools/basic[canonical>openai-chat,openai.strict=off]",
        "tools/basic[canonical>gemini]",
        "tools/missing-name[canonical>openai-chat]",
    ):
        assert exp.lookup(by_id[other]) is None, other
    assert exp.lookup(by_id["choice/auto[canonical>anthropic]"]).reason == "all of them"
    assert exp.unmatched(corpus.checks()) == []


def test_profile_defaults_apply_and_most_specific_entry_wins(corpus) -> None:
    text = (
        '[[known-failure]]\ncase = "tools/basic"\nreason = "broad"\n\n'
        '[[known-failure]]\ncase = "tools/basic"\nprofile = { "openai.strict" = "as-is" }\n'
        'reason = "narrow"\n'
    )
    entries = parse(text, "x.toml", corpus)
    exp_checks = checks_by_id(corpus)
    from toolwire.expectations import Expectations

    exp = Expectations(Path("x.toml"), "0" * 64, entries)
    # as-is is the default: it names the checks that set no openai.strict
    assert exp.lookup(exp_checks["tools/basic[canonical>openai-chat]"]).reason == "narrow"
    assert exp.lookup(exp_checks["tools/basic[canonical>gemini]"]).reason == "narrow"
    assert exp.lookup(exp_checks["tools/basic[canonical>openai-chat,openai.strict=off]"]).reason == "broad"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[[known-failure]]\ncase = "tools/basic"\n',
            "known-failure #1, line 1 (case 'tools/basic'): 'reason' is a required property",
        ),
        (BASIC + 'colour = "red"\n', "'colour' was unexpected"),
        (
            BASIC + 'pair = "canonical-gemini"\n',
            "known-failure #1, line 1 (case 'tools/basic'): /pair: 'canonical-gemini': a pair is",
        ),
        (BASIC + 'pair = "canonical>gemini>anthropic"\n', "a round trip ends where it starts"),
        (
            '[[known-failure]]\ncase = "tools/basix"\nreason = "x"\n',
            "unknown case id 'tools/basix': not in the corpus at",
        ),
        (BASIC + 'pair = "canonical>klingon"\n', "unknown dialect 'klingon'"),
        (BASIC + 'profile = { "openai.strict" = "maybe" }\n', "profile openai.strict: unknown value 'maybe'"),
        (BASIC + 'profile = { "no.such" = "x" }\n', "unknown profile key 'no.such'"),
        (BASIC + 'issue = "#12"\n', "/issue: '#12': an issue is an http(s) URL"),
        (
            '[[known-failure]]\ncase = "tools/basic"\nreason = "   "\n',
            "/reason: '   ': say why the check fails",
        ),
        (
            '[[known-failure]]\ncase = "choice/auto"\nreason = "x"\n\n'
            '[[known-failure]]\ncase = "choice/auto"\nreason = "y"\n',
            "known-failure #2, line 5 (case 'choice/auto'): repeats known-failure #1",
        ),
        ('[[known-failures]]\ncase = "tools/basic"\nreason = "x"\n', "'known-failures' was unexpected"),
        ("[[known-failure]\n", "not valid TOML"),
    ],
)
def test_invalid_files_name_the_entry(tmp_path: Path, corpus, text: str, message: str, capsys) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ExpectationsError) as info:
        load(path, corpus)
    assert str(info.value).startswith(f"{path}: ")
    assert message in str(info.value)
    # the command line: exit 2 and the same message, no traceback
    assert main(["check", str(path), "--corpus", str(corpus.root)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_unknown_case_suggests_a_close_one(tmp_path: Path, corpus) -> None:
    with pytest.raises(ExpectationsError, match="did you mean 'tools/basic'"):
        parse('[[known-failure]]\ncase = "tools/basik"\nreason = "x"\n', "e.toml", corpus)


def test_a_far_id_gets_no_guess(corpus) -> None:
    with pytest.raises(ExpectationsError) as info:
        parse('[[known-failure]]\ncase = "tools/does-not-exist"\nreason = "x"\n', "e.toml", corpus)
    message = str(info.value)
    assert "unknown case id 'tools/does-not-exist'" in message and "did you mean" not in message


def test_every_problem_is_said_at_once_entry_by_entry(corpus) -> None:
    text = (
        '[[known-failure]]\ncase = "tools/basik"\n\n'  # no reason (schema), and an unknown case
        '[[known-failure]]\ncase = "tools/basic"\npair = "canonical>klingon"\nreason = "x"\n'
    )
    with pytest.raises(ExpectationsError) as info:
        parse(text, "e.toml", corpus)
    lines = str(info.value).splitlines()
    assert lines[0] == "e.toml: 3 problems"
    assert "#1" in lines[1] and "'reason' is a required property" in lines[1]
    assert "#1" in lines[2] and "did you mean 'tools/basic'" in lines[2]
    assert "#2" in lines[3] and "unknown dialect 'klingon'" in lines[3]


def test_check_command(tmp_path: Path, corpus, capsys) -> None:
    path = tmp_path / "exp.toml"
    path.write_text(
        GOOD + '\n[[known-failure]]\ncase = "tools/basic"\npair = "canonical>anthropic"\nreason = "?"\n'
    )
    assert main(["check", str(path), "--corpus", str(corpus.root)]) == 0
    out = capsys.readouterr().out
    assert "3 entries, valid" in out
    assert "known-failure #3, line 12: case 'tools/basic'; pair canonical>anthropic: matches no check" in out
    assert main(["check", str(path), "--corpus", str(corpus.root), "--strict"]) == 1
    assert main(["check", str(tmp_path / "missing.toml"), "--corpus", str(corpus.root)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_writer_is_deterministic_valid_toml(corpus) -> None:
    entries = [
        Entry(case="tools/basic", reason='quote " back\\slash\ttab\nnewline \x01 é', pair="canonical>gemini"),
        Entry(
            case="tools/basic",
            reason="strict",
            pair="canonical>openai-chat",
            profile={"tool.description": "required", "openai.strict": "all-required"},
            issue="https://example.com/i/1",
        ),
        Entry(case="choice/auto", reason="r"),
    ]
    text = dumps(entries)
    assert text == dumps(list(reversed(entries)))
    assert 'profile = { "openai.strict" = "all-required", "tool.description" = "required" }' in text
    data = tomllib.loads(text)
    assert [e["case"] for e in data["known-failure"]] == ["choice/auto", "tools/basic", "tools/basic"]
    assert data["known-failure"][1]["reason"] == entries[0].reason
    back = parse(text, "w.toml", corpus)
    assert [e.data() for e in back] == [e.data() for e in sorted(entries, key=lambda e: e.key)]
    assert dumps([]).count("[[known-failure]]") == 0 and tomllib.loads(dumps([])) == {}


def rec(check, outcome: str, **extra) -> dict:
    """The results record the harness writes for ``check`` ending in ``outcome``, plus ``extra``."""
    return {**check_record(check, CheckResult(outcome, duration_ms=1.0)), **extra}


def test_update_keeps_removes_narrows_and_adds(corpus) -> None:
    by_id = checks_by_id(corpus)
    plain = by_id["tools/basic[canonical>openai-chat]"]
    strict = by_id["tools/basic[canonical>openai-chat,openai.strict=all-required]"]
    records = [
        rec(plain, "failed"),
        rec(strict, "passed"),
        rec(by_id["tools/basic[canonical>openai-chat,openai.strict=off]"], "skipped"),
        rec(by_id["tools/basic[canonical>gemini]"], "skipped"),
        rec(by_id["choice/auto[canonical>openai-chat]"], "xpassed", expected_failure={"reason": "old"}),
        rec(by_id["choice/auto[canonical>anthropic]"], "passed"),
        rec(
            by_id["tools/missing-name[canonical>openai-chat]"],
            "xfailed",
            expected_failure={"reason": "listed elsewhere", "issue": "https://x.test/1"},
        ),
    ]
    existing = [
        Entry(case="tools/basic", reason="broad reason", issue="https://x.test/9", index=1),  # mixed
        Entry(case="choice/auto", reason="old", index=2),  # all pass: removed
        Entry(case="messages/not-run", reason="kept", index=3),  # matches nothing of the run: kept
    ]
    up = update(records, existing, corpus, "TODO: triage")
    assert [e.case for e in up.removed] == ["choice/auto"]
    assert [e.case for e in up.kept] == ["messages/not-run"]
    assert len(up.narrowed) == 1
    ((old, parts),) = up.narrowed
    # the plain check sets no openai.strict but its siblings do: the default is made explicit
    assert [p.data() for p in parts] == [
        {
            "case": "tools/basic",
            "pair": "canonical>openai-chat",
            "profile": {"openai.strict": "as-is"},
            "reason": "broad reason",
            "issue": "https://x.test/9",
        }
    ]
    assert [e.data() for e in up.added] == [
        {
            "case": "tools/missing-name",
            "pair": "canonical>openai-chat",
            "reason": "listed elsewhere",
            "issue": "https://x.test/1",
        }
    ]
    assert [e.case for e in up.entries] == ["messages/not-run", "tools/basic", "tools/missing-name"]


def test_update_narrowed_entries_list_exactly_their_checks(corpus) -> None:
    records = [rec(c, "failed") for c in corpus.checks()]
    up = update(records, [], corpus)
    assert all(e.reason == "TODO: triage" and e.pair for e in up.entries)
    from toolwire.expectations import Expectations

    exp = Expectations(Path("e.toml"), "0" * 64, parse(dumps(up.entries), "e.toml", corpus))
    for check in corpus.checks():
        listed = [
            e
            for e in exp.entries
            if e.matches(check.case_id, f"{check.source}>{check.target}", {**check.profile})
        ]
        assert len(listed) == 1, (check.id, listed)
    assert json.dumps([e.data() for e in up.entries]) == json.dumps(
        [e.data() for e in update(list(reversed(records)), [], corpus).entries]
    )
