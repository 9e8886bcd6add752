"""Code every generated project runs, the same in each: copied verbatim into `_generated/`.

Each module here imports only the project's runtime dependencies (mcp, pydantic, anyio,
jsonschema, jsonschema-rs, regress) and its siblings, by relative import, never `mcpgen`:
the copies must work in a project where mcpgen is not installed.
"""
