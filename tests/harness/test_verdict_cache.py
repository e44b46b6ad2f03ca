"""Wire verdicts are kept between runs under a key that cannot go stale (toolwire.corpus.verdict_cache)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from toolwire.paths import schemas_dir

SCRIPT = """
import json, sys
from pathlib import Path
from toolwire.corpus import wire
payload = {"tool_choice": "sometimes"}
print(json.dumps(wire.validate("openai-chat", "tool_choice", payload, Path(sys.argv[1]))))
"""


def _validate(schemas: Path, cache: str) -> tuple[list[str], list[Path]]:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(schemas)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={"TOOLWIRE_CACHE_DIR": cache},
    )
    return json.loads(run.stdout), sorted(Path(cache).glob("*.json")) if cache else []


def test_a_verdict_is_kept_and_read_back_and_a_schema_change_gets_its_own_file(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    shutil.copytree(schemas_dir(), schemas)
    cache = tmp_path / "cache"
    first, files = _validate(schemas, str(cache))
    assert first and len(files) == 1  # an invalid tool choice, and its verdict written at exit
    kept = json.loads(files[0].read_text(encoding="utf-8"))
    assert len(kept) == 1 and next(iter(kept.values()))[0] == first
    assert _validate(schemas, str(cache)) == (first, files)  # read back, nothing new written
    # any change to the schemas (here: a description) is another key, so a verdict is never stale
    path = schemas / "wire" / "openai-chat" / "tool_choice.schema.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["description"] = "changed"
    path.write_text(json.dumps(doc), encoding="utf-8")
    again, files = _validate(schemas, str(cache))
    assert again == first and len(files) == 2


def test_an_empty_cache_dir_keeps_verdicts_in_memory_only(tmp_path: Path) -> None:
    verdict, _ = _validate(schemas_dir(), "")
    assert verdict
    assert not list(tmp_path.iterdir())
