"""What changed in what a server publishes, entry by entry, judged by what an existing client
sends and expects.

Tools and prompts are called by name, so they are matched by name, then by `renamed_from`
(the server answers former names too). Resources are read by URI and templates expanded from
their URI template, so those are matched by URI; a new name at the same URI changes nothing
a client sends.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from mcpgen.contract.schemas import (
    Finding,
    as_schema,
    input_findings,
    output_findings,
    variable_findings,
)
from mcpgen.manifest.model import Manifest, Prompt, PromptArgument, Resource, ResourceTemplate, Tool

Kind = Literal["tool", "resource", "resource template", "prompt"]


@dataclass(frozen=True)
class ContractChange:
    """One change an existing client may notice, in plain words."""

    kind: Kind
    subject: str  # the name, URI or URI template clients use
    text: str
    breaking: bool

    def __str__(self) -> str:
        verdict = "breaking" if self.breaking else "compatible"
        return f"{verdict}: {self.kind} `{self.subject}`: {self.text}"


class _Named(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def renamed_from(self) -> tuple[str, ...]: ...


NamedT = TypeVar("NamedT", bound=_Named)

# Keys of a published entry that describe it without changing how it is used.
_DESCRIPTIVE = ("title", "description", "annotations", "icons", "_meta", "execution", "size")


def _descriptive(
    kind: Kind, subject: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> Iterator[ContractChange]:
    keys = [k for k in _DESCRIPTIVE if old.get(k) != new.get(k)]
    if keys:
        yield ContractChange(kind, subject, f"{', '.join(keys)} changed", breaking=False)


def _matched(
    old: Sequence[NamedT], new: Sequence[NamedT]
) -> tuple[list[tuple[NamedT, NamedT, bool]], list[NamedT], list[NamedT]]:
    """(old, new, renamed) pairs, then the old entries no new one answers for, then the new
    entries that are new. A former name counts only when no entry still has it."""
    old_by_name = {entry.name: entry for entry in old}
    current = {entry.name for entry in new}
    pairs: list[tuple[NamedT, NamedT, bool]] = []
    added: list[NamedT] = []
    for entry in new:
        if entry.name in old_by_name:
            pairs.append((old_by_name.pop(entry.name), entry, False))
            continue
        former = next(
            (n for n in entry.renamed_from if n in old_by_name and n not in current), None
        )
        if former is None:
            added.append(entry)
        else:
            pairs.append((old_by_name.pop(former), entry, True))
    return pairs, list(old_by_name.values()), added


def _answered(entries: Iterable[_Named]) -> set[str]:
    """Every name the server answers under: current names and former ones."""
    return {name for entry in entries for name in (entry.name, *entry.renamed_from)}


def _forgotten(
    kind: Kind, old: Sequence[_Named], new: Sequence[_Named]
) -> Iterator[ContractChange]:
    """Former names the old server answered and the new one does not."""
    answered = _answered(new)
    for entry in old:
        for former in entry.renamed_from:
            if former not in answered:
                text = f"former name `{former}` is no longer answered: clients still using it fail"
                yield ContractChange(kind, former, text, breaking=True)


def _from_findings(
    kind: Kind, subject: str, findings: Iterable[Finding], where: str = ""
) -> Iterator[ContractChange]:
    for finding in findings:
        yield ContractChange(kind, subject, f"{where}{finding.text}", finding.breaking)


def _renamed(kind: Kind, old: _Named, new: _Named) -> ContractChange:
    text = f"renamed from `{old.name}` (listed under the new name, answered under both)"
    return ContractChange(kind, new.name, text, breaking=False)


def tool_changes(old: Sequence[Tool], new: Sequence[Tool]) -> Iterator[ContractChange]:
    """Tools added, removed, renamed and changed."""
    pairs, removed, added = _matched(old, new)
    for was, now, renamed in pairs:
        if renamed:
            yield _renamed("tool", was, now)
        yield from _descriptive("tool", now.name, was.wire(), now.wire())
        yield from _from_findings(
            "tool", now.name, input_findings(was.input_schema, now.input_schema)
        )
        found = output_findings(was.output_schema, now.output_schema)
        yield from _from_findings("tool", now.name, found)
    look_alikes = {_schema_key(t): t.name for t in added}
    for tool in removed:
        text = "removed: clients calling it fail"
        twin = look_alikes.get(_schema_key(tool))
        if twin is not None:
            text += f"; if `{twin}` is its new name, add `renamed_from: {tool.name}` to it"
        yield ContractChange("tool", tool.name, text, breaking=True)
    for tool in added:
        yield ContractChange("tool", tool.name, "added", breaking=False)
    yield from _forgotten("tool", old, new)


def _schema_key(tool: Tool) -> str:
    return json.dumps([tool.input_schema, tool.output_schema], sort_keys=True, default=str)


def resource_changes(old: Sequence[Resource], new: Sequence[Resource]) -> Iterator[ContractChange]:
    """Resources by URI: gone, new, moved (a renamed one at another URI) or changed."""
    old_by_uri = {r.uri: r for r in old}
    for resource in new:
        was = old_by_uri.pop(resource.uri, None)
        if was is None:
            yield ContractChange("resource", resource.uri, "added", breaking=False)
        else:
            yield from _resource_change(was, resource)
    for resource in old_by_uri.values():
        moved = next((r for r in new if resource.name in r.renamed_from), None)
        text = "removed: clients reading it fail"
        if moved is not None:
            text = f"moved to `{moved.uri}`: clients reading the old URI fail"
        yield ContractChange("resource", resource.uri, text, breaking=True)


def _resource_change(old: Resource, new: Resource) -> Iterator[ContractChange]:
    uri = new.uri
    if old.name != new.name:
        text = f"renamed from `{old.name}` to `{new.name}` (clients read it by its URI)"
        yield ContractChange("resource", uri, text, breaking=False)
    if old.mime_type != new.mime_type:
        text = f"MIME type {old.mime_type} → {new.mime_type}: clients may not read the contents"
        yield ContractChange("resource", uri, text, breaking=True)
    if old.subscribe and not new.subscribe:
        text = "no longer subscribable: clients subscribing to it are refused"
        yield ContractChange("resource", uri, text, breaking=True)
    elif new.subscribe and not old.subscribe:
        yield ContractChange("resource", uri, "subscribable now", breaking=False)
    yield from _descriptive("resource", uri, old.wire(), new.wire())


def template_changes(
    old: Sequence[ResourceTemplate], new: Sequence[ResourceTemplate]
) -> Iterator[ContractChange]:
    """Resource templates by URI template: gone, new or changed (parameters judged as input)."""
    old_by_template = {t.uri_template: t for t in old}
    for template in new:
        was = old_by_template.pop(template.uri_template, None)
        if was is None:
            yield ContractChange("resource template", template.uri_template, "added", False)
            continue
        subject = template.uri_template
        if was.name != template.name:
            text = f"renamed from `{was.name}` to `{template.name}` (clients read by URI)"
            yield ContractChange("resource template", subject, text, breaking=False)
        if was.mime_type != template.mime_type:
            text = f"MIME type {was.mime_type} → {template.mime_type}: clients may not read it"
            yield ContractChange("resource template", subject, text, breaking=True)
        yield from _descriptive("resource template", subject, was.wire(), template.wire())
        yield from _parameters(subject, was.parameters, template.parameters)
    for template in old_by_template.values():
        text = "removed: clients reading URIs made from it fail"
        yield ContractChange("resource template", template.uri_template, text, breaking=True)


def _parameters(
    subject: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> Iterator[ContractChange]:
    for name in sorted(old.keys() & new.keys()):
        found = variable_findings(name, as_schema(old[name]), as_schema(new[name]))
        yield from _from_findings("resource template", subject, found)
    for name in sorted(new.keys() - old.keys()):
        text = f"variable `{name}` now has a schema: values clients send may be refused"
        yield ContractChange("resource template", subject, text, breaking=True)
    for name in sorted(old.keys() - new.keys()):
        text = f"variable `{name}` no longer has a schema (wider)"
        yield ContractChange("resource template", subject, text, breaking=False)


def prompt_changes(old: Sequence[Prompt], new: Sequence[Prompt]) -> Iterator[ContractChange]:
    """Prompts by name (and former names): gone, new, renamed, their arguments changed."""
    pairs, removed, added = _matched(old, new)
    for was, now, renamed in pairs:
        if renamed:
            yield _renamed("prompt", was, now)
        yield from _descriptive("prompt", now.name, was.extra_wire, now.extra_wire)
        yield from _arguments(now.name, was.arguments, now.arguments)
        if was.template != now.template:
            yield ContractChange("prompt", now.name, "template text changed", breaking=False)
    for prompt in removed:
        yield ContractChange("prompt", prompt.name, "removed: clients getting it fail", True)
    for prompt in added:
        yield ContractChange("prompt", prompt.name, "added", breaking=False)
    yield from _forgotten("prompt", old, new)


def _arguments(
    subject: str, old: Sequence[PromptArgument], new: Sequence[PromptArgument]
) -> Iterator[ContractChange]:
    old_by_name = {a.name: a for a in old}
    for argument in new:
        was = old_by_name.pop(argument.name, None)
        noun = f"argument `{argument.name}`"
        if was is None and argument.required:
            text = f"{noun} added, required: clients that do not send it are refused"
            yield ContractChange("prompt", subject, text, breaking=True)
        elif was is None:
            yield ContractChange("prompt", subject, f"{noun} added, optional", breaking=False)
        elif argument.required and not was.required:
            text = f"{noun} is now required: clients that leave it out are refused"
            yield ContractChange("prompt", subject, text, breaking=True)
        elif was.required and not argument.required:
            yield ContractChange("prompt", subject, f"{noun} is now optional", breaking=False)
        if was is not None and (was.title, was.description) != (
            argument.title,
            argument.description,
        ):
            text = f"{noun}: title or description changed"
            yield ContractChange("prompt", subject, text, breaking=False)
    for argument in old_by_name.values():
        text = (
            f"argument `{argument.name}` removed: the server refuses unknown arguments, "
            "so clients still sending it fail"
        )
        yield ContractChange("prompt", subject, text, breaking=True)


def contract_changes(old: Manifest, new: Manifest) -> list[ContractChange]:
    """Every change between two manifests' published contracts, breaking ones first."""
    found = [
        *tool_changes(old.tools, new.tools),
        *resource_changes(old.resources, new.resources),
        *template_changes(old.resource_templates, new.resource_templates),
        *prompt_changes(old.prompts, new.prompts),
    ]
    return sorted(found, key=lambda change: not change.breaking)
