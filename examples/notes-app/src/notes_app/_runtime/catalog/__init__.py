# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Resources, resource templates, prompts and completions: what a manifest offers besides tools.

Imports `core`, `validation` and `dispatch`. A tools-only server never loads it.
"""
