from runtime_case._generated.models import LettersInput


async def letters(args: LettersInput) -> str:
    # Property names that are not identifiers reach the model under Python names.
    return f"{args.name}/{args.class_}/{args.item_count}"
