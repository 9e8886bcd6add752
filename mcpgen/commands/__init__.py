"""Whole-project workflows built on the pipeline: create a project, check one."""
