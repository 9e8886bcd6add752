from runtime_case._generated.models import BoomInput


async def boom(args: BoomInput) -> str:
    raise ValueError("the handler broke")
