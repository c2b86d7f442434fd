"""The built-in schema migrations and the store's guarded appends (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from septet.server.db import SCHEMA_VERSION, schema_version
from septet.server.store import SeatData, StaleWriteError, Store, TableData


def test_server_db_migrate_is_idempotent_and_refuses_newer(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert store.migrate() == 0  # a fresh database
        assert store.migrate() == SCHEMA_VERSION  # nothing left to do
        with store.engine.connect() as conn:
            assert schema_version(conn) == SCHEMA_VERSION == 2
            names = set(inspect(conn).get_table_names())
        assert {"septet_players", "septet_tables", "septet_seats", "septet_moves"} <= names
        assert {"septet_score_sheets", "septet_score_ops"} <= names  # version 2
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE septet_schema SET version = 99"))
        with pytest.raises(RuntimeError, match="newer than this Septet"):
            store.migrate()
    finally:
        store.close()


def test_server_db_append_is_guarded_by_version(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate()
        seats = [SeatData(0, bot="random", name="random"), SeatData(1, player_id="p1", name="Aki")]
        data = TableData(
            id="t1", game="tiny-sevens", options={"target": 7}, num_players=2,
            status="waiting", seed="s", owner_id="p1", version=0, result=None, created_at="",
            seats=seats,
        )  # fmt: skip
        store.create_table(data)
        store.append_moves("t1", 0, [("deal 3", -1), ("deal 9", -1)], status="playing")
        with pytest.raises(StaleWriteError):  # a second writer at the same version
            store.append_moves("t1", 0, [("deal 1", -1)])
        store.append_moves(
            "t1", 2, [("add 3", 0)], seats=[SeatData(1, player_id="p1", name="Aki", bot="greedy",
            replaced=True)],
        )  # fmt: skip
        store.append_moves("t1", 3, [("add 3", 1)], status="finished", result={"winners": [1]})
        got = store.get_table("t1", with_moves=True)
        assert got is not None
        assert got.moves == ["deal 3", "deal 9", "add 3", "add 3"]
        assert (got.status, got.version, got.result) == ("finished", 4, {"winners": [1]})
        assert got.seats[1] == SeatData(1, player_id="p1", name="Aki", bot="greedy", replaced=True)
        assert store.count_moves("t1") == 4
        assert [t.id for t in store.finished_tables()] == ["t1"]
        assert store.active_tables() == []
    finally:
        store.close()
