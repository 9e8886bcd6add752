from typing import Any

from runtime_case._generated.models import BadOutputInput


async def bad_output(args: BadOutputInput) -> dict[str, Any]:
    return {"size": "not an integer"}
