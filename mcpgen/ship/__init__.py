"""What a project needs to ship: the container, the MCP Registry entry, the MCP Bundle manifest.

Pure functions of the manifest, like the rest of the render: `render/plan.py` places their
output in the plan, `project/bundle.py` packs the bundle.
"""
