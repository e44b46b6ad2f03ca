"""Whole runs through `cmd:` adapters: the reference harness equals the in-process reference, the Node.js
example gets a fair partial report, and a crashing, hanging, garbage-writing harness leaves a complete
results file with exactly those checks errored."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from protocol_support import REPO, python_cmd, read_records, small_corpus, toolwire_run
from toolwire.adapters import load_adapter
from toolwire.corpus import load_corpus, resolve_profile
from toolwire.judge import run_check

REFERENCE_HARNESS = "cmd:python -m toolwire_reference.harness"


def _outcomes(records: dict[str, dict]) -> dict[str, str]:
    return {check_id: rec["outcome"] for check_id, rec in records.items()}


def test_reference_harness_equals_in_process_reference(tmp_path: Path) -> None:
    via_cmd = toolwire_run(tmp_path, "--adapter", REFERENCE_HARNESS, "--validate-protocol")
    header, cmd_records, footer = read_records(tmp_path / "reference.results.jsonl")
    assert header["adapter"]["spec"] == REFERENCE_HARNESS
    assert header["adapter"]["name"] == "toolwire-reference"
    assert footer is not None and footer["complete"] is True, via_cmd.stdout[-3000:] + via_cmd.stderr[-3000:]
    assert [r["id"] for r in cmd_records.values() if r["outcome"] == "errored"] == []
    # the same checks in-process, in this test's process
    corpus = load_corpus()
    assert header["corpus"]["hash"] == corpus.hash, "the corpus changed during the test"
    reference = load_adapter("reference")
    in_process = {c.id: run_check(reference, c, corpus.profiles).outcome for c in corpus.checks()}
    assert _outcomes(cmd_records) == in_process
    failing = any(outcome in ("failed", "errored") for outcome in in_process.values())
    assert via_cmd.returncode == (1 if failing else 0)


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_node_example_gets_a_fair_partial_report(tmp_path: Path) -> None:
    proc = toolwire_run(
        tmp_path, "--adapter", "cmd:node examples/node-harness/harness.mjs", "--validate-protocol"
    )
    header, records, footer = read_records(tmp_path / "node-example.results.jsonl")
    assert footer is not None and footer["complete"] is True, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert header["adapter"]["language"] == "javascript"
    assert header["adapter"]["capabilities"]["kinds"] == {"tools": [["canonical", "openai-chat"]]}

    corpus = load_corpus()
    defaults = resolve_profile(corpus.profiles, None)
    declared = {
        c.id
        for c in corpus.checks()
        if (c.kind, c.source, c.target) == ("tools", "canonical", "openai-chat")
        and not c.round_trip
        and resolve_profile(corpus.profiles, c.when) == defaults
    }
    assert declared, "the corpus has tools canonical>openai-chat checks under the default profile"
    assert [i for i, r in records.items() if r["outcome"] == "errored"] == []
    # everything it did not declare is not applicable: skipped with the reason, never failed
    for check_id, rec in records.items():
        if check_id in declared:
            assert rec["outcome"] in ("passed", "failed"), rec
        else:
            assert rec["outcome"] == "skipped", rec
            assert "not declared" in rec["message"] or "not supported" in rec["message"], rec
    # verified by hand: the wrapper, refusals with the right codes and paths
    for case in (
        "tools/no-description",
        "validation/missing-name",
        "validation/name-with-dot",
        "validation/duplicate-name",
        "validation/tools-not-a-list",
        "validation/root-anyof",
        "validation/invalid-property-type",
    ):
        mine = [r for i, r in records.items() if i in declared and r["case"] == case]
        assert mine and all(r["outcome"] == "passed" for r in mine), mine
    # the report scores its one pair: must = passed/applicable over the declared must checks
    must = [records[i] for i in declared if records[i]["level"] == "must"]
    passed = sum(r["outcome"] == "passed" for r in must)
    report = (tmp_path / "node-example.md").read_text(encoding="utf-8")
    assert f"| must | {passed} | {len(must)} |" in report
    assert proc.returncode == (1 if any(records[i]["outcome"] == "failed" for i in declared) else 0)


BAD_HARNESS = textwrap.dedent(
    '''
    """The reference harness, except for three requests: it dies on one, hangs on one, babbles on one."""
    import json, os, sys, time

    from toolwire_reference.harness import Session

    bad = json.loads(os.environ["BAD_CASES"])
    session = Session()
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("cmd") == "bye":
            break
        if msg.get("cmd") == "translate":
            key = json.dumps([msg["kind"], msg["source"], msg["target"], msg["profile"], msg["payload"]],
                             sort_keys=True)
            if key == bad["crash"]:
                print("bad harness: segfault imminent", file=sys.stderr, flush=True)
                os._exit(11)
            if key == bad["hang"]:
                print("bad harness: thinking very hard", file=sys.stderr, flush=True)
                time.sleep(60)
            if key == bad["garbage"]:
                print("DEBUG tools=" + json.dumps(msg["payload"])[:40], flush=True)
                continue
        sys.stdout.write(json.dumps(session.handle(msg)) + "\\n")
        sys.stdout.flush()
    '''
)


def _key(check, profiles) -> str:
    profile = resolve_profile(profiles, check.when)
    return json.dumps([check.kind, check.source, check.target, profile, check.source_payload], sort_keys=True)


def _bad_checks(
    corpus_root: Path, roles: tuple[str, ...] = ("crash", "hang", "garbage")
) -> tuple[dict[str, str], dict[str, str]]:
    """Checks whose request no other check (or round trip) sends, one per role (two or three, spread over
    the corpus): role -> check id, role -> key."""
    corpus = load_corpus(corpus_root)
    checks = corpus.checks()
    keys: dict[str, int] = {}
    for c in checks:
        keys[_key(c, corpus.profiles)] = keys.get(_key(c, corpus.profiles), 0) + 1
    back_legs = {(c.kind, c.target, c.source) for c in checks if c.round_trip}
    eligible = [
        c
        for c in checks
        if c.kind != "stream"
        and not c.round_trip
        and keys[_key(c, corpus.profiles)] == 1
        and (c.kind, c.source, c.target) not in back_legs
    ]
    assert len(eligible) >= 3
    spread = [eligible[0], eligible[len(eligible) // 2], eligible[-1]]
    chosen = dict(zip(roles, spread if len(roles) == 3 else [spread[0], spread[2]], strict=True))
    return {role: c.id for role, c in chosen.items()}, {
        role: _key(c, corpus.profiles) for role, c in chosen.items()
    }


def _run_bad(tmp_path: Path, *args: str):
    """The bad harness over a small corpus (tools and choice areas), unfiltered: the run can be complete."""
    corpus_root = small_corpus(tmp_path)
    (tmp_path / "bad_harness.py").write_text(BAD_HARNESS, encoding="utf-8")
    ids, keys = _bad_checks(corpus_root)
    spec = python_cmd(tmp_path / "bad_harness.py")
    proc = toolwire_run(
        tmp_path / "out",
        "--adapter",
        spec,
        "--corpus",
        str(corpus_root),
        "--name",
        "bad",
        *args,
        env={"BAD_CASES": json.dumps(keys)},
    )
    return ids, proc, corpus_root


def test_crash_hang_and_garbage_leave_a_complete_results_file(tmp_path: Path) -> None:
    # 3 s: the check after a crash waits for a fresh process too (its deadline starts before the restart),
    # and with PYTHONDONTWRITEBYTECODE the reference compiles every module it imports at each start
    ids, proc, _ = _run_bad(tmp_path, "--timeout", "3")
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    header, records, footer = read_records(tmp_path / "out" / "bad.results.jsonl")
    assert footer is not None and footer["complete"] is True
    assert footer["total"] == len(records)
    errored = {i: r for i, r in records.items() if r["outcome"] == "errored"}
    assert set(errored) == set(ids.values()), sorted(errored)
    crash, hang, garbage = (errored[ids[role]]["message"] for role in ("crash", "hang", "garbage"))
    assert "exited with status 11" in crash and "bad harness: segfault imminent" in crash
    assert "did not answer within 3 s (hung" in hang and "bad harness: thinking very hard" in hang
    assert "not JSON" in garbage and "DEBUG tools=" in garbage
    for message in (crash, hang, garbage):
        assert "a new process serves the next check" in message
    judged = {r["outcome"] for i, r in records.items() if i not in errored}
    assert judged <= {"passed", "failed", "skipped"}
    assert footer["counts"]["errored"] == 3
    report = (tmp_path / "out" / "bad.md").read_text(encoding="utf-8")
    assert "PARTIAL" not in report


def test_max_errors_stops_the_run(tmp_path: Path) -> None:
    ids, proc, corpus_root = _run_bad(tmp_path, "--timeout", "3", "--max-errors", "1")
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    header, records, footer = read_records(tmp_path / "out" / "bad.results.jsonl")
    assert footer is not None and footer["complete"] is False
    errored = [i for i, r in records.items() if r["outcome"] == "errored"]
    assert errored == [ids["crash"]]  # the first bad check in corpus order; the run stopped there
    assert len(records) < len(load_corpus(corpus_root).checks())
    assert "stopped after 1 errored checks (--max-errors 1)" in proc.stdout
    assert "PARTIAL" in (tmp_path / "out" / "bad.md").read_text(encoding="utf-8")


DIES_ON_TOOL_CHOICE = textwrap.dedent(
    """
    import json, sys
    from toolwire_reference.harness import Session

    session = Session()
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("cmd") == "bye":
            break
        if msg.get("cmd") == "translate" and msg["kind"] == "tool_choice":
            print("tool_choice is not my thing", file=sys.stderr, flush=True)
            sys.exit(2)
        print(json.dumps(session.handle(msg)), flush=True)
    """
)


def test_max_errors_under_xdist(tmp_path: Path) -> None:
    (tmp_path / "dies.py").write_text(DIES_ON_TOOL_CHOICE, encoding="utf-8")
    adapter = python_cmd(tmp_path / "dies.py")
    corpus_root = small_corpus(tmp_path)
    proc = toolwire_run(
        tmp_path / "out",
        "--adapter",
        adapter,
        "--corpus",
        str(corpus_root),
        "--name",
        "dies",
        "--max-errors",
        "2",
        "-n",
        "2",
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    _, records, footer = read_records(tmp_path / "out" / "dies.results.jsonl")
    assert footer is not None and footer["complete"] is False
    errored = [r for r in records.values() if r["outcome"] == "errored"]
    # the controller stops scheduling at 2 and each worker stops at 2 of its own
    assert 2 <= len(errored) <= 4
    assert all("tool_choice is not my thing" in r["message"] for r in errored)
    choice_checks = [c for c in load_corpus(corpus_root).checks() if c.kind == "tool_choice"]
    assert len(errored) < len(choice_checks)


RULE_BREAKER = textwrap.dedent(
    '''
    """The reference harness, except that it breaks a pairing rule once each: it answers one translate
    request twice (both lines in one write), answers the first stream message of the run twice, and
    answers one translate request with 100,000 nested arrays."""
    import json, os, sys

    from toolwire_reference.harness import Session

    bad = json.loads(os.environ["BAD_CASES"])
    marker = os.environ["BAD_MARKER"]  # the stream duplicate happens once per run, not once per process
    session = Session()
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("cmd") == "bye":
            break
        answer = json.dumps(session.handle(msg)) + "\\n"
        if msg.get("cmd") == "translate":
            key = json.dumps([msg["kind"], msg["source"], msg["target"], msg["profile"], msg["payload"]],
                             sort_keys=True)
            if key == bad["twice"]:
                answer *= 2
            elif key == bad["deep"]:
                answer = '{"seq": %d, "id": %d, "payload": %s%s}\\n' % (
                    msg["seq"], msg["id"], "[" * 100_000, "]" * 100_000)
        elif msg.get("cmd") == "stream" and "event" in msg and not os.path.exists(marker):
            open(marker, "w").close()
            print("rule breaker: answering this stream message twice", file=sys.stderr, flush=True)
            answer *= 2
        sys.stdout.write(answer)
        sys.stdout.flush()
    '''
)


def test_a_harness_breaking_the_pairing_rules_errors_exactly_those_checks(tmp_path: Path) -> None:
    corpus_root = small_corpus(tmp_path, ("choice",))
    streams = sorted((REPO / "corpus" / "cases" / "streams").glob("*.json"))[:2]
    (corpus_root / "cases" / "streams").mkdir()
    for case in streams:
        shutil.copy(case, corpus_root / "cases" / "streams" / case.name)
    ids, keys = _bad_checks(corpus_root, ("twice", "deep"))
    (tmp_path / "breaker.py").write_text(RULE_BREAKER, encoding="utf-8")
    proc = toolwire_run(
        tmp_path / "out",
        "--adapter",
        python_cmd(tmp_path / "breaker.py"),
        "--corpus",
        str(corpus_root),
        "--name",
        "breaker",
        env={"BAD_CASES": json.dumps(keys), "BAD_MARKER": str(tmp_path / "stream-broken")},
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    _, records, footer = read_records(tmp_path / "out" / "breaker.results.jsonl")
    assert footer is not None and footer["complete"] is True
    errored = {i: r["message"] for i, r in records.items() if r["outcome"] == "errored"}
    assert "it wrote another line after the answer to translate seq" in errored.pop(ids["twice"])
    deep = errored.pop(ids["deep"])
    assert "nested too deeply" in deep and "toolwire harness error" not in deep
    [(stream_id, stream)] = errored.items()  # the first stream check of the run, and nothing else
    corpus = load_corpus(corpus_root)
    first_stream = next(c.id for c in corpus.checks() if c.kind == "stream")
    assert stream_id == first_stream
    assert "stream seq" in stream and "rule breaker: answering this stream message twice" in stream
    # every other check ran on a clean channel: the same outcome as the reference in-process
    reference = load_adapter("reference")
    for check in corpus.checks():
        if check.id not in (ids["twice"], ids["deep"], stream_id):
            assert records[check.id]["outcome"] == run_check(reference, check, corpus.profiles).outcome, (
                check.id
            )
