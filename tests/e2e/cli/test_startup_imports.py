"""`mcpgen --help` and the command modules load no heavy library: they print help, nothing more;
`mcpgen validate` of a sound manifest loads only what judging it takes.

Run in a fresh interpreter so that what other tests imported does not count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import typer
import typer.main
from typer.core import TyperGroup

from mcpgen.cli import COMMAND_MODULES, command_line

REPO = Path(__file__).resolve().parents[3]
HEAVY = ("jsonschema", "ruamel", "referencing", "datamodel_code_generator", "mcp", "copier")


def test_registering_every_command_imports_no_heavy_library() -> None:
    probe = (
        "import json, sys\n"
        "from mcpgen.cli import command_line\n"
        "command_line()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = json.loads(done.stdout)
    heavy = sorted({m.split(".")[0] for m in loaded} & {*HEAVY, "rich"})
    assert heavy == []
    # Each command takes the lock where it writes.
    assert [m for m in loaded if m.startswith("mcpgen.write")] == []
    # The host modules (sixteen hosts, their formats) load when a host command runs.
    assert [m for m in loaded if m.startswith("mcpgen.hosts.")] == []


# What `mcpgen validate` of a sound manifest loads besides the manifest's own modules: Typer
# (which imports pydantic to coerce the argument), ruamel.yaml, jsonschema-rs, regress.
# jsonschema and referencing word problems and follow `$ref`s; rich prints warnings and
# errors; the catalog rules need a catalog; the server's regex matcher words a ReDoS warning.
VALIDATE_NEVER = (*HEAVY, "rich")
VALIDATE_NEVER_OWN = (
    "mcpgen.cli.present",
    "mcpgen.manifest.catalog_checks",
    "mcpgen.runtime.validation.bounded_regex",
    "mcpgen.schema.refs",
    "mcpgen.schema.walk",
    "mcpgen.write",
)


def _modules_after(argv: list[str]) -> list[str]:
    probe = (
        "import json, sys\n"
        "from mcpgen.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=REPO,
    )
    assert "valid" in done.stderr, done.stderr
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_validating_a_sound_manifest_imports_neither_jsonschema_nor_rich() -> None:
    loaded = _modules_after(["validate", "examples/weather/mcpgen.yaml"])
    heavy = sorted({m.split(".")[0] for m in loaded} & {"ruamel", "jsonschema_rs", *VALIDATE_NEVER})
    assert heavy == ["jsonschema_rs", "ruamel"]
    own = [m for m in loaded if m.startswith(VALIDATE_NEVER_OWN)]
    assert own == []
    # Only its own command module is registered.
    commands = [m for m in loaded if m.startswith("mcpgen.cli")]
    assert commands == ["mcpgen.cli", "mcpgen.cli.manifest", "mcpgen.cli.project_dir"]


def _commands(app: typer.Typer) -> set[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return set(group.commands)


def test_each_command_is_registered_by_the_module_the_table_names() -> None:
    """A run of one command registers its module only: the table must name every command,
    and the module each is in."""
    assert _commands(command_line()) == set(COMMAND_MODULES)
    for command in COMMAND_MODULES:
        alone = _commands(command_line(command))
        assert command in alone
        module = COMMAND_MODULES[command]
        assert {c for c, m in COMMAND_MODULES.items() if m == module} == alone
    assert command_line("no-such-command") is command_line()
