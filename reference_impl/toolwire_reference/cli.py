"""`toolwire translate --kind K --from A --to B [--profile KEY=VALUE ...] [FILE]`: the reference translator
as a command (the `toolwire` command dispatches `translate` here; also `python -m toolwire_reference.cli`).

Prints the translation as JSON (indent 2, UTF-8 kept). Exit codes: 0 translated; 1 the translator refused
(`{"error": {"code", "message", "path"}}` on stdout); 2 bad usage or input (unknown kind, dialect or profile,
malformed JSON, unreadable file). The kinds, dialects and profiles are the reference's own (``rules``, the
registry), which a test keeps equal to the corpus's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from ._json import loads, lone_surrogate_at
from .errors import TranslationError
from .registry import NAMES
from .rules import KINDS, PROFILE_DEFAULTS, PROFILE_VALUES
from .streams.sse import format_event, read_sse
from .transcode import translate_stream
from .translate import translate


class UsageError(Exception):
    """Bad arguments or input: exit 2 with this message."""


def known_dialects() -> list[str]:
    """Dialect names: the registry's, and ``text`` (decode-only), sorted."""
    return sorted({*NAMES, "text"})


def load_profiles() -> dict[str, dict[str, Any]]:
    """Every profile key with its values and default (``corpus/profiles.json``'s shape)."""
    defaults = PROFILE_DEFAULTS
    return {key: {"values": list(vals), "default": defaults[key]} for key, vals in PROFILE_VALUES.items()}


def resolve_profile(pairs: list[str], profiles: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The full profile: every key's default from profiles.json, overlaid with the `KEY=VALUE` pairs."""
    resolved: dict[str, Any] = {
        key: spec.get("default")
        for key, spec in profiles.items()
        if isinstance(spec, dict) and "default" in spec
    }
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise UsageError(f"--profile {pair!r}: expected KEY=VALUE")
        if key not in profiles:
            raise UsageError(f"unknown profile key {key!r} (known: {', '.join(sorted(profiles)) or 'none'})")
        values = profiles[key].get("values") or {}
        if value not in values:
            raise UsageError(f"unknown value {value!r} for profile {key!r} (known: {', '.join(values)})")
        resolved[key] = value
    return resolved


def parse_input(text: str, kind: str, name: str) -> Any:
    """The payload: JSON for every kind; for `text`, a JSON string or else the raw text itself; for
    `stream`, a JSON event list when the input starts with `[`, else the raw SSE text."""
    if kind == "stream" and not text.lstrip().startswith("["):
        return text
    if kind == "text":
        try:
            value = loads(text)
        except ValueError:
            return text
        return value if isinstance(value, str | dict) else text
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{name}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{name}: malformed JSON: {exc}") from None


def _read(file: str | None) -> tuple[str, str]:
    if file is None or file == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        name = file
        try:
            data = Path(file).read_bytes()
        except FileNotFoundError:
            raise UsageError(f"{file}: no such file") from None
        except OSError as exc:
            raise UsageError(f"{file}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError as exc:
        raise UsageError(f"{name}: not UTF-8 ({exc.reason} at byte {exc.start})") from None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {message}\n")


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    """Translate one payload with the reference translator; see the module docstring for exit codes."""
    parser = _Parser(
        prog="toolwire translate", description="Translate a payload with toolwire's reference translator."
    )
    parser.add_argument("--kind", required=True, help=f"one of: {', '.join(KINDS)}")
    parser.add_argument("--from", dest="source", required=True, metavar="DIALECT", help="source dialect")
    parser.add_argument("--to", dest="target", required=True, metavar="DIALECT", help="target dialect")
    parser.add_argument(
        "--profile",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a profile value (profiles.json), repeatable; keys not given take their default",
    )
    parser.add_argument("file", nargs="?", help="the input payload (JSON); stdin when absent or '-'")
    args = parser.parse_args(argv)
    prog = parser.prog
    try:
        if args.kind not in KINDS:
            raise UsageError(f"unknown kind {args.kind!r} (known: {', '.join(KINDS)})")
        dialects = known_dialects()
        for role, name in (("source", args.source), ("target", args.target)):
            if name not in dialects:
                raise UsageError(f"unknown {role} dialect {name!r} (known: {', '.join(dialects)})")
        profile = resolve_profile(args.profile, load_profiles())
        text, name = _read(args.file)
        payload = parse_input(text, args.kind, name)
    except UsageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2

    where = lone_surrogate_at(payload)
    if where is not None:  # JSON text may spell one, but no UTF-8 output can carry it (serve: a 400)
        message = (
            f"the payload holds a lone surrogate (a \\uD800-\\uDFFF escape that is not half of a pair) at "
            f"{where or '/'}: it is no Unicode text"
        )
        print(_dump({"error": {"code": "payload.invalid", "message": message, "path": where}}))
        return 1
    if args.kind == "stream":
        return _translate_stream(payload, args.source, args.target, profile, prog)
    try:
        result = translate(args.kind, payload, source=args.source, target=args.target, profile=profile)
    except Exception as exc:
        if isinstance(exc, TranslationError) or hasattr(exc, "code"):
            error = {
                "code": getattr(exc, "code", None),
                "message": getattr(exc, "message", None) or str(exc),
                "path": getattr(exc, "path", None),
            }
            print(_dump({"error": error}))
            return 1
        print(f"{prog}: the reference translator failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    print(_dump(result))
    return 0


def _translate_stream(payload: Any, source: str, target: str, profile: dict, prog: str) -> int:
    """`--kind stream`: SSE text (or a JSON event list) in, SSE text out, written as events are ready."""
    events = read_sse(payload) if isinstance(payload, str) else payload
    try:
        for event in translate_stream(events, source=source, target=target, profile=profile):
            sys.stdout.write(format_event(event))
            sys.stdout.flush()
    except TranslationError as exc:
        print(_dump({"error": {"code": exc.code, "message": exc.message, "path": exc.path}}))
        return 1
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of the translation
        return 0
    except Exception as exc:
        print(f"{prog}: the reference translator failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
