"""How the CLI shows what the library returns: generate reports, diagnostics and errors.

The library (`mcpgen.generation`, `generate_project`) prints nothing; every command and
`generate --watch` print through this one module.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from mcpgen.core.names import class_name
from mcpgen.errors import Diagnostic, ManifestInvalid, McpgenError, interrupted_after_writing

if TYPE_CHECKING:  # `mcpgen validate` prints through here: it must not import the generator
    from mcpgen.commands.bundle import Bundle
    from mcpgen.commands.check import CheckReport
    from mcpgen.commands.new import NewProject
    from mcpgen.commands.update import UpdateResult
    from mcpgen.generation.catalog_changes import CatalogRename, CatalogSummary
    from mcpgen.generation.changes import ChangeSummary, Rename
    from mcpgen.generation.report import GenerateReport, Mode, Prepared
    from mcpgen.hosts.doctor import Check, HostReport, Probe
    from mcpgen.hosts.launch import Launch
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
    for name in summary.removed:
        retired = [escape(s.path) for s in summary.retired_stubs if s.tool == name]
        fate = ", its handler is kept"
        if retired:  # they hold only mcpgen's bytes; an edited file stays, reported orphaned
            fate = (
                f", its files, unedited since mcpgen wrote them, go with it ({', '.join(retired)})"
            )
        elif name in summary.removed_unhandled:
            fate = ""
        lines.append(
            f"[bold red]- {escape(name)}[/]: tool removed; the server no longer exposes it{fate}; "
            f"{_BREAKS_CLIENTS}calls to it fail"
        )
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
            breaks_handler = item.breaking and not change.bound
            mark = "[yellow]BREAKS the handler:[/] " if breaks_handler else ""
            lines.append(f"    {mark}{escape(item.text)}")
        lines += [f"    {_BREAKS_CLIENTS}{escape(f.text)}" for f in change.breaks_clients]
    return lines + catalog_lines(summary.catalog)


# Judged as `mcpgen diff` judges: by what a client built against the last version sends and
# reads (a handler is judged apart, above).
_BREAKS_CLIENTS = "[red]BREAKS existing clients:[/] "


def _catalog_rename_lines(rename: CatalogRename) -> list[str]:
    what = escape(rename.kind)
    if rename.reason == "python_name":
        lines = [f"[bold]~ {escape(rename.new)}[/]: {what} handler module renamed"]
    else:
        names = f"{escape(rename.old)} → {escape(rename.new)}"
        lines = [f"[bold]~ {names}[/]: {what} renamed ({rename.reason})"]
    if not rename.has_handler:
        return lines
    if rename.old_python_name == rename.new_python_name:
        lines.append(
            f"    keeps its Python name `{rename.old_python_name}` (stable names): its handler "
            "files are unchanged; write `python_name:` in the manifest to rename them"
        )
    for move in rename.moves:
        lines.append(f"    moves {move.source} → {move.target} (content untouched)")
        old, new = PurePosixPath(move.source).stem, PurePosixPath(move.target).stem
        lines.append(f"    [yellow]BREAKS the handler:[/] rename its function `{old}` to `{new}`")
    return lines


def catalog_lines(summary: CatalogSummary) -> list[str]:
    """The resources, templates and prompts part of a (not first) run's summary."""
    lines = [f"[bold green]+ {escape(name)}[/]: {kind} added" for kind, name in summary.added]
    for kind, name in summary.removed:
        kept = ", its handler is kept" if (kind, name) in summary.removed_handlers else ""
        lines.append(
            f"[bold red]- {escape(name)}[/]: {kind} removed; the server no longer exposes it{kept}"
        )
    for rename in summary.renamed:
        lines += _catalog_rename_lines(rename)
    for change in summary.changed:
        lines.append(f"[bold]~ {escape(change.name)}[/]: {change.kind} changed")
        for item in change.changes:
            mark = "[yellow]BREAKS the handler:[/] " if item.breaking else ""
            lines.append(f"    {mark}{escape(item.text)}")
    return lines


def _print_summary(console: Console, summary: ChangeSummary) -> None:
    """The plan summary, one change a line."""
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


def _print_orphans(console: Console, orphans: Iterable[str]) -> None:
    """Each orphaned handler or user test, and what to do with it."""
    from mcpgen.generation.changes import orphan_kind  # kept off `validate`'s path

    for path in orphans:
        if orphan_kind(path) == "handler":
            console.print(
                f"[yellow]Orphaned handler:[/] {escape(path)} belongs to nothing in the manifest "
                "(no tool, resource, template or prompt: the server no longer uses it); delete "
                "it once you no longer need its code"
            )
        else:
            console.print(
                f"[yellow]Orphaned user test:[/] {escape(path)} tests an orphaned handler and "
                "imports names the generated code no longer has; delete or update it"
            )


def _print_old_packages(console: Console, old_packages: Iterable[str], package: str) -> None:
    """Each generated package a `package:` change left behind, and how to retire it."""
    for folder in old_packages:
        console.print(
            f"[yellow]Orphaned generated output:[/] {escape(folder)}/_generated/ is from before "
            f"the manifest's package became `{escape(package)}`; it is kept because your "
            f"handlers and pyproject.toml may still use it. Move your handler code to "
            f"src/{escape(package)}/handlers/ and pyproject.toml to `{escape(package)}`, "
            f"then delete {escape(folder)}/"
        )


def _print_state_missing(console: Console) -> None:
    """Why generated files that differ are refused when the state file is gone."""
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


def _print_intro(console: Console, mode: Mode, decided: Prepared | GenerateReport) -> None:
    if decided.recovered:
        console.print(decided.recovered, style="yellow", markup=False)
    print_diagnostics(console, decided.warnings)
    if decided.state_missing:
        _print_state_missing(console)
    if mode == "check":
        print_stale(console, decided.applied)
    else:
        _print_summary(console, decided.summary)
    _print_notes(console, decided.reused)


def print_plan(console: Console, decided: Prepared | GenerateReport, mode: Mode) -> None:
    """What a run is about to do, printed before anything is written."""
    _print_intro(console, mode, decided)


def print_outcome(console: Console, report: GenerateReport) -> None:
    """What a run did, and what it left for the user (orphans, an old package)."""
    try:
        if report.mode == "write":
            print_written(console, report.applied)
        _print_notes(console, report.notes)
        _print_orphans(console, report.orphans)
        _print_old_packages(console, report.old_packages, report.package)
    except KeyboardInterrupt:  # Ctrl-C while listing: the writing is over
        raise interrupted_after_writing() from None


def print_report(console: Console, report: GenerateReport) -> None:
    """A whole run, after the fact: the plan, then the outcome."""
    _print_intro(console, report.mode, report)
    print_outcome(console, report)


def print_diagnostics(console: Console, diagnostics: Iterable[Diagnostic]) -> None:
    """Diagnostics one per line, `file:line:col: path: message`, errors in red."""
    for diagnostic in diagnostics:
        style = "red" if diagnostic.level == "error" else "yellow"
        console.print(str(diagnostic), style=style, markup=False)


def print_error(console: Console, error: McpgenError) -> None:
    """A user-facing failure: every diagnostic of a bad manifest, then one `error:` line."""
    if isinstance(error, ManifestInvalid):
        print_diagnostics(console, error.diagnostics)
    console.print(f"error: {error.message}", style="bold red", markup=False)


def print_check(console: Console, report: CheckReport) -> None:
    """`mcpgen check`: warnings, stale files, handler problems, orphans."""
    from mcpgen.generation.changes import orphan_kind

    if report.recovered:
        console.print(report.recovered, style="yellow", markup=False)
    print_diagnostics(console, report.warnings)
    print_stale(console, report.applied)
    for problem in report.handler_problems:
        console.print(f"handler of {problem.tool}: {problem}", style="red", markup=False)
    for note in report.handler_notes:
        console.print(f"note: handler of {note.tool}: {note}", style="yellow", markup=False)
    unverified = len({note.path for note in report.handler_notes})
    if not report.handler_problems and unverified:
        console.print(
            f"{report.handler_count - unverified} of {report.handler_count} handlers match the "
            f"dispatcher; {unverified} could not be verified statically (see the notes)."
        )
    elif not report.handler_problems:
        console.print(f"All {report.handler_count} handlers match the dispatcher.")
    for orphan in report.orphans:
        console.print(
            f"warning: orphaned {orphan_kind(orphan)} {orphan}: nothing in the manifest uses it",
            style="yellow",
            markup=False,
        )
    for folder in report.old_packages:
        console.print(
            f"warning: orphaned generated output {folder}/_generated/: the manifest's package "
            f"is now `{report.manifest.package}`",
            style="yellow",
            markup=False,
        )


def print_new_project(console: Console, made: NewProject) -> None:
    """After `mcpgen new`: where the project is, and the next steps."""
    if made.git_problem is not None:
        console.print(
            f"note: {made.git_problem}; the project is not committed", style="yellow", markup=False
        )
    console.print(
        f"\n[bold green]Created {escape(str(made.root))}[/]"
        + (" (git repository, first commit)" if made.committed else "")
    )
    steps = (
        "Next:",
        f"  cd {made.root}",
        "  python -m venv .venv && . .venv/bin/activate && pip install -e '.[test]'",
        f"  pytest && {made.manifest.script}",
        "  mcpgen config claude-desktop   # or cline, cursor, vscode, ...",
    )
    for line in steps:
        console.print(line, markup=False)


_MARKS = {"ok": ("ok  ", "green"), "warn": ("warn", "yellow"), "fail": ("FAIL", "red")}


def print_doctor(
    console: Console, launch: Launch, probe: Probe, http: Check, reports: Iterable[HostReport]
) -> bool:
    """`mcpgen doctor`: the launch, the tools it lists, a line per host; False if any fails."""
    console.print(f"launch: {' '.join(launch.argv)}", markup=False)
    if probe.ok:
        console.print(f"tools: {', '.join(probe.tools) or '(none)'}", markup=False)
    failed = False
    for report in reports:
        mark, style = _MARKS[report.status]
        console.print(f"[{style}]{mark}[/{style}] {escape(report.title)}", highlight=False)
        for check in report.checks:
            if check.status != "ok":
                console.print(f"       {check.status}: {check.message}", markup=False)
        failed |= report.status == "fail"
    mark, style = _MARKS[http.status]
    console.print(f"[{style}]{mark}[/{style}] HTTP: ", end="", highlight=False)
    console.print(http.message, markup=False)
    return not (failed or http.status == "fail")


def print_auth_check(console: Console, check: Check) -> bool:
    """`mcpgen doctor --token-env`: the HTTP server with and without the token; False on fail."""
    mark, style = _MARKS[check.status]
    console.print(f"[{style}]{mark}[/{style}] HTTP auth: ", end="", highlight=False)
    console.print(check.message, markup=False)
    return check.status != "fail"


def print_bundle(console: Console, bundle: Bundle) -> None:
    """`mcpgen bundle`: where the bundle went and what it holds."""
    console.print(
        f"Wrote {bundle.path} ({len(bundle.members)} files, {bundle.size} bytes)", markup=False
    )
    if bundle.left_out:
        from mcpgen.commands.bundle_files import shown

        names = ", ".join(shown(name) for name in bundle.left_out)
        console.print(f"Left out (secrets, never packed): {names}", markup=False)


def print_update(console: Console, result: UpdateResult) -> None:
    """`mcpgen update`: each scaffold file changed, conflicts marked, what was left alone."""
    if result.recovered:
        console.print(result.recovered, style="yellow", markup=False)
    for path in result.dropped:
        console.print(f"  kept      {path}: the new template no longer has it", markup=False)
    for path in result.left_out:
        console.print(
            f"  skipped   {path}: yours or `mcpgen generate`'s, never merged", markup=False
        )
    if result.up_to_date:
        console.print("Scaffold is up to date: nothing to merge.")
        return
    for path in result.changed:
        mark = "conflict" if path in result.conflicts else "updated"
        console.print(f"  {mark:<9} {path}", markup=False)
    if not result.conflicts:
        console.print("Scaffold updated; review with `git diff`, then commit.")


def _print_notes(console: Console, lines: Iterable[str]) -> None:
    """Lines the user should notice (a handler taken over, a step skipped), in yellow."""
    for line in lines:
        console.print(f"[yellow]{escape(line)}[/]")
