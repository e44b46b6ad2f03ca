"""The shipped proxy recipes (``integrations/*/*.toml``) are valid ``http:`` configs whose names are unique
and whose declared profiles name keys and values the corpus has; the Node proxies are pinned by a lockfile
that ``make proxies-install`` installs. No proxy is started here."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from toolwire.adapters.http import load_config
from toolwire.corpus import load_corpus
from toolwire.corpus.capabilities import problems

REPO = Path(__file__).resolve().parents[2]
RECIPES = sorted((REPO / "integrations").glob("*/*.toml"))


def test_there_are_recipes_for_every_proxy() -> None:
    folders = {p.parent.name for p in RECIPES}
    assert {"claude-code-router", "copilot-api", "litellm-proxy", "portkey-gateway"} <= folders


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_recipe_is_a_valid_config_with_known_profiles(recipe: Path) -> None:
    cfg = load_config(recipe)
    assert cfg.get("command"), "a shipped recipe starts its proxy"
    assert all(isinstance(s, str) and len(s) >= 6 for s in cfg.get("secrets", [])), "secrets are scrubbed"
    profiles = {k: v if isinstance(v, list) else [v] for k, v in (cfg.get("profile") or {}).items()}
    assert problems({"profiles": profiles}, load_corpus()) == []
    # a recipe is named after its folder and its pair, so that reports never overwrite each other
    assert str(cfg["name"]).startswith(recipe.parent.name), cfg["name"]
    assert str(cfg["name"]).endswith(recipe.stem), cfg["name"]


def test_recipe_names_are_unique() -> None:
    names = [tomllib.loads(p.read_text(encoding="utf-8"))["name"] for p in RECIPES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("folder", ["claude-code-router", "copilot-api", "portkey-gateway"])
def test_a_node_proxy_is_pinned_by_its_lockfile(folder: str) -> None:
    base = REPO / "integrations" / folder
    package = json.loads((base / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((base / "package-lock.json").read_text(encoding="utf-8"))
    for name, version in package["dependencies"].items():
        assert version[0].isdigit(), f"{name} is pinned to one version, not a range: {version}"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
    assert folder in (REPO / "Makefile").read_text(encoding="utf-8")
    ignored = (base / ".gitignore").read_text(encoding="utf-8").split()
    assert "node_modules/" in ignored
