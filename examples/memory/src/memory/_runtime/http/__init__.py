# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The Streamable HTTP transport: the app, its gate (hosts, origins, authentication, sessions,
sizes), its options and its fast path.

Imports the layers below it, never `entry`. A stdio server never loads it.
"""
