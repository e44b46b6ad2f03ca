"""Shared helpers for the subprocess-protocol tests: a scriptable toy harness, command lines, CLI runs."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

#: a harness whose behaviour per request is chosen by the payload: {"do": "echo" | "refuse" | ...}
TOY = textwrap.dedent(
    r"""
    import json, os, sys, time

    args = sys.argv[1:]
    log = open(os.environ["TOY_LOG"], "a") if os.environ.get("TOY_LOG") else None
    if "--die-at-start" in args:
        print("toy: cannot start, missing config", file=sys.stderr)
        sys.exit(4)
    protocol = int(args[args.index("--protocol") + 1]) if "--protocol" in args else 1
    if "--once" in args:  # starts once; every later start fails
        marker = os.environ["TOY_LOG"] + ".started"
        if os.path.exists(marker):
            print("toy: second start refused", file=sys.stderr)
            sys.exit(5)
        open(marker, "w").close()

    ids = "--no-ids" not in args  # a harness written before answers echoed the request's id
    msg = {}

    def encode(obj):
        if ids and "id" in msg:
            obj = {**obj, "id": msg["id"]}
        return json.dumps(obj) + "\n"

    def out(obj, times=1):
        sys.stdout.write(encode(obj) * times)  # one write, however many times
        sys.stdout.flush()

    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        msg = json.loads(line)
        cmd = msg["cmd"]
        if cmd == "hello":
            if "--garbage-hello" in args:
                print("Toy harness v1 starting up")
                sys.stdout.flush()
                continue
            caps = {"kinds": {"tools": [["canonical", "*"]], "stream": [["*", "*"]]},
                    "profiles": {"openai.strict": ["*"]}}
            impl = {"name": "toy", "version": "1.0", "language": "python", "capabilities": caps}
            out({"protocol": protocol, "implementation": impl})
            continue
        if cmd == "bye":
            if log:
                log.write("BYE-RECEIVED\n")
            sys.exit(0)
        seq = msg["seq"]
        if "--unsupported-all" in args:  # no counterpart for anything
            err = {"code": "protocol.unsupported", "message": "no toy counterpart", "path": None}
            out({"seq": seq, "error": err})
            continue
        if cmd == "stream":
            if msg.get("end"):
                out({"seq": seq, "events": [{"data": "end"}]})
            elif msg["event"].get("data") == "refuse":
                out({"seq": seq, "error": {"code": "payload.invalid", "message": "no", "path": ""}})
            elif msg["event"].get("data") == "quiet":
                out({"seq": seq, "events": []})
            elif msg["event"].get("data") == "twice":  # the answer, twice
                out({"seq": seq, "events": [msg["event"]]}, times=2)
            elif msg["event"].get("data") == "twice_late":  # the answer, then again a moment later
                out({"seq": seq, "events": [msg["event"]]})
                time.sleep(0.5)
                out({"seq": seq, "events": [msg["event"]]})
            else:
                out({"seq": seq, "events": [msg["event"]]})
            continue
        payload = msg["payload"]
        do = payload.get("do") if isinstance(payload, dict) else "echo"
        print(f"toy: seq {seq} does {do}", file=sys.stderr)
        sys.stderr.flush()
        if do == "echo":
            out({"seq": seq, "payload": payload})
        elif do == "refuse":
            out({"seq": seq, "error": {"code": "tool.missing_name", "message": "no name", "path": "/0/name"}})
        elif do == "exit":
            print("toy: dying now", file=sys.stderr)
            sys.exit(3)
        elif do == "hang":
            time.sleep(60)
        elif do == "garbage":
            print("this is not json")
            sys.stdout.flush()
        elif do == "wrong_seq":
            out({"seq": seq + 100, "payload": payload})
        elif do == "crash_report":
            out({"seq": seq, "crash": "ZeroDivisionError: boom"})
        elif do == "unsupported":
            out({"seq": seq, "error": {"code": "protocol.unsupported", "message": "not here", "path": None}})
        elif do == "bad_request":
            out({"seq": seq, "error": {"code": "protocol.bad_request", "message": "unparsed", "path": None}})
        elif do == "bad_code":
            out({"seq": seq, "error": {"code": "Not A Code", "message": "x", "path": None}})
        elif do == "both":
            out({"seq": seq, "payload": 1, "error": {"code": "tool.missing_name", "message": "x"}})
        elif do == "blank_then_echo":
            sys.stdout.write("\n")
            out({"seq": seq, "payload": payload})
        elif do == "twice":  # the answer, twice
            out({"seq": seq, "payload": payload}, times=2)
        elif do == "twice_late":  # the answer, then again once toolwire has taken the first
            out({"seq": seq, "payload": payload})
            time.sleep(1)
            out({"seq": seq, "payload": payload})
        elif do == "answer_then_late_garbage":  # a log line once toolwire has taken the answer
            out({"seq": seq, "payload": payload})
            time.sleep(0.3)
            sys.stdout.write("DEBUG late\n")
            sys.stdout.flush()
        elif do == "answer_then_garbage":
            sys.stdout.write(encode({"seq": seq, "payload": payload}) + "DEBUG done\n")
            sys.stdout.flush()
        elif do == "big":  # an answer of payload["size"] bytes and more, on one line
            out({"seq": seq, "payload": {"do": "big", "blob": "x" * payload["size"]}})
        elif do == "deep":  # an answer nested payload["depth"] arrays deep
            depth = payload["depth"]
            ident = ', "id": %d' % msg["id"] if ids and "id" in msg else ""
            sys.stdout.write('{"seq": %d%s, "payload": %s%s}\n' % (seq, ident, "[" * depth, "]" * depth))
            sys.stdout.flush()
        elif do == "half_line_hang":  # the start of an answer, no newline, then nothing
            sys.stdout.write('{"seq": %d, "payl' % seq)
            sys.stdout.flush()
            sys.stderr.write("toy: stuck mid-line")  # no newline either
            sys.stderr.flush()
            time.sleep(60)
    """
)


def write_toy(tmp_path: Path) -> Path:
    path = tmp_path / "toy_harness.py"
    path.write_text(TOY, encoding="utf-8")
    return path


def python_cmd(*args: str | Path) -> str:
    """A ``cmd:`` spec running this interpreter (the test venv's) with ``args``."""
    return "cmd:" + shlex.join([sys.executable, *map(str, args)])


def venv_env(**extra: str) -> dict[str, str]:
    """The environment with this interpreter's bin directory first on PATH (so `python` is the venv's)."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def toolwire_run(
    out: Path, *args: str, cwd: Path = REPO, timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``toolwire run --report OUT ARGS`` in a subprocess (``env``: extra environment variables)."""
    return subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "run", "--report", str(out), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=venv_env(**(env or {})),
    )


def read_records(path: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, Any] | None]:
    """(header, check records by id, footer or None)."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    footer = lines[-1] if lines and lines[-1].get("record") == "footer" else None
    checks = {r["id"]: r for r in lines if r.get("record") == "check"}
    return lines[0], checks, footer


def small_corpus(base: Path, areas: tuple[str, ...] = ("tools", "choice")) -> Path:
    """A copy of the corpus with only some areas' cases: a whole (unfiltered) run of it is quick."""
    root = base / "corpus"
    shutil.copytree(REPO / "corpus", root, ignore=shutil.ignore_patterns("cases"))
    for area in areas:
        shutil.copytree(REPO / "corpus" / "cases" / area, root / "cases" / area)
    return root
