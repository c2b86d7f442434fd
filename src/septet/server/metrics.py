"""Operations: Prometheus metrics (``GET /metrics``, ``septet bots --metrics-port``), and
outages of Redis and the database logged as one line when they start and one when they end.

Every series is named ``septet_…``:

- ``septet_moves_accepted_total{by}``: moves committed (``by`` = ``person`` or ``bot``).
- ``septet_moves_refused_total{reason}``: a person's moves refused (``stale``, ``illegal``,
  ``not_your_turn``, ``server``, ...: the error code sent back).
- ``septet_move_seconds``: histogram of a person's move, from its message to the new views
  queued for every connection of the table (the commit included).
- ``septet_sockets``, ``septet_live_tables``: open WebSockets and tables held in memory (read
  when scraped).
- ``septet_bot_queue_depth``: bot turns waiting (scaled out: the Redis stream's entries not yet
  acknowledged; embedded: moves waiting for a bot process).
- ``septet_bot_think_seconds{game}``: histogram of a bot move's time in the bot pool (waiting
  for a process included).
- ``septet_database_errors_total``, ``septet_redis_errors_total``: failed database and Redis
  operations (connection lost, server away); the Redis count holds the redis client's errors
  only (:func:`is_redis_error`), never another ``OSError``.

Multiprocess-safe: with ``PROMETHEUS_MULTIPROC_DIR`` set (several processes behind one scrape
address, prometheus-client's multiprocess mode) the page sums the live processes' files;
gauges are summed over live processes (``livesum``).
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

log = logging.getLogger("septet.server")

MOVES_ACCEPTED = Counter("septet_moves_accepted", "Moves committed.", ["by"])
MOVES_REFUSED = Counter("septet_moves_refused", "A person's moves refused, by error code.",
                        ["reason"])  # fmt: skip
MOVE_SECONDS = Histogram(
    "septet_move_seconds",
    "A person's move: from its message to the new views queued (commit included).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
SOCKETS = Gauge("septet_sockets", "Open WebSockets.", multiprocess_mode="livesum")
LIVE_TABLES = Gauge("septet_live_tables", "Tables held in memory.", multiprocess_mode="livesum")
BOT_QUEUE = Gauge("septet_bot_queue_depth", "Bot turns waiting.", multiprocess_mode="livesum")
BOT_THINK = Histogram(
    "septet_bot_think_seconds",
    "A bot move's time in the bot pool (waiting for a process included).",
    ["game"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
)
DATABASE_ERRORS = Counter("septet_database_errors", "Failed database operations.")
REDIS_ERRORS = Counter("septet_redis_errors", "Failed Redis operations.")


def render() -> tuple[bytes, str]:
    """The metrics page: ``(body, content type)`` (every live process's series in
    multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST


class Outage:
    """A dependency's outage, logged once: a warning when the first failure comes, one when an
    operation succeeds again, and nothing in between (each failure only counts in
    ``counter``).

    Args:
        what: the dependency in the log's words (``Redis``, ``the database``).
        counter: the error counter to increment.
    """

    FLAP = 5.0
    """Seconds after an outage's end within which a failure counts as the same outage (the
    connections opened before it fail once each when Redis or the database comes back)."""

    def __init__(self, what: str, counter: Counter) -> None:
        self.what = what
        self.counter = counter
        self.since: float | None = None
        self.ended: float | None = None
        self.logged = False

    @property
    def down(self) -> bool:
        """Whether the last operation failed."""
        return self.since is not None

    def failed(self, exc: BaseException) -> None:
        """An operation failed with ``exc``."""
        self.counter.inc()
        if self.since is not None:
            return
        now = time.monotonic()
        self.since = now
        self.logged = self.ended is None or now - self.ended > self.FLAP
        if self.logged:
            why = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
            log.warning("%s unreachable (%s%s); retrying until it is back", self.what,
                        type(exc).__name__, f": {why}" if why else "")  # fmt: skip

    def ok(self) -> None:
        """An operation succeeded."""
        if self.since is not None:
            if self.logged:
                log.warning("%s is back after %.1f s", self.what, time.monotonic() - self.since)
            self.since, self.ended = None, time.monotonic()


class OutageFilter(logging.Filter):
    """A log filter folding a record whose exception (or one it was raised from) is Redis or
    the database away into :data:`REDIS` or :data:`DATABASE`'s one line per outage: code that
    logs every failure with its traceback cannot flood the log while a dependency is down."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to keep ``record`` (a traceback of an outage is dropped, and counted)."""
        exc = record.exc_info[1] if record.exc_info else None
        for _ in range(8):
            if exc is None:
                return True
            if _redis_away(exc):
                REDIS.failed(exc)
                return False
            if isinstance(exc, database_errors()):
                DATABASE.failed(exc)
                return False
            exc = exc.__cause__ or exc.__context__
        return True


def _redis_away(exc: BaseException) -> bool:
    return is_redis_error(exc)


REDIS = Outage("Redis", REDIS_ERRORS)
DATABASE = Outage("the database", DATABASE_ERRORS)


def redis_errors() -> tuple[type[BaseException], ...]:
    """The exceptions of a Redis that cannot be reached (or went away mid-command): the redis
    client's ``ConnectionError`` and ``TimeoutError`` (``AuthenticationError``,
    ``BusyLoadingError``, ... are kinds of them), and the ``OSError`` of a socket, which only
    :func:`is_redis_error` tells from any other (a file, a pipe, ``asyncio``'s own
    ``TimeoutError``) by where it was raised.

    Raises:
        ModuleNotFoundError: no ``redis`` extra.
    """
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError, OSError)


def _raised_by_redis(exc: BaseException) -> bool:
    """Whether ``exc`` came up through the redis client's code (a frame of its package
    between where it was raised and where it was caught)."""
    tb = exc.__traceback__
    while tb is not None:
        name = str(tb.tb_frame.f_globals.get("__name__", ""))
        if name == "redis" or name.startswith("redis."):
            return True
        tb = tb.tb_next
    return False


def is_redis_error(exc: BaseException) -> bool:
    """Whether ``exc`` is Redis away: a connection or timeout error of the redis client
    (``redis.exceptions.ConnectionError`` / ``TimeoutError`` and their kinds), or an
    ``OSError`` raised from within the client's code. Any other ``OSError`` (a file, a pipe
    to a bot process, the builtin ``TimeoutError`` of ``asyncio.wait_for``) is not, and is
    never counted in ``septet_redis_errors_total``."""
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ModuleNotFoundError:  # (no redis extra: nothing of Redis can fail)
        return False
    if isinstance(exc, RedisConnectionError | RedisTimeoutError):
        return True
    return isinstance(exc, OSError) and _raised_by_redis(exc)


def database_errors() -> tuple[type[BaseException], ...]:
    """The exceptions of a database that cannot be reached (or dropped the connection)."""
    from sqlalchemy import exc

    return (exc.OperationalError, exc.InterfaceError, exc.DisconnectionError, exc.TimeoutError)


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` is Redis or the database away (then noted in :data:`REDIS` or
    :data:`DATABASE`, which log it once)."""
    if is_redis_error(error):
        REDIS.failed(error)
        return True
    if isinstance(error, database_errors()):
        DATABASE.failed(error)
        return True
    return False


def serve_worker_metrics(port: int) -> Any:
    """Serve this process's metrics on ``port`` (``septet bots --metrics-port``)."""
    from prometheus_client import start_http_server

    return start_http_server(port)


def install(app: Any, trust_proxy: bool = False) -> None:
    """Add the operations parts to a server app: the text check and the access log
    (middleware), and the answers to unstorable text (400 ``bad_text``) and to the database
    or Redis away (503 ``unavailable``), both in English and Japanese."""
    from fastapi import Request
    from fastapi.responses import JSONResponse

    from septet.server.logs import AccessLog
    from septet.server.routes.meta import declare_errors
    from septet.server.textcheck import TextCheck, UnstorableText

    app.add_middleware(TextCheck)
    app.add_middleware(AccessLog, trust_proxy=trust_proxy)
    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:  # (FastAPI caches the schema: declared once per build)
        return declare_errors(plain_openapi())

    app.openapi = openapi

    async def _unstorable(request: Request, exc: Exception) -> JSONResponse:
        body = {"error": "bad_text", "message": UnstorableText.message,
                "message_ja": UnstorableText.message_ja}  # fmt: skip
        return JSONResponse(body, status_code=400)

    app.add_exception_handler(UnstorableText, _unstorable)

    async def _away(request: Request, exc: Exception) -> JSONResponse:
        is_outage(exc)
        body = {
            "error": "unavailable",
            "message": "The server cannot reach its storage for a moment; try again.",
            "message_ja": "サーバーが一時的に保存先に接続できません。もう一度どうぞ。",
        }
        return JSONResponse(body, status_code=503, headers={"Retry-After": "2"})

    for kind in database_errors():
        app.add_exception_handler(kind, _away)
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        app.add_exception_handler(RedisConnectionError, _away)
        app.add_exception_handler(RedisTimeoutError, _away)
    except ModuleNotFoundError:
        pass
