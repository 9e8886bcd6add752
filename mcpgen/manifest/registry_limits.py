"""The MCP Registry's text limits on what `server.json` carries from the manifest: a
`description` and a `title` (the server's name) of at most 100 characters.

`mcpgen/render/server_json.py` cuts a longer text with `fitted`; `registry_findings` makes the cut
a located warning of `mcpgen validate` and `mcpgen generate`, never a silent one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcpgen.manifest.messages import Finding

TEXT_LIMIT = 100  # the registry's maxLength of `description` and `title`
# The manifest keys that become a server.json text, and the server.json key each becomes.
_LIMITED_KEYS = (("description", "description"), ("name", "title"))


def one_line(text: str) -> str:
    """`text` as server.json carries it: whitespace runs (a folded YAML block) made one space."""
    return " ".join(text.split())


def fitted(text: str) -> str:
    """`text` cut to the registry's limit, marked with `…`; `registry_findings` warns first."""
    if len(text) <= TEXT_LIMIT:
        return text
    return text[: TEXT_LIMIT - 1].rstrip() + "…"


def registry_findings(data: Any) -> list[Finding]:
    """Manifest texts longer than server.json may carry: warnings at the text, so that the
    cut `fitted` makes is never silent."""
    from mcpgen.manifest.messages import Finding

    found = []
    for key, field in _LIMITED_KEYS:
        value = data.get(key) if isinstance(data, dict) else None
        length = len(one_line(value)) if isinstance(value, str) else 0
        if length > TEXT_LIMIT:
            message = (
                f"{length} characters, over the MCP Registry's {TEXT_LIMIT} for server.json's "
                f"`{field}`: server.json gets the first {TEXT_LIMIT - 1} and '…'; shorten it"
            )
            found.append(Finding((key,), message, "warning"))
    return found
