"""`mcpgen add tool NAME`: append a tool skeleton to mcpgen.yaml, then generate."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Annotated

import typer

from mcpgen.cli import err
from mcpgen.errors import ManifestInvalid, McpgenError
from mcpgen.write.atomic import write_atomic
from mcpgen.write.lock import project_lock

add_app = typer.Typer(
    name="add", help="Add something to the manifest, then generate.", no_args_is_help=True
)


@add_app.command("tool")
def add_tool(
    name: Annotated[str, typer.Argument(help="Tool name as clients see it, e.g. get_weather.")],
    description: Annotated[
        str | None, typer.Option("--description", "-d", help="What the tool does.")
    ] = None,
    directory: Annotated[
        Path, typer.Option("--dir", help="Project directory (or its manifest file).")
    ] = Path("."),
) -> None:
    """Append a tool skeleton to mcpgen.yaml (comments and formatting kept), then generate.

    Exit codes: 0 added and generated; 1 the tool exists or the manifest is invalid (the
    manifest is then left unchanged); 3 generate refused a hand-edited generated file (the
    tool is in the manifest; fix the file or run `mcpgen generate --force`).
    """
    from mcpgen.manifest import check_text, display_name, find_manifest
    from mcpgen.sync import generate_project
    from mcpgen.sync.add_tool import append_tool

    path = find_manifest(directory)
    bom, original = _read_text(path)
    text = append_tool(original, name, description)  # keeps the file's line endings
    manifest, diagnostics = check_text(text, display_name(path))
    if manifest is None:  # e.g. an invalid tool name: report it, leave the file alone
        raise ManifestInvalid(diagnostics)
    with project_lock(path.parent):  # no other mcpgen between the edit and the generate
        # A symlinked manifest: edit the file it points to, keep the link.
        write_atomic(path.resolve(), bom + text.encode("utf-8"))
        err.print(f"Added tool {name} to {display_name(path)}", markup=False)
        generate_project(path.parent, console=err, manifest_path=path)


def _read_text(path: Path) -> tuple[bytes, str]:
    """The manifest's UTF-8 byte-order mark (kept on write, b"" if none) and its text."""
    try:
        raw = path.read_bytes()
        bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
        return bom, raw[len(bom) :].decode("utf-8")
    except OSError as exc:
        raise McpgenError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise McpgenError(f"cannot edit {path}: it is not UTF-8 text") from None


def register(app: typer.Typer) -> None:
    app.add_typer(add_app)
