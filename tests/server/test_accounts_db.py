"""Revision 0004_accounts: guests' tokens become sessions (old cookies keep working), and the
revision goes back down and up again (SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from septet.server.db import alembic_config, current_revision, head_revision, make_engine, migrate
from septet.server.store import Store, hash_token


def test_accounts_db_guest_tokens_become_sessions(db_url: str) -> None:
    engine = make_engine(db_url)
    with engine.connect() as conn:
        command.upgrade(alembic_config(conn), "0003")  # type: ignore[arg-type]
        conn.commit()
    with engine.begin() as conn:
        for pid, token, name in [("p1", "tok-one", "Aki"), ("p2", "tok-two", "Ben")]:
            conn.execute(
                text("INSERT INTO septet_players (id, token_hash, name, created_at)"
                     " VALUES (:p, :h, :n, CURRENT_TIMESTAMP)"),
                {"p": pid, "h": hash_token(token), "n": name},
            )  # fmt: skip
    assert migrate(engine) == "0003"
    engine.dispose()
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            assert current_revision(conn) == head_revision()
            rows = conn.execute(
                text("SELECT player_id, token_hash FROM septet_sessions ORDER BY player_id")
            ).all()
        assert rows == [("p1", hash_token("tok-one")), ("p2", hash_token("tok-two"))]
        assert store.player_by_token("tok-one") == ("p1", "Aki", False)
        assert store.player_by_token("tok-two") == ("p2", "Ben", False)
        assert store.player_by_token("tok-three") is None
        # Down to 0003 and up again: each guest keeps its (newest) token.
        with store.engine.connect() as conn:
            command.downgrade(alembic_config(conn), "0003")  # type: ignore[arg-type]
            conn.commit()
            got = conn.execute(text("SELECT id, token_hash FROM septet_players ORDER BY id"))
            assert got.all() == [("p1", hash_token("tok-one")), ("p2", hash_token("tok-two"))]
        assert migrate(store.engine) == "0003"
        assert store.player_by_token("tok-one") == ("p1", "Aki", False)
    finally:
        store.close()
