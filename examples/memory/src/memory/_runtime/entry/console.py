# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The console script: the command line, then on stdio the opening answers while the server
loads, then the SDK's session (over HTTP, or where the opening cannot run, the server loads
first and the SDK answers everything).

Standard library only until the warm-up imports the server: see `stdio.opening`.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.sdk_contract import fast_paths
from ..core.sdk_packages import defer_sdk_packages
from ..core.server_info import ServerInfo
from ..core.tool_filter import from_args, served
from ..dispatch.telemetry import tracing_requested
from ..stdio.claim import claimed_stdio
from ..stdio.opening import Opening
from .command_line import prepare
from .warm_up import WarmUp, load_server

if TYPE_CHECKING:
    from ..dispatch.dispatcher import Dispatcher, ToolEntry

logger = logging.getLogger(__name__)


def main(
    info: ServerInfo,
    tools: Sequence[ToolEntry],
    load: Callable[[], tuple[ServerInfo, Dispatcher]],
    argv: Sequence[str] | None = None,
) -> None:
    """Console script entry point: `load` imports the server (the SDK with it) and returns
    its full `ServerInfo` and dispatcher; `tools` is its tool table, loaded already."""
    args = prepare(info, argv)
    shown = served(tools, from_args(args))
    # With traces on, the SDK answers from the first request, in its own spans.
    opens = args.transport != "http" and not tracing_requested() and can_open()
    if fast_paths().on:  # a proven SDK: its umbrella packages load only when asked
        defer_sdk_packages()
    if not opens:
        serve, full_info, dispatcher = load_server(load)
        serve.run(full_info, dispatcher, args)
        return
    with claimed_stdio() as (read_fd, write_fd):
        warm_up = WarmUp(load)
        opening = Opening(info, shown, args.max_body_bytes)
        try:
            handover = opening.serve(read_fd, write_fd, warm_up)
        except KeyboardInterrupt:  # as in the SDK's session: a quiet end
            handover = None
        finally:
            opening.close()
        try:
            serve, full_info, dispatcher = warm_up.result()
        except Exception:
            logger.critical("%s: cannot serve: loading the server failed", info.name, exc_info=True)
            sys.exit(1)
        if handover is None:  # the input ended, and everything it asked is answered
            return
        serve.run(full_info, dispatcher, args, fds=(read_fd, write_fd), opening=handover)


def can_open() -> bool:
    """True where the opening may answer (`core.sdk_contract`, which logs why not, once)."""
    return fast_paths(opening=True).on
