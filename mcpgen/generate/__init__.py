"""Keeping a project in sync with its manifest: summarise the change, then apply it safely."""

from mcpgen.generate.engine import GenerateReport, Mode, generate_project, prepare

__all__ = ["GenerateReport", "Mode", "generate_project", "prepare"]
