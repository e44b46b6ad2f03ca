"""The protocol schemas are valid, identified by their path, and agree with every example in docs/protocol.md;
the reference harness answers by them."""

from __future__ import annotations

import io
import json
import re

import pytest
from jsonschema.validators import validator_for
from protocol_support import REPO
from toolwire.corpus import load_corpus
from toolwire.corpus.wire import validate_file
from toolwire.streams.payload import stream_events
from toolwire_reference import translate_stream
from toolwire_reference.harness import Session, main

SCHEMAS = REPO / "schemas" / "protocol"
DOC = REPO / "docs" / "protocol.md"


def _schema_for(message: dict) -> str:
    if "cmd" in message:
        return "request"
    if "implementation" in message:
        return "hello-answer"
    if "events" in message:
        return "stream-answer"
    return "translate-answer"


def _doc_examples() -> list[dict]:
    """Every JSON object in the ```json blocks of docs/protocol.md (one object per block, or one per line)."""
    out = []
    for block in re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S):
        try:
            out.append(json.loads(block))
        except ValueError:
            out.extend(json.loads(line) for line in block.splitlines() if line.strip())
    return out


def test_schemas_are_valid_and_identified_by_path() -> None:
    files = sorted(SCHEMAS.glob("*.schema.json"))
    names = {p.name for p in files}
    assert {"hello", "hello-answer", "translate", "translate-answer", "stream", "stream-answer", "bye"} <= {
        n.removesuffix(".schema.json") for n in names
    }
    for path in files:
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema["$id"] == f"https://toolwire.dev/schemas/protocol/{path.name}"
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        validator_for(schema).check_schema(schema)


def test_every_doc_example_is_valid() -> None:
    examples = _doc_examples()
    kinds = {_schema_for(m) if "cmd" not in m else m["cmd"] for m in examples}
    assert kinds == {
        "hello",
        "hello-answer",
        "translate",
        "translate-answer",
        "stream",
        "stream-answer",
        "bye",
    }
    for message in examples:
        schema = _schema_for(message)
        assert validate_file(f"protocol/{schema}.schema.json", message) == [], message
        if "cmd" in message:
            assert validate_file(f"protocol/{message['cmd']}.schema.json", message) == [], message


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ("translate-answer", {"seq": 1}),
        ("translate-answer", {"seq": 0, "payload": 1}),
        ("translate-answer", {"seq": 1, "payload": 1, "crash": "x"}),
        ("translate-answer", {"seq": 1, "error": {"code": "tool.missing_name"}}),
        ("translate-answer", {"seq": 1, "error": {"code": "Bad", "message": "x"}}),
        ("stream-answer", {"seq": 1, "events": {}}),
        ("stream-answer", {"seq": 1, "id": 0, "events": []}),
        ("translate-answer", {"seq": 1, "id": "1", "payload": 1}),
        (
            "request",
            {"cmd": "stream", "seq": 1, "id": 1.5, "source": "a", "target": "b", "profile": {}, "end": True},
        ),
        ("hello-answer", {"protocol": 1, "implementation": {"name": "x", "version": "1", "language": "go"}}),
        (
            "hello-answer",
            {
                "protocol": 1,
                "implementation": {
                    "name": "x",
                    "version": "1",
                    "language": "go",
                    "capabilities": {"kinds": {"tools": [["a"]]}},
                },
            },
        ),
        ("request", {"cmd": "stream", "seq": 1, "source": "a", "target": "b", "profile": {}}),
        ("request", {"cmd": "translate", "seq": 1, "kind": "tools", "source": "a", "target": "b"}),
        ("request", {"cmd": "dance"}),
    ],
)
def test_invalid_messages_are_rejected(schema: str, message: dict) -> None:
    assert validate_file(f"protocol/{schema}.schema.json", message) != []


def test_reference_harness_session_answers_by_the_schemas() -> None:
    session = Session()
    hello = session.handle({"cmd": "hello", "protocol": 1})
    assert validate_file("protocol/hello-answer.schema.json", hello) == []
    profile = {"openai.strict": "as-is"}
    ok = session.handle(
        {
            "cmd": "translate",
            "seq": 1,
            "kind": "tools",
            "source": "canonical",
            "target": "openai-chat",
            "profile": profile,
            "payload": [{"name": "f"}],
        }
    )
    assert ok == {"seq": 1, "payload": [{"type": "function", "function": {"name": "f"}}]}
    refused = session.handle(
        {
            "cmd": "translate",
            "seq": 2,
            "kind": "tools",
            "source": "canonical",
            "target": "openai-chat",
            "profile": profile,
            "payload": [{}],
        }
    )
    assert refused["error"]["code"] == "tool.missing_name" and refused["error"]["path"] == "/0/name"
    # a stream, one event at a time, gives what the in-process reference gives, in the same batches
    check = next(c for c in load_corpus().checks() if c.kind == "stream" and "error" not in c.expectation)
    events = stream_events(check.case.source_payload)
    head = {"cmd": "stream", "seq": 3, "source": check.source, "target": check.target, "profile": profile}
    answers = [session.handle({**head, "event": e}) for e in events] + [session.handle({**head, "end": True})]
    for answer in answers:
        assert validate_file("protocol/stream-answer.schema.json", answer) == [], answer
    produced = [e for answer in answers for e in answer["events"]]
    expected = list(translate_stream(events, source=check.source, target=check.target, profile=profile))
    assert produced == expected and produced
    assert session.streams == {}
    bad = session.handle({"cmd": "translate", "seq": 4})
    assert bad["error"]["code"] == "protocol.bad_request"
    for answer in (ok, refused, bad):
        assert validate_file("protocol/translate-answer.schema.json", answer) == []


def test_reference_harness_echoes_ids() -> None:
    session = Session()
    head = {"cmd": "stream", "seq": 3, "source": "openai-chat", "target": "anthropic", "profile": {}}
    assert session.handle({**head, "id": 3, "event": {"data": "[DONE]"}})["id"] == 3
    assert session.handle({**head, "id": 4, "end": True})["id"] == 4
    assert "id" not in session.handle({**head, "end": True})  # a request without id: an answer without
    assert session.handle({"cmd": "dance", "seq": 5, "id": 5}) == {
        "seq": 5,
        "id": 5,
        "error": {"code": "protocol.bad_request", "message": "unknown command 'dance'", "path": None},
    }


def test_reference_harness_main_loop() -> None:
    lines = [
        {"cmd": "hello", "protocol": 1},
        "not json",
        {
            "cmd": "translate",
            "seq": 5,
            "kind": "tools",
            "source": "canonical",
            "target": "anthropic",
            "profile": {},
            "payload": [{"name": "f"}],
        },
        {"cmd": "bye"},
        {
            "cmd": "translate",
            "seq": 6,
            "kind": "tools",
            "source": "x",
            "target": "y",
            "profile": {},
            "payload": [],
        },
    ]
    stdin = io.BytesIO(
        b"".join((x if isinstance(x, str) else json.dumps(x)).encode() + b"\n\n" for x in lines)
    )
    stdout, log = io.BytesIO(), io.StringIO()
    assert main(stdin, stdout, log) == 0
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [a.get("seq") for a in answers] == [None, 5]  # nothing after bye
    assert answers[1]["payload"][0]["name"] == "f"
    assert "not JSON" in log.getvalue()
