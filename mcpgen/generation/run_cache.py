"""A no-change run proven from the disk instead of re-rendered.

A generate run is a function of its inputs: mcpgen's own code and the pinned tools it runs,
the manifest's bytes (and the resource files it embeds), and what the run reads of the
project: the state file, copier's answers, every planned or recorded file, whether each
user file exists, the folders scanned for orphans and old packages, and whether a folder on
the way is a symlink. When a run leaves the project exactly as its manifest renders it, the
fingerprint of those inputs, as that run saw them, and what that run reported are kept in
the user's cache folder. A later run that finds the same fingerprint on disk would decide
nothing new, so it returns that report without loading, validating or rendering anything.

The record lives outside the project (`$MCPGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/mcpgen`,
else `~/.cache/mcpgen`), so a cloned repository cannot bring one: a state file or any other
project file a clone holds only ever changes the fingerprint, and then the full run decides.
Expected values come from the run itself (the bytes it rendered and the manifest it read),
never from the disk after the write, so a file saved while mcpgen wrote it cannot be
recorded as clean. Anything unreadable, foreign or malformed is a miss, never an error.
`MCPGEN_NO_RUN_CACHE=1` turns the shortcut off.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from mcpgen import __version__
from mcpgen.errors import Diagnostic
from mcpgen.generation.changes import find_old_packages
from mcpgen.write import journal

if TYPE_CHECKING:
    from mcpgen.write.apply import ActionOwner

DISABLE_ENV = "MCPGEN_NO_RUN_CACHE"
CACHE_ENV = "MCPGEN_CACHE_DIR"
FORMAT = 1
OWNERS = frozenset({"generated", "user", "local", "state"})
MAX_RECORDS = 256  # projects remembered; the least recently written are dropped past that

# The tools whose output the run's bytes depend on, besides mcpgen itself.
_TOOL_MODULES = (
    "datamodel_code_generator",
    "ruff",
    "pydantic",
    "pydantic_core",
    "jinja2",
    "jsonschema",
    "referencing",
    "jsonschema_specifications",
    "ruamel.yaml",
)


def _enabled() -> bool:
    """Whether the shortcut may be used: `MCPGEN_NO_RUN_CACHE` unset, empty or `0`."""
    return os.environ.get(DISABLE_ENV, "") in ("", "0")


def _cache_dir() -> Path:
    """The user's cache folder for run records, outside any project."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mcpgen"


@dataclass(frozen=True)
class Inputs:
    """What a run read, as the run saw it."""

    manifest_arg: str  # the manifest path as the caller gave it: diagnostics quote it
    manifest_sha: str
    contents: Mapping[str, str | None]  # project path → sha256 of the bytes it used (None: absent)
    presence: Collection[str]  # user files: only whether they exist counts
    folders: Collection[str]  # folders whose listing decides orphans and old packages
    package: str


@dataclass(frozen=True)
class Outcome:
    """What a no-change run reports, as the run that proved it reported it."""

    package: str
    warnings: tuple[Diagnostic, ...]
    orphans: tuple[str, ...]
    old_packages: tuple[str, ...]
    kept: tuple[tuple[str, ActionOwner], ...]  # (path, owner) of every file the run kept


def _observed(path: Path) -> str | None:
    """The digest the state file would record for `path`, or where it points if it is a
    symlink (the run wrote a regular file there), or None when it cannot be read."""
    try:
        if path.is_symlink():
            return f"symlink:{os.readlink(path)}"
    except OSError:
        return None
    return journal.sha_of(path)


@lru_cache(maxsize=1)
def build_id() -> str:
    """mcpgen's own files and templates (name, size, mtime) and the tools it runs, so a new
    release, an edited checkout or a reinstalled dependency never reuses an old verdict."""
    from mcpgen.core.template_folder import templates_root

    digest = hashlib.sha256(f"{FORMAT}|{__version__}|{sys.version}".encode())
    package = Path(__file__).resolve().parents[1]
    for folder in (package, templates_root()):
        for path, size, mtime in sorted(_tree_stats(folder)):
            digest.update(f"{path}|{size}|{mtime}\n".encode())
    for name in _TOOL_MODULES:
        origin = _origin(name)
        found = _stat(origin) if origin else None
        size, mtime = (found.st_size, found.st_mtime_ns) if found else (-1, -1)
        digest.update(f"{name}|{origin}|{size}|{mtime}\n".encode())
    return digest.hexdigest()


def _origin(module: str) -> str | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None else None


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _tree_stats(folder: Path) -> Iterator[tuple[str, int, int]]:
    for directory, subdirs, files in os.walk(folder):
        subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
        for name in files:
            if name.endswith((".pyc", ".pyo")):
                continue
            full = os.path.join(directory, name)
            info = _stat(full)
            if info is not None:
                yield os.path.relpath(full, folder), info.st_size, info.st_mtime_ns


def _listing(root: Path, folder: str) -> list[list[object]]:
    try:
        entries = sorted(os.scandir(root / folder), key=lambda e: e.name)
    except OSError:
        return []
    return [[e.name, e.is_dir(), e.is_symlink()] for e in entries if e.name != "__pycache__"]


def _parents(paths: Iterable[str]) -> list[str]:
    folders = {""}
    for path in paths:
        parts = path.split("/")[:-1]
        for end in range(1, len(parts) + 1):
            folders.add("/".join(parts[:end]))
    return sorted(folders)


def _fingerprint(root: Path, inputs: Inputs, *, expected: bool) -> str:
    """The digest of the inputs: with `expected`, files as the run left them (its own bytes,
    every user file present), else as the disk holds them now."""
    if expected:
        observed: Mapping[str, str | None] = inputs.contents
        presence = {p: [True, True] for p in inputs.presence}
    else:
        observed = {path: _observed(root / path) for path in inputs.contents}
        presence = {p: [os.path.lexists(root / p), (root / p).exists()] for p in inputs.presence}
    paths = [*inputs.contents, *inputs.presence]
    document = {
        "build": build_id(),
        "root": str(root),
        "manifest": [inputs.manifest_arg, inputs.manifest_sha],
        "contents": sorted(observed.items()),
        "presence": sorted(presence.items()),
        # A folder on the way that became a symlink can lead a write out of the project.
        "realpaths": [[f, os.path.realpath(root / f)] for f in _parents(paths)],
        "folders": [[f, _listing(root, f)] for f in sorted(set(inputs.folders))],
        "old_packages": find_old_packages(root, inputs.package),
    }
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()


def _record_path(root: Path) -> Path:
    name = hashlib.sha256(os.fsencode(root)).hexdigest()[:32]  # any path, even undecodable
    return _cache_dir() / "runs" / f"{name}.json"


def _trusted(path: Path) -> bool:
    """A record only this user can have written: theirs, and not writable by others."""
    try:
        info = path.lstat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISREG(info.st_mode) and mine and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def lookup(root: Path, manifest_arg: str, manifest_bytes: bytes) -> Outcome | None:
    """The outcome of the run that proved this project up to date, if the disk still holds
    exactly what that run saw; None otherwise."""
    path = _record_path(root)
    if not _enabled() or not _trusted(path):
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        inputs, outcome, fingerprint = _parse_record(record)
    except (OSError, ValueError, TypeError, KeyError):
        return None
    same_inputs = (
        inputs.manifest_arg == manifest_arg
        and inputs.manifest_sha == hashlib.sha256(manifest_bytes).hexdigest()
        and record.get("build") == build_id()
    )
    try:
        if same_inputs and _fingerprint(root, inputs, expected=False) == fingerprint:
            return outcome
    except OSError:  # a folder it cannot read: the full run says what is wrong
        return None
    return None


def store(
    root: Path, inputs: Inputs, outcome: Outcome, still_true: Callable[[], bool] = lambda: True
) -> None:
    """Keep `outcome` for `root` under the fingerprint of `inputs` as the run saw them.

    `still_true` is asked after the folders are listed: it recomputes what the listing
    decides (orphans, old packages), so a file added meanwhile is never recorded as absent.
    Failing to write the record costs the next run its shortcut, nothing more."""
    if not _enabled():
        return
    try:
        fingerprint = _fingerprint(root, inputs, expected=True)
        settled = still_true()
    except OSError:
        return
    if not settled:
        return
    record = {
        "format": FORMAT,
        "build": build_id(),
        "fingerprint": fingerprint,
        "inputs": {
            "manifest_arg": inputs.manifest_arg,
            "manifest_sha": inputs.manifest_sha,
            "contents": dict(inputs.contents),
            "presence": sorted(inputs.presence),
            "folders": sorted(set(inputs.folders)),
            "package": inputs.package,
        },
        "outcome": {
            "package": outcome.package,
            "warnings": [_diagnostic_json(d) for d in outcome.warnings],
            "orphans": list(outcome.orphans),
            "old_packages": list(outcome.old_packages),
            "kept": [list(k) for k in outcome.kept],
        },
    }
    path = _record_path(root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temp = tempfile.mkstemp(prefix=".run-", suffix=".tmp", dir=path.parent)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(record, stream)
        os.replace(temp, path)
        _prune(path.parent)
    except OSError:
        return


def _prune(folder: Path) -> None:
    records = [e for e in os.scandir(folder) if e.name.endswith(".json")]
    if len(records) <= MAX_RECORDS:
        return
    records.sort(key=lambda e: e.stat().st_mtime_ns)
    for entry in records[: len(records) - MAX_RECORDS]:
        Path(entry.path).unlink(missing_ok=True)


def _owner(value: object) -> ActionOwner:
    if value not in OWNERS:
        raise ValueError("bad owner")
    return cast("ActionOwner", value)


def _diagnostic_json(diagnostic: Diagnostic) -> list[object]:
    d = diagnostic
    return [d.file, d.line, d.col, d.path, d.message, d.level]


def _strings(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("not a list of strings")
    return tuple(value)


def _parse_record(record: Any) -> tuple[Inputs, Outcome, str]:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError("not a record of this format")
    raw_inputs, raw_outcome = record["inputs"], record["outcome"]
    contents = raw_inputs["contents"]
    if not isinstance(contents, dict) or not all(
        isinstance(k, str) and isinstance(v, str | None) for k, v in contents.items()
    ):
        raise ValueError("bad contents")
    inputs = Inputs(
        manifest_arg=str(raw_inputs["manifest_arg"]),
        manifest_sha=str(raw_inputs["manifest_sha"]),
        contents=contents,
        presence=_strings(raw_inputs["presence"]),
        folders=_strings(raw_inputs["folders"]),
        package=str(raw_inputs["package"]),
    )
    warnings = []
    for item in raw_outcome["warnings"]:
        file, line, col, where, message, level = item
        if level not in ("error", "warning") or not isinstance(line, int):
            raise ValueError("bad diagnostic")
        warnings.append(Diagnostic(str(file), line, int(col), str(where), str(message), level))
    kept = tuple((str(p), _owner(o)) for p, o in raw_outcome["kept"])
    outcome = Outcome(
        package=str(raw_outcome["package"]),
        warnings=tuple(warnings),
        orphans=_strings(raw_outcome["orphans"]),
        old_packages=_strings(raw_outcome["old_packages"]),
        kept=kept,
    )
    return inputs, outcome, str(record["fingerprint"])
