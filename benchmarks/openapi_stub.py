"""The upstream HTTP API both servers of `openapi.py` proxy to: fixed JSON answers, as fast as
uvicorn serves a bare ASGI app, so the figures measure the MCP servers and not the API.

    python benchmarks/openapi_stub.py ANSWERS.json --port PORT

ANSWERS.json maps "METHOD /path/{template}" to the JSON body answered with 200 (201 for a
POST); any other request gets 404. It counts the requests it answered and prints the count
on SIGTERM/SIGINT's way out, so a run can check every call reached it.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import uvicorn

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def _pattern(template: str) -> re.Pattern[str]:
    """`/repos/{owner}/{repo}` as a regex of one path segment per variable."""
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


class Stub:
    """The ASGI app: the first answer whose method and path template match."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.routes = []
        for key, body in answers.items():
            method, template = key.split(" ", 1)
            status = 201 if method == "POST" else 200
            self.routes.append((method, _pattern(template), status, json.dumps(body).encode()))
        self.count = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        more = True
        while more:  # drain the request body
            more = (await receive()).get("more_body", False)
        status, body = 404, b'{"message": "Not Found"}'
        for method, pattern, found_status, found_body in self.routes:
            if scope["method"] == method and pattern.match(scope["path"]):
                status, body = found_status, found_body
                break
        self.count += 1
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("answers", type=Path)
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args()
    stub = Stub(json.loads(options.answers.read_text(encoding="utf-8")))
    uvicorn.run(stub, host="127.0.0.1", port=options.port, log_level="warning", access_log=False)
    print(f"stub answered {stub.count} requests", flush=True)


if __name__ == "__main__":
    main()
