"""Plain-words output of a generate run: the plan summary, the files written, orphans, staleness."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.markup import escape

from mcpgen.names import class_name
from mcpgen.sync.changes import ChangeSummary, Rename, orphan_kind
from mcpgen.write.apply import Action, ApplyPlan

_VERBS = {"create": "created", "update": "updated", "delete": "deleted", "move": "moved"}


def _rename_lines(rename: Rename) -> list[str]:
    if rename.reason == "python_name":
        head = f"[bold]~ {rename.new}[/]: handler module renamed"
    else:
        how = "renamed_from" if rename.reason == "renamed_from" else "same handler module"
        head = f"[bold]~ {rename.old} → {rename.new}[/]: tool renamed ({how})"
    lines = [head]
    if rename.reason != "python_name" and rename.old_python_name == rename.new_python_name:
        lines.append(
            f"    keeps its Python name `{rename.old_python_name}` (stable names): handler, "
            "function and models unchanged, so the server still starts; write "
            "`python_name:` in the manifest to rename them"
        )
    for move in rename.moves:
        lines.append(f"    moves {move.source} → {move.target} (content untouched)")
    if rename.old_python_name != rename.new_python_name:
        where = " in the moved handler and user test" if rename.moves else ""
        lines.append(
            f"    [yellow]BREAKS the handler:[/] rename its function `{rename.old_python_name}` "
            f"to `{rename.new_python_name}` and its argument type to "
            f"`{class_name(rename.new_python_name)}Input`{where}"
        )
    return lines


def summary_lines(summary: ChangeSummary) -> list[str]:
    """The summary printed before anything is written; empty when no tool changed."""
    if summary.first_run:
        count = len(summary.added)
        names = ", ".join(summary.added) or "none"
        return [f"Generating {count} tool{'' if count == 1 else 's'}: {escape(names)}"]
    lines = [f"[bold green]+ {escape(name)}[/]: tool added" for name in summary.added]
    lines += [
        f"[bold red]- {escape(name)}[/]: tool removed; the server no longer exposes it, "
        "its handler is kept"
        for name in summary.removed
    ]
    for rename in summary.renamed:
        lines += _rename_lines(rename)
    for old, new in summary.rename_hints:
        lines.append(
            f"    [yellow]hint:[/] {escape(new)} has the same schemas as the removed "
            f"{escape(old)}: if it is a rename, add `renamed_from: {escape(old)}` to keep its "
            "handler and user test"
        )
    for change in summary.changed:
        lines.append(f"[bold]~ {escape(change.tool)}[/]: changed")
        for item in change.changes:
            mark = "[yellow]BREAKS the handler:[/] " if item.breaking else ""
            lines.append(f"    {mark}{escape(item.text)}")
    return lines


def print_summary(console: Console, summary: ChangeSummary) -> None:
    for line in summary_lines(summary):
        console.print(line)


def _describe(action: Action) -> str:
    if action.kind == "move":
        return f"  moved    {action.source} → {action.path}"
    note = " (your previous version)" if action.owner == "backup" else ""
    return f"  {_VERBS[action.kind]:<8} {action.path}{note}"


def print_written(console: Console, applied: ApplyPlan) -> None:
    """What the run wrote, or that there was nothing to write."""
    changes = [a for a in applied.changes if a.owner != "state"]
    if not changes:
        console.print("Up to date: nothing to write.")
        return
    for action in sorted(changes, key=lambda a: a.path):
        if action.owner != "local":
            console.print(escape(_describe(action)), highlight=False)
    local = [a for a in changes if a.owner == "local"]
    if local:  # machine-specific host snippets: one line, not one per file
        folders = sorted({a.path.split("/", 1)[0] + "/" for a in local})
        console.print(f"  refreshed {escape(', '.join(folders))} ({len(local)} host snippets)")
    for path in applied.forced:
        console.print(f"[yellow]Overwrote hand-edited {escape(path)}[/]; your version is in .orig")
    noun = "file" if len(changes) == 1 else "files"
    console.print(f"Wrote {len(changes)} {noun}.")


def print_orphans(console: Console, orphans: Iterable[str]) -> None:
    for path in orphans:
        if orphan_kind(path) == "handler":
            console.print(
                f"[yellow]Orphaned handler:[/] {escape(path)} belongs to no tool in the manifest "
                "(the server no longer exposes it); delete it once you no longer need its code"
            )
        else:
            console.print(
                f"[yellow]Orphaned user test:[/] {escape(path)} tests an orphaned handler and "
                "imports names the generated code no longer has; delete or update it"
            )


def print_old_packages(console: Console, old_packages: Iterable[str], package: str) -> None:
    for folder in old_packages:
        console.print(
            f"[yellow]Orphaned generated output:[/] {escape(folder)}/_generated/ is from before "
            f"the manifest's package became `{escape(package)}`; it is kept because your "
            f"handlers and pyproject.toml may still use it. Move your handler code to "
            f"src/{escape(package)}/handlers/ and pyproject.toml to `{escape(package)}`, "
            f"then delete {escape(folder)}/"
        )


def print_state_missing(console: Console) -> None:
    console.print(
        "[yellow]No .mcpgen/state.json:[/] generated files that match the manifest are kept "
        "as they are; any that differ are refused, since they may hold hand edits"
    )


def print_stale(console: Console, applied: ApplyPlan) -> None:
    """`--check`: every file that does not match the manifest, and why."""
    stale = applied.stale()
    if not stale:
        console.print("Generated files are up to date.")
        return
    reasons = {c.path: c.reason for c in applied.conflicts}
    for action in applied.changes:
        if action.owner not in ("local", "state", "backup"):
            reasons.setdefault(action.path, f"would be {_VERBS[action.kind]}")
            if action.source is not None:
                reasons.setdefault(action.source, f"would be moved to {action.path}")
    console.print(f"[red]{len(stale)} generated file(s) out of date with the manifest:[/]")
    for path in stale:
        console.print(f"  {escape(path)}: {escape(reasons.get(path, 'stale'))}")
    console.print(escape(stale_advice(applied)))


def stale_advice(applied: ApplyPlan) -> str:
    """What to run about stale files: plain `generate` would refuse hand-edited ones."""
    if applied.conflicts:
        return (
            "Hand-edited generated files: move the change into a handler and restore the file "
            "(`git checkout -- <file>`), or run `mcpgen generate --force` (keeps <file>.orig)."
        )
    return "Run `mcpgen generate` to update them."


def commit_notes(applied: ApplyPlan, kept: Iterable[str], backups: Iterable[str]) -> list[str]:
    """Where the run did less than planned, so that the plan printed stays true."""
    lines = [
        f"Kept your {path}: it appeared while mcpgen was writing, so the stub was not written"
        for path in kept
    ]
    lines += [
        f"Kept {path}: it holds bytes written while mcpgen was writing; compare and delete it"
        for path in backups
    ]
    lines += [
        f"Did not move {m.source} → {m.target}: {m.target} already exists; both are kept"
        for m in applied.skipped_moves
    ]
    lines += [
        f"Kept the symlink {path}: it points to nothing; fix or remove it to get a stub"
        for path in applied.dangling
    ]
    return lines


def print_notes(console: Console, lines: Iterable[str]) -> None:
    for line in lines:
        console.print(f"[yellow]{escape(line)}[/]")
