"""The corpus the judges are asked about, loaded once per process.

Every case names its `source` (a real server's tools/list, a manifest), the stratum a sampled
run draws from, so no server goes unjudged. The schemas come in two readings: as written
(what the manifest checks see, broken manifests included) and as served (what a running
server's validator judges: a real server's tools/list, a manifest's published definitions).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from mcpgen.manifest import load_manifest
from mcpgen.manifest.load import load_yaml
from mcpgen.render.publish import published_definition
from tests.support.corpus import REAL, manifest_files, real_files

REPO = Path(__file__).resolve().parents[2]
# Where a manifest may spell a tool's schemas (the manifest's own names, and tools/list's).
SCHEMA_KEYS = ("input_schema", "inputSchema", "output_schema", "outputSchema")
INPUT_KEYS = ("input_schema", "inputSchema")


@dataclass(frozen=True)
class ToolSchema:
    """One schema of one tool, and where it comes from."""

    source: str  # `real/<server>`, `manifests/<name>`, `examples/<name>` or `errors/<name>`
    tool: str
    key: str  # the key holding it: inputSchema, output_schema, ...
    schema: Any

    @property
    def id(self) -> str:
        return f"{self.source}:{self.tool}:{self.key}"

    @property
    def is_input(self) -> bool:
        return self.key in INPUT_KEYS


@dataclass(frozen=True)
class Manifest:
    """A manifest as loaded from YAML, before any check."""

    source: str
    path: Path
    data: Any

    @property
    def id(self) -> str:
        return self.source


def _source(path: Path) -> str:
    if path.parent == REAL:
        return f"real/{path.stem}"
    if path.name == "mcpgen.yaml":
        return f"examples/{path.parent.name}"
    return f"{path.parent.name}/{path.stem}"


def manifest_paths(*, broken: bool = True) -> list[Path]:
    """The corpus manifests, the examples' manifests and (`broken`) the error snapshots'."""
    paths = [*manifest_files(), *sorted((REPO / "examples").glob("*/mcpgen.yaml"))]
    if broken:
        paths += sorted((REPO / "tests" / "golden" / "errors").glob("*.yaml"))
    return paths


@cache
def manifests() -> tuple[Manifest, ...]:
    """Every manifest that parses as YAML, broken ones included."""
    found = []
    for path in manifest_paths():
        loaded = load_yaml(path.read_text(encoding="utf-8"), path.name)
        if loaded.data is not None:
            found.append(Manifest(_source(path), path, loaded.data))
    return tuple(found)


def _real_tools() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in real_files():
        for tool in json.loads(path.read_text(encoding="utf-8")):
            yield _source(path), tool


@cache
def written_schemas() -> tuple[ToolSchema, ...]:
    """Every input and output schema as written: real servers', and each manifest's."""
    found = [
        ToolSchema(source, tool["name"], key, tool[key])
        for source, tool in _real_tools()
        for key in ("inputSchema", "outputSchema")
        if isinstance(tool.get(key), dict)
    ]
    for manifest in manifests():
        tools = manifest.data.get("tools") if isinstance(manifest.data, dict) else None
        for index, tool in enumerate(tools if isinstance(tools, list) else []):
            name = str(tool.get("name", index)) if isinstance(tool, dict) else str(index)
            for key in SCHEMA_KEYS:
                if isinstance(tool, dict) and isinstance(tool.get(key), dict):
                    found.append(ToolSchema(manifest.source, name, key, tool[key]))
    return tuple(found)


@cache
def served_input_schemas() -> tuple[ToolSchema, ...]:
    """Every tool's input schema as its server publishes it: real servers' tools/list, and
    the published definitions of the corpus and example manifests."""
    found = [
        ToolSchema(source, tool["name"], "inputSchema", tool["inputSchema"])
        for source, tool in _real_tools()
    ]
    for path in manifest_paths(broken=False):
        manifest = load_manifest(path)
        for tool in manifest.tools:
            schema = published_definition(manifest, tool)["inputSchema"]
            found.append(ToolSchema(_source(path), tool.name, "inputSchema", schema))
    return tuple(found)


@dataclass(frozen=True)
class Pattern:
    """A regex a corpus schema holds (`pattern` or a `patternProperties` key)."""

    source: str  # the first source holding it
    pattern: str

    @property
    def id(self) -> str:
        return self.pattern


@cache
def patterns() -> tuple[Pattern, ...]:
    """Every distinct regex of the real servers' and the valid manifests' schemas."""
    first: dict[str, str] = {}
    for case in written_schemas():
        if not case.source.startswith("errors/"):
            for pattern in regexes(case.schema):
                first.setdefault(pattern, case.source)
    return tuple(Pattern(source, pattern) for pattern, source in sorted(first.items()))


def regexes(schema: Any) -> Iterator[str]:
    """Every `pattern` and `patternProperties` key in a schema."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            elif key == "patternProperties" and isinstance(value, dict):
                yield from value
            yield from regexes(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from regexes(item)
