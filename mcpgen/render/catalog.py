"""What the catalog table and the catalog handler stubs need from the manifest."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from mcpgen.manifest.catalog_checks import template_variables
from mcpgen.manifest.model import (
    JSON,
    Manifest,
    Prompt,
    Resource,
    ResourceTemplate,
    completion_module,
)
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
        """The entry's name in the manifest."""
        return self.entry.name

    @property
    def python_name(self) -> str:
        """The handler's module and function name."""
        return self.entry.python_name


def catalog_handlers(manifest: Manifest) -> list[CatalogHandler]:
    """Each entry that needs a handler, in manifest order."""
    found = (handler_of(entry) for _, entry in catalog_entries(manifest))
    return [handler for handler in found if handler is not None]


def handler_of(entry: Resource | ResourceTemplate | Prompt) -> CatalogHandler | None:
    """The entry's handler module, None when the manifest gives its contents."""
    if isinstance(entry, Resource):
        return CatalogHandler("resource", entry, "") if entry.has_handler else None
    if isinstance(entry, ResourceTemplate):
        variables, _ = template_variables(entry.uri_template)
        parameters = [
            f"{v}: {_PYTHON_TYPES.get(entry.parameters.get(v, {}).get('type', ''), 'str')}"
            for v in variables
        ]
        return CatalogHandler("resource template", entry, ", ".join(parameters))
    if not entry.has_handler:
        return None
    parameters = [
        f"{a.name}: str" if a.required else f"{a.name}: str | None = None"
        for a in sorted(entry.arguments, key=lambda a: not a.required)
    ]
    return CatalogHandler("prompt", entry, ", ".join(parameters))


@dataclass(frozen=True)
class CompletionHandler:
    """A user-owned handler module that completes one prompt argument or template variable."""

    kind: Kind
    entry: ResourceTemplate | Prompt
    argument: str
    others: tuple[str, ...]  # the entry's other arguments: what `arguments` may hold

    @property
    def python_name(self) -> str:
        """The handler's module and function name: `complete_<entry>_<argument>`."""
        return completion_module(self.entry.python_name, self.argument)


def completion_handlers(manifest: Manifest) -> list[CompletionHandler]:
    """Each argument or variable whose completions a handler gives, in manifest order."""
    found = []
    entries: list[tuple[Kind, ResourceTemplate | Prompt, list[str]]] = [
        ("resource template", t, template_variables(t.uri_template)[0])
        for t in manifest.resource_templates
    ]
    entries += [("prompt", p, [a.name for a in p.arguments]) for p in manifest.prompts]
    for kind, entry, arguments in entries:
        for argument in entry.completed_by_handler:
            others = tuple(a for a in arguments if a != argument)
            found.append(CompletionHandler(kind, entry, argument, others))
    return found


def completions_literal(
    static: dict[str, tuple[str, ...]], entry: ResourceTemplate | Prompt
) -> str:
    """The `completions=` mapping of a catalog table entry: each argument's values, or the
    imported function of its completion handler."""
    items = [f"{pyrepr(name)}: {pyrepr(list(values))}" for name, values in static.items()]
    items += [
        f"{pyrepr(argument)}: {completion_module(entry.python_name, argument)}_handler"
        for argument in entry.completed_by_handler
    ]
    return "{" + ", ".join(items) + "}"


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


def prompt_completions(manifest: Manifest) -> dict[str, str]:
    """Each prompt's `completions=` source text."""
    return {
        p.name: completions_literal(
            {a.name: a.completions for a in p.arguments if a.completions}, p
        )
        for p in manifest.prompts
    }


def template_completions(manifest: Manifest) -> dict[str, str]:
    """Each resource template's `completions=` source text."""
    return {
        t.name: completions_literal(dict(t.completions), t) for t in manifest.resource_templates
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


Entry = Resource | ResourceTemplate | Prompt


def catalog_entries(manifest: Manifest) -> list[tuple[Kind, Entry]]:
    """Every resource, template and prompt with its kind, in manifest order."""
    found: list[tuple[Kind, Entry]] = [("resource", r) for r in manifest.resources]
    found += [("resource template", t) for t in manifest.resource_templates]
    found += [("prompt", p) for p in manifest.prompts]
    return found


def _completion_view(static: Mapping[str, Sequence[str]], by_handler: Sequence[str]) -> JSON:
    return {name: list(values) for name, values in static.items()} | {
        name: "handler" for name in by_handler
    }


def sync_view(entry: Entry) -> JSON:
    """What the next run compares to tell whether an entry changed: its list entry, where
    its contents come from, and its handler's parameters."""
    view: JSON = {"wire": entry.wire()}
    handler = handler_of(entry)
    view["handler"] = None if handler is None else f"({handler.signature})"
    if isinstance(entry, Resource):
        view["source"] = "text" if entry.text is not None else "file" if entry.file else "handler"
        data = entry.text.encode() if entry.text is not None else entry.content
        # A digest: the state file stays small whatever the contents.
        view["contents"] = None if data is None else hashlib.sha256(data).hexdigest()
        view["subscribe"] = entry.subscribe
    elif isinstance(entry, ResourceTemplate):
        view["parameters"] = entry.parameters
        view["completions"] = _completion_view(entry.completions, entry.completion_handlers)
        if entry.raw:  # only when set, so records made before `raw:` existed still match
            view["raw"] = sorted(entry.raw)
    else:
        view["template"] = entry.template
        listed = {a.name: a.completions for a in entry.arguments if a.completions}
        view["completions"] = _completion_view(listed, entry.completed_by_handler)
    return view


def catalog_test_context(manifest: Manifest) -> dict[str, Any]:
    """What the generated catalog contract test compares the server with."""
    return {
        "resource_entries": [r.wire() for r in manifest.resources],
        "template_entries": [t.wire() for t in manifest.resource_templates],
        "prompt_entries": [p.wire() for p in manifest.prompts],
        "static_reads": static_reads(manifest),
        "prompt_renders": prompt_renders(manifest),
        "completion_cases": completion_cases(manifest),
    }


def completion_cases(manifest: Manifest) -> list[tuple[str, str, str, list[str] | None]]:
    """(kind, prompt name or template URI, argument, values offered for "", None when a
    handler gives them) for every argument with completions."""
    found: list[tuple[str, str, str, list[str] | None]] = []
    for template in manifest.resource_templates:
        uri = template.uri_template
        found += [("template", uri, k, list(v[:100])) for k, v in template.completions.items()]
        found += [("template", uri, k, None) for k in template.completion_handlers]
    for prompt in manifest.prompts:
        for argument in prompt.arguments:
            if argument.completions:
                found.append(
                    ("prompt", prompt.name, argument.name, list(argument.completions[:100]))
                )
            elif argument.completion_handler:
                found.append(("prompt", prompt.name, argument.name, None))
    return found


def catalog_offers(manifest: Manifest) -> tuple[str, ...]:
    """What the catalog offers besides tools, as the runtime's `ServerInfo.offers` names it
    (the capabilities its handshake declares before the catalog is loaded)."""
    templates, prompts = manifest.resource_templates, manifest.prompts
    completions = any(t.completions or t.completed_by_handler for t in templates) or any(
        a.completions or a.completion_handler for p in prompts for a in p.arguments
    )
    flags = {
        "resources": bool(manifest.resources or templates),
        "subscribe": any(r.subscribe for r in manifest.resources),
        "prompts": bool(prompts),
        "completions": completions,
    }
    return tuple(name for name, offered in flags.items() if offered)
