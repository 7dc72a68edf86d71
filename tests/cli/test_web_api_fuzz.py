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


# -- bodies that name a real game, with any JSON in the fields the server reads ------------------

ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
NEAR = {  # values of the right kind, some out of range, for the fields the server reads
    "time_limit": st.floats(min_value=-1, max_value=2) | st.integers(-1, 2),
    "objective": st.sampled_from(["any", "spare", "turns", "cost", "x"]),
    "rules": st.sampled_from(["official", "monsters", "x"])
    | st.dictionaries(st.sampled_from(["rows", "monsters", "order"]), ANY_JSON),
    "rule": st.dictionaries(st.sampled_from(["monsters", "rows", "x"]), st.integers(-2, 30) | st.text(max_size=4) | st.none()),
    "samples": st.integers(-1, 70),
    "turns": st.integers(-1, 3),
    "seat": st.integers(-1, 5),
    "bots": st.sampled_from(["tuned", "greedy", "x"]),
    "kind": st.sampled_from(["solve", "verify", "analyze", "explain", "moves", "hint"]),
    "action": ANY_JSON | st.sampled_from(["S", "19@8", "x"]),
    "cards": st.lists(ANY_JSON, max_size=3),
    "row": st.integers(-1, 7),
    "known": st.dictionaries(st.sampled_from(["0", "1", "x"]), st.sampled_from(["win", "no-win", "x"]) | ANY_JSON),
}
GAMES = [{"seed": 1, "players": 2}, {"puzzle": "tq1-1p-8cf48077-2"}, {"text": "deal 1 2\n19@8\n"}]


def _fields() -> st.SearchStrategy[dict]:
    key = st.sampled_from([*NEAR, "fair", "reproducible", "sim_seed", "bot_seed", "explanation", "perfect"])
    return st.dictionaries(key, ANY_JSON, max_size=3).flatmap(
        lambda wild: st.fixed_dictionaries({}, optional=NEAR).map(lambda near: {**wild, **near})
    )


@pytest.mark.parametrize("path", ["/api/verify", "/api/solve", "/api/jobs", "/api/board", "/api/table", "/api/html/analysis"])
def test_a_real_game_with_any_fields_is_never_a_500(base, path):
    session = requests.Session()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(game=st.sampled_from(GAMES), fields=_fields())
    def check(game, fields):
        response = session.post(base.rstrip("/") + path, json={**fields, **game}, timeout=SECONDS)
        assert response.status_code < 500 or response.status_code == 503, (path, fields, response.text[:300])
        if response.status_code >= 400:
            assert "\n" not in response.json()["error"], response.text[:300]

    check()


@pytest.mark.parametrize("kind", ["board", "table"])
def test_any_operation_on_a_real_board_or_table_is_never_a_500(base, kind):
    from tranquility.cli.web_board.openapi import BOARD_OPS, TABLE_OPS

    session = requests.Session()
    status, view = request(base, "POST", f"/api/{kind}", {"seed": 3, "players": 2, "seat": 0, "bots": "greedy"})
    assert status == 200, view
    ops = [op for op in (BOARD_OPS if kind == "board" else TABLE_OPS) if op not in ("hint", "check")]

    @settings(max_examples=3 * EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(op=st.sampled_from(ops), fields=_fields())
    def check(op, fields):
        response = session.post(f"{base}api/{kind}/{view['id']}/{op}", json=fields, timeout=SECONDS)
        assert response.status_code < 500, (op, fields, response.text[:300])
        if response.status_code >= 400:
            assert "\n" not in response.json()["error"], response.text[:300]

    check()
