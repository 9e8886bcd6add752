import anyio

from runtime_case._generated.models import SlowInput


async def slow(args: SlowInput) -> str:
    await anyio.sleep(5)
    return "too late"
