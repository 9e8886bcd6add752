"""The plan summary for resources, resource templates and prompts, as `changes` does it for
tools: added, removed, renamed (their handler files kept, or moved whole) and changed.

An entry is known by its kind and name: a prompt and a resource may share a name.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from mcpgen.generation.schema_diff import SchemaChange
from mcpgen.manifest.model import Manifest, Prompt, Resource, ResourceTemplate
from mcpgen.write.apply import Move
from mcpgen.write.state import CatalogRecord, State

if TYPE_CHECKING:  # the renderer loads only when a run renders (see `run_cache`)
    from mcpgen.render.catalog import Entry
    from mcpgen.render.plan import RenderPlan

Key = tuple[str, str]  # (kind, name)
RenameReason = Literal["renamed_from", "same handler module", "python_name"]
_SECTIONS = {"resources": "resource", "prompts": "prompt"}
_TEMPLATE_SECTIONS = ("resource_templates", "resourceTemplates")
_E = TypeVar("_E", Resource, ResourceTemplate, Prompt)


@dataclass(frozen=True)
class CatalogRename:
    """An entry that kept its handler files under a new name or module name."""

    kind: str
    old: str
    new: str
    reason: RenameReason
    old_python_name: str
    new_python_name: str
    moves: tuple[Move, ...] = ()
    has_handler: bool = False  # the entry has handler files (a rename may break them)


@dataclass(frozen=True)
class CatalogChange:
    """What changed in one entry that exists before and after."""

    kind: str
    name: str
    changes: tuple[SchemaChange, ...]


@dataclass(frozen=True)
class CatalogSummary:
    """Resources, templates and prompts added, removed, renamed and changed."""

    added: tuple[Key, ...] = ()
    removed: tuple[Key, ...] = ()
    renamed: tuple[CatalogRename, ...] = ()
    changed: tuple[CatalogChange, ...] = ()
    removed_handlers: tuple[Key, ...] = field(default=())  # removed entries that had handlers

    @property
    def moves(self) -> tuple[Move, ...]:
        """The handler files renamed entries take along."""
        return tuple(m for r in self.renamed for m in r.moves)

    @property
    def empty(self) -> bool:
        """Whether no resource, template or prompt changed."""
        return not (self.added or self.removed or self.renamed or self.changed)


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _planned_files(plan: RenderPlan, key: Key) -> dict[str, str]:
    return {
        f.catalog.role: f.path
        for f in plan.by_owner("user")
        if f.catalog is not None and (f.catalog.kind, f.catalog.name) == key
    }


def _moves(record: CatalogRecord, plan: RenderPlan, key: Key) -> tuple[Move, ...]:
    """Each old handler file to the new path of the same role (handler, completion of `x`)."""
    new = _planned_files(plan, key)
    return tuple(
        Move(path, new[role])
        for role, path in sorted(record.user_files.items())
        if role in new and new[role] != path
    )


def _match_renames(
    previous: State, entries: Sequence[tuple[str, Entry]]
) -> list[tuple[CatalogRecord, str, Entry, RenameReason]]:
    current = {(kind, entry.name) for kind, entry in entries}
    gone = {key: record for key, record in previous.catalog.items() if key not in current}
    fresh = [(kind, e) for kind, e in entries if (kind, e.name) not in previous.catalog]
    matches: list[tuple[CatalogRecord, str, Entry, RenameReason]] = []
    for kind, entry in fresh:  # an explicit renamed_from wins over a guess
        old = next((n for n in entry.renamed_from if (kind, n) in gone), None)
        if old is not None:
            matches.append((gone.pop((kind, old)), kind, entry, "renamed_from"))
    matched = {(m[1], m[2].name) for m in matches}
    for kind, entry in fresh:
        if (kind, entry.name) in matched:
            continue
        same = next(
            (k for k, r in gone.items() if k[0] == kind and r.python_name == entry.python_name),
            None,
        )
        if same is not None:
            matches.append((gone.pop(same), kind, entry, "same handler module"))
    return matches


def summarise_catalog(
    previous: State | None, manifest: Manifest, plan: RenderPlan, root: Path | None = None
) -> CatalogSummary:
    """Compare the last run's resources, templates and prompts with the manifest's; with
    the project's `root`, a change of a handler's parameters is judged on its file, as
    `mcpgen check` judges it."""
    from mcpgen.render.catalog import catalog_entries, sync_view

    entries = catalog_entries(manifest)
    if previous is None:
        return CatalogSummary(added=tuple((kind, e.name) for kind, e in entries))
    continued: dict[Key, CatalogRecord] = {}
    renames: list[CatalogRename] = []
    for record, kind, entry, reason in _match_renames(previous, entries):
        continued[(kind, entry.name)] = record
        renames.append(_rename(record, kind, entry, reason, plan))
    for kind, entry in entries:
        same_name = previous.catalog.get((kind, entry.name))
        if same_name is not None:
            continued[(kind, entry.name)] = same_name
            if same_name.python_name != entry.python_name:
                renames.append(_rename(same_name, kind, entry, "python_name", plan))
    changed = [
        CatalogChange(kind, entry.name, tuple(found))
        for kind, entry in entries
        if (kind, entry.name) in continued
        and (found := view_changes(continued[(kind, entry.name)].view, sync_view(entry)))
    ]
    if root is not None:
        moved_from = {m.target: m.source for r in renames for m in r.moves}
        changed = [_judged_on_disk(c, root, manifest, plan, moved_from) for c in changed]
    added = tuple((kind, e.name) for kind, e in entries if (kind, e.name) not in continued)
    kept = {(r.kind, r.name) for r in continued.values()}
    removed = tuple(key for key in sorted(previous.catalog) if key not in kept)
    with_handlers = tuple(key for key in removed if previous.catalog[key].user_files)
    return CatalogSummary(added, removed, tuple(renames), tuple(changed), with_handlers)


def _rename(
    record: CatalogRecord, kind: str, entry: Entry, reason: RenameReason, plan: RenderPlan
) -> CatalogRename:
    moves = _moves(record, plan, (kind, entry.name))
    has_handler = bool(record.user_files or _planned_files(plan, (kind, entry.name)))
    return CatalogRename(
        kind,
        record.name,
        entry.name,
        reason,
        record.python_name,
        entry.python_name,
        moves,
        has_handler,
    )


def _handler_change(old: str | None, new: str | None) -> SchemaChange | None:
    if old == new:
        return None
    if old is None:
        return SchemaChange("now answered by a handler (a stub is created)", breaking=False)
    if new is None:
        return SchemaChange(
            "no longer uses its handler (the file is kept, reported as orphaned)", breaking=False
        )
    return SchemaChange(f"{_PARAMETERS_CHANGED}{old} → {new}", breaking=True)


def _judged_on_disk(
    change: CatalogChange,
    root: Path,
    manifest: Manifest,
    plan: RenderPlan,
    moved_from: dict[str, str],
) -> CatalogChange:
    """A handler-parameters change breaks the handler exactly when `mcpgen check` will refuse
    its file (where it is now, before a rename moves it): one that already takes the new
    parameters (by name, annotated to accept what the server passes) does not break, and a
    missing one gets a stub."""
    from mcpgen.generation.handler_check import judge_catalog_handler
    from mcpgen.render.catalog import catalog_entries, handler_of

    entry = next(
        e for k, e in catalog_entries(manifest) if (k, e.name) == (change.kind, change.name)
    )
    handler = handler_of(entry)
    path = _planned_files(plan, (change.kind, change.name)).get("handler")
    if handler is None or path is None:
        return change
    path = moved_from.get(path, path)
    exists = (root / path).exists()
    finding = judge_catalog_handler(root, plan, manifest.package, path, handler) if exists else None
    judged = []
    for item in change.changes:
        if not item.text.startswith(_PARAMETERS_CHANGED):
            judged.append(item)
        elif not exists:
            judged.append(SchemaChange(f"{item.text} (its stub is created with them)", False))
        elif finding is None:
            judged.append(SchemaChange(f"{item.text} (its handler already takes them)", False))
        elif not finding.certain:
            judged.append(SchemaChange(f"{item.text} ({finding.message})", False))
        else:
            judged.append(SchemaChange(f"{item.text}: {path}: {finding.message}", True))
    return replace(change, changes=tuple(judged))


_PARAMETERS_CHANGED = "handler parameters changed: "


def view_changes(old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    """What differs between two `sync_view`s, in words; a change of the handler's
    parameters breaks the handler, everything else only changes what is published."""
    old, new = _normal(old), _normal(new)
    found: list[SchemaChange] = []
    old_wire, new_wire = old.get("wire") or {}, new.get("wire") or {}
    for key in sorted((set(old_wire) | set(new_wire)) - {"name"}):  # a rename says it
        if old_wire.get(key) != new_wire.get(key):
            found.append(SchemaChange(f"{key.lstrip('_')} changed", breaking=False))
    handler = _handler_change(old.get("handler"), new.get("handler"))
    if handler is not None:
        found.append(handler)
    for key in sorted((set(old) | set(new)) - {"wire", "handler"}):
        if old.get(key) != new.get(key):
            found.append(SchemaChange(f"{key} changed", breaking=False))
    return found


def keep_catalog_python_names(
    manifest: Manifest, previous: State | None, explicit: Collection[Key]
) -> Manifest:
    """A renamed resource, template or prompt keeps the handler module and function name on
    record, as a renamed tool does, unless its `python_name:` is written out (`explicit`)."""
    if previous is None or not previous.catalog:
        return manifest
    from mcpgen.render.catalog import catalog_entries

    taken = {t.python_name for t in manifest.tools}
    taken |= {e.python_name for _, e in catalog_entries(manifest)}
    chosen: dict[Key, str] = {}
    for kind, entry in catalog_entries(manifest):
        if (kind, entry.name) in explicit:
            continue
        record = previous.catalog.get((kind, entry.name)) or next(
            (
                previous.catalog[(kind, n)]
                for n in entry.renamed_from
                if (kind, n) in previous.catalog
            ),
            None,
        )
        if record is None or record.python_name == entry.python_name:
            continue
        if record.python_name not in taken:
            chosen[(kind, entry.name)] = record.python_name
            taken.add(record.python_name)
    if not chosen:
        return manifest
    return replace(
        manifest,
        resources=tuple(_named(chosen, "resource", r) for r in manifest.resources),
        resource_templates=tuple(
            _named(chosen, "resource template", t) for t in manifest.resource_templates
        ),
        prompts=tuple(_named(chosen, "prompt", p) for p in manifest.prompts),
    )


def _named(chosen: dict[Key, str], kind: str, entry: _E) -> _E:
    python_name = chosen.get((kind, entry.name))
    return entry if python_name is None else replace(entry, python_name=python_name)


def explicit_catalog_python_names(manifest_path: Path) -> frozenset[Key]:
    """(kind, name) of the resources, templates and prompts that write out a `python_name:`."""
    try:
        text = manifest_path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return frozenset()
    if "python_name" not in text:  # the usual case: no second parse of a big manifest
        return frozenset()
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load(text)
    if not isinstance(data, dict):
        return frozenset()
    sections = dict(_SECTIONS) | {key: "resource template" for key in _TEMPLATE_SECTIONS}
    return frozenset(
        (kind, str(item.get("name")))
        for section, kind in sections.items()
        for item in data.get(section) or ()
        if isinstance(item, dict) and item.get("python_name") is not None
    )
