"""The project scaffold: the copier template `mcpgen new` renders once, and its guards."""
