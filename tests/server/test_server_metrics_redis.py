"""``septet_redis_errors_total`` counts Redis errors only: the redis client's connection and
timeout errors (and an ``OSError`` that came up through the client's code), never any other
``OSError`` (a file, a pipe, the builtin ``TimeoutError`` of ``asyncio.wait_for``)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from prometheus_client import REGISTRY

from septet.server import metrics
from septet.server.metrics import is_outage, is_redis_error

pytest.importorskip("redis")


def _count() -> float:
    return REGISTRY.get_sample_value("septet_redis_errors_total") or 0.0


@pytest.fixture(autouse=True)
def _outage_reset() -> Any:
    yield
    metrics.REDIS.ok()  # (no outage left open for the next test)


def _raised(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException as caught:
        return caught


def test_other_oserrors_are_not_redis_errors(tmp_path: Any) -> None:
    async def slow() -> None:
        await asyncio.sleep(1)

    async def timed_out() -> BaseException:
        try:
            await asyncio.wait_for(slow(), 0.01)
        except TimeoutError as exc:
            return exc
        raise AssertionError("no timeout")

    try:
        (tmp_path / "absent").read_text()
    except OSError as exc:
        missing: BaseException = exc
    others = [missing, asyncio.run(timed_out()), _raised(BrokenPipeError(32, "Broken pipe")),
              _raised(ConnectionResetError(104, "reset by a bot process"))]  # fmt: skip
    before = _count()
    for err in others:
        assert isinstance(err, OSError)
        assert not is_redis_error(err), err
        assert not is_outage(err), err  # (nor a database outage)
    assert _count() == before


def test_redis_client_errors_are_counted() -> None:
    from redis.exceptions import AuthenticationError, BusyLoadingError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    # An OSError raised inside the client's own code (a module of the redis package).
    scope: dict[str, Any] = {"__name__": "redis.asyncio.connection"}
    exec("def read():\n    raise ConnectionResetError(104, 'Connection reset by peer')", scope)
    try:
        scope["read"]()
    except OSError as exc:
        in_client: BaseException = exc
    kinds = [RedisConnectionError("Error 111 connecting"), RedisTimeoutError("Timeout reading"),
             AuthenticationError("invalid password"), BusyLoadingError("loading")]  # fmt: skip
    before = _count()
    for err in [*kinds, in_client]:
        assert is_redis_error(err), err
        assert is_outage(err), err
    assert _count() == before + 5


def test_hub_counts_a_redis_that_does_not_answer() -> None:
    from septet.server.hub import Hub

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    async def run() -> bool:
        hub = Hub(f"redis://127.0.0.1:{port}/0", "septet-test")
        try:
            return await hub.ping()
        finally:
            await hub.close()

    before = _count()
    assert asyncio.run(run()) is False
    assert _count() == before + 1
