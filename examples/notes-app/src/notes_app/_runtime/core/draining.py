# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""What a server that is shutting down still answers.

After SIGTERM a server lets the calls in flight finish before it exits. Their clients go on
talking meanwhile: a `tools/list` or a `ping` after a call's answer, a cancel, the answer to
a question a running call asked. A refusal of those would make a client report a call that
finished as failed, and they run no handler, so they are answered as usual until the server
exits. What would start new work (a call, a read, a prompt, a new session) is refused at
once with `SHUTTING_DOWN`, and carries the request's id.
"""

from __future__ import annotations

from typing import Any

# Requests answered from what the server holds, without a handler of the project's.
ANSWERED_WHILE_DRAINING = frozenset(
    {
        "ping",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
        "logging/setLevel",
        "resources/unsubscribe",
    }
)
SHUTTING_DOWN = -32000  # JSON-RPC's implementation-defined server error range
SHUTTING_DOWN_MESSAGE = "the server is shutting down: this request was not run; send it again"


def runs_while_draining(message: Any) -> bool:
    """Whether a JSON-RPC message (parsed JSON) is still taken while draining: a
    notification, an answer to the server's own request, or a request in
    `ANSWERED_WHILE_DRAINING`; anything that is not a request object is left to whoever
    would refuse it anyway."""
    if not isinstance(message, dict) or "id" not in message:
        return True  # a notification (a cancel among them), or not a message at all
    method = message.get("method")
    if not isinstance(method, str):
        return True  # a client's answer to the server's question: a running call waits for it
    return method in ANSWERED_WHILE_DRAINING


def refusal(request_id: object) -> dict[str, Any]:
    """The JSON-RPC error for a request refused while draining (a null id for one that is
    neither a string nor an integer: the SDK would not have read it as a request)."""
    error = {"code": SHUTTING_DOWN, "message": SHUTTING_DOWN_MESSAGE}
    usable = request_id if type(request_id) in (str, int) else None
    return {"jsonrpc": "2.0", "id": usable, "error": error}
