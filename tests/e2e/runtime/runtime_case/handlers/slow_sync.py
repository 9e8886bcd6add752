import time

from runtime_case._generated.models import SlowSyncInput


def slow_sync(args: SlowSyncInput) -> str:
    time.sleep(2)
    return "too late"
