from runtime_case._generated.models import EchoSyncInput


def echo_sync(args: EchoSyncInput) -> dict[str, str]:
    return {"echo": args.text}
