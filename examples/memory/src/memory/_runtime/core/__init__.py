# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The bottom layer: what the server is (its info, its tool table, the protocol versions it
answers), and what every layer above shares: errors, results, limits, guards, message ids.

Imports no other layer. Kept free of imports itself, so that a module here loads alone.
"""
