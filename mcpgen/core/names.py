"""Deterministic Python, distribution and script names from manifest names.

Names are sanitised here, never in templates: templates receive finished identifiers.
"""

from __future__ import annotations

import hashlib
import keyword
import re
import sys
import unicodedata

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def ascii_fold(text: str) -> tuple[str, bool]:
    """Strip accents (`é` → `e`); report whether any character could not be folded to ASCII."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = [c for c in decomposed if not unicodedata.combining(c)]
    folded = "".join(c for c in kept if c.isascii())
    lost = len(folded) != len(kept)
    return folded, lost


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]


def words(name: str) -> list[str]:
    """Split `Thermostat.SetMode`, `lights.set-state`, `API-get-user` into lowercase words."""
    folded, _ = ascii_fold(name)
    spaced = _CAMEL_BOUNDARY.sub(" ", folded)
    return [w for w in _NON_ALNUM.split(spaced.lower()) if w]


def distribution_name(server_name: str) -> str:
    """`maison-connectée` → `maison-connectee`; `天气-tools` → `tools-<hash>`.

    Characters with no ASCII form are dropped and a short hash of the original name keeps
    two such names apart, so the result is always a valid, stable PEP 503 name.
    """
    folded, lost = ascii_fold(server_name)
    slug = "-".join(w for w in _NON_ALNUM.split(folded.lower()) if w)
    if lost or not slug:
        slug = "-".join(part for part in (slug or "mcp", _short_hash(server_name)) if part)
    if not slug[0].isalpha():
        slug = f"mcp-{slug}"
    return slug


# Import names a server package must not take: the standard library's (a server named
# `time` would shadow it) and those of what every generated project imports.
RESERVED_PACKAGES = frozenset(sys.stdlib_module_names) | {
    "anyio",
    "jsonschema",
    "mcp",
    "mcp_types",
    "pydantic",
    "pydantic_core",
    "pytest",
    "re2",
    "regress",
    "ruamel",
    "starlette",
    "tests",
    "uvicorn",
}


def package_name(server_name: str) -> str:
    """The import package for a server: its distribution name with `_` for `-`.

    A name that would shadow a module the server needs gets a `_server` suffix.
    """
    package = python_identifier(distribution_name(server_name).replace("-", "_"))
    return f"{package}_server" if package in RESERVED_PACKAGES else package


def script_name(distribution: str) -> str:
    """The console script that starts the server."""
    return f"{distribution}-server"


# Names a handler function cannot take: every generated module starts with
# `from __future__ import annotations`.
RESERVED_IDENTIFIERS = frozenset({"annotations"})


def python_identifier(name: str) -> str:
    """A snake_case identifier that is not a keyword and does not start with a digit."""
    ident = "_".join(words(name)) or "tool"
    if ident[0].isdigit():
        ident = f"tool_{ident}"
    if keyword.iskeyword(ident) or keyword.issoftkeyword(ident) or ident in RESERVED_IDENTIFIERS:
        ident = f"{ident}_"
    return ident


def class_name(identifier: str) -> str:
    """`get_forecast` → `GetForecast`."""
    return "".join(part[:1].upper() + part[1:] for part in identifier.split("_") if part) or "Tool"


def is_identifier(name: str) -> bool:
    """A valid, non-keyword Python identifier made of ASCII characters."""
    return name.isidentifier() and name.isascii() and not keyword.iskeyword(name)
