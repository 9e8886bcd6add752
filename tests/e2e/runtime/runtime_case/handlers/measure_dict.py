from typing import Any

from runtime_case._generated.models import MeasureDictInput


def measure_dict(args: MeasureDictInput) -> dict[str, Any]:
    return {"size": args.size}
