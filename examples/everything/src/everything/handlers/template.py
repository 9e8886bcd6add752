"""Handler of the `template` resource template: A resource template with parameter substitution

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import json


def template(id: str) -> str:
    """The data of resource `id`, as JSON."""
    return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})
