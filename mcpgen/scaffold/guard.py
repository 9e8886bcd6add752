"""What `mcpgen update` refuses before copier sees the project: a downgrade, and records that
would make copier write outside the folder it renders into.

Copier renders file names from the answers (`src/{{ package }}/...`) without checking the
result stays inside its destination, and the answers and the recorded template both come from
files anyone who can commit to the project can edit. So an answer used in a file name must be
one plain path component, and a recorded template's file names may use only plain variables
and `{% if %}` blocks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from packaging.version import InvalidVersion, Version

from mcpgen import __version__
from mcpgen.errors import McpgenError
from mcpgen.scaffold.template import ANSWERS_FILE, SOURCE_MARKER

# A file name in the template: literal characters, `{{ name }}` / `{{ a.b }}`, `{% if name %}`
# and `{% endif %}`. Anything else (filters, string literals, calls) could render to `..`.
_PATH_TOKEN = r"\{\{\s*[A-Za-z_][\w.]*\s*\}\}|\{%\s*(?:if\s+[A-Za-z_]\w*|endif)\s*%\}|[^{}%]"
_PLAIN_PATH_PART = re.compile(rf"(?:{_PATH_TOKEN})*")
_VARIABLE = re.compile(r"\{\{\s*([A-Za-z_]\w*)|\{%\s*if\s+([A-Za-z_]\w*)")
_COPIERS_OWN = "_copier_conf"  # copier's settings (`_copier_conf.answers_file`): not answers
_TEMPLATE_SUFFIX = ".jinja"  # `_templates_suffix` of mcpgen's copier.yml


def newest_writer(versions: Mapping[str, str]) -> tuple[str, Version] | None:
    """The newest of the mcpgen versions the project records (file → version), parsed."""
    newest: tuple[str, Version] | None = None
    for where, text in versions.items():
        try:
            version = Version(text)
        except InvalidVersion:
            raise McpgenError(
                f"{where} records mcpgen version {text!r}, which is not a version; "
                "restore the file from git"
            ) from None
        if newest is None or version > newest[1]:
            newest = (where, version)
    return newest


def refuse_downgrade(versions: Mapping[str, str]) -> None:
    """Refuse to merge this mcpgen's template into a project a newer mcpgen last wrote: that
    would undo the newer template's changes."""
    newest = newest_writer(versions)
    if newest is not None and newest[1] > Version(__version__):
        where, version = newest
        raise McpgenError(
            f"this project was last written by mcpgen {version} ({where}), newer than this "
            f"mcpgen {__version__}; upgrade mcpgen (nothing was written), or pass "
            "--allow-downgrade to merge the older template anyway"
        )


def load_answers(root: Path) -> dict[str, object]:
    """The project's scaffold answers: a YAML mapping of plain values naming mcpgen's template."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    path = root / ANSWERS_FILE
    if path.is_symlink():  # the merge rewrites it: never through a link to another file
        raise McpgenError(f"{ANSWERS_FILE} is a symlink; restore the file itself from git")
    try:
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise McpgenError(f"cannot read {ANSWERS_FILE}: {exc}") from None
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        raise McpgenError(f"{ANSWERS_FILE}{place}: not valid YAML; restore it from git") from None
    if not isinstance(data, dict) or not all(isinstance(key, str) for key in data):
        raise McpgenError(f"{ANSWERS_FILE}: expected `name: value` lines; restore it from git")
    source = data.get("_src_path", SOURCE_MARKER)
    if source != SOURCE_MARKER:
        raise McpgenError(
            f"{ANSWERS_FILE}: _src_path is {source!r}, not {SOURCE_MARKER!r}: `mcpgen update` "
            "merges only mcpgen's own template (restore the line from git)"
        )
    for key, value in data.items():
        if not key.startswith("_") and not isinstance(value, str | bool | int | float | None):
            raise McpgenError(f"{ANSWERS_FILE}: answer {key!r} must be a plain value")
    return {key: value for key, value in data.items() if not key.startswith("_")}


def check_template_paths(paths: Iterable[str], answers: Mapping[str, object], where: str) -> None:
    """Every template file name renders, from these answers, inside the project."""
    for path in paths:
        for part in path.split("/"):
            if not _PLAIN_PATH_PART.fullmatch(part):
                raise McpgenError(
                    f"{where}: refusing the template file {path!r}: its name is computed by "
                    "an expression mcpgen does not render; restore the file from git"
                )
            for match in _VARIABLE.finditer(part):
                name = match.group(1) or match.group(2)
                if name != _COPIERS_OWN:
                    _check_path_answer(name, answers.get(name))


def _check_path_answer(name: str, value: object) -> None:
    """An answer that becomes part of a file name: one plain component, never `..` or `/`."""
    text = "" if value is None or isinstance(value, bool) else str(value)
    unsafe = (
        any(char in text for char in "/\\\0")
        or text in (".", "..")
        or (value is not None and not isinstance(value, bool) and not text)
    )
    if unsafe:
        raise McpgenError(
            f"{ANSWERS_FILE}: answer {name}: {text!r} is used in file names and must be one "
            "plain folder name (no '/', '\\', '..'); restore it from git"
        )


def rendered_paths(files: Iterable[str], answers: Mapping[str, object]) -> frozenset[str]:
    """The files a template (checked by `check_template_paths`) makes from these answers, by
    copier's rules for names: the `.jinja` suffix dropped, each part rendered, a part that
    renders empty leaves the file out, copier's own settings file never copied. Copier itself
    would clone and render the whole template to tell, seconds for what this does in
    milliseconds."""
    from jinja2.sandbox import SandboxedEnvironment

    environment = SandboxedEnvironment(autoescape=False)
    context = {**answers, _COPIERS_OWN: {"answers_file": ANSWERS_FILE}}
    made: set[str] = set()
    for path in files:
        if path in ("copier.yml", "copier.yaml"):
            continue
        name = path.removesuffix(_TEMPLATE_SUFFIX)  # before rendering, as copier does
        parts = [environment.from_string(part).render(context) for part in name.split("/")]
        if all(parts):
            made.add("/".join(parts))
    return frozenset(made)
