"""JSON Schema as mcpgen reads it: subschema walks and `$ref` resolution, never fetched."""
