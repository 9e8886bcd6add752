"""Resources, resource templates, prompts and completions: what a manifest offers besides tools.

Imports `core`, `validation` and `dispatch`. A tools-only server never loads it.
"""
