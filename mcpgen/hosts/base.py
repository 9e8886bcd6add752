"""What every host has in common: the target a snippet is for, and the `Host` base class.

A host module subclasses `Host` and overrides only what its format spells differently;
everything is built as plain data and serialised by `formats`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from mcpgen.hosts import DEFAULT_URL as DEFAULT_URL  # noqa: PLC0414  (re-exported)
from mcpgen.hosts import secrets
from mcpgen.hosts.formats import Format, dump
from mcpgen.hosts.launch import Launch, OsName, is_absolute
from mcpgen.hosts.secrets import EnvSyntax
from mcpgen.hosts.tool_selection import ToolSelection
from mcpgen.manifest.model import Manifest

JSON = dict[str, Any]
Transport = Literal["stdio", "http"]
TRANSPORTS: tuple[Transport, ...] = ("stdio", "http")


@dataclass(frozen=True)
class Target:
    """Everything a host needs to write one server entry."""

    manifest: Manifest
    transport: Transport
    launch: Launch
    os: OsName
    url: str = DEFAULT_URL
    bearer_env: str | None = None  # HTTP: send `Authorization: Bearer $bearer_env`
    # The tools asked for: the server's flags on stdio (in `launch`), headers over HTTP.
    selection: ToolSelection = field(default_factory=ToolSelection)

    @property
    def server(self) -> str:
        """The entry key: the distribution name, plain ASCII (`weather`)."""
        return self.manifest.distribution


@dataclass(frozen=True)
class Extra:
    """Something besides the file: a command line or an install link."""

    label: str
    text: str


@dataclass(frozen=True)
class Snippet:
    """One host's paste-able document for one transport, and what to tell the user about it."""

    host: str
    transport: Transport
    filename: str
    document: Any
    entry: JSON
    text: str
    warnings: tuple[str, ...] = ()
    extras: tuple[Extra, ...] = ()


@dataclass(frozen=True)
class Where:
    """Where an install looks: the OS, its environment and home, the project and scope."""

    os: OsName
    env: dict[str, str]
    home: Path
    project: Path
    scope: Literal["user", "project"] = "user"


class Host:
    """A host app's config format. Subclasses override the parts that differ."""

    key: ClassVar[str]
    title: ClassVar[str]
    file_stem: ClassVar[str]
    fmt: ClassVar[Format] = "json"
    # Path of keys from the document root to the mapping that holds server entries.
    container: ClassVar[tuple[str, ...]] = ("mcpServers",)
    # Continue keeps a list of entries, each with a `name`, instead of a mapping.
    entries_are_list: ClassVar[bool] = False
    # A top-level array of items keyed by `id` that entries refer to (VS Code `inputs`).
    side_array: ClassVar[str | None] = None
    env_syntax: ClassVar[EnvSyntax] = secrets.NONE
    gui: ClassVar[bool] = False  # GUI apps do not inherit the shell's PATH
    paste_into: ClassVar[str] = ""
    reload_hint: ClassVar[str] = ""
    source: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    transports: ClassVar[tuple[Transport, ...]] = TRANSPORTS

    # -- entries -------------------------------------------------------------------------

    def stdio_entry(self, t: Target) -> JSON:
        """The entry that launches the server: its command, args and the env it passes."""
        entry: JSON = {"command": t.launch.command, "args": list(t.launch.args)}
        env = self.env_block(t)
        if env:
            entry["env"] = env
        return entry

    def http_entry(self, t: Target) -> JSON:
        """The entry that points at a running server's URL, with the bearer header if set."""
        entry: JSON = {"url": t.url}
        headers = self.headers(t)
        if headers:
            entry["headers"] = headers
        return entry

    def env_block(self, t: Target) -> dict[str, str]:
        """A stdio entry's `env` mapping, each passed variable spelled in this host's syntax."""
        return secrets.env_values(t.manifest.env, self.env_syntax)

    def header_syntax(self) -> EnvSyntax:
        """How a variable is spelled inside an HTTP header (as in `env` unless overridden)."""
        return self.env_syntax

    def headers(self, t: Target) -> dict[str, str]:
        """`Authorization` when the target has a bearer variable, and the tool selection's
        X-MCP-* headers."""
        if t.bearer_env is None:
            return t.selection.headers()
        bearer = secrets.bearer_value(t.bearer_env, self.header_syntax())
        return {"Authorization": bearer, **t.selection.headers()}

    def entry(self, t: Target) -> JSON:
        """The server entry for the target's transport."""
        return self.stdio_entry(t) if t.transport == "stdio" else self.http_entry(t)

    def document(self, t: Target, entry: JSON) -> Any:
        """The whole paste-able file around one entry."""
        doc: JSON = {t.server: entry}
        for key in reversed(self.container):
            doc = {key: doc}
        return doc

    # -- what to tell the user -------------------------------------------------------------

    def warnings(self, t: Target) -> list[str]:
        """What the user must fix by hand: secrets to fill in, a command a GUI app cannot find."""
        found: list[str] = []
        if t.transport == "stdio":
            passed = [v.name for v in secrets.passed_vars(t.manifest.env)]
            found += self._secret_warnings(t, passed, self.env_syntax)
            if self.gui and not is_absolute(t.launch.command, t.os):
                found.append(
                    f"`{t.launch.command}` is not an absolute path and {self.title} does not see "
                    "your shell PATH: use `--launcher venv` or put the full path of the program."
                )
        if t.transport == "http" and t.bearer_env is not None:
            found += self._secret_warnings(t, [t.bearer_env], self.header_syntax())
        return found

    def _secret_warnings(self, t: Target, names: list[str], syntax: EnvSyntax) -> list[str]:
        if not names or syntax.expands:
            return []
        shown = ", ".join(secrets.placeholder(n) for n in names)
        return [
            f"{self.title} expands no environment variables: replace {shown} in the file with "
            "the real value by hand (then keep that file private; mcpgen never writes secrets)."
        ]

    def extras(self, t: Target) -> list[Extra]:
        """What to show besides the file: a command that adds the entry, or an install link."""
        return []

    def side_items(self, t: Target) -> list[JSON]:
        """Items of `side_array` this entry needs (VS Code's password prompts)."""
        return []

    def fresh_document(self, t: Target) -> Any:
        """The document of a config file that does not exist yet, before the entry goes in."""
        return {}

    # -- files -------------------------------------------------------------------------------

    def filename(self, transport: Transport) -> str:
        """The snippet's name under `hosts/`: `<file_stem>[.http].<ext>`, JSONC as `.json`."""
        suffix = "json" if self.fmt == "jsonc" else self.fmt
        middle = ".http" if transport == "http" else ""
        return f"{self.file_stem}{middle}.{suffix}"

    def render(self, t: Target) -> Snippet:
        """The snippet for one target: its entry, the document around it, and the notes."""
        entry = self.entry(t)
        document = self.document(t, entry)
        return Snippet(
            host=self.key,
            transport=t.transport,
            filename=self.filename(t.transport),
            document=document,
            entry=entry,
            text=dump(self.fmt, document),
            warnings=tuple(self.warnings(t)),
            extras=tuple(self.extras(t)),
        )

    def config_path(self, where: Where) -> Path | None:
        """The host's real config file for an install; None when it has no file to edit."""
        return None
