"""``septet serve``: start the web server and the browser client."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``septet`` CLI."""
    app.command("serve")(serve)


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
TrustProxyOpt = Annotated[
    bool,
    typer.Option(
        "--trust-proxy",
        help="Behind an HTTP proxy: take each client's address from X-Forwarded-For (for the "
        "per-address limits). Never when clients reach the server directly.",
    ),
]


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
    open_browser: Annotated[bool, typer.Option("--open", help="Open the browser client.")] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Run the web server: lobby, real-time games against people and bots, replays."""
    import uvicorn

    from septet.server.app import create_app
    from septet.server.config import Settings, default_database_url, normalize_database_url

    if bot_delay < 0 or replace_after < 0 or waiting_ttl <= 0:
        raise typer.BadParameter("delays must be zero or more (--waiting-ttl more than zero)")
    log_level = _log_level(log_level)
    url = normalize_database_url(db) if db else default_database_url()
    shown = url.split("@")[-1] if "@" in url else url  # no password on the screen
    public_url = public_url.strip().rstrip("/")
    if public_url and not public_url.startswith(("http://", "https://")):
        raise typer.BadParameter("--public-url must start with http:// or https://")
    check_database(url, shown)
    settings = Settings(
        database_url=url,
        bot_delay=bot_delay,
        replace_after=replace_after,
        waiting_ttl=waiting_ttl,
        public_url=public_url,
        trust_proxy=trust_proxy,
    )
    application = create_app(settings)
    local = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    typer.echo(startup_message(local, host, port, public_url, shown))
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
    )


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


def check_database(url: str, shown: str) -> None:
    """Open and migrate the database once before serving, so a wrong URL, a missing driver or
    an unreachable server is a sentence and exit code 2, not a traceback."""
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
        store.migrate()
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        typer.echo(f"error: cannot open the database {shown}: {first}", err=True)
        raise typer.Exit(2) from None
    finally:
        store.close()
