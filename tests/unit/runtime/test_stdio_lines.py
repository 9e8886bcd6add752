"""The stdio byte pump's line splitting: lines end where the SDK's `stdio_server` ends them
(a text stream with universal newlines), wherever the reads happen to cut the input."""

from __future__ import annotations

import pytest

from mcpgen.runtime.stdio.transport import TooLong, _as_text, _Lines

INPUT = b'{"a":1}\r\n{"b":2}\r{"c":3}\n\n{"d":4}\r'
LINES = [b'{"a":1}', b'{"b":2}', b'{"c":3}', b"", b'{"d":4}']


def _split(chunks: list[bytes], limit: int = 1 << 20) -> list[bytes | TooLong]:
    lines = _Lines(limit)
    found = [line for chunk in chunks for line in lines.feed(chunk)]
    return [line for line in [*found, *lines.end()] if line != b""]


@pytest.mark.parametrize("cut", range(len(INPUT) + 1))
def test_cr_lf_and_lone_cr_end_lines_wherever_a_read_cuts(cut: int) -> None:
    assert _split([INPUT[:cut], INPUT[cut:]]) == [line for line in LINES if line]


def test_every_byte_read_alone_splits_the_same() -> None:
    assert _split([INPUT[i : i + 1] for i in range(len(INPUT))]) == [line for line in LINES if line]


def test_a_long_line_ended_by_a_lone_cr_is_refused_with_its_id() -> None:
    line = b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"' + b"x" * 100 + b'"}}'
    assert _split([line + b"\r" + b'{"id":8}\r'], limit=50) == [TooLong(7), b'{"id":8}']


def test_bytes_that_are_not_utf8_are_read_as_replacement_characters() -> None:
    assert _as_text(b'{"id":"\xff\xfe"}') == '{"id":"\ufffd\ufffd"}'.encode()
    assert _as_text('{"id":"é"}'.encode()) is None
