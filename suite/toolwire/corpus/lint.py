"""`toolwire lint [CORPUS]`: check a corpus for every mistake a harness would trip on.

Every problem is a :class:`Problem` (file relative to the corpus root, JSON Pointer, message); the command
prints one line per problem and exits 1, or prints a one-line summary and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..descriptors import descriptor, without_model_member
from ..paths import corpus_dir, schemas_dir
from . import matchers, references, wire
from .load import profile_reaches
from .projection import merge, project_choice, project_tools
from .stream_wire import stream_wire_errors

AREAS: tuple[str, ...] = (
    "tools",
    "choice",
    "calls",
    "results",
    "streams",
    "messages",
    "responses",
    "validation",
    "text",
)
"""The case areas: the directories under `cases/` and the first segment of every case id."""

_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?"
    r"(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$"
)

# corpus file -> schema file under schemas/
_FILE_SCHEMAS = {
    "features.json": "features.schema.json",
    "errors.json": "errors.schema.json",
    "profiles.json": "profiles.schema.json",
    "regressions.json": "regressions.schema.json",
}
_CASE_SCHEMA = "case.schema.json"
_DIALECT_SCHEMA = "dialect.schema.json"
_PROVENANCE_SCHEMA = "captures.schema.json"


_SAMPLE_PARAMETERS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
#: one canonical fragment per tool-choice form of a descriptor's ``lift.choice``
_SAMPLE_CHOICES: dict[str, dict[str, Any]] = {
    "auto": {"tool_choice": {"mode": "auto"}},
    "none": {"tool_choice": {"mode": "none"}},
    "required": {"tool_choice": {"mode": "required"}},
    "named": {"tool_choice": {"mode": "required", "tools": ["get_weather"]}},
    "allowed_auto": {"tool_choice": {"mode": "auto", "tools": ["get_weather", "get_time"]}},
    "allowed_required": {"tool_choice": {"mode": "required", "tools": ["get_weather", "get_time"]}},
    "parallel": {"tool_choice": {"mode": "auto"}, "parallel_tool_calls": False},
}


@dataclass(frozen=True)
class Problem:
    """One lint finding: `file` (relative to the corpus root), `pointer` (JSON Pointer, "" for the
    whole file) and what is wrong."""

    file: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.pointer}: {self.message}" if self.pointer else f"{self.file}: {self.message}"
        )


def _escape(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(*tokens: object) -> str:
    """The JSON Pointer made of `tokens`."""
    return "".join("/" + _escape(t) for t in tokens)


def _split_error(error: str) -> tuple[str, str]:
    """Split a validator message `"<pointer>: <message>"` into its parts."""
    if error.startswith("/") or error.startswith(": "):
        ptr, sep, message = error.partition(": ")
        if sep:
            return ("" if ptr == "/" else ptr), message  # toolwire.corpus.wire writes the root as "/"
    return "", error


def _under(ptr: str, prefixes: Iterable[str]) -> bool:
    return any(ptr == p or ptr.startswith(p + "/") or p == "" for p in prefixes)


class _DuplicateKeys(ValueError):
    pass


def _pairs_hook(duplicates: list[str]) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                duplicates.append(key)
            out[key] = value
        return out

    return hook


class _Linter:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[Problem] = []
        self.schemas = schemas_dir()
        sibling = root.parent / "schemas"
        #: where a ``schemas/…`` reference resolves: the corpus's sibling, else the bundled schemas
        self.ref_schemas = sibling if sibling.is_dir() else self.schemas
        #: every case's ``refs`` by its id (filled by :meth:`case`)
        self.case_refs: dict[str, list[str]] = {}

    # -- plumbing ---------------------------------------------------------------------------------------

    def add(self, path: Path | str, ptr: str, message: str) -> None:
        file = path if isinstance(path, str) else self._rel(path)
        self.problems.append(Problem(file, ptr, message))

    def _rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def load_json(self, path: Path) -> tuple[bool, Any]:
        """Parse `path`; a problem (with line and column) instead of an exception when it is not JSON."""
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            self.add(path, "", f"not UTF-8 text: {exc.reason} at byte {exc.start}")
            return False, None
        except OSError as exc:
            self.add(path, "", f"cannot read: {exc.strerror or exc}")
            return False, None
        duplicates: list[str] = []
        try:
            value = json.loads(text, object_pairs_hook=_pairs_hook(duplicates))
        except json.JSONDecodeError as exc:
            self.add(path, "", f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
            return False, None
        except (ValueError, RecursionError) as exc:
            self.add(path, "", f"malformed JSON: {exc}")
            return False, None
        for key in sorted(set(duplicates)):
            self.add(path, "", f"member {key!r} appears twice in one object (JSON parsers keep only one)")
        return True, value

    def validate_file(self, path: Path, schema: str, instance: Any) -> bool:
        """Validate a corpus file against `schemas/<schema>`; True when valid."""
        if not (self.schemas / schema).is_file():
            self.add(path, "", f"cannot check the file: schema {schema} is missing from {self.schemas}")
            return False
        try:
            errors = wire.validate_file(schema, instance)
        except Exception as exc:  # a broken schema file: say so, never a traceback
            self.add(path, "", f"cannot check the file against {schema}: {exc}")
            return False
        for error in errors:
            ptr, message = _split_error(error)
            self.add(path, ptr, f"not valid for {schema}: {message}")
        return not errors

    def references(self, path: Path, data: Any) -> None:
        """Every ``refs``/``sources`` entry of a corpus file resolves (toolwire.corpus.references)."""
        for ptr, ref in references.ref_lists(data):
            why = references.problem(ref, self.root, self.ref_schemas)
            if why is not None:
                self.add(path, ptr, f"dangling reference: {why}")

    def wire_validate(
        self, path: Path, ptr: str, dialect: str, kind: str, payload: Any
    ) -> list[str] | None | bool:
        """`toolwire.corpus.wire.validate`, or False (and a problem) when the wire schema itself is broken."""
        try:
            if kind == "stream":  # a stream schema describes one event's `data`: validate event by event
                return stream_wire_errors(dialect, payload)
            return wire.validate(dialect, kind, payload)
        except Exception as exc:
            self.add(path, ptr, f"cannot check against the {dialect} wire schema for {kind!r}: {exc}")
            return False

    # -- corpus-level files ------------------------------------------------------------------------------

    def version(self) -> None:
        path = self.root / "VERSION"
        if not path.is_file():
            self.add(path, "", "missing: the corpus needs a VERSION file (semver)")
            return
        text = path.read_text(encoding="utf-8", errors="replace").strip()
        if not _SEMVER.match(text):
            self.add(path, "", f"{text!r} is not a semantic version (MAJOR.MINOR.PATCH)")

    def features(self) -> dict[str, int]:
        """Lint features.json; the known feature keys with their index in the file."""
        path = self.root / "features.json"
        known: dict[str, int] = {}
        ok, data = self._vocabulary_file(path)
        if not ok:
            return known
        if not isinstance(data, list):
            return known
        for i, entry in enumerate(data):
            if not isinstance(entry, dict):
                continue
            key = entry.get("key")
            if isinstance(key, str):
                if key in known:
                    self.add(
                        path, pointer(i, "key"), f"duplicate feature key {key!r} (first at /{known[key]})"
                    )
                else:
                    known[key] = i
            area = entry.get("area")
            if area not in AREAS:
                self.add(path, pointer(i, "area"), f"unknown area {area!r} (known: {', '.join(AREAS)})")
        return known

    def errors(self) -> set[str]:
        ok, data = self._vocabulary_file(self.root / "errors.json")
        return set(data) if ok and isinstance(data, dict) else set()

    def profiles(self) -> dict[str, dict[str, Any]]:
        path = self.root / "profiles.json"
        ok, data = self._vocabulary_file(path)
        if not ok or not isinstance(data, dict):
            return {}
        self.references(path, data)
        out: dict[str, dict[str, Any]] = {}
        for key, spec in data.items():
            if not isinstance(spec, dict) or not isinstance(spec.get("values"), dict):
                continue
            out[key] = spec
            if spec.get("default") not in spec["values"]:
                self.add(
                    path,
                    pointer(key, "default"),
                    f"default {spec.get('default')!r} is not one of the values of {key!r}",
                )
        return out

    def _vocabulary_file(self, path: Path) -> tuple[bool, Any]:
        if not path.is_file():
            self.add(path, "", "missing")
            return False, None
        ok, data = self.load_json(path)
        if ok:
            self.validate_file(path, _FILE_SCHEMAS[path.name], data)
        return ok, data

    def dialects(self, features: dict[str, int]) -> set[str]:
        """Lint every descriptor in dialects/; the dialect names (file stems)."""
        names: set[str] = {"canonical"}
        folder = self.root / "dialects"
        if not folder.is_dir():
            self.add(folder, "", "missing: the corpus needs a dialects/ directory")
            return names
        for path in sorted(folder.iterdir()):
            if path.suffix != ".json":
                continue
            names.add(path.stem)
            ok, data = self.load_json(path)
            if not ok:
                continue
            self.validate_file(path, _DIALECT_SCHEMA, data)
            self.references(path, data)
            if not isinstance(data, dict):
                continue
            if isinstance(data.get("lift"), dict):
                self.lift(path, data["lift"])
            if isinstance(data.get("minimal_reply"), dict):
                self.minimal_reply(path, data["minimal_reply"])
            client = data.get("http_client")
            if isinstance(client, dict) and isinstance(client.get("minimal_request"), dict):
                where = pointer("http_client", "minimal_request")
                self.wire_valid(path, where, "request", client["minimal_request"])
            if "name" in data and data["name"] != path.stem:
                self.add(path, "/name", f"name {data['name']!r} does not equal the file name {path.stem!r}")
            kinds = data.get("kinds")
            for i, kind in enumerate(kinds if isinstance(kinds, list) else ()):
                schema = wire.schema_path(path.stem, kind, self.schemas) if isinstance(kind, str) else None
                if schema is not None and not schema.is_file():
                    rel = schema.relative_to(self.schemas).as_posix()
                    self.add(path, pointer("kinds", i), f"kind {kind!r} has no wire schema (schemas/{rel})")
            judged = data.get("judged")
            for i, entry in enumerate(judged if isinstance(judged, list) else ()):
                listed = entry.get("features") if isinstance(entry, dict) else None
                for j, feature in enumerate(listed if isinstance(listed, list) else ()):
                    if isinstance(feature, str) and feature not in features:
                        where = pointer("judged", i, "features", j)
                        self.add(path, where, f"unknown feature {feature!r} (not in features.json)")
        return names

    def minimal_reply(self, path: Path, reply: dict[str, Any]) -> None:
        """A descriptor's ``minimal_reply`` is a valid response and a valid stream of the dialect."""
        for kind in ("response", "stream"):
            if kind in reply:
                self.wire_valid(path, pointer("minimal_reply", kind), kind, reply[kind])

    def wire_valid(self, path: Path, base: str, kind: str, payload: Any) -> None:
        """A payload a descriptor holds (at ``base``) is valid for the dialect's wire schema of ``kind``."""
        for error in self.wire_validate(path, base, path.stem, kind, payload) or ():
            where, message = _split_error(error)
            self.add(path, base + where, f"invalid for the wire schema: {message}")

    def lift(self, path: Path, lift: dict[str, Any]) -> None:
        """A descriptor's ``lift`` templates spell a sample tool, every tool-choice form and the smallest
        request validly for the dialect's wire schemas."""
        dialect = path.stem
        sample = [{"name": "get_weather", "description": "Weather", "parameters": _SAMPLE_PARAMETERS}]
        tools = project_tools(sample, lift)
        payloads: list[tuple[str, str, Any]] = [("/lift/tool", "tools", tools)]
        forms = lift.get("choice") if isinstance(lift.get("choice"), dict) else {}
        for form, fragment in _SAMPLE_CHOICES.items():
            if form in forms:
                payloads.append((f"/lift/choice/{form}", "tool_choice", project_choice(fragment, lift)))
        if isinstance(lift.get("request"), dict) and tools is not None:
            request = merge(lift["request"], {str(lift.get("tools_member")): tools})
            payloads.append(("/lift/request", "request", request))
        for ptr, kind, payload in payloads:
            if payload is None:
                self.add(path, ptr, f"the template cannot spell the sample {kind} (a slot is missing)")
                continue
            for error in self.wire_validate(path, ptr, dialect, kind, payload) or ():
                self.add(path, ptr, f"the template spells {kind} the {dialect} wire schema rejects: {error}")

    # -- cases --------------------------------------------------------------------------------------------

    def cases(
        self,
        features: dict[str, int],
        errors: set[str],
        profiles: dict[str, dict[str, Any]],
        dialects: set[str],
    ) -> set[str]:
        """Lint every case; the features they cover."""
        covered: set[str] = set()
        folder = self.root / "cases"
        if not folder.is_dir():
            self.add(folder, "", "missing: the corpus needs a cases/ directory")
            return covered
        seen: dict[str, str] = {}
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or any(part.startswith(".") for part in path.relative_to(folder).parts):
                continue
            if path.suffix != ".json":
                self.add(path, "", "not a case: cases are `.json` files (this file is ignored)")
                continue
            self.case(path, seen, covered, features, errors, profiles, dialects)
        return covered

    def case(
        self,
        path: Path,
        seen: dict[str, str],
        covered: set[str],
        features: dict[str, int],
        errors: set[str],
        profiles: dict[str, dict[str, Any]],
        dialects: set[str],
    ) -> None:
        rel = path.relative_to(self.root / "cases").with_suffix("").as_posix()
        directory = rel.split("/")[0] if "/" in rel else ""
        if not directory:
            self.add(path, "", "a case must live in an area directory: cases/<area>/<slug>.json")
        elif directory not in AREAS:
            self.add(path, "", f"unknown area directory {directory!r} (known: {', '.join(AREAS)})")
        ok, data = self.load_json(path)
        if not ok:
            return
        self.validate_file(path, _CASE_SCHEMA, data)
        if not isinstance(data, dict):
            return

        case_id = data.get("id")
        if isinstance(case_id, str):
            refs = data.get("refs")
            listed = refs if isinstance(refs, list) else []
            self.case_refs[case_id] = [r for r in listed if isinstance(r, str)]
            if case_id != rel:
                self.add(path, "/id", f"id {case_id!r} does not equal the file's path {rel!r}")
            first = case_id.split("/")[0]
            if directory and first != directory:
                self.add(path, "/id", f"the id's area {first!r} does not equal the directory {directory!r}")
            if case_id in seen:
                self.add(path, "/id", f"duplicate id {case_id!r} (also in {seen[case_id]})")
            else:
                seen[case_id] = self._rel(path)

        case_features = data.get("features")
        if isinstance(case_features, list):
            for i, feature in enumerate(case_features):
                if not isinstance(feature, str):
                    continue
                if feature in features:
                    covered.add(feature)
                else:
                    self.add(
                        path, pointer("features", i), f"unknown feature {feature!r} (not in features.json)"
                    )

        refs = data.get("refs")
        if not isinstance(refs, list) or not any(isinstance(r, str) and r.strip() for r in refs):
            self.add(path, "/refs", "every case needs `refs`: the docs, captures or issues it is based on")
        self.references(path, data)

        kind = data.get("kind")
        source = data.get("source")
        if isinstance(source, dict):
            self.source(path, kind, source, dialects)

        expect = data.get("expect")
        if not isinstance(expect, list):
            return
        defaults = {key: spec.get("default") for key, spec in profiles.items()}
        targets: dict[str, int] = {}
        self.source_dialect = source.get("dialect") if isinstance(source, dict) else None
        for i, expectation in enumerate(expect):
            if isinstance(expectation, dict):
                self.expectation(path, i, kind, expectation, errors, profiles, dialects, defaults, targets)

    def source(self, path: Path, kind: Any, source: dict[str, Any], dialects: set[str]) -> None:
        dialect = source.get("dialect")
        if isinstance(dialect, str) and dialect not in dialects:
            self.add(path, "/source/dialect", f"unknown dialect {dialect!r} (no dialects/{dialect}.json)")
            return
        if not isinstance(dialect, str) or not isinstance(kind, str) or "payload" not in source:
            return
        payload = source["payload"]
        if kind == "request":  # the model its URL names is no member of its body
            payload = without_model_member(descriptor(dialect), payload)
        errors = self.wire_validate(path, "/source/payload", dialect, kind, payload)
        if errors is False:
            return
        because = source.get("invalid_because")
        if because is not None and source.get("invalid") is not True:
            self.add(path, "/source/invalid_because", "given, but the source is not marked invalid")
        if source.get("invalid") is True and because is not None:
            return  # a provider rule no schema states: the case says which
        if source.get("invalid") is True:
            if errors is None:
                self.add(
                    path,
                    "/source/invalid",
                    f"marked invalid, but there is no {dialect} wire schema for kind {kind!r} to reject it",
                )
            elif not errors:
                self.add(
                    path,
                    "/source/payload",
                    f"marked invalid, but the {dialect} wire schema for {kind!r} accepts it "
                    "(a provider rule no schema states goes in `invalid_because`)",
                )
            return
        for error in errors or ():
            ptr, message = _split_error(error)
            self.add(
                path, "/source/payload" + ptr, f"not valid for the {dialect} wire schema ({kind}): {message}"
            )

    def expectation(
        self,
        path: Path,
        i: int,
        kind: Any,
        expectation: dict[str, Any],
        errors: set[str],
        profiles: dict[str, dict[str, Any]],
        dialects: set[str],
        defaults: dict[str, Any],
        targets: dict[str, int],
    ) -> None:
        base = pointer("expect", i)
        dialect = expectation.get("dialect")
        if isinstance(dialect, str) and dialect not in dialects:
            self.add(path, base + "/dialect", f"unknown dialect {dialect!r} (no dialects/{dialect}.json)")

        when = expectation.get("when", {})
        resolved = dict(defaults)
        if isinstance(when, dict):
            for key, value in when.items():
                if key not in profiles:
                    self.add(
                        path,
                        pointer("expect", i, "when", key),
                        f"unknown profile key {key!r} (known: {', '.join(sorted(profiles))})",
                    )
                elif value not in profiles[key]["values"]:
                    self.add(
                        path,
                        pointer("expect", i, "when", key),
                        f"unknown value {value!r} for {key!r} (known: {', '.join(profiles[key]['values'])})",
                    )
                elif not profile_reaches(profiles[key], kind, dialect, self.source_dialect):
                    self.add(
                        path,
                        pointer("expect", i, "when", key),
                        f"profile key {key!r} does not affect {kind} checks towards {dialect} "
                        "(profiles.json `affects`): widen `affects` or drop the key",
                    )
                resolved[key] = value
        signature = json.dumps([dialect, resolved], sort_keys=True)
        if signature in targets:
            self.add(
                path,
                base,
                f"duplicate expectation: {dialect!r} under the same profile as /expect/"
                f"{targets[signature]} (profile keys not named take their default)",
            )
        else:
            targets[signature] = i

        if expectation.get("lossless") is True:
            if "payload" not in expectation:
                self.add(
                    path,
                    base + "/lossless",
                    "`lossless` is only for payload expectations: a refusal has nothing to translate back",
                )
            elif kind == "stream":
                self.add(path, base + "/lossless", "`lossless` is not defined for streams (no round trip)")

        error = expectation.get("error")
        if isinstance(error, dict):
            code = error.get("code")
            if isinstance(code, str) and code not in errors:
                self.add(path, base + "/error/code", f"unknown error code {code!r} (not in errors.json)")

        if not isinstance(dialect, str) or dialect not in dialects or not isinstance(kind, str):
            return
        if "payload" in expectation:
            self.expected_payload(path, base + "/payload", dialect, kind, expectation["payload"])
        if "events" in expectation:
            self.expected_payload(path, base + "/events", dialect, "stream", expectation["events"])
        accumulated = expectation.get("accumulated")
        # a stream ending in an error event accumulates to {"error": …} (toolwire.streams.dialects.accumulate)
        errored = isinstance(accumulated, dict) and set(accumulated) == {"error"}
        if "accumulated" in expectation and not errored:
            self.expected_payload(
                path, base + "/accumulated", dialect, "response", expectation["accumulated"]
            )

    def expected_payload(self, path: Path, base: str, dialect: str, kind: str, expected: Any) -> None:
        try:
            sample, unknown = matchers.instantiate(expected)
        except Exception as exc:  # a malformed matcher: report it, never a traceback
            self.add(path, base, f"invalid matcher: {exc}")
            return
        errors = self.wire_validate(path, base, dialect, kind, sample)
        if errors is False:
            return
        for error in errors or ():
            ptr, message = _split_error(error)
            if _under(ptr, unknown):
                continue
            self.add(path, base + ptr, f"not valid for the {dialect} wire schema ({kind}): {message}")

    # -- prose and captures ------------------------------------------------------------------------------

    def markdown(self) -> None:
        """Every repository path the corpus's Markdown names (links, ``corpus/…`` in prose) exists."""
        for path in sorted(self.root.rglob("*.md")):
            if any(part.startswith(".") for part in path.relative_to(self.root).parts):
                continue
            folder = "corpus/" + path.parent.relative_to(self.root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            for line, ref in references.repository_paths(text, folder.rstrip("/.")):
                why = references.problem(ref, self.root, self.ref_schemas)
                if why is not None:
                    self.add(path, "", f"line {line}: dangling reference: {why}")

    def captures(self) -> None:
        """captures/provenance.json lists every capture file exactly once, and only files that exist."""
        folder = self.root / "captures"
        if not folder.is_dir():
            return
        path = folder / "provenance.json"
        if not path.is_file():
            self.add(path, "", "missing: every capture needs its origin, licence and status")
            return
        ok, data = self.load_json(path)
        if not ok or not self.validate_file(path, _PROVENANCE_SCHEMA, data):
            return
        listed: dict[str, int] = {}
        for i, entry in enumerate(data["captures"]):
            name = entry["file"]
            if name in listed:
                where = pointer("captures", i, "file")
                self.add(path, where, f"{name!r} is listed twice (first at /captures/{listed[name]})")
            listed.setdefault(name, i)
            if not (folder / name).is_file():
                self.add(path, pointer("captures", i, "file"), f"{name!r} does not exist under captures/")
        for file in sorted(folder.rglob("*")):
            rel = file.relative_to(folder).as_posix()
            if file.is_file() and file.suffix != ".md" and rel != "provenance.json" and rel not in listed:
                self.add(file, "", "a capture without provenance: add it to captures/provenance.json")

    def regressions(self) -> None:
        """Lint regressions.json (optional): each entry names a case that cites its upstream report."""
        path = self.root / "regressions.json"
        if not path.is_file():
            return
        ok, data = self._vocabulary_file(path)
        if not ok or not isinstance(data, list):
            return
        for i, entry in enumerate(data):
            if not isinstance(entry, dict) or not isinstance(entry.get("case"), str):
                continue
            refs = self.case_refs.get(entry["case"])
            if refs is None:
                self.add(path, pointer(i, "case"), f"no case {entry['case']!r}")
            elif not {entry.get("issue"), entry.get("fix")} & set(refs):
                what = f"the case {entry['case']!r} cites neither the report nor its fix"
                self.add(path, pointer(i, "issue"), what)

    # -- all ------------------------------------------------------------------------------------------------

    def run(self) -> list[Problem]:
        self.version()
        features = self.features()
        errors = self.errors()
        profiles = self.profiles()
        dialects = self.dialects(features)
        covered = self.cases(features, errors, profiles, dialects)
        self.regressions()
        self.markdown()
        self.captures()
        for key, index in features.items():
            if key not in covered:
                self.add(
                    self.root / "features.json",
                    pointer(index, "key"),
                    f"feature {key!r} is covered by no case",
                )
        return self.problems


def lint(corpus_root: Path) -> list[Problem]:
    """Every problem in the corpus at `corpus_root` (empty when it is clean)."""
    root = Path(corpus_root)
    if not root.is_dir():
        return [Problem(str(root), "", "not a directory")]
    return _Linter(root.resolve()).run()


def _display(root: Path, given: str | None) -> str:
    if given is not None:
        return given.rstrip("/")
    try:
        rel = os.path.relpath(root)
    except ValueError:
        return str(root)
    return str(root) if rel.startswith("..") else rel


def main(argv: list[str] | None = None) -> int:
    """`toolwire lint [CORPUS]`: 0 when the corpus is clean, 1 with one line per problem, 2 on bad usage."""
    parser = argparse.ArgumentParser(prog="toolwire lint", description="Check a toolwire corpus.")
    parser.add_argument("corpus", nargs="?", help="the corpus directory (default: the bundled corpus)")
    args = parser.parse_args(argv)
    try:
        root = corpus_dir(args.corpus)
    except FileNotFoundError as exc:
        print(f"toolwire lint: {exc}", file=sys.stderr)
        return 2
    if not root.is_dir():
        print(f"toolwire lint: {args.corpus or root}: not a directory", file=sys.stderr)
        return 2
    problems = lint(root)
    shown = _display(root, args.corpus)
    for problem in problems:
        print(f"{shown}/{problem}")
    if problems:
        print(f"toolwire lint: {len(problems)} problem{'s' if len(problems) != 1 else ''}", file=sys.stderr)
        return 1
    cases = sum(1 for _ in (root / "cases").rglob("*.json"))
    print(f"toolwire lint: {shown}: {cases} cases, no problems")
    return 0


if __name__ == "__main__":
    sys.exit(main())
