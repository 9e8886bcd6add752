"""Check a spec against the OpenAPI specification with `openapi-spec-validator`.

Validating GitHub's 13 MB document takes about ten seconds, so a document found valid is
remembered by the SHA-256 of its bytes in the user's cache folder (`$MCPGEN_CACHE_DIR`,
else `$XDG_CACHE_HOME/mcpgen`, else `~/.cache/mcpgen`): only a verdict of "valid" is kept,
so a cache entry can never hide a problem from the user, only save repeating a check that
found none. Every `$ref` must be local (`#/...`): the validator is never allowed to fetch or
open anything besides the document itself.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcpgen.errors import Diagnostic, has_errors
from mcpgen.openapi.spec_file import JsonPath, SpecDocument

_DUPLICATE_ID = re.compile(r"for '(?P<method>[a-z]+)' in '(?P<path>[^']+)' is not unique")
MAX_REPORTED = 10  # validator errors listed for one document; the rest are counted
CONVERTER_HINT = (
    "convert it first, e.g. `npx swagger2openapi SPEC -o openapi.yaml` "
    "(or paste it into editor.swagger.io and choose Edit → Convert to OpenAPI 3)"
)


def version_of(data: Any) -> str | None:
    """ "3.0" or "3.1" for a document this package reads, else None."""
    if not isinstance(data, dict):
        return None
    version = data.get("openapi")
    if isinstance(version, str):
        for known in ("3.0", "3.1"):
            if version == known or version.startswith(f"{known}."):
                return known
    return None


def spec_problems(document: SpecDocument) -> list[Diagnostic]:
    """Every reason the document cannot be imported; empty when it is valid OpenAPI 3.0/3.1."""
    data = document.data
    if not isinstance(data, dict):
        return [document.diagnostic((), "an OpenAPI document must be a mapping of keys")]
    if "swagger" in data:
        message = (
            f"this is a Swagger {data.get('swagger')} document; mcpgen imports OpenAPI 3.0 "
            f"and 3.1: {CONVERTER_HINT}"
        )
        return [document.diagnostic(("swagger",), message)]
    if version_of(data) is None:
        where: JsonPath = ("openapi",) if "openapi" in data else ()
        shown = data.get("openapi")
        message = (
            f"unsupported OpenAPI version {shown!r}; mcpgen imports 3.0.x and 3.1.x"
            if shown is not None
            else "no `openapi:` version: this is not an OpenAPI 3 document"
        )
        return [document.diagnostic(where, message)]
    external = [
        document.diagnostic(
            path,
            f"$ref '{ref}' points outside this document; mcpgen reads only local references "
            "(#/components/...): bundle the spec into one file first, e.g. "
            "`npx @redocly/cli bundle SPEC -o one-file.yaml`",
        )
        for path, ref in _refs(data, ())
        if not ref.startswith("#")
    ]
    if external:
        return external[:MAX_REPORTED]
    known = _known_valid(document)
    if known is not None:
        return known
    located = _validator_problems(document)
    found = [diagnostic for _, diagnostic in located]
    if not has_errors(found):
        _remember_valid(document, located)
    return found


def _refs(value: Any, path: JsonPath) -> Iterator[tuple[JsonPath, str]]:
    """Every `$ref` string in the document, with where it is written."""
    stack: list[tuple[Any, JsonPath]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str):
                yield (*where, "$ref"), ref
            stack.extend((v, (*where, k)) for k, v in item.items() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend((v, (*where, i)) for i, v in enumerate(item) if isinstance(v, dict | list))


def _validator_problems(document: SpecDocument) -> list[tuple[JsonPath, Diagnostic]]:
    from openapi_spec_validator import OpenAPIV30SpecValidator, OpenAPIV31SpecValidator
    from referencing.exceptions import Unresolvable

    data = document.data
    validator_class = (
        OpenAPIV31SpecValidator if version_of(data) == "3.1" else OpenAPIV30SpecValidator
    )
    found: list[tuple[JsonPath, Diagnostic]] = []
    errors = validator_class(data).iter_errors()
    counts = {"error": 0, "warning": 0}
    try:
        for error in errors:
            where, diagnostic = _located(document, error)
            counts[diagnostic.level] += 1
            if counts[diagnostic.level] <= MAX_REPORTED:
                found.append((where, diagnostic))
            if counts["error"] > MAX_REPORTED:
                found.append(((), document.diagnostic((), "… and more problems: fix these first")))
                break
    except Unresolvable as exc:
        ref = getattr(exc, "ref", None) or str(exc).split(" does not exist")[0]
        found.append(((), document.diagnostic((), f"a $ref does not resolve: {ref}")))
    except RecursionError:
        found.append(((), document.diagnostic((), "the document's $refs loop without end")))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        # The validator assumes shapes its own schema checks first; a document odd enough
        # to reach past those checks is refused rather than crashing the command.
        found.append(((), document.diagnostic((), f"not valid OpenAPI: {exc}")))
    if counts["warning"] > MAX_REPORTED:
        more = (
            f"… and {counts['warning'] - MAX_REPORTED} more values that do not match their schema"
        )
        found.append(((), document.diagnostic((), more, "warning")))
    return found


def _located(document: SpecDocument, error: Any) -> tuple[JsonPath, Diagnostic]:
    """The validator's error at the place it names; its first line is the message.

    An error about a value checked against one of the document's own schemas (a `default`
    its schema refuses) is a warning: published documents often have such slips, and the
    operations still work. The validator does not say where that schema is: it is found.
    """
    raw_path = [p if isinstance(p, int) else str(p) for p in getattr(error, "path", ())]
    data = document.data
    absolute = bool(raw_path) and isinstance(data, dict) and raw_path[0] in data
    path: JsonPath = tuple(_as_written(data, raw_path)) if absolute else ()
    message = str(getattr(error, "message", error)).splitlines()[0]
    if len(message) > 300:
        message = f"{message[:299]}…"
    duplicate = _DUPLICATE_ID.search(message)
    if not path and duplicate:  # the validator names the operation only in its message
        path = ("paths", duplicate["path"], duplicate["method"], "operationId")
    schema = getattr(error, "schema", None)
    if not path and isinstance(schema, dict) and schema:
        found = _path_of(data, schema)
        if found is not None:
            text = f"a value does not match this schema: {message}"
            return found, document.diagnostic(found, text, "warning")
    return path, document.diagnostic(path, f"not valid OpenAPI: {message}")


def _path_of(data: Any, wanted: dict[str, Any]) -> JsonPath | None:
    """Where in the document a mapping equal to `wanted` is written, if anywhere."""
    stack: list[tuple[Any, JsonPath]] = [(data, ())]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            if item == wanted:
                return where
            stack.extend((v, (*where, k)) for k, v in item.items() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend((v, (*where, i)) for i, v in enumerate(item) if isinstance(v, dict | list))
    return None


def _as_written(data: Any, path: list[str | int]) -> Iterator[str | int]:
    """The validator reports response codes as numbers; the document writes them as keys."""
    node = data
    for written in path:
        part = str(written) if isinstance(node, dict) and written not in node else written
        yield part
        node = (
            node.get(part)
            if isinstance(node, dict)
            else (
                node[part]
                if isinstance(node, list) and isinstance(part, int) and part < len(node)
                else None
            )
        )


def _cache_file(sha256: str) -> Path:
    explicit = os.environ.get("MCPGEN_CACHE_DIR")
    if explicit:
        base = Path(explicit)
    else:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = Path(home) / "mcpgen"
    return base / "openapi-valid" / sha256


def _validator_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("openapi-spec-validator")
    except PackageNotFoundError:
        return "?"


def _known_valid(document: SpecDocument) -> list[Diagnostic] | None:
    """The warnings of a document this validator already found valid, or None."""
    path = _cache_file(document.sha256)
    if not _trusted(path):
        return None
    try:
        record = json.loads(path.read_text("utf-8"))
        if record["validator"] != _validator_version():
            return None
        return [
            document.diagnostic(tuple(path), str(message), "warning")
            for path, message in record["warnings"]
        ]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _trusted(path: Path) -> bool:
    """A verdict only this user can have written: theirs, and not writable by others."""
    try:
        info = path.lstat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISREG(info.st_mode) and mine and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _remember_valid(document: SpecDocument, warnings: list[tuple[JsonPath, Diagnostic]]) -> None:
    """Keep the verdict; failing to write it only costs the next run the check again."""
    path = _cache_file(document.sha256)
    record = {
        "validator": _validator_version(),
        "warnings": [[list(where), w.message] for where, w in warnings],
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_text(json.dumps(record), "utf-8")
        os.chmod(temp, 0o600)  # whatever the umask: a verdict others can write is not trusted
        os.replace(temp, path)
    except OSError:
        return
