"""``tranquility serve``'s API against its own description: the OpenAPI document lists
exactly the routes the server answers, and schemathesis fuzzes every operation it lists
(valid requests and invalid ones) against a running server: no 500, no hang, and every
error one line of JSON, ``{"error": ...}``.

Bounded: a server whose jobs may run 1 s (``--job-cap 1``), a few examples per operation."""

from __future__ import annotations

import json

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from tranquility.cli.web_board.openapi import document
from tranquility.cli.web_board.server import Server

from ..web_board_server import SECONDS, request, served

EXAMPLES = 12  # per operation and mode: about 40 s for the lot on one core

pytestmark = pytest.mark.slow


def test_the_document_lists_every_route_and_no_other():
    routes = {
        (route.method.lower(), route.resource.canonical)
        for route in Server(None).app().router.routes()  # type: ignore[arg-type]  # routes only: no pool
        if route.method != "HEAD" and route.resource is not None and not route.resource.canonical.startswith("/static")
    }
    described = {(method, path) for path, item in document()["paths"].items() for method in item}
    assert routes == described


@pytest.fixture(scope="module")
def base():
    with served("--job-cap", "1", "--workers", "2") as url:
        yield url


@pytest.fixture(scope="module")
def served_schema(base):
    """The document as this server serves it: its limits are the server's (1 s a job)."""
    return schemathesis.openapi.from_url(base + "api/openapi.json")


def test_the_server_serves_its_document_with_its_limits(base):
    status, data = request(base, "GET", "/api/openapi.json")
    assert status == 200 and data["paths"] == json.loads(json.dumps(document()["paths"]))
    assert data["components"]["schemas"]["Budget"]["properties"]["time_limit"]["maximum"] == 1
    status, options = request(base, "GET", "/api/options")
    assert status == 200 and options["limits"]["max_seconds"] == 1 and "tuned" in options["policies"]


OPERATIONS = [(method, path) for path, item in document()["paths"].items() for method in item]


@pytest.mark.parametrize("method, path", OPERATIONS, ids=[f"{m.upper()} {p}" for m, p in OPERATIONS])
def test_fuzzed_requests_never_fail_on_the_server(base, served_schema, method, path):
    operation = served_schema[path][method]
    session = requests.Session()
    cases = st.one_of(operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE))

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=cases)
    def check(case):
        response = case.call(base_url=base.rstrip("/"), session=session, timeout=SECONDS)
        assert response.status_code < 500, (case.as_curl_command(), response.text[:300])
        if response.status_code >= 400:
            said = response.json()
            assert set(said) == {"error"} and said["error"] and "\n" not in said["error"], response.text[:300]

    check()
