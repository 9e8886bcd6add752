"""The project scaffold: a copier template rendered once by `mcpgen new`.

Copier records its answers in `.copier-answers.yml`. The template's location there is
replaced by a stable marker (`SOURCE_MARKER`), so the file is the same on every machine and
`mcpgen update` knows to use the template of the installed mcpgen.
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from mcpgen.core.template_folder import templates_root
from mcpgen.manifest.model import Manifest, OpenApiSource
from mcpgen.write.atomic import write_atomic

ANSWERS_FILE = ".copier-answers.yml"
SOURCE_MARKER = "mcpgen:project"


def template_dir() -> Path:
    """The copier template of the project scaffold."""
    return templates_root() / "project"


@dataclass(frozen=True)
class ScaffoldAnswers:
    """What the scaffold needs to know; everything else comes from the manifest later."""

    name: str
    package: str
    distribution: str
    script: str
    description: str
    version: str
    example: bool
    # The HTTP APIs the manifest imports: the project depends on httpx2, the README names
    # each API's variables.
    apis: list[dict[str, object]] = field(default_factory=list)

    @classmethod
    def from_manifest(cls, manifest: Manifest, *, example: bool) -> ScaffoldAnswers:
        """The answers from the manifest; `example` when it starts from the example toolset."""
        return cls(
            name=manifest.name,
            package=manifest.package,
            distribution=manifest.distribution,
            script=manifest.script,
            description=manifest.description,
            version=manifest.version,
            example=example,
            apis=[api_answer(source) for source in manifest.apis],
        )


def api_answer(source: OpenApiSource) -> dict[str, object]:
    """What the scaffold says of one imported API: its base URL and its variables."""
    auth = source.auth or {}
    names = [auth[k] for k in ("bearer_env", "env") if isinstance(auth.get(k), str)]
    names += [n for n in auth.get("basic_env") or [] if isinstance(n, str)]
    return {
        "key": source.key,
        "base_url": source.base_url,
        "base_url_env": source.base_url_env,
        "auth_env": names,
        "passthrough": bool(auth.get("passthrough")),
    }


def render_scaffold(destination: Path, answers: ScaffoldAnswers) -> None:
    """Render the scaffold into `destination` (which must be empty or absent)."""
    from copier import run_copy  # heavy import, only when scaffolding

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # copier warns that a plain folder template is not git
        run_copy(
            str(template_dir()),
            str(destination),
            data=vars(answers),
            defaults=True,
            quiet=True,
            unsafe=False,
            overwrite=False,
        )
    _pin_answers_source(destination / ANSWERS_FILE)


def project_manifest(manifest_path: Path) -> Manifest:
    """The manifest at `manifest_path` with the project's scaffold names (`with_scaffold_names`).

    Raises ManifestInvalid for a bad manifest.
    """
    from mcpgen.manifest import load_manifest

    return with_scaffold_names(load_manifest(manifest_path), manifest_path.parent)


def with_scaffold_names(manifest: Manifest, root: Path) -> Manifest:
    """`manifest` with the package and distribution the project at `root` was scaffolded
    with (its `.copier-answers.yml`), since pyproject.toml, the console script and the
    handlers' imports use those.

    So a new `name:` renames the server only; a `package:` written in the manifest still wins
    (a deliberate move).
    """
    answers = _answers(root / ANSWERS_FILE)
    package = answers.get("package")
    distribution = answers.get("distribution")
    if isinstance(package, str) and package and not manifest.package_pinned:
        manifest = dataclasses.replace(manifest, package=package)
    if isinstance(distribution, str) and distribution:
        manifest = dataclasses.replace(manifest, distribution=distribution)
    return manifest


def _answers(path: Path) -> dict[str, object]:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    except (OSError, YAMLError, UnicodeDecodeError):
        return {}  # no scaffold (or a broken one): names come from the manifest alone
    return data if isinstance(data, dict) else {}


def _pin_answers_source(answers_file: Path) -> None:
    if not answers_file.is_file():
        return
    text = answers_file.read_text(encoding="utf-8")
    pinned = re.sub(r"(?m)^_src_path: .*$", f"_src_path: {SOURCE_MARKER}", text)
    write_atomic(answers_file, pinned)
