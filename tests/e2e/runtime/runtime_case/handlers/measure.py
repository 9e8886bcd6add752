from runtime_case._generated.models import MeasureInput, MeasureOutput


async def measure(args: MeasureInput) -> MeasureOutput:
    return MeasureOutput(size=args.size, label="big" if args.size > 10 else "small")
