"""The typed manifest: frozen objects built from plain data that has already been validated.

Templates and the generator only ever see these objects, never raw YAML.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpgen.core import names

JSON = dict[str, Any]

# Keys of a tools/list entry that are published verbatim, in the order the spec lists them.
WIRE_KEYS = (
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "execution",
    "icons",
    "_meta",
)


@dataclass(frozen=True)
class Unimplemented:
    """A tool property MCP defines that the generated server does not implement.

    It is never published (so no client is told to use what the server cannot do), except
    with a value that says what the server does anyway (`taskSupport: forbidden`).
    """

    parent: str
    key: str
    why: str
    truthful: frozenset[Any] = frozenset()

    def found_in(self, entry: Mapping[str, Any]) -> bool:
        """Whether a tools/list entry sets this property to a value the server would belie."""
        value = entry.get(self.parent)
        return (
            isinstance(value, dict) and self.key in value and value[self.key] not in self.truthful
        )


# Every tool property MCP defines is implemented now: `execution.taskSupport` runs calls as
# tasks (the runtime's `dispatch.tasks`). Kept so that a property added to MCP before the
# server implements it is left out of tools/list, not promised.
UNIMPLEMENTED_WIRE: tuple[Unimplemented, ...] = ()
# Manifest spelling → wire spelling; the camelCase spelling is accepted as is.
SCHEMA_ALIASES = {"input_schema": "inputSchema", "output_schema": "outputSchema"}


@dataclass(frozen=True)
class EnvVar:
    """An environment variable the server reads."""

    name: str
    description: str = ""
    required: bool = False
    secret: bool = False
    default: str | None = None


@dataclass(frozen=True)
class Publish:
    """Where the server is published (registry entry, container, bundle); all optional."""

    registry_name: str | None = None
    repository: str | None = None
    remote_url: str | None = None
    base_image: str | None = None
    auth_token_env: str | None = None
    author: str | None = None


# `server.json` spells these in camelCase; either spelling is accepted in `publish:`.
PUBLISH_ALIASES = {
    "registry_name": "registryName",
    "remote_url": "remoteUrl",
    "base_image": "baseImage",
    "auth_token_env": "authTokenEnv",
}


def build_publish(raw: Mapping[str, Any]) -> Publish:
    """`publish:` from validated plain data, whichever spelling each key used."""
    values = {key: raw.get(key, raw.get(PUBLISH_ALIASES.get(key, key))) for key in _PUBLISH_KEYS}
    return Publish(**values)


_PUBLISH_KEYS = tuple(Publish.__dataclass_fields__)


@dataclass(frozen=True)
class Example:
    """A call that must succeed: its arguments validate against the tool's input schema."""

    arguments: JSON
    description: str = ""


@dataclass(frozen=True)
class Tool:
    """One MCP tool, with the names the generated code uses for it."""

    name: str
    python_name: str  # handler module and function name
    input_schema: JSON
    title: str | None = None
    description: str | None = None
    output_schema: JSON | None = None
    annotations: JSON | None = None
    examples: tuple[Example, ...] = ()
    extra_wire: JSON = field(default_factory=dict)  # execution, icons, _meta: published verbatim
    renamed_from: tuple[str, ...] = ()
    timeout: float | None = None
    confirm: bool = False  # ask the user through elicitation before each call
    scopes: tuple[str, ...] = ()  # OAuth scopes a call needs
    tags: tuple[str, ...] = ()  # toolsets, for `--toolsets` (not published)
    max_result_chars: int | None = None  # None: the server's `--max-result-chars`
    rate_limit: tuple[int, float] | None = None  # (calls, per seconds), counted per client
    binding: JSON | None = None  # how the runtime calls an HTTP API; None = a Python handler
    output_validation: str = "strict"  # strict | warn | off
    api: str | None = None  # key of the OpenApiSource the tool came from

    @property
    def class_name(self) -> str:
        """Stem of the generated model classes: `<ClassName>Input`, `<ClassName>Output`."""
        return names.class_name(self.python_name)

    @property
    def input_model(self) -> str:
        """Name of the generated class that validates the tool's arguments."""
        return f"{self.class_name}Input"

    @property
    def output_model(self) -> str | None:
        """Name of the generated class for the tool's result; None without an output schema."""
        return f"{self.class_name}Output" if self.output_schema is not None else None

    def wire(self) -> JSON:
        """The tools/list entry exactly as the manifest wrote it (camelCase keys)."""
        entry: JSON = {"name": self.name}
        values: JSON = {
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
            "annotations": self.annotations,
            **self.extra_wire,
        }
        for key in WIRE_KEYS[1:]:
            if values.get(key) is not None:
                entry[key] = values[key]
        return entry


def _alias(raw: Mapping[str, Any], key: str, wire_key: str) -> Any:
    return raw[key] if key in raw else raw.get(wire_key)


def _renamed(raw: Mapping[str, Any]) -> tuple[str, ...]:
    renamed = raw.get("renamed_from", ())
    return (renamed,) if isinstance(renamed, str) else tuple(renamed)


# Written in place of a list of values: a user-owned handler answers completion/complete.
COMPLETION_HANDLER = "handler"


def completion_module(entry_python_name: str, argument: str) -> str:
    """The handler module and function that completes one argument of one entry."""
    return f"complete_{entry_python_name}_{names.python_identifier(argument)}"


# Keys of a resource, template or prompt published as written.
_PASSED_THROUGH = ("title", "description", "annotations", "icons", "_meta", "size")


@dataclass(frozen=True)
class Resource:
    """A resource at a fixed URI: static text, a project file, or a user-owned handler."""

    uri: str
    name: str
    python_name: str
    mime_type: str | None = None
    text: str | None = None
    file: str | None = None  # relative to the project root
    content: bytes | None = None  # the file's bytes, read when the manifest was loaded
    subscribe: bool = False
    extra_wire: JSON = field(default_factory=dict)
    renamed_from: tuple[str, ...] = ()

    @property
    def has_handler(self) -> bool:
        """Whether the contents come from a user-owned handler (neither `text` nor `file` given)."""
        return self.text is None and self.file is None

    def wire(self) -> JSON:
        """The resources/list entry."""
        entry: JSON = {"uri": self.uri, "name": self.name}
        if self.mime_type is not None:
            entry["mimeType"] = self.mime_type
        return entry | self.extra_wire


@dataclass(frozen=True)
class ResourceTemplate:
    """Resources named by an RFC 6570 URI template, read by a user-owned handler."""

    uri_template: str
    name: str
    python_name: str
    mime_type: str | None = None
    parameters: JSON = field(default_factory=dict)  # JSON Schema per variable
    raw: tuple[str, ...] = ()  # variables given as decoded, without the path-safety refusals
    completions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    completion_handlers: tuple[str, ...] = ()  # variables a user-owned handler completes
    extra_wire: JSON = field(default_factory=dict)
    renamed_from: tuple[str, ...] = ()

    @property
    def completed_by_handler(self) -> tuple[str, ...]:
        """The variables whose values a user-owned handler completes."""
        return self.completion_handlers

    def wire(self) -> JSON:
        """The resources/templates/list entry."""
        entry: JSON = {"uriTemplate": self.uri_template, "name": self.name}
        if self.mime_type is not None:
            entry["mimeType"] = self.mime_type
        return entry | self.extra_wire


@dataclass(frozen=True)
class PromptArgument:
    """One argument of a prompt, with the values offered to complete it."""

    name: str
    description: str | None = None
    title: str | None = None
    required: bool = False
    completions: tuple[str, ...] = ()
    completion_handler: bool = False  # a user-owned handler completes it

    def wire(self) -> JSON:
        """The argument as prompts/list spells it; `required` only when true."""
        entry: JSON = {"name": self.name}
        for key, value in (("title", self.title), ("description", self.description)):
            if value is not None:
                entry[key] = value
        if self.required:
            entry["required"] = True
        return entry


@dataclass(frozen=True)
class Prompt:
    """A prompt: a static template rendered from its arguments, or a user-owned handler."""

    name: str
    python_name: str
    arguments: tuple[PromptArgument, ...] = ()
    template: str | None = None
    extra_wire: JSON = field(default_factory=dict)
    renamed_from: tuple[str, ...] = ()

    @property
    def has_handler(self) -> bool:
        """Whether a user-owned handler renders the prompt (no `template` given)."""
        return self.template is None

    @property
    def completed_by_handler(self) -> tuple[str, ...]:
        """The arguments whose values a user-owned handler completes."""
        return tuple(a.name for a in self.arguments if a.completion_handler)

    def wire(self) -> JSON:
        """The prompts/list entry."""
        entry: JSON = {"name": self.name} | self.extra_wire
        if self.arguments:
            entry["arguments"] = [a.wire() for a in self.arguments]
        return entry


def _python_name(raw: Mapping[str, Any]) -> str:
    return str(raw.get("python_name") or names.python_identifier(raw["name"]))


def _extra(raw: Mapping[str, Any]) -> JSON:
    return {k: raw[k] for k in _PASSED_THROUGH if k in raw}


def _build_resource(raw: Mapping[str, Any], root: Path | None = None) -> Resource:
    """One resource from validated plain data; a `file` is read from `root` when given."""
    file = raw.get("file")
    return Resource(
        content=(root / file).read_bytes() if file and root is not None else None,
        uri=raw["uri"],
        name=raw["name"],
        python_name=_python_name(raw),
        mime_type=_alias(raw, "mime_type", "mimeType"),
        text=raw.get("text"),
        file=file,
        subscribe=bool(raw.get("subscribe", False)),
        extra_wire=_extra(raw),
        renamed_from=_renamed(raw),
    )


def _build_resource_template(raw: Mapping[str, Any]) -> ResourceTemplate:
    """One resource template from validated plain data, listed and handler completions apart."""
    return ResourceTemplate(
        uri_template=_alias(raw, "uri_template", "uriTemplate"),
        name=raw["name"],
        python_name=_python_name(raw),
        mime_type=_alias(raw, "mime_type", "mimeType"),
        parameters=dict(raw.get("parameters") or {}),
        raw=tuple(raw.get("raw") or ()),
        completions={
            k: tuple(v)
            for k, v in (raw.get("completions") or {}).items()
            if v != COMPLETION_HANDLER
        },
        completion_handlers=tuple(
            k for k, v in (raw.get("completions") or {}).items() if v == COMPLETION_HANDLER
        ),
        extra_wire=_extra(raw),
        renamed_from=_renamed(raw),
    )


def _listed(completions: Any) -> tuple[str, ...]:
    return () if completions == COMPLETION_HANDLER else tuple(completions)


def _build_prompt(raw: Mapping[str, Any]) -> Prompt:
    """One prompt from validated plain data, listed and handler completions apart."""
    return Prompt(
        name=raw["name"],
        python_name=_python_name(raw),
        arguments=tuple(
            PromptArgument(
                name=a["name"],
                description=a.get("description"),
                title=a.get("title"),
                required=bool(a.get("required", False)),
                completions=_listed(a.get("completions", ())),
                completion_handler=a.get("completions") == COMPLETION_HANDLER,
            )
            for a in raw.get("arguments", ())
        ),
        template=raw.get("template"),
        extra_wire=_extra(raw),
        renamed_from=_renamed(raw),
    )


def templates_of(raw: Mapping[str, Any]) -> list[Any]:
    """The manifest's resource templates under either spelling."""
    found = _alias(raw, "resource_templates", "resourceTemplates")
    return found if isinstance(found, list) else []


@dataclass(frozen=True)
class OpenApiSource:
    """An HTTP API described by an OpenAPI document whose operations are imported as tools."""

    key: str  # python identifier, unique among the manifest's sources ("github")
    spec: str  # path relative to the project root ("openapi/github.json")
    base_url: str  # servers[0].url of the spec unless the manifest sets base_url
    base_url_env: str  # environment variable that overrides base_url at run time
    auth: JSON | None = None  # one of the five auth forms, or None
    timeout: float = 30.0  # seconds per attempt
    retries: int = 2  # extra attempts on 429/503 (and connection errors when idempotent)
    spec_sha256: str = field(default="", compare=False)  # of the bytes read: the run cache's

    def plain(self) -> JSON:
        """Every field as plain JSON data, as the renderer writes it into the project."""
        return {
            "key": self.key,
            "spec": self.spec,
            "base_url": self.base_url,
            "base_url_env": self.base_url_env,
            "auth": self.auth,
            "timeout": self.timeout,
            "retries": self.retries,
        }


@dataclass(frozen=True)
class Manifest:
    """A whole `mcpgen.yaml`, format 1."""

    name: str
    version: str
    package: str  # import package
    distribution: str  # PEP 503 project name
    description: str = ""
    instructions: str | None = None
    env: tuple[EnvVar, ...] = ()
    tools: tuple[Tool, ...] = ()
    inline_refs: bool = False  # publish schemas with local $refs inlined
    package_pinned: bool = False  # `package:` written in the manifest, not derived from `name`
    timeout: float | None = None  # default per-call timeout, for tools without their own
    debug: bool = False  # unexpected exceptions' messages reach the client
    secret_headers: tuple[str, ...] = ()  # request headers kept out of the server's logs
    publish: Publish = field(default_factory=Publish)
    resources: tuple[Resource, ...] = ()
    resource_templates: tuple[ResourceTemplate, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    apis: tuple[OpenApiSource, ...] = ()  # HTTP APIs whose operations became tools

    @property
    def has_catalog(self) -> bool:
        """Whether the server offers anything besides tools."""
        return bool(self.resources or self.resource_templates or self.prompts)

    @property
    def script(self) -> str:
        """Console script that starts the server over stdio (`weather-server`)."""
        return names.script_name(self.distribution)


def schema_of(raw_tool: Mapping[str, Any], key: str) -> Any:
    """A tool's schema under either spelling (`input_schema` or `inputSchema`)."""
    wire_key = SCHEMA_ALIASES[key]
    return raw_tool[key] if key in raw_tool else raw_tool.get(wire_key)


def build_tool(raw: Mapping[str, Any]) -> Tool:
    """Build one tool from validated plain data."""
    output = schema_of(raw, "output_schema")
    renamed = raw.get("renamed_from", ())
    return Tool(
        name=raw["name"],
        python_name=raw.get("python_name") or names.python_identifier(raw["name"]),
        title=raw.get("title"),
        description=raw.get("description"),
        input_schema=schema_of(raw, "input_schema"),
        output_schema=output,
        annotations=raw.get("annotations"),
        examples=tuple(
            Example(arguments=e.get("arguments", {}), description=e.get("description", ""))
            for e in raw.get("examples", ())
        ),
        extra_wire={k: raw[k] for k in ("execution", "icons", "_meta") if k in raw},
        renamed_from=(renamed,) if isinstance(renamed, str) else tuple(renamed),
        timeout=raw.get("timeout"),
        confirm=bool(raw.get("confirm", False)),
        scopes=tuple(raw.get("scopes", ())),
        tags=tuple(raw.get("tags", ())),
        max_result_chars=raw.get("max_result_chars"),
        rate_limit=_rate_limit(raw.get("rate_limit")),
    )


def _rate_limit(raw: Mapping[str, Any] | None) -> tuple[int, float] | None:
    """A tool's `rate_limit: {calls, per}` as (calls, seconds)."""
    return None if raw is None else (int(raw["calls"]), float(raw["per"]))


def build_manifest(
    raw: Mapping[str, Any],
    root: Path | None = None,
    *,
    imported_tools: tuple[Tool, ...] = (),
    apis: tuple[OpenApiSource, ...] = (),
    imported_env: tuple[EnvVar, ...] = (),
) -> Manifest:
    """Build the typed manifest from validated plain data (see `mcpgen.manifest.validate`);
    resource files are read from `root`, the project folder, when given. Tools imported from
    `apis` come after the manifest's own, and their environment variables after its own
    (a variable the manifest declares itself keeps its declaration)."""
    name = raw["name"]
    distribution = names.distribution_name(name)
    return Manifest(
        name=name,
        version=str(raw.get("version", "0.1.0")),  # required in files; handy in code
        description=raw.get("description", ""),
        instructions=raw.get("instructions"),
        package=raw.get("package") or names.package_name(name),
        distribution=distribution,
        env=tuple(
            EnvVar(
                name=var,
                description=spec.get("description", ""),
                required=bool(spec.get("required", False)),
                secret=bool(spec.get("secret", False)),
                default=spec.get("default"),
            )
            for var, spec in (raw.get("env") or {}).items()
        )
        + tuple(v for v in imported_env if v.name not in (raw.get("env") or {})),
        tools=tuple(build_tool(t) for t in raw.get("tools", ())) + imported_tools,
        inline_refs=bool(raw.get("inline_refs", False)),
        package_pinned="package" in raw,
        timeout=raw.get("timeout"),
        debug=bool(raw.get("debug", False)),
        secret_headers=tuple(raw.get("secret_headers", ())),
        publish=build_publish(raw.get("publish") or {}),
        resources=tuple(_build_resource(r, root) for r in raw.get("resources", ())),
        resource_templates=tuple(_build_resource_template(t) for t in templates_of(raw)),
        prompts=tuple(_build_prompt(p) for p in raw.get("prompts", ())),
        apis=apis,
    )
