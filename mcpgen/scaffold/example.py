"""The manifest `mcpgen new NAME` starts from when no `--manifest` is given."""

from __future__ import annotations

from mcpgen.render.env import environment


def example_manifest_text(name: str, version: str = "0.1.0") -> str:
    """The example weather manifest, with `name` as the server name."""
    template = environment().get_template("examples/weather.yaml.jinja")
    return template.render(name=name, version=version)
