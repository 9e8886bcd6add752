"""Real published OpenAPI documents (GitHub 3.0.3, Asana 3.0.0, DigitalOcean 3.0.0, Train
Travel 3.1.0, ReadMe 3.1.0; see tests/support/openapi_specs.py) imported by
`mcpgen import openapi`, installed into a real venv and served over stdio; every imported tool
is called with valid arguments built from its input schema, against `prism mock --errors`
serving the same document.

Each call must reach prism as a request the spec allows (a 2xx, no violation in prism's log)
and come back as a non-error result whose structuredContent matches the tool's outputSchema
(the SDK client checks it too). A call whose valid request prism could not answer validly
itself (its generator breaks some schemas) is counted, not judged. CI imports a seeded sample
of each document's operations; `pytest --full` imports and calls every one. Run with `-s` to
see each spec's figures, or set MCPGEN_OPENAPI_FIGURES=FILE to collect them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import StdioServerParameters

from tests.support.openapi_calls import SpecFigures, call_every_tool
from tests.support.openapi_project import (
    import_project,
    record_figures,
    server_environment,
    server_script,
)
from tests.support.openapi_specs import SPECS, RealSpec, operations, sampled
from tests.support.openapi_venv import shape_venv
from tests.support.prism import prism_missing, prism_mock

pytestmark = pytest.mark.skipif(bool(prism_missing()), reason=prism_missing())


@pytest.mark.anyio
@pytest.mark.parametrize("spec", SPECS, ids=[s.key for s in SPECS])
async def test_every_imported_tool_answers_from_the_mock(spec: RealSpec, tmp_path: Path) -> None:
    if spec.missing():
        pytest.skip(spec.missing())
    document = spec.document()
    chosen = sampled(spec)
    with prism_mock(spec.file, tmp_path / "prism.log") as mock:
        root = import_project(
            spec.file,
            tmp_path / f"openapi_{spec.key}",
            mock.url,
            *(op.operation_id for op in chosen),
            name=spec.key,
        )
        venv = shape_venv(root)
        server = StdioServerParameters(
            command=str(venv.bin / server_script(root)), env=server_environment(root)
        )
        figures = SpecFigures(spec.key, str(document["openapi"]), len(operations(document)), 0)
        await call_every_tool(server, mock, figures, tmp_path / "server.stderr.log")
    record_figures(figures)
    assert figures.tools == len(chosen), f"imported {figures.tools} of {len(chosen)} operations"
    failures = figures.failures()
    assert not failures, f"{len(failures)} of {len(figures.records)} calls failed:\n" + "\n".join(
        failures
    )
