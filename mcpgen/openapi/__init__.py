"""OpenAPI documents → tool drafts: read the spec, validate it, convert its schemas to JSON
Schema 2020-12, and turn each selected operation into a tool bound to an HTTP call.

The manifest layer calls `tools_from_source` once per `openapi:` entry; nothing here knows
about the manifest's own YAML, so problems in the spec are located in the spec file and
problems in the entry are returned as paths inside the entry.
"""
