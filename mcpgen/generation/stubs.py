"""A removed tool's stubs: its handler and user test, while they still hold only bytes
mcpgen wrote there, go with the tool (they import its models, so left behind they would fail
the project's tests and type check); a file with any byte of the user's stays, reported.
So do the stubs of a tool that is now bound to an HTTP API (an imported operation whose
`handler: custom` was taken away): the runtime calls the API, and no handler is planned.

"What mcpgen wrote" is either the stub a run created (its sha256 is on record in the state
file) or the example handler and test `mcpgen new` scaffolds, rendered again to compare.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from mcpgen.write.journal import sha_of
from mcpgen.write.state import State, sha256_hex

if TYPE_CHECKING:
    from mcpgen.render.plan import RenderPlan

_EXAMPLE_ONLY = "{% if example %}"
_PACKAGE = "{{ package }}"


@dataclass(frozen=True)
class RetiredStub:
    """A removed tool's file that holds exactly what mcpgen wrote there (sha256 `digest`)."""

    tool: str
    path: str
    digest: str


def retired_stubs(
    root: Path, previous: State, removed: Iterable[str], plan: RenderPlan, package: str
) -> tuple[RetiredStub, ...]:
    """The handler and test files of the `removed` tools (gone, or now without a handler)
    that still hold exactly a stub mcpgen wrote, and that no planned file takes over."""
    planned = {f.path for f in plan.files}
    found = []
    for name in removed:
        record = previous.tools[name]
        for path in sorted(record.user_files):
            target = root / path
            if path in planned or not _stub_shaped(path) or target.is_symlink():
                continue
            digest = sha_of(target) if target.is_file() else None
            ours = {record.stubs.get(path), example_digests(package).get(path)}
            if digest is not None and digest in ours:
                found.append(RetiredStub(name, path, digest))
    return tuple(found)


def _stub_shaped(path: str) -> bool:
    """Where mcpgen puts a tool's stubs: `.../handlers/<name>.py`, `tests/test_<name>.py`."""
    pure = PurePosixPath(path)
    is_test = len(pure.parts) == 2 and pure.parts[0] == "tests" and pure.name.startswith("test_")
    return pure.suffix == ".py" and (is_test or pure.parent.name == "handlers")


@functools.cache
def example_digests(package: str) -> dict[str, str]:
    """The sha256 of each example handler and test `mcpgen new` scaffolds for `package`:
    its templates use no variable but the package, so a text substitution renders them as
    copier does (a template that uses more is left out)."""
    from mcpgen.scaffold.template import template_dir

    found: dict[str, str] = {}
    for folder, destination in (
        (f"src/{_PACKAGE}/handlers", f"src/{package}/handlers"),
        ("tests", "tests"),
    ):
        for template in sorted((template_dir() / folder).glob(f"{_EXAMPLE_ONLY}*.jinja")):
            name = template.name.removeprefix(_EXAMPLE_ONLY).removesuffix("{% endif %}.jinja")
            text = template.read_text(encoding="utf-8").replace(_PACKAGE, package)
            if "{{" not in text and "{%" not in text:
                found[f"{destination}/{name}"] = sha256_hex(text.encode("utf-8"))
    return found
