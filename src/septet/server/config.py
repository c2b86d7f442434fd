"""Server settings: where the database lives, bot pacing, timeouts and limits.

Every field has a default suited to ``septet serve`` on a laptop; the CLI and the tests override
what they need. Times are in seconds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ENV_DATABASE_URL = "SEPTET_DATABASE_URL"


def default_database_url() -> str:
    """``$SEPTET_DATABASE_URL`` if set, else an SQLite file in the user data directory
    (``platformdirs.user_data_dir("septet")/septet.sqlite3``; the directory is created)."""
    env = os.environ.get(ENV_DATABASE_URL, "").strip()
    if env:
        return normalize_database_url(env)
    import platformdirs

    directory = Path(platformdirs.user_data_dir("septet", appauthor=False))
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'septet.sqlite3'}"


def normalize_database_url(url: str) -> str:
    """Accept ``postgres://`` and ``postgresql://`` URLs and use the psycopg 3 driver for them
    (the ``postgres`` extra installs it); other URLs are returned unchanged."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass
class Settings:
    """What a server instance needs to know.

    Attributes:
        database_url: SQLAlchemy URL (SQLite file or ``postgresql+psycopg://...``).
        bot_delay: seconds a bot waits before moving, so people can follow (0 in tests/benches).
        replace_after: seconds a seated player must be gone before others may hand the seat to
            a bot.
        replacement_bot: agent spec that takes over an abandoned seat (``greedy`` falls back to
            ``random`` for games without a greedy bot).
        max_message_bytes: largest WebSocket message accepted from a client.
        rate_per_second / rate_burst: the per-connection token bucket for client messages.
        max_body_bytes: largest HTTP request body accepted.
        event_history: how many past events a (re)connecting client is sent.
        public_url: the address other machines reach this server at (``http://192.168.1.20:8000``
            or ``https://septet.example.org``), used for invite links; empty: the address the
            browser used.
        waiting_ttl: seconds a waiting table lives without a join (or leave) before it expires
            (status ``expired``: out of the lobby, kept in the database).
        max_open_tables: waiting tables one guest may have created at once.
        max_bot_tables: tables of bots only one guest may have created that are not finished.
        max_bot_tables_per_address: the same, for all the guests of one client address
            together (0: no such cap).
        guests_per_minute / guest_burst: new guests one client address may create (a token
            bucket: ``guest_burst`` at once, then ``guests_per_minute``).
        max_sockets_per_table / max_sockets_per_guest: open WebSockets of one table, and of one
            guest (or one address without a guest), in this process.
        chat_burst / chat_interval: table chat messages a connection may send at once, then one
            per ``chat_interval`` seconds.
        chat_history: chat messages a (re)connecting client is sent.
        sweep_interval: seconds between the checks for expired tables.
        trust_proxy: take the client address from ``X-Forwarded-For`` (behind a proxy that sets
            it; never when clients reach the server directly).
        bot_workers: processes of the embedded bot pool.
        bot_timeout: seconds a bot's move may take (queueing included) before a fallback move
            (a uniformly random legal one) is played instead.
        redis_url: ``redis://...`` to scale out (several server processes, ``septet bots``
            workers); empty: one process with its own bot pool.
        redis_prefix: the prefix of every Redis key and channel (several sites, or test runs,
            on one Redis).
        smtp_url / mail_from: the SMTP server (``smtp://host:25``, ``smtp+starttls://...``,
            ``smtps://...``) and the ``From`` address of the turn-based tables' mails; empty:
            no mail (issue 28, :mod:`septet.server.mail`).
        mail_every: seconds between two "your turn" mails about one table to one player.
        mail_interval: seconds between the rounds that queue and send mail.
        session_cache_s: seconds a process trusts its cached copy of a session before reading
            the session row again (a sign-out or deletion on another process takes effect here
            within that time; on the same process at once).
        offer_seconds: how long a rematch keeps each old player's seat for them (issue 24).
    """

    database_url: str = field(default_factory=default_database_url)
    bot_delay: float = 0.8
    replace_after: float = 60.0
    replacement_bot: str = "greedy"
    max_message_bytes: int = 4096
    rate_per_second: float = 10.0
    rate_burst: float = 30.0
    max_body_bytes: int = 16384
    event_history: int = 200
    public_url: str = ""
    waiting_ttl: float = 1800.0
    max_open_tables: int = 5
    max_bot_tables: int = 3
    max_bot_tables_per_address: int = 6
    guests_per_minute: float = 10.0
    guest_burst: float = 20.0
    max_sockets_per_table: int = 300
    max_sockets_per_guest: int = 20
    chat_burst: float = 3.0
    chat_interval: float = 2.0
    chat_history: int = 100
    sweep_interval: float = 30.0
    trust_proxy: bool = False
    bot_workers: int = 2
    bot_timeout: float = 10.0
    redis_url: str = ""
    redis_prefix: str = "septet"
    # turn-based tables' mail (issue 28)
    smtp_url: str = ""
    mail_from: str = ""
    mail_every: float = 3 * 3600.0
    mail_interval: float = 10.0
    session_cache_s: float = 2.0
    offer_seconds: float = 60.0
