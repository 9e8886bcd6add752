# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""How a server starts: the console entry, the command line, the warm-up and serving.

The top layer: nothing in the runtime imports it.
"""
