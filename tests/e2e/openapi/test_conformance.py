"""An imported project (the Train Travel API, OpenAPI 3.1, every operation) passes the
official MCP conformance suite, the Inspector CLI and the SDK-client probes of
`../shared/harness/conformance.sh` over Streamable HTTP, its tools calling prism's mock of
the same document. Skipped with a one-line reason when the harness or prism is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.conformance_harness import harness_missing, last_line, run_harness
from tests.support.openapi_project import import_project, server_environment, server_script
from tests.support.openapi_specs import BY_KEY
from tests.support.openapi_venv import shape_venv
from tests.support.prism import prism_missing, prism_mock
from tests.support.project_venv import free_port

TRAIN = BY_KEY["train_travel"]
MISSING = harness_missing() or prism_missing() or TRAIN.missing()
pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING)


def test_http_conformance_of_an_imported_project(tmp_path: Path) -> None:
    with prism_mock(TRAIN.file, tmp_path / "prism.log") as mock:
        root = import_project(TRAIN.file, tmp_path / "openapi_conformance", mock.url)
        server = shape_venv(root).bin / server_script(root)
        port = free_port()
        done = run_harness(
            "--http",
            f"http://127.0.0.1:{port}/mcp",
            "--start",
            f"{server} --transport http --port {port}",
            out=tmp_path / "harness",
            env=server_environment(root),
        )
        print(f"\nconformance of an imported project: {last_line(done.stdout)}")
        assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
        assert last_line(done.stdout).endswith(" 0 failed")
        bad = [e.describe() for e in mock.exchanges() if e.violations]
        assert not bad, "requests the spec forbids:\n" + "\n".join(bad)
