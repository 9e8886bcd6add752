"""What the catalog table and the catalog handler stubs need from the manifest."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Literal

from mcpgen.manifest.catalog_checks import template_variables
from mcpgen.manifest.model import Manifest, Prompt, Resource, ResourceTemplate
from mcpgen.render.env import pyrepr

Kind = Literal["resource", "resource template", "prompt"]
_PYTHON_TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
# MIME types whose contents are text even though they are not `text/*`.
_TEXT_TYPES = ("application/json", "application/xml", "application/yaml", "image/svg+xml")


@dataclass(frozen=True)
class CatalogHandler:
    """A user-owned handler module for a resource, template or prompt."""

    kind: Kind
    entry: Resource | ResourceTemplate | Prompt
    signature: str  # the handler function's parameters

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def python_name(self) -> str:
        return self.entry.python_name


def catalog_handlers(manifest: Manifest) -> list[CatalogHandler]:
    """Each entry that needs a handler, in manifest order."""
    found = [CatalogHandler("resource", r, "") for r in manifest.resources if r.has_handler]
    for template in manifest.resource_templates:
        variables, _ = template_variables(template.uri_template)
        parameters = [
            f"{v}: {_PYTHON_TYPES.get(template.parameters.get(v, {}).get('type', ''), 'str')}"
            for v in variables
        ]
        found.append(CatalogHandler("resource template", template, ", ".join(parameters)))
    for prompt in manifest.prompts:
        if prompt.has_handler:
            parameters = [
                f"{a.name}: str" if a.required else f"{a.name}: str | None = None"
                for a in sorted(prompt.arguments, key=lambda a: not a.required)
            ]
            found.append(CatalogHandler("prompt", prompt, ", ".join(parameters)))
    return found


def is_text(mime_type: str | None, content: bytes) -> bool:
    """Whether a file is served as text: a textual MIME type (or none) and valid UTF-8."""
    textual = mime_type is None or mime_type.startswith("text/") or mime_type in _TEXT_TYPES
    textual = textual or (mime_type or "").endswith(("+json", "+xml"))
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return textual


def static_contents(manifest: Manifest) -> dict[str, str]:
    """`text=...` or `blob=...` keyword for each resource read from a project file."""
    found = {}
    for resource in manifest.resources:
        if resource.file is None or resource.content is None:
            continue
        if is_text(resource.mime_type, resource.content):
            found[resource.uri] = f"text={pyrepr(resource.content.decode('utf-8'))}"
        else:
            found[resource.uri] = f"blob={pyrepr(base64.b64encode(resource.content).decode())}"
    return found


def prompt_completions(manifest: Manifest) -> dict[str, dict[str, list[str]]]:
    return {
        p.name: {a.name: list(a.completions) for a in p.arguments if a.completions}
        for p in manifest.prompts
    }


def passed_names(handler: CatalogHandler) -> list[str]:
    """The keyword arguments the server passes the handler (besides `ctx`)."""
    entry = handler.entry
    if isinstance(entry, ResourceTemplate):
        return template_variables(entry.uri_template)[0]
    if isinstance(entry, Prompt):
        return [a.name for a in entry.arguments]
    return []


def static_reads(manifest: Manifest) -> list[tuple[str, str, str]]:
    """(uri, "text" or "blob", contents) for each resource whose contents are static."""
    found = []
    for resource in manifest.resources:
        if resource.text is not None:
            found.append((resource.uri, "text", resource.text))
        elif resource.content is not None:
            if is_text(resource.mime_type, resource.content):
                found.append((resource.uri, "text", resource.content.decode("utf-8")))
            else:
                found.append((resource.uri, "blob", base64.b64encode(resource.content).decode()))
    return found


def prompt_renders(manifest: Manifest) -> list[tuple[str, dict[str, str], str]]:
    """(prompt, arguments, rendered text) for each static prompt, every argument given."""
    found = []
    for prompt in manifest.prompts:
        if prompt.template is None:
            continue
        arguments = {a.name: f"<{a.name}>" for a in prompt.arguments}
        found.append((prompt.name, arguments, prompt.template.format_map(arguments)))
    return found


def catalog_test_context(manifest: Manifest) -> dict[str, Any]:
    """What the generated catalog contract test compares the server with."""
    return {
        "resource_entries": [r.wire() for r in manifest.resources],
        "template_entries": [t.wire() for t in manifest.resource_templates],
        "prompt_entries": [p.wire() for p in manifest.prompts],
        "static_reads": static_reads(manifest),
        "prompt_renders": prompt_renders(manifest),
    }
