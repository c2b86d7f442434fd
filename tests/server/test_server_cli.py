"""``septet serve`` on the command line: a bad database is a sentence and exit code 2."""

from __future__ import annotations

import importlib.util

from typer.testing import CliRunner

from septet.cli import app
from septet.server.cli import startup_message


def test_server_cli_serve_help_and_bad_database() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["serve", "--help"])
    assert r.exit_code == 0 and "--db" in r.output and "--bot-delay" in r.output
    r = runner.invoke(app, ["serve", "--db", "postgresql://nobody:secret@127.0.0.1:1/x"])
    assert r.exit_code == 2
    if importlib.util.find_spec("psycopg") is None:  # installed without the postgres extra
        assert "no database driver for 127.0.0.1:1/x" in r.output
        assert "pip install 'septet[postgres]'" in r.output
    else:
        assert "cannot open the database 127.0.0.1:1/x" in r.output
    assert "secret" not in r.output  # the password is never printed
    r = runner.invoke(app, ["serve", "--bot-delay", "-1"])
    assert r.exit_code == 2
    r = runner.invoke(app, ["serve", "--log-level", "bogus"])
    assert r.exit_code == 2 and "--log-level must be one of" in r.output


def test_server_cli_startup_message_says_how_to_play_stop_and_invite() -> None:
    local = startup_message("http://127.0.0.1:8000/", "127.0.0.1", 8000, "", "septet.sqlite3")
    assert "open http://127.0.0.1:8000/ in your browser" in local
    assert "Ctrl+C" in local and "second terminal" in local
    assert "--host 0.0.0.0 --public-url http://YOUR-ADDRESS:8000" in local
    lan = startup_message("http://127.0.0.1:9000/", "0.0.0.0", 9000, "", "x")
    assert "--public-url http://YOUR-ADDRESS:9000" in lan and "--host 0.0.0.0" not in lan
    public = startup_message("http://127.0.0.1:8000/", "0.0.0.0", 8000, "http://10.0.0.5:8000", "x")
    assert "Invite links point at http://10.0.0.5:8000/" in public
    r = CliRunner().invoke(app, ["serve", "--public-url", "10.0.0.5:8000"])
    assert r.exit_code == 2 and "--public-url must start with http:// or https://" in r.output


def test_server_cli_bots_and_redis_are_sentences() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["bots", "--help"])
    assert r.exit_code == 0 and "--redis" in r.output and "--processes" in r.output
    # Without the redis extra (the README's `.[dev]` install) --redis says how to install it;
    # with it, an address nothing answers on is a sentence naming the address for `serve`. The
    # worker starts while Redis is away and waits for it (issue 26: tests/server/
    # test_server_outages.py), so only its own options are refused at once.
    if importlib.util.find_spec("redis") is None:
        unreachable = "--redis needs the redis extra: pip install 'septet[redis]'"
    else:
        unreachable = "cannot reach Redis at redis://127.0.0.1:1/0"
    r = runner.invoke(app, ["bots"])
    assert r.exit_code == 2 and "--redis" in r.output
    r = runner.invoke(app, ["bots", "--redis", "redis://127.0.0.1:1/0", "--processes", "0"])
    assert r.exit_code == 2
    r = runner.invoke(app, ["serve", "--redis", "redis://127.0.0.1:1/0"])
    assert r.exit_code == 2 and unreachable.split(" at ")[0] in r.output
    r = runner.invoke(app, ["serve", "--bot-timeout", "0"])
    assert r.exit_code == 2
