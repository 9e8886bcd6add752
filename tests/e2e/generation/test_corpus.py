"""Every corpus input (20 real servers' tools/list output, 3 tricky manifests) becomes a
project that passes its own tests, and whose server publishes each tool unchanged.

CI runs the inputs that between them use every schema keyword, type and tool key of the
corpus, and one more drawn with the sweep's seed (`tests/support/corpus_sample.py`);
`pytest --full` runs all of them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from mcpgen.manifest.model import WIRE_KEYS
from mcpgen.render.publish import without_unimplemented
from tests.support.corpus_sample import covering
from tests.support.project_venv import (
    ProjectVenv,
    assert_lint_clean,
    corpus_manifests,
    manifest_wire_tools,
    raw_tools_list,
    run_mcpgen,
    write_manifest_for,
)

CASES = covering(corpus_manifests(), extra=1)
# Type-checking 18,000 lines of models takes minutes: these cover every schema shape.
MYPY_CASES = {"notes_app", "inventory", "smart_home", "notion", "atlassian", "filesystem", "time"}


def expected_tools(source: Path) -> list[dict[str, object]]:
    if source.suffix == ".json":
        tools = json.loads(source.read_text(encoding="utf-8"))
        entries = [{k: t[k] for k in WIRE_KEYS if k in t} for t in tools]
    else:
        entries = manifest_wire_tools(source)
    # Published verbatim, less the properties the server does not implement.
    return [without_unimplemented(entry) for entry in entries]


@pytest.fixture(scope="module", params=[pytest.param(source, id=name) for name, source in CASES])
def corpus_project(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    source: Path = request.param
    work = tmp_path_factory.mktemp(source.stem)
    manifest = write_manifest_for(source, work / "input" / "mcpgen.yaml")
    root = work / "project"
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(root), "--no-input", "--no-git")
    return source, root


def package_of(root: Path) -> str:
    (package,) = [p.name for p in (root / "src").iterdir() if (p / "_generated").is_dir()]
    return package


def test_project_tests_pass(corpus_project: tuple[Path, Path], project_venv: ProjectVenv) -> None:
    _, root = corpus_project
    done = project_venv.pytest(root, "-x", with_src=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_and_mypy(corpus_project: tuple[Path, Path], project_venv: ProjectVenv) -> None:
    source, root = corpus_project
    assert_lint_clean(root, project_venv, types=source.stem in MYPY_CASES)


def test_wire_tools_list_is_the_source(
    corpus_project: tuple[Path, Path], project_venv: ProjectVenv
) -> None:
    """Byte-level truth: every tool goes out exactly as the source has it, unknown keys included."""
    source, root = corpus_project
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    published = raw_tools_list([str(project_venv.python), "-m", package_of(root)], env)
    assert published == expected_tools(source)


@pytest.mark.anyio
async def test_sdk_client_lists_and_calls(
    corpus_project: tuple[Path, Path], project_venv: ProjectVenv
) -> None:
    """The SDK client sees every tool, and a call runs end to end (a stub: not implemented)."""
    source, root = corpus_project
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    params = StdioServerParameters(
        command=str(project_venv.python), args=["-m", package_of(root)], env=env
    )
    async with Client(params, mode="legacy", read_timeout_seconds=60) as client:
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == [t["name"] for t in expected_tools(source)]
