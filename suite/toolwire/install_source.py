"""How the toolwire running this code was installed, and how another machine (or this one, with an extra)
installs the same: read from its PEP 610 ``direct_url.json`` (a git URL at a commit, a wheel's URL, a
checkout, or none for an install from an index). ``toolwire init`` writes the CI workflow's install line from
it, and ``peer:NAME`` names the command that adds the library's extra."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

__all__ = ["extra_install_command", "extra_install_command_from", "requirement", "requirement_from"]

#: where the source tree of a ``file:`` install comes from: (remote URL, commit) of its git checkout, or None
GitOrigin = Callable[[Path], "tuple[str, str] | None"]


def _git_origin(directory: Path) -> tuple[str, str] | None:
    """The ``origin`` remote URL and the ``HEAD`` commit of the git checkout at ``directory``, or None."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(directory), *args], capture_output=True, text=True, timeout=10, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() or None if done.returncode == 0 else None

    remote, commit = git("remote", "get-url", "origin"), git("rev-parse", "HEAD")
    return (remote, commit) if remote and commit else None


def _fetchable(url: str) -> str | None:
    """``url`` as pip fetches it from another machine (an scp-style ``user@host:path`` becomes ``ssh://``),
    or None for a path of this one."""
    scp = re.match(r"^([\w.-]+)@([\w.-]+):(?!//)(.+)$", url)
    if scp:
        return f"ssh://{scp[1]}@{scp[2]}/{scp[3]}"
    return url if urlparse(url).scheme in ("https", "http", "ssh", "git") else None


def requirement_from(
    direct_url: dict[str, Any] | None, version: str, origin: GitOrigin = _git_origin
) -> tuple[str | None, str]:
    """The pip requirement that installs the same toolwire on another machine, from how this one was
    installed (``direct_url``: its PEP 610 ``direct_url.json``, None for an install from an index), with how
    it was found; (None, why not) when no other machine can reach it."""
    if direct_url is None:
        return f"toolwire=={version}", "the version installed from a package index"
    url = str(direct_url.get("url") or "")
    vcs = direct_url.get("vcs_info")
    fetched = _fetchable(url)
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and fetched:
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        return f"toolwire @ git+{fetched}{'@' + commit if commit else ''}", "the git repository it came from"
    if "archive_info" in direct_url and fetched:
        return f"toolwire @ {fetched}", "the archive it was installed from"
    parsed = urlparse(url)
    if parsed.scheme == "file" and "dir_info" in direct_url:
        found = origin(Path(unquote(parsed.path)))
        remote = _fetchable(found[0]) if found is not None else None
        if found is not None and remote:
            return f"toolwire @ git+{remote}@{found[1]}", "the remote of the checkout it was installed from"
        return (
            None,
            f"installed from {unquote(parsed.path)}, a directory with no git remote another machine reaches",
        )
    return None, f"installed from {url or 'an unknown place'}"


def _installed() -> tuple[dict[str, Any] | None, str] | str:
    """(PEP 610 ``direct_url.json`` or None, version) of the installed toolwire, or why there is none."""
    try:
        dist = metadata.distribution("toolwire")
    except metadata.PackageNotFoundError:
        return "toolwire is not installed as a package (run from a source tree)"
    text = dist.read_text("direct_url.json")
    try:
        direct_url = json.loads(text) if text else None
    except ValueError:
        return "its direct_url.json is unreadable"
    return (direct_url if isinstance(direct_url, dict) else None), dist.version


def requirement() -> tuple[str | None, str]:
    """:func:`requirement_from` for the toolwire running this code."""
    found = _installed()
    return (None, found) if isinstance(found, str) else requirement_from(*found)


def extra_install_command_from(direct_url: dict[str, Any] | None, version: str, extra: str) -> str:
    """The pip command that adds ``extra`` (``toolwire[extra]``) to the toolwire installed as ``direct_url``
    says: from the same checkout on this machine (editable if it was), else the same requirement elsewhere."""
    url = str((direct_url or {}).get("url") or "")
    if urlparse(url).scheme == "file":  # a checkout or a wheel on this machine: the same path, with the extra
        path = unquote(urlparse(url).path)
        editable = "-e " if ((direct_url or {}).get("dir_info") or {}).get("editable") else ""
        return f"pip install {editable}'{path}[{extra}]'"
    found, _ = requirement_from(direct_url, version, lambda directory: None)
    if found is None:
        return f"pip install -e '.[{extra}]' (in the toolwire checkout)"
    name, at, rest = found.partition(" @ ")
    spelled = f"{name}[{extra}] @ {rest}" if at else found.replace("toolwire", f"toolwire[{extra}]", 1)
    return f"pip install '{spelled}'"


def extra_install_command(extra: str) -> str:
    """:func:`extra_install_command_from` for the toolwire running this code."""
    found = _installed()
    if isinstance(found, str):
        return f"pip install -e '.[{extra}]' (in the toolwire checkout)"
    return extra_install_command_from(*found, extra)
