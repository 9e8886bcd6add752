"""Keeping a project in sync with its manifest: summarise the change, then apply it safely."""

from mcpgen.generation.engine import generate_project, prepare
from mcpgen.generation.report import GenerateReport, Mode

__all__ = ["GenerateReport", "Mode", "generate_project", "prepare"]
