# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The stdio transport: the opening answered before the SDK loads, the transport over the
protocol's descriptors, and the fast path that answers plain requests beside the SDK.

Imports the layers below it, never `http` or `entry`.
"""
