"""mcpgen: a YAML manifest of MCP tools in, a complete and tested MCP server project out."""

__version__ = "0.1.0"
