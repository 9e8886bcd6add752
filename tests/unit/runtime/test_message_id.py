"""The id of a message read only at its edges: told only when it is sure."""

from __future__ import annotations

import pytest

from mcpgen.runtime.core.message_id import EDGE_BYTES, request_id

PAD = b"x" * 100_000


def edges(message: bytes) -> tuple[bytes, bytes]:
    return message[:EDGE_BYTES], message[-EDGE_BYTES:]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":7,"method":"a","params":{"p":"' + PAD + b'"}}', 7),
        (b'{ "id" : "abc" , "p":"' + PAD + b'"}', "abc"),
        (b'{"p":"' + PAD + b'","id":42}', 42),
        (b'{"p":"' + PAD + b'", "id" : "end" , "method" : "x" }\r', "end"),
        (b'{"p":{"id":5,"x":"' + PAD + b'"}}', None),  # the id of `params`
        (b'{"p":"' + PAD + b'","q":{"id":5}}', None),
        (b'{"p":"' + PAD + b'\\"id\\":5}"}', None),  # inside a string
        (b'{"a":"' + PAD + b'","id":3,"b":"' + PAD + b'"}', None),  # beyond both edges
        (b'{"id":true,"p":"' + PAD + b'"}', None),
        (b'{"id":1.5,"p":"' + PAD + b'"}', None),
        (b'{"id":' + b"9" * 30 + b',"p":"' + PAD + b'"}', None),
        (b'{"id":"\xff","p":"' + PAD + b'"}', None),  # not UTF-8
        (b'{"id":"\\ud800","p":"' + PAD + b'"}', None),  # a lone surrogate
        (b'{"jsonrpc":"2.0","id":5,"method":"m","params":{"x":"\xff' + PAD + b'"}}', 5),
        ('{"id":"é","p":"é'.encode() + PAD, "é"),
        (b"[" * 100_000, None),
        (b'{"a":' * 50_000, None),
        (b"", None),
    ],
)
def test_the_id_is_told_only_when_sure(message: bytes, expected: object) -> None:
    assert request_id(*edges(message)) == expected


def test_a_number_cut_by_the_edge_is_no_id() -> None:
    message = b'{"p":"' + b"x" * (EDGE_BYTES - 14) + b'","id":123456789}'
    assert request_id(message[:EDGE_BYTES]) is None


def test_a_tail_full_of_id_members_is_bounded_work() -> None:
    message = b'{"a":' * 10_000 + b'"id":1}' * 2_000
    assert request_id(*edges(message)) in (None, 1)
