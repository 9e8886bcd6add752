"""Diagnostics and the one exception type the CLI turns into messages and exit codes."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

Level = Literal["error", "warning"]


class ExitCode(IntEnum):
    """Exit codes of every mcpgen command (documented in the README)."""

    OK = 0
    ERROR = 1  # invalid input, refused write, stale tree under --check
    USAGE = 2  # bad command line (Typer's own code)
    CONFLICT = 3  # a generated file was edited by hand; nothing written


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem in one file, at a 1-based line and column.

    `path` is the JSON path inside the document (`tools[2].input_schema.type`),
    empty for a problem with the file as a whole.
    """

    file: str
    line: int
    col: int
    path: str
    message: str
    level: Level = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}"
        prefix = "" if self.level == "error" else "warning: "
        if self.path:
            return f"{where}: {self.path}: {prefix}{self.message}"
        return f"{where}: {prefix}{self.message}"


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """True when any diagnostic is an error rather than a warning."""
    return any(d.level == "error" for d in diagnostics)


class McpgenError(Exception):
    """A user-facing failure: printed without a traceback, then exit with `exit_code`."""

    def __init__(self, message: str, *, exit_code: int = ExitCode.ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def interrupted_after_writing() -> McpgenError:
    """Ctrl-C that came once every change was on disk: said so, and nothing is undone."""
    return McpgenError(
        "interrupted after every change was written: the project is up to date", exit_code=130
    )


class ManifestInvalid(McpgenError):
    """The manifest has errors; `diagnostics` holds every one of them, sorted by position."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        errors = sum(1 for d in diagnostics if d.level == "error")
        noun = "problem" if errors == 1 else "problems"
        super().__init__(f"{errors} {noun} in the manifest; nothing was written")
        self.diagnostics = diagnostics


def suggest(word: str, choices: Iterable[str]) -> str:
    """`; did you mean 'input_schema'?`, or nothing when no choice is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""
