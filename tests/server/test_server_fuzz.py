"""Fuzzing the HTTP API from its OpenAPI schema (schemathesis) and the WebSocket messages
(hypothesis): whatever a client sends, the answer is never a 500 and a socket is never dropped
by an error of ours. The default run is short; ``pytest -m slow`` runs many more examples."""

from __future__ import annotations

import json
import queue
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.conftest import make_client, new_guest
from tests.server.server_clients import WsClient

pytestmark = pytest.mark.timeout(600)
GAMES = ["flip7", "double-seven", "seven-shot", "tiny-sevens", "nope"]


@pytest.fixture(scope="module")
def fuzz_client() -> Iterator[Any]:
    """One app on an SQLite file for the whole module (examples share it)."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/fuzz.sqlite3"
        with make_client(url, max_open_tables=10_000, max_bot_tables=10_000) as c:
            yield c


SCORE = "/api/score"


def _fuzz_http(client: Any, examples: int, score: bool | None = None) -> tuple[int, list[Any]]:
    """Send ``examples`` generated requests to each operation (``score``: only the score
    keeper's, or only the others'); returns how many were sent and those answered 5xx."""
    import schemathesis

    schema = schemathesis.openapi.from_dict(client.app.openapi())
    cookie = new_guest(client, "Fuzz")
    sent, bad = 0, []
    for result in schema.get_all_operations():
        op = result.ok()
        if score is not None and op.path.startswith(SCORE) != score:
            continue

        @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(case=op.as_strategy())
        def run(case: Any) -> None:
            nonlocal sent
            kw = case.as_transport_kwargs(base_url="http://testserver")
            headers = {**(kw.get("headers") or {}), "cookie": cookie}
            r = client.request(kw["method"], kw["url"], headers=headers, params=kw.get("params"),
                               json=kw.get("json"), content=kw.get("data"))  # fmt: skip
            sent += 1
            if r.status_code >= 500:
                bad.append((case.operation.label, kw, r.status_code, r.text[:300]))

        run()
    return sent, bad


def test_server_fuzz_http_from_openapi(fuzz_client: Any) -> None:
    sent, bad = _fuzz_http(fuzz_client, 15)
    assert sent > 100 and bad == []


def test_server_fuzz_http_from_openapi_on_postgres() -> None:
    """Every operation on PostgreSQL (its text refuses a NUL, its types are strict): 0
    answers 5xx (a few examples each: under a minute)."""
    from tests.server.conftest import postgres_schema_url

    url, drop = postgres_schema_url()
    try:
        with make_client(url, max_open_tables=10_000, max_bot_tables=10_000) as client:
            sent, bad = _fuzz_http(client, 4)
    finally:
        drop()
    assert sent > 100 and bad == []


@pytest.mark.slow
def test_server_fuzz_http_from_openapi_long(fuzz_client: Any) -> None:
    sent, bad = _fuzz_http(fuzz_client, 300, score=False)
    assert sent > 2000 and bad == []


@pytest.mark.slow
def test_server_fuzz_score_api_long(fuzz_client: Any) -> None:
    sent, bad = _fuzz_http(fuzz_client, 300, score=True)
    assert sent > 1000 and bad == []


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)  # fmt: skip
OPTION_VALUES = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40), st.floats(), st.booleans(),
    st.text(max_size=70), st.just("Infinity"),
)  # fmt: skip


def _create_raw(client: Any, cookie: str, game: str, options: dict[str, Any], seats: Any) -> Any:
    # json.dumps writes NaN and Infinity for non-finite floats: exactly what must be refused
    body = json.dumps({"game": game, "options": options, "seats": seats})
    return client.post("/api/tables", content=body,
                       headers={"cookie": cookie, "content-type": "application/json"})  # fmt: skip


def _fuzz_tables(client: Any, examples: int) -> list[Any]:
    cookie = new_guest(client, "Tables")
    bad: list[Any] = []
    seat = st.sampled_from(["human", "bot:easy", "bot:normal", "bot:strong", "bot:random",
                            {"kind": "human"}, {"kind": "bot", "bot": "greedy"}])  # fmt: skip

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(
        game=st.sampled_from(GAMES),
        options=st.dictionaries(
            st.sampled_from(["target", "edition", "rounds", "teams", "x", ""]), OPTION_VALUES,
            max_size=3),
        seats=st.lists(seat, min_size=1, max_size=5),
    )  # fmt: skip
    def run(game: str, options: dict[str, Any], seats: list[Any]) -> None:
        r = _create_raw(client, cookie, game, options, seats)
        if r.status_code >= 500:
            bad.append((game, options, seats, r.status_code, r.text[:300]))

    run()
    return bad


def test_server_fuzz_table_options(fuzz_client: Any) -> None:
    assert _fuzz_tables(fuzz_client, 60) == []


@pytest.mark.slow
def test_server_fuzz_table_options_long(fuzz_client: Any) -> None:
    assert _fuzz_tables(fuzz_client, 1500) == []


MESSAGES = st.one_of(
    JSON_VALUES.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "replace", "chat", "ping", "other"])},
        optional={"version": JSON_VALUES, "action": JSON_VALUES, "seat": JSON_VALUES,
                  "text": JSON_VALUES},
    ).map(json.dumps),
    st.text(max_size=200),
    st.sampled_from(['{"type": "move", "version": NaN, "action": "add 1"}',
                     '{"type": "chat", "text": "\\ud800"}', "[" * 500, '{"type": 1e999}']),
)  # fmt: skip


def _fuzz_ws(client: Any, examples: int) -> None:
    a, b = new_guest(client, "WsA"), new_guest(client, "WsB")
    r = client.post("/api/tables", json={"game": "tiny-sevens", "options": {"target": 500},
                    "seats": ["human", "human"]}, headers={"cookie": a})  # fmt: skip
    tid = r.json()["id"]
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b})
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    ca.wait_for(lambda m: m["type"] == "state")

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(text=MESSAGES)
    def run(text: str) -> None:
        ca.send(text)

    run()
    # still connected and answering, and no error of ours ("server") among the answers
    ca.send({"type": "ping"})
    ca.wait_for(lambda m: m["type"] == "pong")
    assert not ca.closed.is_set()
    codes = {m.get("code") for m in ca.messages if m["type"] == "error"}
    assert "server" not in codes and codes <= {
        "bad_message", "stale", "illegal", "chat_empty", "chat_too_long", "chat_rate",
        "not_absent", "bad_seat", "not_your_turn", "too_soon",
    }, codes  # fmt: skip
    ca.close()


def test_server_fuzz_websocket_messages(fuzz_client: Any) -> None:
    _fuzz_ws(fuzz_client, 150)


@pytest.mark.slow
def test_server_fuzz_websocket_messages_long(fuzz_client: Any) -> None:
    _fuzz_ws(fuzz_client, 3000)
