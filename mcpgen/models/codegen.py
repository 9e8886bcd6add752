"""Tool schemas → pydantic v2 source, in one datamodel-code-generator run for all tools.

What the generator reads is prepared in `model_schemas`. The output is a pure function of
the manifest and mcpgen's code: its header carries a digest of every input (property order
included, since it decides field order and which of two properties whose Python names
collide keeps the plain name), so reusing the last file never depends on history. The digest
is taken of the manifest's schemas as written and of the modules that prepare them, so a
no-change run can tell the file is current without preparing anything.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import warnings
from importlib import metadata, resources
from typing import Any

from mcpgen import __version__
from mcpgen.core.header import GENERATED_HEADER
from mcpgen.manifest.model import Manifest
from mcpgen.models.schemas import model_schemas

__all__ = ["GENERATOR_OPTIONS", "model_schemas", "models_header", "render_models"]

# Bump when the source is changed after generation, so the cached models are renewed.
_POSTPROCESS_REVISION = 2
# The modules that turn the manifest's schemas into what the generator reads: their code is
# an input of the models too.
_PREPARING_MODULES = ("models/schemas.py", "models/branches.py", "schema/refs.py", "schema/walk.py")

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
    # A field with a default is not Optional: `days: int = 3`, not `int | None = 3`.
    "strict_nullable": True,
    # A closed `prefixItems` array is a tuple: `tuple[float, float, float]`.
    "use_tuple_for_closed_arrays": True,
}


def models_header(manifest: Manifest) -> str:
    """The header of models.py: mcpgen's, plus a digest of everything the models come from.

    Same digest, same models: a regenerate can keep the file it wrote last time instead of
    preparing the schemas and running the generator again (the slow part of a no-change
    `mcpgen generate`).
    """
    tools = [[t.class_name, t.input_schema, t.output_schema] for t in manifest.tools]
    inputs = {
        "tools": tools,
        "options": GENERATOR_OPTIONS,
        "generator": metadata.version("datamodel-code-generator"),
        "mcpgen": __version__,
        "preparing": _preparing_code_digest(),
        "postprocess": _POSTPROCESS_REVISION,
    }
    # Not sort_keys: the order of properties changes the models (field order, name clashes).
    digest = hashlib.sha256(json.dumps(inputs).encode()).hexdigest()
    return f"{GENERATED_HEADER}\n# Model inputs: sha256:{digest}"


@functools.cache
def _preparing_code_digest() -> str:
    package = resources.files("mcpgen")
    code = b"".join(package.joinpath(name).read_bytes() for name in _PREPARING_MODULES)
    return hashlib.sha256(code).hexdigest()


def render_models(manifest: Manifest, previous: str | None = None) -> str:
    """Pydantic source for every tool's `<Class>Input` and `<Class>Output` model.

    `previous` is models.py as mcpgen last wrote it (never a hand-edited one): when its
    inputs digest matches, it is the answer and the generator does not run.
    """
    header = models_header(manifest)
    if previous is not None and previous.startswith(header + "\n"):
        return previous
    tools = model_schemas(manifest)
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
    return _builtin_dict(source).rstrip("\n") + "\n"


_TYPING_IMPORT = re.compile(r"^from typing import (?:\(([^)]*)\)|([^\n]*))\n", re.MULTILINE)


def _builtin_dict(source: str) -> str:
    """The typed extras annotation (`"__pydantic_extra__": Dict[str, T]`, the generator's one
    use of `typing.Dict`) spelt with `dict`, as the project's ruff rules (pyupgrade) demand."""
    spelt = source.replace('"__pydantic_extra__": Dict[', '"__pydantic_extra__": dict[')
    if spelt == source or re.search(r"\bDict\[", spelt):
        return spelt

    def without_dict(match: re.Match[str]) -> str:
        listed = match.group(1) if match.group(1) is not None else match.group(2)
        names = [n.strip() for n in listed.split(",") if n.strip() and n.strip() != "Dict"]
        return f"from typing import {', '.join(names)}\n" if names else ""

    return _TYPING_IMPORT.sub(without_dict, spelt, count=1)
