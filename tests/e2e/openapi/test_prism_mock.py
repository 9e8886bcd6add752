"""The judging mock on its own: `prism mock` serves a real 3.1 spec, answers a request the spec
allows with a 2xx, and logs (and answers with 4xx) one the spec forbids, so a test built on
it can tell a right request from a wrong one."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.openapi_specs import BY_KEY
from tests.support.prism import prism_missing, prism_mock

TRAIN = BY_KEY["train_travel"]
pytestmark = pytest.mark.skipif(
    bool(prism_missing() or TRAIN.missing()), reason=prism_missing() or TRAIN.missing()
)
BEARER = {"Authorization": "Bearer test-token"}  # the spec's OAuth2 asks for a bearer token


def _get(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return refused.code


def test_prism_judges_requests_against_the_spec(tmp_path: Path) -> None:
    with prism_mock(TRAIN.file, tmp_path / "prism.log") as mock:
        start = mock.mark()
        assert _get(f"{mock.url}/stations", BEARER) == 200
        [allowed] = mock.settled(start)
        assert allowed.ok, allowed.describe()
        mock.assert_clean(start)

        wrong = mock.mark()
        # /trips requires origin, destination and date; the request has none of them.
        assert _get(f"{mock.url}/trips", BEARER) in (400, 422)
        unauthorised = mock.mark()
        assert _get(f"{mock.url}/stations", {}) == 401
        forbidden, no_token = mock.settled(wrong, count=2)
        assert (forbidden.method, forbidden.path) == ("get", "/trips")
        assert any("origin" in v for v in forbidden.violations), forbidden.describe()
        assert no_token.status == 401 and no_token.violations
        with pytest.raises(AssertionError, match="/trips"):
            mock.assert_clean(wrong)
        with pytest.raises(AssertionError, match="401"):
            mock.assert_clean(unauthorised)
