"""Requests built from a binding and a call's arguments: escaping, styles, bodies."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgen.runtime.upstream.binding import Binding
from mcpgen.runtime.upstream.request import RequestError, build_request


def binding(path: str = "/items", *parameters: dict[str, Any], **rest: Any) -> Binding:
    return Binding.from_plain(
        {"api": "demo", "method": rest.pop("method", "GET"), "path": path,
         "parameters": list(parameters), **rest}
    )  # fmt: skip


def param(name: str, where: str, **rest: Any) -> dict[str, Any]:
    return {"name": name, "in": where, "argument": rest.pop("argument", name), **rest}


@pytest.mark.parametrize(
    ("value", "segment"),
    [
        ("octocat", "octocat"),
        ("../admin", "..%2Fadmin"),
        ("a/b", "a%2Fb"),
        ("..", "%2E%2E"),
        (".", "%2E"),
        ("a b?c#d", "a%20b%3Fc%23d"),
        ("é", "%C3%A9"),
        (12, "12"),
        (True, "true"),
    ],
)
def test_a_path_value_stays_one_escaped_segment(value: Any, segment: str) -> None:
    request = build_request(binding("/repos/{owner}/x", param("owner", "path")), {"owner": value})
    assert request.path == f"/repos/{segment}/x"


def test_a_path_value_may_not_be_missing() -> None:
    with pytest.raises(RequestError, match="owner"):
        build_request(binding("/repos/{owner}", param("owner", "path")), {})


@pytest.mark.parametrize("empty", ["", [], {}])
def test_a_path_value_may_not_be_empty(empty: object) -> None:
    with pytest.raises(RequestError, match="'owner' is empty"):
        build_request(binding("/repos/{owner}/x", param("owner", "path")), {"owner": empty})


@pytest.mark.parametrize(
    ("style", "explode", "value", "expanded"),
    [
        ("simple", False, [3, 4, 5], "3,4,5"),
        ("simple", False, {"role": "admin", "first": "Al x"}, "role,admin,first,Al%20x"),
        ("simple", True, {"role": "admin", "first": "Al"}, "role=admin,first=Al"),
        ("label", False, "5", ".5"),
        ("label", False, [3, 4], ".3,4"),
        ("label", True, [3, 4], ".3.4"),
        ("label", True, {"a": 1, "b": 2}, ".a=1.b=2"),
        ("matrix", False, "5", ";id=5"),
        ("matrix", False, [3, 4], ";id=3,4"),
        ("matrix", True, [3, 4], ";id=3;id=4"),
        ("matrix", False, {"a": 1, "b": 2}, ";id=a,1,b,2"),
        ("matrix", True, {"a": 1, "b": 2}, ";a=1;b=2"),
    ],
)
def test_path_styles(style: str, explode: bool, value: Any, expanded: str) -> None:
    bound = binding("/x/{id}", param("id", "path", style=style, explode=explode))
    assert build_request(bound, {"id": value}).path == f"/x/{expanded}"


@pytest.mark.parametrize(
    ("rest", "value", "query"),
    [
        ({}, "a&b=c", "q=a%26b%3Dc"),
        ({}, ["x", "y z"], "q=x&q=y%20z"),  # form, exploded by default
        ({"explode": False}, ["x", "y"], "q=x,y"),
        ({"explode": False}, ["a,b", "c"], "q=a%2Cb,c"),
        ({}, {"a": 1, "b": "two"}, "a=1&b=two"),
        ({"explode": False}, {"a": 1, "b": 2}, "q=a,1,b,2"),
        ({"style": "spaceDelimited", "explode": False}, [1, 2], "q=1%202"),
        ({"style": "pipeDelimited", "explode": False}, [1, 2], "q=1%7C2"),
        ({"style": "deepObject", "explode": True}, {"k": "v w"}, "q%5Bk%5D=v%20w"),
        ({"allow_reserved": True}, "a/b:c", "q=a/b:c"),
        ({}, False, "q=false"),
    ],
)
def test_query_styles(rest: dict[str, Any], value: Any, query: str) -> None:
    bound = binding("/s", param("q", "query", **rest))
    assert build_request(bound, {"q": value}).query == query


def test_absent_and_null_arguments_are_not_sent() -> None:
    bound = binding("/s", param("a", "query"), param("b", "query"), param("X-C", "header"))
    request = build_request(bound, {"b": None})
    assert (request.query, request.headers) == ("", ())


def test_renamed_arguments_are_read_by_argument_and_sent_by_name() -> None:
    bound = binding(
        "/u/{id}", param("id", "path"), param("id", "query", argument="query_id"),
    )  # fmt: skip
    request = build_request(bound, {"id": "p", "query_id": "q"})
    assert request.url("https://api.test/v1/") == "https://api.test/v1/u/p?id=q"


def test_headers_and_cookies() -> None:
    bound = binding(
        "/h", param("X-Trace", "header"), param("X-List", "header"),
        param("session", "cookie"), param("tags", "cookie", explode=False),
    )  # fmt: skip
    request = build_request(
        bound, {"X-Trace": "abc", "X-List": [1, 2], "session": "a b;c", "tags": ["x", "y"]}
    )
    assert request.headers == (
        ("X-Trace", "abc"),
        ("X-List", "1,2"),
        ("Cookie", "session=a%20b%3Bc; tags=x,y"),
    )


def test_a_header_value_cannot_start_another_header() -> None:
    with pytest.raises(RequestError, match="line break"):
        build_request(binding("/h", param("X-A", "header")), {"X-A": "x\r\nEvil: 1"})


def test_a_whole_json_body() -> None:
    bound = binding(
        "/b", method="POST", body={"content_type": "application/json", "argument": "body"}
    )
    request = build_request(bound, {"body": [1, {"é": None}]})
    assert request.content == '[1,{"é":null}]'.encode()
    assert request.headers == (("Content-Type", "application/json"),)
    assert build_request(bound, {}).content is None


def test_a_flattened_json_body_uses_wire_names() -> None:
    body = {"content_type": "application/json", "properties": {"title": "title", "b_id": "id"}}
    bound = binding("/b/{id}", param("id", "path"), method="POST", body=body)
    request = build_request(bound, {"id": 7, "title": "T", "b_id": 9})
    assert request.path == "/b/7"
    assert request.content == b'{"title":"T","id":9}'
    assert build_request(bound, {"id": 7}).content == b"{}"


def test_a_form_body() -> None:
    body = {"content_type": "application/x-www-form-urlencoded", "properties": {"a": "a", "b": "b"}}
    bound = binding("/f", method="POST", body=body)
    request = build_request(bound, {"a": "x y&z", "b": [1, 2]})
    assert request.content == b"a=x%20y%26z&b=1&b=2"
    assert request.headers == (("Content-Type", "application/x-www-form-urlencoded"),)


def test_a_multipart_body() -> None:
    body = {"content_type": "multipart/form-data", "properties": {"name": "name", "meta": "meta"}}
    bound = binding("/m", method="POST", body=body)
    request = build_request(bound, {"name": "n", "meta": {"k": 1}}, boundary="BOUND")
    assert request.headers == (("Content-Type", "multipart/form-data; boundary=BOUND"),)
    assert request.content == (
        b'--BOUND\r\nContent-Disposition: form-data; name="name"\r\n\r\nn\r\n'
        b'--BOUND\r\nContent-Disposition: form-data; name="meta"\r\n\r\n{"k":1}\r\n'
        b"--BOUND--\r\n"
    )


def test_a_text_body_is_sent_as_it_is() -> None:
    bound = binding("/t", method="PUT", body={"content_type": "text/plain", "argument": "body"})
    assert build_request(bound, {"body": "plain ü"}).content == "plain ü".encode()
