from runtime_case._generated.models import ShoutInput


async def shout(args: ShoutInput) -> str:
    return args.text.upper()
