"""``septet serve``: start the web server and the browser client."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def register(app: typer.Typer) -> None:
    """Add the ``serve`` and ``bots`` commands to the ``septet`` CLI."""
    app.command("serve")(serve)
    app.command("bots")(bots)


HostOpt = Annotated[
    str,
    typer.Option(
        help="Interface to listen on: 127.0.0.1 is this machine only; 0.0.0.0 lets friends "
        "on other machines connect."
    ),
]
DbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        help="Database URL (default: $SEPTET_DATABASE_URL, else an SQLite file in the user "
        "data directory). PostgreSQL: postgresql://user@host/dbname (extra 'postgres').",
    ),
]
PublicUrlOpt = Annotated[
    str,
    typer.Option(
        "--public-url",
        help="The address friends reach this server at (http://192.168.1.20:8000, "
        "https://septet.example.org), used in invite links. Default: the address your "
        "browser used.",
    ),
]
RedisOpt = Annotated[
    str,
    typer.Option(
        "--redis",
        help="Scale out: redis://host:6379/0. Several `septet serve` processes on one "
        "database then share the tables, and `septet bots` workers play the bots "
        "(extra 'redis'). Default: one process with its own bot workers.",
    ),
]
PrefixOpt = Annotated[
    str, typer.Option("--redis-prefix", help="Prefix of the site's Redis keys and channels.")
]
TrustProxyOpt = Annotated[
    bool,
    typer.Option(
        "--trust-proxy",
        help="Behind an HTTP proxy: take each client's address from X-Forwarded-For (for the "
        "per-address limits). Never when clients reach the server directly.",
    ),
]


# turn-based tables (issue 28): mail, and how often deadlines are swept
SmtpOpt = Annotated[
    str,
    typer.Option(
        "--smtp",
        help="Send e-mail notices of turn-based tables through this SMTP server: "
        "smtp://host:25, smtp+starttls://user:password@host:587 or smtps://user:password@host:465 "
        "(needs --mail-from). Default: no mail.",
    ),
]
MailFromOpt = Annotated[
    str, typer.Option("--mail-from", help="The From address of the mails (with --smtp).")
]
SweepOpt = Annotated[
    float,
    typer.Option(
        "--sweep-interval",
        help="Seconds between the checks for expired tables and missed deadlines.",
    ),
]


LogFormatOpt = Annotated[
    str,
    typer.Option(
        "--log-format",
        help="Log lines as plain text (text) or one JSON object a line (json).",
    ),
]


def _log_format(text: str) -> str:
    if text not in ("text", "json"):
        raise typer.BadParameter(f"--log-format must be text or json, not {text!r}")
    return text


def _positive(flag: str, value: float) -> float:
    if value <= 0:
        raise typer.BadParameter(f"{flag} must be more than zero")
    return value


def check_smtp(url: str, mail_from: str) -> str:
    """``--smtp`` checked with ``--mail-from`` (a sentence and exit code 2 when wrong)."""
    if not url:
        return ""
    from septet.server.mail.sender import parse_smtp_url

    try:
        parse_smtp_url(url, mail_from)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    return url


def serve(
    host: HostOpt = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: DbOpt = "",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move.")] = 0.8,
    replace_after: Annotated[
        float, typer.Option(help="Seconds a player must be gone before a bot may take the seat.")
    ] = 60.0,
    waiting_ttl: Annotated[
        float, typer.Option(help="Seconds a table waits for players before it expires.")
    ] = 1800.0,
    public_url: PublicUrlOpt = "",
    trust_proxy: TrustProxyOpt = False,
    redis: RedisOpt = "",
    redis_prefix: PrefixOpt = "septet",
    bot_workers: Annotated[
        int,
        typer.Option(
            help="Bot worker processes of this server (without --redis); 0 runs the bots in "
            "the server's own threads, as Septet did before (only to compare, in benchmarks)."
        ),
    ] = 2,
    bot_timeout: Annotated[
        float, typer.Option(help="Seconds a bot's move may take before a fallback move.")
    ] = 10.0,
    guests_per_minute: Annotated[
        float,
        typer.Option(help="New guests one client address may create a minute (twice at once)."),
    ] = 10.0,
    session_cache: Annotated[
        float,
        typer.Option(help="Seconds a process trusts its copy of a session before rereading it."),
    ] = 2.0,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the browser client.")] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    smtp: SmtpOpt = "",
    mail_from: MailFromOpt = "",
    sweep_interval: SweepOpt = 30.0,
    log_format: LogFormatOpt = "text",
    access_log: Annotated[
        bool,
        typer.Option(
            help="Write the access log (one line per request and per WebSocket, whatever "
            "--log-level says)."
        ),
    ] = True,
) -> None:
    """Run the web server: lobby, real-time games against people and bots, replays."""
    from septet.server.config import Settings

    if min(bot_delay, replace_after) < 0 or min(waiting_ttl, bot_timeout) <= 0 or bot_workers < 0:
        raise typer.BadParameter(
            "delays must be zero or more, --waiting-ttl more than zero, --bot-workers 0 or more"
        )
    check_redis(redis)
    log_level = _log_level(log_level)
    from septet.server.logs import configure

    configure(log_level, _log_format(log_format), access_log)
    public_url = public_url.strip().rstrip("/")
    if public_url and not public_url.startswith(("http://", "https://")):
        raise typer.BadParameter("--public-url must start with http:// or https://")
    url, shown = _database(db)
    settings = Settings(
        database_url=url, bot_delay=bot_delay, replace_after=replace_after,
        waiting_ttl=waiting_ttl, public_url=public_url, trust_proxy=trust_proxy,
        redis_url=redis, redis_prefix=redis_prefix, bot_workers=bot_workers,
        bot_timeout=bot_timeout, guests_per_minute=guests_per_minute,
        guest_burst=max(20.0, 2 * guests_per_minute), session_cache_s=max(0.0, session_cache),
        smtp_url=check_smtp(smtp, mail_from), mail_from=mail_from,
        sweep_interval=_positive("--sweep-interval", sweep_interval),
    )  # fmt: skip
    _run(settings, host, port, log_level, open_browser, shown)


def _run(
    settings: Any, host: str, port: int, log_level: str, open_browser: bool, shown: str
) -> None:
    """Say where the server is, then serve until stopped."""
    import uvicorn

    from septet.server.app import create_app

    application = create_app(settings)
    local = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    typer.echo(startup_message(local, host, port, settings.public_url, shown))
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (local,)).start()
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
        ws_per_message_deflate=False,  # compression cost more CPU than it saved on loopback
        proxy_headers=False,  # the app reads X-Forwarded-For itself, with --trust-proxy
        log_config=None,  # septet.server.logs.configure set the handlers (and --log-format)
        access_log=False,  # the app's access log says it (septet.access)
    )


def bots(
    redis: Annotated[str, typer.Option("--redis", help="The site's Redis: redis://host:6379/0.")],
    db: DbOpt = "",
    processes: Annotated[
        int, typer.Option("--processes", "-p", help="Moves computed at once (processes).")
    ] = 2,
    bot_delay: Annotated[float, typer.Option(help="Seconds between a bot's turns.")] = 0.8,
    bot_timeout: Annotated[
        float, typer.Option(help="Seconds a move may take before a fallback move is played.")
    ] = 10.0,
    redis_prefix: PrefixOpt = "septet",
    log_level: Annotated[str, typer.Option(help="Log level.")] = "info",
    sweep_interval: SweepOpt = 30.0,
    log_format: LogFormatOpt = "text",
    metrics_port: Annotated[
        int,
        typer.Option(help="Serve this worker's Prometheus metrics on this port (0: none)."),
    ] = 0,
) -> None:
    """Run a bot worker of a scaled-out site: take bot turns from Redis, play them into the
    database (run as many as the bots need, on any machines). It starts while Redis or the
    database is away and waits for them."""
    from septet.server.config import Settings
    from septet.server.logs import configure
    from septet.server.worker import run_worker

    if processes < 1 or bot_delay < 0 or bot_timeout <= 0:
        raise typer.BadParameter("--processes 1 or more, --bot-delay 0 or more, --bot-timeout > 0")
    configure(_log_level(log_level), _log_format(log_format), access=False)
    check_redis(redis, required=True, reach=False)  # (the worker waits for it)
    url, shown = _database(db, migrate=False)
    settings = Settings(database_url=url, redis_url=redis, redis_prefix=redis_prefix,
                        bot_delay=bot_delay, bot_timeout=bot_timeout,
                        sweep_interval=_positive("--sweep-interval", sweep_interval))  # fmt: skip
    typer.echo(f"Septet bot worker: {processes} processes, queue {redis_prefix}:bots on {redis}, "
               f"database {shown}. Ctrl+C stops it.")  # fmt: skip
    run_worker(settings, processes, metrics_port)


def _database(db: str, migrate: bool = True) -> tuple[str, str]:
    """The database URL of ``--db`` (or the default) and how to show it (no password); checked
    (its driver) and, with ``migrate``, migrated."""
    from septet.server.config import default_database_url, normalize_database_url

    url = normalize_database_url(db) if db else default_database_url()
    shown = url.split("@")[-1] if "@" in url else url  # no password on the screen
    check_database(url, shown, migrate)
    return url, shown


def check_redis(url: str, required: bool = False, reach: bool = True) -> None:
    """A Redis URL that answers (``reach``; else only the redis extra installed), or a
    sentence and exit code 2."""
    if not url:
        if required:
            typer.echo("error: --redis is required (redis://host:6379/0)", err=True)
            raise typer.Exit(2)
        return
    try:
        import redis as redis_lib
    except ModuleNotFoundError:
        typer.echo("error: --redis needs the redis extra: pip install 'septet[redis]'", err=True)
        raise typer.Exit(2) from None
    if not reach:
        return
    try:
        client = redis_lib.Redis.from_url(url, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        typer.echo(f"error: cannot reach Redis at {url}: {exc}", err=True)
        raise typer.Exit(2) from None


def _log_level(text: str) -> str:
    levels = ("critical", "error", "warning", "info", "debug", "trace")
    if text.lower() not in levels:
        raise typer.BadParameter(f"--log-level must be one of {', '.join(levels)}, not {text!r}")
    return text.lower()


def startup_message(local: str, host: str, port: int, public_url: str, database: str) -> str:
    """What ``septet serve`` prints once: where to open the game, how to stop, how to invite a
    friend on another machine."""
    lines = [
        f"Septet is running: open {local} in your browser (database: {database}).",
        "Press Ctrl+C to stop it. Run other commands (the tests, `septet play`) in a second "
        "terminal.",
    ]
    if public_url:
        lines.append(f"Invite links point at {public_url}/ .")
    elif host in ("127.0.0.1", "localhost", "::1"):
        lines.append(
            "Only this machine can connect. To play with a friend on another machine: "
            f"septet serve --host 0.0.0.0 --public-url http://YOUR-ADDRESS:{port}"
        )
    else:
        lines.append(
            "Friends on other machines connect to this machine's address; add --public-url "
            f"http://YOUR-ADDRESS:{port} so invite links carry it."
        )
    return "\n".join(lines)


def check_database(url: str, shown: str, migrate: bool = True) -> None:
    """Open and (``migrate``) migrate the database once before serving, so a wrong URL, a
    missing driver or an unreachable server is a sentence and exit code 2, not a traceback."""
    from septet.server.store import Store

    try:
        store = Store(url)
    except ModuleNotFoundError as exc:
        hint = " (pip install 'septet[postgres]')" if "psycopg" in str(exc) else ""
        typer.echo(f"error: no database driver for {shown}: {exc}{hint}", err=True)
        raise typer.Exit(2) from None
    except Exception as exc:
        typer.echo(f"error: bad database URL {shown}: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        if migrate:
            store.migrate()
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        typer.echo(f"error: cannot open the database {shown}: {first}", err=True)
        raise typer.Exit(2) from None
    finally:
        store.close()
