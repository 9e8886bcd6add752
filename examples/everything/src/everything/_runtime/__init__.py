# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Code every generated project runs, the same in each, vendored into the project's `_runtime/`.

Layered, lowest first: `core` (the server's info, the tool table, errors, results, limits) →
`validation` (schema verdicts, regex engines) → `dispatch` (the tool dispatcher, a call's
context and questions) → `catalog` (resources, prompts, completions) → `stdio` and `http`
(the transports) → `entry` (the console script, the command line, serving). A module imports
only its own layer and those below, by relative import, never `mcpgen`, and nothing imports
`entry`: the copies must work in a project where mcpgen is not installed, and a project gets
only the modules its server uses.
"""

# The contract between rendered code and this runtime: raised whenever code rendered for the
# old number would not work with this runtime (a name it imports moved, a signature changed).
# The generated `_generated/__init__.py` checks it at import.
API = 1
VERSION = "0.1.0"  # the mcpgen release this copy comes from
