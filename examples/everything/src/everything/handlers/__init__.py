"""Tool handlers: one module per tool, each yours to write (mcpgen creates them once)."""
