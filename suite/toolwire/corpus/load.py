"""Load the corpus (``corpus/`` next to ``schemas/``): cases, vocabularies, identity, and its checks."""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .. import paths
from . import wire
from .projection import Projection, project_choice, project_path, project_tools
from .stream_wire import stream_wire_errors
from .variants import DELIVERY_PREFIX, FRESH_IDS, fresh_ids_apply, stream_variants

__all__ = [
    "Case",
    "Check",
    "Corpus",
    "CorpusError",
    "check_id",
    "is_lossless",
    "load_corpus",
    "profile_reaches",
    "resolve_profile",
]

_INTERPRETING_VERSION = re.compile(r"Version:\s*\**\s*([0-9][0-9A-Za-z.+-]*)")


class CorpusError(Exception):
    """The corpus cannot be read: the message names the file and the problem."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Case:
    """One case file: ``id`` equals its path under ``cases/`` without ``.json``."""

    id: str
    area: str
    path: Path
    data: dict[str, Any]

    @property
    def title(self) -> str:
        return str(self.data.get("title", ""))

    @property
    def kind(self) -> str:
        return str(self.data["kind"])

    @property
    def level(self) -> str:
        return str(self.data.get("level", "must"))

    @property
    def features(self) -> list[str]:
        return list(self.data.get("features", []))

    @property
    def source_dialect(self) -> str:
        return str(self.data["source"]["dialect"])

    @property
    def source_payload(self) -> Any:
        return self.data["source"].get("payload")

    @property
    def expect(self) -> list[dict[str, Any]]:
        return list(self.data["expect"])


@dataclass
class Check:
    """One expectation of one case: translate the source to ``target`` under ``when`` and compare."""

    id: str
    case_id: str
    area: str
    kind: str
    source: str
    target: str
    when: dict[str, str]
    level: str
    features: list[str]
    expectation: dict[str, Any]
    case: Case
    #: the full profile handed to the implementation: profiles.json defaults overlaid with ``when``
    profile: dict[str, str] = field(default_factory=dict)
    #: the profiles.json defaults (for applicability: an undeclared profile key supports only its default)
    defaults: dict[str, str] = field(default_factory=dict)
    #: the schemas/ directory used for wire validation (None: the bundled one)
    schemas_root: Path | None = None
    index: int = 0
    #: a round trip (INTERPRETING.md "Round trips"): source -> target -> source, compared with the source
    round_trip: bool = False
    #: a variant of a stream check (``rechunk=<strategy>`` or ``incremental``, toolwire.judge.streams)
    variant: str | None = None
    #: profiles.json (which checks each key affects, toolwire.judge.checks.affects)
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    #: the corpus's dialect descriptors by name (their equivalences and judged scope,
    #: toolwire.corpus.equivalence)
    dialects: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    #: the case's source written in ``source`` by the projection rule (INTERPRETING.md, "Sources in every
    #: dialect"); None: the case's own source
    projection: Projection | None = field(default=None, repr=False, compare=False)

    @property
    def source_payload(self) -> Any:
        """The payload this check translates: the case's source, or its projection into ``source``."""
        return self.projection.payload if self.projection is not None else self.case.source_payload

    @property
    def expected_error(self) -> dict[str, Any]:
        """The expected refusal (``{}`` when a payload is expected), its ``path`` moved into the projected
        source, or dropped where the projection cannot say where that value went."""
        want = dict(self.expectation.get("error") or {})
        if self.projection is not None and want.get("path") is not None:
            lift = self.dialects.get(self.source, {}).get("lift") or {}
            moved = project_path(str(want["path"]), self.kind, lift)
            if moved is None:
                want.pop("path")
            else:
                want["path"] = moved
        return want

    @cached_property
    def source_problems(self) -> list[str]:
        """Why this check's input is invalid in its own dialect ([] when it is valid): the case marks its
        source ``invalid`` (a provider rule no schema can say, with the case's ``refs``), or the source
        dialect's wire schema rejects it (each stream event's ``data`` against the stream schema), or the
        expectation says no client of its dialect can be given it (``unreachable``). A projection of an
        invalid source says the same thing, so it is invalid too."""
        source = self.case.data["source"]
        unreachable = self.expectation.get("unreachable")
        if unreachable:
            where = f"the case marks its {self.case.source_dialect} source unreachable"
            return [f"{where} for a {self.target} client: {unreachable}"]
        if source.get("invalid"):
            because = source.get("invalid_because") or "its wire schema rejects it"
            return [f"the case marks its {self.case.source_dialect} source invalid: {because}"]
        if self.kind == "stream":
            found = stream_wire_errors(self.source, self.source_payload, schemas=self.schemas_root)
        else:
            found = wire.validate(self.source, self.kind, self.source_payload, schemas=self.schemas_root)
        return [f"{self.source} wire schema: {error}" for error in found or ()]

    @property
    def under_defaults(self) -> bool:
        """Whether the check's profile is the default one: its ``when`` names no value but a default."""
        return all(self.defaults.get(k) == v for k, v in self.when.items())

    @property
    def projected_from(self) -> str | None:
        """The dialect the case is written in when this check's source is a projection of it."""
        return self.case.source_dialect if self.projection is not None else None


def check_id(
    case_id: str,
    source: str,
    target: str,
    when: dict[str, Any] | None = None,
    *,
    round_trip: bool = False,
    variant: str | None = None,
) -> str:
    """``<case id>[<source>><target>,k=v,...]`` with the profile keys of ``when`` in sorted key order;
    a round trip is ``<case id>[<source>><target>><source>,k=v,...]``."""
    parts = [f"{source}>{target}>{source}" if round_trip else f"{source}>{target}"]
    parts.extend(f"{k}={(when or {})[k]}" for k in sorted(when or {}))
    if variant:
        parts.append(variant)
    return f"{case_id}[{','.join(parts)}]"


def resolve_profile(profiles: dict[str, dict[str, Any]], when: dict[str, Any] | None) -> dict[str, str]:
    """Defaults from ``profiles.json`` overlaid with ``when``."""
    resolved = {key: spec.get("default") for key, spec in profiles.items() if isinstance(spec, dict)}
    resolved.update(when or {})
    return resolved


def profile_reaches(spec: dict[str, Any], kind: Any, target: Any, source: Any = None) -> bool:
    """Whether a profile key (its ``profiles.json`` entry ``spec``) can change a translation of ``kind``
    toward ``target`` (or from ``source``): its ``affects`` names the kind and the target, or the source
    among ``from``. Without ``affects``, every translation."""
    scope = spec.get("affects")
    if not isinstance(scope, dict):
        return True
    targets = scope.get("targets")
    directed = targets is None or target in targets or source in (scope.get("from") or ())
    return kind in (scope.get("kinds") or ()) and directed


@dataclass
class Corpus:
    """A loaded corpus; ``hash`` is the SHA-256 over corpus/ and schemas/."""

    root: Path
    version: str
    hash: str
    interpreting_version: str
    cases: list[Case]
    features: dict[str, dict[str, Any]]
    errors: dict[str, str]
    profiles: dict[str, dict[str, Any]]
    dialects: dict[str, dict[str, Any]]
    schemas_root: Path | None = None
    #: the implementation reads streams from a network connection (an ``http:`` proxy): the stream checks'
    #: ``delivery=…`` variants (toolwire.adapters.delivery) are checks of this run; for any other they do
    #: not exist
    network_delivery: bool = False

    def checks(self) -> list[Check]:
        """Every check of the corpus, in case-path order then expectation order (deterministic)."""
        if self.network_delivery:
            return list(self._checks)
        return [c for c in self._checks if not (c.variant or "").startswith(DELIVERY_PREFIX)]

    def projections(self, case: Case) -> list[Projection]:
        """The case's source in every other provider dialect that can carry it (toolwire.corpus.projection):
        canonical `tools` and `tool_choice` sources only; a projection the dialect's wire schema rejects
        is kept only when every expectation towards other dialects is a refusal."""
        projectable = case.kind in _PROJECTED and case.source_dialect == "canonical"
        if not projectable or case.data.get("project") is False:
            return []
        spell = project_tools if case.kind == "tools" else project_choice
        out: list[Projection] = []
        for name, descriptor in sorted(self.dialects.items()):
            lift = descriptor.get("lift")
            if name in ("canonical", case.source_dialect) or not isinstance(lift, dict):
                continue
            payload = spell(case.source_payload, lift)
            if payload is None:
                continue
            invalid = bool(wire.validate(name, case.kind, payload, self.schemas_root))
            others = [e for e in case.expect if e.get("dialect") != name]
            if invalid and not all("error" in e for e in others):
                continue
            out.append(Projection(name, payload, invalid))
        return out

    @cached_property
    def _checks(self) -> list[Check]:
        out: list[Check] = []
        for case in self.cases:
            out.extend(self._case_checks(case))
            for projection in self.projections(case):
                out.extend(self._case_checks(case, projection))
        return out

    def _case_checks(self, case: Case, projection: Projection | None = None) -> list[Check]:
        out: list[Check] = []
        source = projection.dialect if projection is not None else case.source_dialect
        for i, exp in enumerate(case.expect):
            if projection is not None and exp["dialect"] == source:
                continue
            when = dict(exp.get("when") or {})
            trips: list[tuple[bool, str | None]] = [(False, None)]
            if is_lossless(case, exp) and projection is None:
                trips.append((True, None))
            if case.kind == "stream":
                trips.extend((False, v) for v in stream_variants(exp))
            fresh = fresh_ids_apply(case.kind, case.source_dialect, case.source_payload, exp)
            if projection is None and fresh:
                trips.append((False, FRESH_IDS))
            level = str(exp.get("level", case.level))
            out.extend(
                Check(
                    id=check_id(
                        case.id,
                        source,
                        exp["dialect"],
                        when,
                        round_trip=trip,
                        variant=variant,
                    ),
                    case_id=case.id,
                    area=case.area,
                    kind=case.kind,
                    source=source,
                    target=str(exp["dialect"]),
                    when=when,
                    # stream variants (re-chunked replays, incrementality) are `should` at most; a fresh-id
                    # check has the case's level
                    level=level if variant in (None, FRESH_IDS) or level == "may" else "should",
                    features=list(exp.get("features", case.features)),
                    expectation=exp,
                    case=case,
                    profile=resolve_profile(self.profiles, when),
                    defaults=resolve_profile(self.profiles, None),
                    schemas_root=self.schemas_root,
                    index=i,
                    round_trip=trip,
                    variant=variant,
                    dialects=self.dialects,
                    profiles=self.profiles,
                    projection=projection,
                )
                for trip, variant in trips
            )
        return out


#: the kinds whose canonical sources are projected into the provider dialects
_PROJECTED = frozenset({"tools", "tool_choice"})


def is_lossless(case: Case, expectation: dict[str, Any]) -> bool:
    """True when the expectation declares ``"lossless": true`` and can have a round-trip check: a payload
    expectation (not an error) of a kind other than ``stream``."""
    return (
        expectation.get("lossless") is True
        and "payload" in expectation
        and "error" not in expectation
        and case.kind != "stream"
    )


def _schemas_for(root: Path) -> Path | None:
    sibling = root.parent / "schemas"
    if sibling.is_dir():
        return sibling
    try:
        return paths.schemas_dir()
    except FileNotFoundError:
        return None


def _walk(base: Path) -> list[tuple[str, Path]]:
    """Files under ``base`` as (posix relative path, path), hidden files and caches skipped."""
    found: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "__pycache__"]
        for name in filenames:
            if name.startswith(".") or name.endswith(".pyc"):
                continue
            full = Path(dirpath, name)
            found.append((full.relative_to(base).as_posix(), full))
    return found


def _load_json(path: Path, data: bytes | None = None) -> Any:
    try:
        return json.loads(data if data is not None else path.read_bytes())
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read: {exc}") from exc
    except ValueError as exc:
        raise CorpusError(f"{path}: invalid JSON: {exc}") from exc


def _case(root: Path, rel: str, path: Path, data: bytes) -> Case:
    doc = _load_json(path, data)
    where = f"{path}"
    if not isinstance(doc, dict):
        raise CorpusError(f"{where}: a case must be a JSON object")
    expected_id = rel[len("cases/") : -len(".json")]
    if doc.get("id") != expected_id:
        raise CorpusError(f"{where}: id {doc.get('id')!r} does not equal its path {expected_id!r}")
    if not isinstance(doc.get("kind"), str):
        raise CorpusError(f"{where}: missing or non-string 'kind'")
    source = doc.get("source")
    if not isinstance(source, dict) or not isinstance(source.get("dialect"), str) or "payload" not in source:
        raise CorpusError(f"{where}: 'source' must be an object with 'dialect' and 'payload'")
    expect = doc.get("expect")
    if not isinstance(expect, list):
        raise CorpusError(f"{where}: 'expect' must be a list")
    for i, exp in enumerate(expect):
        if not isinstance(exp, dict) or not isinstance(exp.get("dialect"), str):
            raise CorpusError(f"{where}: /expect/{i} must be an object with a 'dialect'")
        when = exp.get("when", {})
        if not isinstance(when, dict) or not all(isinstance(v, str) for v in when.values()):
            raise CorpusError(f"{where}: /expect/{i}/when must map profile keys to string values")
    area = expected_id.split("/", 1)[0]
    return Case(id=expected_id, area=area, path=path, data=doc)


def load_corpus(root: Path | str | None = None) -> Corpus:
    """Read a corpus directory (default: the bundled one) and compute its identity hash."""
    base = paths.corpus_dir(root)
    if not base.is_dir():
        raise CorpusError(f"{base}: corpus directory not found")
    version_file = base / "VERSION"
    if not version_file.is_file():
        raise CorpusError(f"{version_file}: missing (every corpus has a VERSION)")
    schemas_root = _schemas_for(base)

    hasher = hashlib.sha256()
    entries = [("corpus/" + rel, p) for rel, p in _walk(base)]
    if schemas_root is not None:
        entries += [("schemas/" + rel, p) for rel, p in _walk(schemas_root)]
    entries.sort(key=lambda e: e[0])
    cases: list[Case] = []
    for name, path in entries:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CorpusError(f"{path}: cannot read: {exc}") from exc
        hasher.update(name.encode("utf-8") + b"\0" + data + b"\0")
        if name.startswith("corpus/cases/") and name.endswith(".json"):
            cases.append(_case(base, name[len("corpus/") :], path, data))

    version = version_file.read_text(encoding="utf-8").strip()
    interpreting = base / "INTERPRETING.md"
    interpreting_version = "unknown"
    if interpreting.is_file():
        m = _INTERPRETING_VERSION.search(interpreting.read_text(encoding="utf-8"))
        if m:
            interpreting_version = m.group(1)

    features_doc = _load_json(base / "features.json") if (base / "features.json").is_file() else []
    if isinstance(features_doc, list):
        features = {str(f["key"]): f for f in features_doc if isinstance(f, dict) and "key" in f}
    elif isinstance(features_doc, dict):
        features = {
            str(k): (v if isinstance(v, dict) else {"title": str(v)}) for k, v in features_doc.items()
        }
    else:
        raise CorpusError(f"{base / 'features.json'}: must be a list of features or an object")
    errors = _load_json(base / "errors.json") if (base / "errors.json").is_file() else {}
    profiles = _load_json(base / "profiles.json") if (base / "profiles.json").is_file() else {}
    if not isinstance(errors, dict) or not isinstance(profiles, dict):
        raise CorpusError(f"{base}: errors.json and profiles.json must be JSON objects")
    dialects: dict[str, dict[str, Any]] = {}
    dialect_dir = base / "dialects"
    if dialect_dir.is_dir():
        for p in sorted(dialect_dir.glob("*.json")):
            doc = _load_json(p)
            if isinstance(doc, dict):
                dialects[str(doc.get("name", p.stem))] = doc
    cases.sort(key=lambda c: c.id)
    return Corpus(
        root=base,
        version=version,
        hash=hasher.hexdigest(),
        interpreting_version=interpreting_version,
        cases=cases,
        features=features,
        errors=errors,
        profiles=profiles,
        dialects=dialects,
        schemas_root=schemas_root,
    )
