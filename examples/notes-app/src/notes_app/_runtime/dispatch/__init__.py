# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Tool calls: the dispatcher that runs a handler, its context, the questions a handler asks the
client and the request state that carries them.

Imports `core` and `validation`.
"""
