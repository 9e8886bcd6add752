# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""JSON Schema verdicts on arguments and results, and the regex engines they match patterns with.

Imports only `core`.
"""
