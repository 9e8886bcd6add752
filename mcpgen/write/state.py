"""The state file: what mcpgen last wrote, so a later run can tell "stale" from "edited by hand".

`.mcpgen/state.json` is committed with the project. It must be byte-stable for the same input
(sorted keys, no timestamps, no absolute paths), or every regenerate would dirty the git tree.
It records:

- `mcpgen_version`: the mcpgen that wrote it;
- `files`: the sha256 of every generated file exactly as written (POSIX path → hex digest);
- `tools`: per tool name, its python name, its tools/list entry (schemas, description, ...)
  and the user-owned files mcpgen created for it, so the next run can describe what changed
  (added, removed, renamed, broken) and move a renamed tool's handler; `stubs`: the sha256
  of the stub mcpgen creates at each of those paths, so a removed tool's stub that still
  holds only those bytes (no byte of the user's) goes with it;
- `catalog` (only when the manifest has resources, templates or prompts): the same per
  resource, resource template and prompt, by kind and name, with its handler files by role.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcpgen import __version__
from mcpgen.errors import McpgenError
from mcpgen.write.paths import check_entry, locate

if TYPE_CHECKING:
    from mcpgen.manifest.model import Manifest
    from mcpgen.render.plan import RenderPlan

STATE_PATH = ".mcpgen/state.json"
FORMAT = 1

JSON = dict[str, Any]


def sha256_hex(data: bytes) -> str:
    """The digest recorded for a file's bytes."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class ToolRecord:
    """A tool as the last run saw it."""

    name: str
    python_name: str
    wire: JSON  # the tools/list entry: inputSchema, outputSchema, description, ...
    user_files: tuple[str, ...] = ()  # handler and user test, POSIX paths
    stubs: Mapping[str, str] = field(default_factory=dict)  # user file → its stub's sha256

    @property
    def input_schema(self) -> JSON:
        """The recorded input schema; an empty one if the record has none."""
        schema = self.wire.get("inputSchema")
        return schema if isinstance(schema, dict) else {}

    @property
    def output_schema(self) -> JSON | None:
        """The recorded output schema, or None if the tool had none."""
        schema = self.wire.get("outputSchema")
        return schema if isinstance(schema, dict) else None


@dataclass(frozen=True)
class CatalogRecord:
    """A resource, resource template or prompt as the last run saw it."""

    kind: str  # "resource", "resource template" or "prompt"
    name: str
    python_name: str
    view: JSON  # what tells a change: list entry, contents' source, handler parameters
    user_files: Mapping[str, str] = field(default_factory=dict)  # role → POSIX path


@dataclass(frozen=True)
class State:
    """Everything the state file holds."""

    mcpgen_version: str
    files: Mapping[str, str] = field(default_factory=dict)  # generated path → sha256
    tools: Mapping[str, ToolRecord] = field(default_factory=dict)
    catalog: Mapping[tuple[str, str], CatalogRecord] = field(default_factory=dict)


def render_state(state: State) -> str:
    """Deterministic JSON text of the state: same state, same bytes."""
    data: JSON = {
        "format": FORMAT,
        "mcpgen_version": state.mcpgen_version,
        "files": dict(state.files),
        "tools": {
            name: {
                "python_name": record.python_name,
                "wire": record.wire,
                "user_files": sorted(record.user_files),
                "stubs": dict(record.stubs),
            }
            for name, record in state.tools.items()
        },
    }
    if state.catalog:  # absent from a tools-only project's state, as before catalogs
        data["catalog"] = _render_catalog(state.catalog)
    # default=str: a YAML scalar such as a date must not crash the run; it is only compared.
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, default=str) + "\n"


def _render_catalog(catalog: Mapping[tuple[str, str], CatalogRecord]) -> JSON:
    data: JSON = {}
    for (kind, name), record in catalog.items():
        data.setdefault(kind, {})[name] = {
            "python_name": record.python_name,
            "view": record.view,
            "user_files": dict(record.user_files),
        }
    return data


def _catalog_snapshot(manifest: Manifest, plan: RenderPlan) -> dict[tuple[str, str], CatalogRecord]:
    from mcpgen.render.catalog import catalog_entries, sync_view

    files: dict[tuple[str, str], dict[str, str]] = {}
    for planned in plan.by_owner("user"):
        if planned.catalog is not None:
            key = (planned.catalog.kind, planned.catalog.name)
            files.setdefault(key, {})[planned.catalog.role] = planned.path
    return {
        (kind, entry.name): CatalogRecord(
            kind, entry.name, entry.python_name, sync_view(entry), files.get((kind, entry.name), {})
        )
        for kind, entry in catalog_entries(manifest)
    }


def _stub_digests(plan: RenderPlan, previous: State | None) -> dict[str, str]:
    """Each tool's user file → the sha256 of the stub mcpgen created there: the one on
    record from an earlier run (the file was created then), else the stub this plan holds."""
    recorded = {
        p: d for r in (previous.tools.values() if previous else ()) for p, d in r.stubs.items()
    }
    return {
        f.path: recorded.get(f.path) or sha256_hex(f.content.encode("utf-8"))
        for f in plan.by_owner("user")
        if f.tool is not None
    }


def snapshot(
    manifest: Manifest,
    plan: RenderPlan,
    *,
    version: str = __version__,
    previous: State | None = None,
) -> State:
    """The state a run leaves behind once `plan` is on disk (`previous`: the state before)."""
    files = {f.path: sha256_hex(f.content.encode("utf-8")) for f in plan.by_owner("generated")}
    stubs = _stub_digests(plan, previous)
    tools = {}
    for tool in manifest.tools:
        user_files = tuple(sorted(f.path for f in plan.by_owner("user") if f.tool == tool.name))
        tools[tool.name] = ToolRecord(
            name=tool.name,
            python_name=tool.python_name,
            wire=tool.wire(),
            user_files=user_files,
            stubs={path: stubs[path] for path in user_files},
        )
    catalog = _catalog_snapshot(manifest, plan)
    return State(mcpgen_version=version, files=files, tools=tools, catalog=catalog)


def parse_state(text: str, *, where: str = STATE_PATH) -> State:
    """Read state text; a damaged file is a user-facing error, never a traceback.

    Every path in it must be a plain relative path (a cloned repository's state file is not
    trusted): a bad one is an error located at its line, before anything is written.
    """
    state = _parse(text, where)
    _check_names(text, where)
    for path in state.files:
        check_entry(path, where=where, text=text)
    for record in state.tools.values():
        for path in record.user_files:
            check_entry(path, where=where, text=text)
        _check_stubs(record, where, text)
    for entry in state.catalog.values():
        for path in entry.user_files.values():
            check_entry(path, where=where, text=text)
    _check_owners(state, where, text)
    return state


def _check_stubs(record: ToolRecord, where: str, text: str) -> None:
    """A stub on record is one of its tool's user files: a state file alone never names
    another file for a removed tool to take along."""
    for path in sorted(set(record.stubs) - set(record.user_files)):
        line, col = locate(text, path)
        raise McpgenError(
            f"{where}:{line}:{col}: refusing stub {path!r} of tool {record.name!r}: not one of "
            f"its files; nothing was written or deleted (restore {where} from a trusted copy)"
        )


def _check_owners(state: State, where: str, text: str) -> None:
    """A path is either generated or the user's: a state file that says both would have a run
    delete the user's file as a generated one it no longer plans."""
    users = {p for r in state.tools.values() for p in r.user_files}
    users |= {p for r in state.catalog.values() for p in r.user_files.values()}
    for path in sorted(users & set(state.files)):
        line, col = locate(text, path)
        raise McpgenError(
            f"{where}:{line}:{col}: refusing {path!r}: listed both as generated and as the "
            f"user's; nothing was written or deleted (restore {where} from a trusted copy)"
        )


def _parse(text: str, where: str) -> State:
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"unknown state format {data.get('format')!r}")
        tools = {
            name: ToolRecord(
                name=name,
                python_name=str(raw["python_name"]),
                wire=dict(raw["wire"]),
                user_files=tuple(str(p) for p in raw.get("user_files", ())),
                stubs={str(p): str(d) for p, d in raw.get("stubs", {}).items()},
            )
            for name, raw in data["tools"].items()
        }
        files = {str(path): str(digest) for path, digest in data["files"].items()}
        catalog = _parse_catalog(data.get("catalog", {}))
        return State(str(data["mcpgen_version"]), files, tools, catalog)
    # RecursionError: a hostile file nested deep enough to exhaust the JSON decoder's stack.
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise McpgenError(
            f"{where} is damaged ({exc}); restore it from git, or delete it and run "
            "`mcpgen generate --force` (hand edits to generated files are then kept as .orig)"
        ) from None


def _parse_catalog(data: Any) -> dict[tuple[str, str], CatalogRecord]:
    """The `catalog` section; ValueError, KeyError, ... for a damaged one (reported above)."""
    return {
        (str(kind), str(name)): CatalogRecord(
            kind=str(kind),
            name=str(name),
            python_name=str(raw["python_name"]),
            view=dict(raw["view"]),
            user_files={str(role): str(path) for role, path in raw["user_files"].items()},
        )
        for kind, entries in data.items()
        for name, raw in entries.items()
    }


def _check_names(text: str, where: str) -> None:
    """Python names on record become module and function names, and catalog paths files to
    move: each must be what mcpgen writes (an identifier, a string), never coerced into one."""
    data = json.loads(text)
    records = [*data["tools"].values()]
    records += [raw for entries in data.get("catalog", {}).values() for raw in entries.values()]
    for raw in records:
        _check_python_name(raw["python_name"], where, text)
    for entries in data.get("catalog", {}).values():
        for raw in entries.values():
            for path in raw["user_files"].values():
                check_entry(path, where=where, text=text)


def _check_python_name(name: object, where: str, text: str) -> None:
    from mcpgen.core.names import is_identifier

    if not (isinstance(name, str) and is_identifier(name)):
        line, col = locate(text, str(name))
        raise McpgenError(
            f"{where}:{line}:{col}: refusing python_name {name!r}: not a Python name; "
            f"nothing was written (restore {where} from a trusted copy)"
        )


def load_state(root: Path) -> State | None:
    """The project's state, or None when mcpgen has never generated into `root`."""
    path = root / STATE_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise McpgenError(f"cannot read {STATE_PATH}: {exc}") from None
    return parse_state(text)
