# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The result-size guard: what a tool returns, kept within the characters a host will take.

Hosts cut or refuse tool results past some 25k tokens, and a model reads a cut-off answer
as the whole of it. So text past the limit is cut here, and the result ends with a note
saying it was, and at what limit: the model knows to ask for less. A structured result
cannot be cut and stay valid against its output schema: past the limit (judged on its JSON)
it becomes an error result naming the limit.

The limit is a tool's `max_result_chars`, else the server's `--max-result-chars`; 0 means
none. Characters are Python's (code points), as a host's token count follows them closer
than bytes do.
"""

from __future__ import annotations

from mcp.types import CallToolResult, ContentBlock, TextContent

from .results import error_result
from .tool_table import to_json

SERVER_LIMIT = "--max-result-chars"
TOOL_LIMIT = "max_result_chars"


def bounded(result: CallToolResult, limit: int, *, tool: str, own_limit: bool) -> CallToolResult:
    """`result` within `limit` characters (see the module docstring); `own_limit` says the
    limit is the tool's `max_result_chars` rather than the server's flag, for the wording."""
    if not limit:
        return result
    source = TOOL_LIMIT if own_limit else SERVER_LIMIT
    if result.structured_content is not None and not result.is_error:
        size = len(to_json(result.structured_content))
        if size <= limit:
            return result
        return error_result(
            f"Tool {tool!r} returned a structured result of {size} characters (as JSON), over "
            f"the limit of {limit} ({source}); return less, or a resource link to the rest"
        )
    total = sum(len(block.text) for block in result.content if isinstance(block, TextContent))
    if total <= limit:
        return result
    note = (
        f"\n\n[truncated: the result has {total} characters, cut at the limit of {limit} "
        f"({source}); ask for less to see the rest]"
    )
    return result.model_copy(update={"content": _cut(result.content, limit, note)})


def _cut(blocks: list[ContentBlock], limit: int, note: str) -> list[ContentBlock]:
    """The first `limit` characters of the text blocks, the note after the last of them;
    the other kinds of block are kept where they were."""
    kept: list[ContentBlock] = []
    room = limit
    noted = False
    for block in blocks:
        if not isinstance(block, TextContent):
            kept.append(block)
            continue
        if noted:
            continue  # past the limit: dropped
        if len(block.text) <= room:
            room -= len(block.text)
            kept.append(block)
            continue
        kept.append(block.model_copy(update={"text": block.text[:room] + note}))
        noted = True
    return kept
