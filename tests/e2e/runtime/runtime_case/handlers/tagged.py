from typing import Any

from runtime_case._generated.models import TaggedInput


def tagged(args: TaggedInput) -> dict[str, Any]:
    return args.model_dump()
