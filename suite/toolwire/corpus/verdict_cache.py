"""Wire-schema verdicts kept between runs.

Validating an output against a wire schema is most of what a check costs (``jsonschema`` resolves every
``$ref`` anew; a tool list against OpenAI's JSON Schema meta-schema takes tens of milliseconds), and the
same outputs come back run after run. A verdict is a pure function of the schemas, the validating code and
the payload, so it is kept under a key made of all three: a file per schemas directory, named by the hash
of its content and of ``wire.py``, holding the verdicts by the payload's hash. It can never be stale.

The file lives in ``TOOLWIRE_CACHE_DIR`` (else the user's cache directory, ``~/.cache/toolwire``);
``TOOLWIRE_CACHE_DIR=`` (empty) keeps verdicts in memory only. A file that cannot be read or written only
costs time.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

__all__ = ["VerdictStore", "store_for"]

#: a verdict: the error lines and the pointers of members a client ignores; None when no schema exists
Verdict = tuple[list[str], list[str]] | None

_MAX = 200_000
_lock = threading.Lock()
_stores: dict[Path, VerdictStore] = {}


class VerdictStore:
    """The verdicts of one schemas directory, read from and written back to one file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.verdicts: dict[str, Verdict] = self._read()
        self.dirty = False

    def _read(self) -> dict[str, Verdict]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8")) if self.path is not None else {}
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    @staticmethod
    def key(*parts: Any) -> str:
        """The hash that names a verdict (dialect, kind, tolerance and the payload as JSON)."""
        return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()[:40]

    def get(self, key: str) -> tuple[bool, Verdict]:
        found = self.verdicts.get(key, _MISSING)
        return (False, None) if found is _MISSING else (True, found)

    def put(self, key: str, verdict: Verdict) -> None:
        with _lock:
            if len(self.verdicts) >= _MAX:
                self.verdicts.clear()
            self.verdicts[key] = verdict
            self.dirty = True

    def save(self) -> None:
        if self.path is None or not self.dirty:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.verdicts), encoding="utf-8")
            os.replace(tmp, self.path)
            self.dirty = False
        except OSError:
            pass


_MISSING: Any = object()


def _file_for(root: Path) -> Path | None:
    base = os.environ.get("TOOLWIRE_CACHE_DIR")
    if base == "":
        return None
    digest = hashlib.sha256((Path(__file__).parent / "wire.py").read_bytes())
    for path in sorted(root.rglob("*.json")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    user_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return (Path(base) if base else user_cache / "toolwire") / f"wire-verdicts-{digest.hexdigest()[:32]}.json"


def store_for(root: Path) -> VerdictStore:
    """The store of the schemas directory ``root`` (read once per process, written back at exit)."""
    with _lock:
        store = _stores.get(root)
        if store is None:
            try:
                path = _file_for(root)
            except OSError:
                path = None
            store = _stores[root] = VerdictStore(path)
        return store


@atexit.register
def _save_all() -> None:
    for store in list(_stores.values()):
        store.save()
