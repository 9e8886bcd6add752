"""The plan summary: how the manifest's tools changed since the last run.

Computed from the previous state file (what the last run generated) and the new manifest,
before anything is written, so the user reads in plain words what is about to happen.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal

from mcpgen.contract.schemas import Finding as ClientFinding
from mcpgen.contract.schemas import input_findings, output_findings
from mcpgen.generation.catalog_changes import CatalogSummary, summarise_catalog
from mcpgen.generation.schema_diff import SchemaChange, input_changes, output_changes
from mcpgen.generation.stubs import RetiredStub, retired_stubs
from mcpgen.write.apply import Move
from mcpgen.write.state import State, ToolRecord

if TYPE_CHECKING:  # the renderer loads only when a run renders (see `run_cache`)
    from mcpgen.generation.handler_check import Finding
    from mcpgen.manifest.model import Manifest, Tool
    from mcpgen.render.plan import RenderPlan

# renamed_from: the manifest says so; same handler module: a new name with the old python_name;
# python_name: same tool name, new handler module name (the `python_name:` key changed).
RenameReason = Literal["renamed_from", "same handler module", "python_name"]

# Tool-level keys whose change is cosmetic for the handler (they only change tools/list).
_DOCUMENTATION_KEYS = ("title", "description", "annotations", "execution", "icons", "_meta")


@dataclass(frozen=True)
class Rename:
    """A tool that kept its handler under a new name."""

    old: str
    new: str
    reason: RenameReason
    old_python_name: str
    new_python_name: str
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True)
class ToolChange:
    """Everything that changed in one tool that exists before and after."""

    tool: str
    changes: tuple[SchemaChange, ...]
    # What an existing client sends or reads that no longer holds (`mcpgen diff`'s verdicts).
    breaks_clients: tuple[ClientFinding, ...] = ()
    bound: bool = False  # answered by an HTTP API binding: there is no handler to break

    @property
    def breaking(self) -> tuple[SchemaChange, ...]:
        """The changes that can break existing callers or the handler."""
        return tuple(c for c in self.changes if c.breaking)


@dataclass(frozen=True)
class ChangeSummary:
    """Tools added, removed, renamed and changed since the previous run."""

    first_run: bool
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    renamed: tuple[Rename, ...] = ()
    changed: tuple[ToolChange, ...] = ()
    # (removed, added) pairs with the same schemas: probably a rename without `renamed_from`
    rename_hints: tuple[tuple[str, str], ...] = ()
    catalog: CatalogSummary = field(default_factory=CatalogSummary)
    # Removed tools' stubs still byte-identical to what mcpgen created: they hold no byte of
    # the user's, and would fail the project's tests and type check (they import the tool's
    # models), so they go with their tool.
    retired_stubs: tuple[RetiredStub, ...] = ()
    # Removed tools that had no handler file (bound to an HTTP API): nothing of theirs is kept.
    removed_unhandled: tuple[str, ...] = ()

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every user file that follows a renamed tool or catalog entry."""
        return tuple(m for r in self.renamed for m in r.moves) + self.catalog.moves

    @property
    def retired_digests(self) -> dict[str, str]:
        """Each retired stub's path → the sha256 it must still have to be deleted."""
        return {stub.path: stub.digest for stub in self.retired_stubs}

    @property
    def empty(self) -> bool:
        """Whether nothing changed, in the tools or the catalog."""
        tools_same = not (self.added or self.removed or self.renamed or self.changed)
        return tools_same and self.catalog.empty


def _normal(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _tool_changes(old: ToolRecord, new: Tool) -> list[SchemaChange]:
    old_wire, new_wire = json.loads(_normal(old.wire)), json.loads(_normal(new.wire()))
    found = input_changes(old_wire.get("inputSchema") or {}, new_wire.get("inputSchema") or {})
    found += output_changes(old_wire.get("outputSchema"), new_wire.get("outputSchema"))
    for key in _DOCUMENTATION_KEYS:
        if _normal(old_wire.get(key)) != _normal(new_wire.get(key)):
            found.append(SchemaChange(f"{key.lstrip('_')} changed", breaking=False))
    return found


def _client_breaks(old: ToolRecord, new: Tool) -> tuple[ClientFinding, ...]:
    """The changes that break a client built against the previous tools/list entry."""
    old_wire, new_wire = json.loads(_normal(old.wire)), json.loads(_normal(new.wire()))
    found = input_findings(old_wire.get("inputSchema") or {}, new_wire.get("inputSchema") or {})
    found += output_findings(old_wire.get("outputSchema"), new_wire.get("outputSchema"))
    return tuple(f for f in found if f.breaking)


def _user_files_of(plan: RenderPlan, tool: str) -> list[str]:
    return sorted(f.path for f in plan.by_owner("user") if f.tool == tool)


def _pair_moves(old_files: Iterable[str], new_files: Iterable[str]) -> tuple[Move, ...]:
    """Pair a tool's old user files with its new ones, directory by directory.

    A handler and a user test live in different directories, so the directory says which
    old file becomes which new one; within a directory files pair in sorted order.
    """
    by_dir: dict[PurePosixPath, list[str]] = defaultdict(list)
    for path in sorted(old_files):
        by_dir[PurePosixPath(path).parent].append(path)
    moves: list[Move] = []
    for target in sorted(new_files):
        candidates = by_dir.get(PurePosixPath(target).parent)
        if candidates:
            source = candidates.pop(0)
            if source != target:
                moves.append(Move(source, target))
    return tuple(moves)


def _match_renames(
    previous: State, manifest: Manifest
) -> list[tuple[ToolRecord, Tool, RenameReason]]:
    current = {t.name for t in manifest.tools}
    gone = {name: rec for name, rec in previous.tools.items() if name not in current}
    fresh = [t for t in manifest.tools if t.name not in previous.tools]
    matches: list[tuple[ToolRecord, Tool, RenameReason]] = []
    for tool in fresh:  # an explicit renamed_from wins over a guess
        old_name = next((n for n in tool.renamed_from if n in gone), None)
        if old_name is not None:
            matches.append((gone.pop(old_name), tool, "renamed_from"))
    matched = {m[1].name for m in matches}
    for tool in fresh:
        if tool.name in matched:
            continue
        same_module = next((r for r in gone.values() if r.python_name == tool.python_name), None)
        if same_module is not None:
            gone.pop(same_module.name)
            matches.append((same_module, tool, "same handler module"))
    return matches


def _rename(record: ToolRecord, tool: Tool, reason: RenameReason, plan: RenderPlan) -> Rename:
    moves = _pair_moves(record.user_files, _user_files_of(plan, tool.name))
    return Rename(record.name, tool.name, reason, record.python_name, tool.python_name, moves)


def summarise(
    previous: State | None, manifest: Manifest, plan: RenderPlan, root: Path | None = None
) -> ChangeSummary:
    """Compare the last run's tools, resources, templates and prompts with the manifest's
    (`root`: the project, whose handler files some verdicts are judged on)."""
    catalog = summarise_catalog(previous, manifest, plan, root)
    if previous is None:
        added = tuple(t.name for t in manifest.tools)
        return ChangeSummary(first_run=True, added=added, catalog=catalog)
    # Each new tool paired with the record it continues: same name, or a detected rename.
    continued: dict[str, ToolRecord] = {}
    renames: list[Rename] = []
    for record, tool, reason in _match_renames(previous, manifest):
        continued[tool.name] = record
        renames.append(_rename(record, tool, reason, plan))
    for tool in manifest.tools:
        same_name = previous.tools.get(tool.name)
        if same_name is not None:
            continued[tool.name] = same_name
            if same_name.python_name != tool.python_name:
                renames.append(_rename(same_name, tool, "python_name", plan))
    changed = [
        ToolChange(
            tool.name,
            tuple(found),
            _client_breaks(continued[tool.name], tool),
            bound=tool.binding is not None,
        )
        for tool in manifest.tools
        if tool.name in continued and (found := _tool_changes(continued[tool.name], tool))
    ]
    if root is not None and any(c.model_gone for change in changed for c in change.changes):
        changed = _judged_imports(changed, root, manifest, plan)
    added = tuple(t.name for t in manifest.tools if t.name not in continued)
    kept = {record.name for record in continued.values()}
    removed = tuple(name for name in sorted(previous.tools) if name not in kept)
    hints = _rename_hints(previous, manifest, removed, added)
    # A tool now bound to an HTTP API has no handler: its stubs go as a removed tool's do.
    tools = {t.name: t for t in manifest.tools}
    unhandled = tuple(r.name for n, r in continued.items() if tools[n].binding is not None)
    leaving = (*removed, *unhandled)
    stubs = (
        retired_stubs(root, previous, leaving, plan, manifest.package) if root is not None else ()
    )
    unhandled_removed = tuple(n for n in removed if not previous.tools[n].user_files)
    return ChangeSummary(
        False,
        added,
        removed,
        tuple(renames),
        tuple(changed),
        hints,
        catalog,
        stubs,
        unhandled_removed,
    )


def _judged_imports(
    changed: list[ToolChange], root: Path, manifest: Manifest, plan: RenderPlan
) -> list[ToolChange]:
    """A change that takes a generated model away breaks the handler exactly when its file
    imports a name the new generated code lacks: the verdict `mcpgen check` gives after."""
    from mcpgen.generation.handler_check import GeneratedNames, judge_tool_imports
    from mcpgen.generation.handler_source import ProjectSources

    sources, generated = ProjectSources(root), GeneratedNames.of(plan, manifest.package)
    tools = {t.name: t for t in manifest.tools}
    judged = []
    for change in changed:
        if not any(c.model_gone for c in change.changes):
            judged.append(change)
            continue
        finding = judge_tool_imports(sources, generated, plan, tools[change.tool])
        items = tuple(_judged_item(item, finding) for item in change.changes)
        judged.append(replace(change, changes=items))
    return judged


def _judged_item(item: SchemaChange, finding: Finding | None) -> SchemaChange:
    if not item.model_gone:
        return item
    if finding is None:
        return replace(item, text=f"{item.text} (the handler imports none of it)", breaking=False)
    return replace(item, text=f"{item.text}: {finding.message}", breaking=finding.certain)


def _schemas(wire: dict[str, Any]) -> str:
    return _normal([wire.get("inputSchema"), wire.get("outputSchema")])


def _rename_hints(
    previous: State, manifest: Manifest, removed: tuple[str, ...], added: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    """A removed and an added tool with the same schemas: most likely one tool renamed."""
    fresh = {t.name: _schemas(json.loads(_normal(t.wire()))) for t in manifest.tools}
    hints: list[tuple[str, str]] = []
    for old in removed:
        old_schemas = _schemas(previous.tools[old].wire)
        same = [new for new in added if fresh[new] == old_schemas]
        if len(same) == 1:
            hints.append((old, same[0]))
    return tuple(hints)


def keep_python_names(
    manifest: Manifest, previous: State | None, explicit: Collection[str]
) -> Manifest:
    """Stable Python names: a tool keeps the handler module, function and model names it had
    (recorded in the state file) through a rename, unless its `python_name:` is written out
    (`explicit`: tool names whose manifest entry has one). So a rename never leaves a handler
    whose function or imports no longer match, and the server always starts.
    """
    if previous is None:
        return manifest
    chosen = {t.name: t.python_name for t in manifest.tools}
    for tool in manifest.tools:
        if tool.name in explicit:
            continue
        record = previous.tools.get(tool.name) or next(
            (previous.tools[n] for n in tool.renamed_from if n in previous.tools), None
        )
        if record is None or record.python_name == tool.python_name:
            continue
        others = {name for other, name in chosen.items() if other != tool.name}
        if record.python_name not in others:
            chosen[tool.name] = record.python_name
    if all(chosen[t.name] == t.python_name for t in manifest.tools):
        return manifest
    tools = tuple(replace(t, python_name=chosen[t.name]) for t in manifest.tools)
    return replace(manifest, tools=tools)


def keep_user_paths(plan: RenderPlan, previous: State | None, manifest: Manifest) -> RenderPlan:
    """A user file the last run gave one tool stays that tool's when a new tool would take
    its path (a tool `contract_tool` added next to `contract`, whose user test is
    `tests/test_contract_tool.py`): the two tools' files in that folder trade paths."""
    if previous is None:
        return plan
    owner_before = {p: r.name for r in previous.tools.values() for p in r.user_files}
    python_names = {t.name: t.python_name for t in manifest.tools}
    files = list(plan.files)
    for i, planned in enumerate(list(files)):
        before = owner_before.get(planned.path)
        if planned.owner != "user" or before is None or before == planned.tool:
            continue
        record = previous.tools.get(planned.tool or "")
        if record is not None and record.python_name != python_names.get(planned.tool or ""):
            continue  # its `python_name:` changed (a swap, say): its files move, on purpose
        folder = PurePosixPath(planned.path).parent
        other = next(
            (
                j
                for j, f in enumerate(files)
                if f.owner == "user"
                and f.tool == before
                and PurePosixPath(f.path).parent == folder
                and owner_before.get(f.path) in (None, planned.tool)
            ),
            None,
        )
        if other is None:
            continue
        mine, theirs = files[i], files[other]
        files[i] = replace(theirs, path=mine.path)
        files[other] = replace(mine, path=theirs.path)
    from mcpgen.render.plan import RenderPlan

    return RenderPlan(tuple(sorted(files, key=lambda f: f.path)))


def _generated_by_mcpgen(directory: Path) -> bool:
    from mcpgen.core.header import GENERATED_HEADER_TEXT

    for file in directory.glob("*.py"):
        if not file.is_file():  # a FIFO would hang the open, a folder fail it
            continue
        try:
            with file.open(encoding="utf-8", errors="replace") as handle:
                if GENERATED_HEADER_TEXT in handle.readline(4096):
                    return True
        except OSError:
            continue
    return False


def find_old_packages(root: Path, package: str) -> tuple[str, ...]:
    """`src/<name>` packages mcpgen generated before the manifest's `package:` changed to
    `package`.

    Recognised by a `_generated/` folder whose modules carry mcpgen's header, so a package of
    the user's own next to the server is never reported.
    """
    source = root / "src"
    if not source.is_dir():
        return ()
    return tuple(
        f"src/{folder.name}"
        for folder in sorted(source.iterdir())
        if folder.name != package and _generated_by_mcpgen(folder / "_generated")
    )


def is_in_old_package(path: str, manifest: Manifest) -> bool:
    """A generated path of a package that is no longer the manifest's (`src/<old>/...`)."""
    parts = PurePosixPath(path).parts
    return len(parts) > 2 and parts[0] == "src" and parts[1] != manifest.package


def find_orphans(
    root: Path,
    manifest: Manifest,
    plan: RenderPlan,
    *,
    leaving: Iterable[str] = (),
    old_packages: Iterable[str] | None = None,
) -> tuple[str, ...]:
    """Handler files under `handlers/` (also an old package's) that no current tool owns,
    and the user test of each (`tests/test_<module>.py`), which imports names that the
    generated code no longer has.

    `leaving`: files a pending move takes away (so a dry run does not report them);
    `old_packages`: `find_old_packages`' answer, when the caller has it already.
    Files named `_*.py` are the user's helper modules, never handlers.
    """
    owned = {f.path for f in plan.files}  # a generated test (test_contract.py) is no orphan
    if old_packages is None:
        old_packages = find_old_packages(root, manifest.package)
    handler_dirs = orphan_folders(manifest, plan, old_packages)
    skip = owned | set(leaving)
    orphans: set[str] = set()
    for folder in handler_dirs:
        directory = root / folder
        if not directory.is_dir():
            continue
        for file in directory.glob("*.py"):
            relative = f"{folder}/{file.name}"
            if not file.name.startswith("_") and relative not in skip:
                orphans.add(relative)
    user_tests = {f"tests/test_{PurePosixPath(path).stem}.py" for path in orphans}
    orphans |= {t for t in user_tests if t not in skip and (root / t).is_file()}
    orphans |= _tests_of_gone_handlers(root, manifest, plan, skip)
    return tuple(sorted(orphans))


def _tests_of_gone_handlers(
    root: Path, manifest: Manifest, plan: RenderPlan, skip: Collection[str]
) -> set[str]:
    """User tests that import a handler module that no longer exists (a removed tool's
    handler went, its test was edited and stays): they fail the project's test run."""
    handlers = f"src/{manifest.package}/handlers"
    present = {f.path for f in plan.files} | {
        f"{handlers}/{p.name}" for p in (root / handlers).glob("*.py")
    }
    imported = re.compile(rf"\b{re.escape(manifest.package)}\.handlers\.(\w+)\b")
    found = set()
    for test in (root / "tests").glob("test_*.py"):
        relative = f"tests/{test.name}"
        if relative in skip or test.is_symlink() or not test.is_file():
            continue
        try:
            text = test.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        modules = set(imported.findall(text))
        gone = [m for m in modules if f"{handlers}/{m}.py" not in present]
        if any(not (root / handlers / m).is_dir() for m in gone):  # a package is a module too
            found.add(relative)
    return found


def orphan_folders(manifest: Manifest, plan: RenderPlan, old_packages: Iterable[str]) -> set[str]:
    """The folders `find_orphans` looks for handler files in."""
    handler_dirs = {f"src/{manifest.package}/handlers"}
    handler_dirs |= {f"{old}/handlers" for old in old_packages}
    handler_dirs |= {
        str(PurePosixPath(f.path).parent)
        for f in plan.by_owner("user")
        if PurePosixPath(f.path).parent.name == "handlers"
    }
    return handler_dirs


def orphan_kind(path: str) -> str:
    """What an orphan from `find_orphans` is, in the words the reports use."""
    return "user test" if path.startswith("tests/") else "handler"


def explicit_python_names(manifest_path: Path) -> frozenset[str]:
    """Names of the tools whose manifest entry writes out a `python_name:`."""
    try:
        text = manifest_path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return frozenset()
    if "python_name" not in text:  # the usual case: no second parse of a big manifest
        return frozenset()
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load(text)
    tools = data.get("tools") if isinstance(data, dict) else None
    return frozenset(
        str(t.get("name"))
        for t in tools or ()
        if isinstance(t, dict) and t.get("python_name") is not None
    )
