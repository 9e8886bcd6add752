"""Tool schemas → pydantic v2 source, in one datamodel-code-generator run for all tools.

The models are a typed *view* of arguments that jsonschema has already validated against
the manifest's schemas. So the schemas given to the model generator are first relaxed
where pydantic would judge differently from JSON Schema (ECMA-262 `pattern`s, `format`s,
pattern-keyed maps): a call that passed validation must always build its model.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from importlib import metadata
from typing import Any

from mcpgen.header import GENERATED_HEADER
from mcpgen.manifest.model import Manifest
from mcpgen.schema_walk import map_schema

# Keys that only validate; jsonschema already did that with the right dialect.
_VALIDATION_ONLY = ("pattern", "format", "contentEncoding", "contentMediaType")
# Keys that decide the shape of a single-type branch and can move onto a `type: [T, null]`.
_SIMPLE_BRANCH_KEYS = frozenset(
    {
        "type",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "items",
        "uniqueItems",
        "enum",
        "description",
        "title",
        "default",
        "examples",
    }
)


def _relax(schema: dict[str, Any]) -> dict[str, Any]:
    relaxed = {k: v for k, v in schema.items() if k not in _VALIDATION_ONLY}
    relaxed = _pattern_properties_as_map(relaxed)
    return _nullable_branch_as_type_list(relaxed)


def _pattern_properties_as_map(schema: dict[str, Any]) -> dict[str, Any]:
    """`patternProperties: {p: S}` → `additionalProperties: S`, i.e. `dict[str, S]`.

    jsonschema still checks the keys against the patterns.
    """
    patterns = schema.get("patternProperties")
    if not isinstance(patterns, dict) or not patterns:
        return schema
    values = list(patterns.values())
    extra = schema.get("additionalProperties", True)
    result = {k: v for k, v in schema.items() if k != "patternProperties"}
    if len(values) == 1 and extra in (True, False):
        result["additionalProperties"] = values[0]
    else:
        result["additionalProperties"] = True
    return result


def _nullable_branch_as_type_list(schema: dict[str, Any]) -> dict[str, Any]:
    """`anyOf: [{type: T, ...}, {type: null}]` → `{type: [T, null], ...}`.

    The generator would otherwise build a root model for the constrained branch, whose
    `None` default is a type error for mypy.
    """
    branches = schema.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2:
        return schema
    nulls = [b for b in branches if b == {"type": "null"}]
    others = [b for b in branches if b != {"type": "null"}]
    if len(nulls) != 1 or len(others) != 1:
        return schema
    branch = others[0]
    if not isinstance(branch, dict) or not isinstance(branch.get("type"), str):
        return schema
    if not set(branch) <= _SIMPLE_BRANCH_KEYS or "enum" in branch:
        return schema
    merged = {k: v for k, v in schema.items() if k != "anyOf"}
    for key, value in branch.items():
        merged.setdefault(key, value)
    merged["type"] = [branch["type"], "null"]
    return merged


def model_schemas(manifest: Manifest) -> list[dict[str, Any]]:
    """The tools, as the MCP-tools document the model generator reads (names = class stems)."""
    tools: list[dict[str, Any]] = []
    for tool in manifest.tools:
        entry: dict[str, Any] = {
            "name": tool.class_name,
            "inputSchema": map_schema(tool.input_schema, _relax),
        }
        if tool.output_schema is not None:
            entry["outputSchema"] = map_schema(tool.output_schema, _relax)
        tools.append(entry)
    return tools


GENERATOR_OPTIONS: dict[str, Any] = {
    "disable_timestamp": True,
    "formatters": ["builtin"],
    # Explicit, or the formatter takes a line length from whatever pyproject.toml is nearest
    # to the working directory, and the same manifest would give different files.
    "builtin_format_line_length": 100,
    "field_constraints": True,
    "use_annotated": True,
    "enum_field_as_literal": "all",
    "naming_strategy": "parent-prefixed",
    "use_double_quotes": True,
    "allow_population_by_field_name": True,
    "collapse_root_models": True,
}


def models_header(tools: list[dict[str, Any]]) -> str:
    """The header of models.py: mcpgen's, plus a digest of everything the models come from.

    Same digest, same models: a regenerate can keep the file it wrote last time instead of
    running the generator again (the slow part of a no-change `mcpgen generate`).
    """
    inputs = {
        "tools": tools,
        "options": GENERATOR_OPTIONS,
        "generator": metadata.version("datamodel-code-generator"),
    }
    digest = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()
    return f"{GENERATED_HEADER}\n# Model inputs: sha256:{digest}"


def render_models(manifest: Manifest, previous: str | None = None) -> str:
    """Pydantic source for every tool's `<Class>Input` and `<Class>Output` model.

    `previous` is models.py as mcpgen last wrote it (never a hand-edited one): when its
    inputs digest matches, it is the answer and the generator does not run.
    """
    tools = model_schemas(manifest)
    header = models_header(tools)
    if previous is not None and previous.startswith(header + "\n"):
        return previous
    if not tools:
        return f"{header}\n\nfrom __future__ import annotations\n"
    # Heavy imports, paid only when generating.
    from datamodel_code_generator import generate
    from datamodel_code_generator.enums import DataModelType, InputFileType
    from datamodel_code_generator.format import PythonVersion

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the generator's notices about future defaults
        source = generate(
            tools,
            input_file_type=InputFileType("mcp-tools"),
            output_model_type=DataModelType.PydanticV2BaseModel,
            target_python_version=PythonVersion.PY_311,
            custom_file_header=header,
            **GENERATOR_OPTIONS,
        )
    assert isinstance(source, str)  # one module out, since no output path is given
    return source
