"""Schema migrations (Alembic, under a lock) and the store's guarded appends (SQLite and
PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import inspect, text

from septet.server.db import Base, current_revision, head_revision, make_engine, migrate
from septet.server.store import CapError, SeatData, StaleWriteError, Store, TableData
from tests.server import legacy_db


def _schema(engine: object) -> dict[str, object]:
    """Tables -> (columns with type class, nullability), primary key, indexes, foreign keys."""
    with engine.connect() as conn:  # type: ignore[attr-defined]
        insp = inspect(conn)
        out: dict[str, object] = {}
        for name in sorted(insp.get_table_names()):
            if not name.startswith("septet_") or name == "septet_schema":
                continue
            out[name] = (
                sorted(
                    (c["name"], type(c["type"]).__name__, c["nullable"])
                    for c in insp.get_columns(name)
                ),
                insp.get_pk_constraint(name)["constrained_columns"],
                sorted(
                    (i["name"], tuple(i["column_names"]), bool(i["unique"]))
                    for i in insp.get_indexes(name)
                ),
                sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"])
                    for f in insp.get_foreign_keys(name)
                ),
            )
    return out


def test_server_db_migrate_is_idempotent_and_refuses_newer(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert store.migrate() is None  # a fresh database
        assert store.migrate() == head_revision()  # nothing left to do
        with store.engine.connect() as conn:
            assert current_revision(conn) == head_revision()
            names = set(inspect(conn).get_table_names())
        assert {"septet_players", "septet_tables", "septet_seats", "septet_moves",
                "septet_chat"} <= names  # fmt: skip
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = 'zz99'"))
        with pytest.raises(RuntimeError, match="newer than this Septet"):
            store.migrate()
    finally:
        store.close()


def test_server_db_head_revision_is_the_models_schema(db_url: str, tmp_path: object) -> None:
    # The revisions are the only thing that changes the schema; the models must describe what
    # they build (else a query would name a column that no revision made).
    migrated = make_engine(db_url)
    migrate(migrated)
    if db_url.startswith("sqlite"):
        fresh = make_engine(f"sqlite:///{tmp_path}/models.sqlite3")
        Base.metadata.create_all(fresh)
        assert _schema(migrated) == _schema(fresh)
        fresh.dispose()
    else:  # one schema per test: compare the revisions' build with the models' own metadata
        got = _schema(migrated)
        for table in Base.metadata.sorted_tables:
            cols = sorted((c.name, c.nullable) for c in table.columns)
            assert sorted((n, null) for n, _, null in got[table.name][0]) == cols  # type: ignore[index]
    migrated.dispose()


def test_server_db_revision_0001_is_the_schema_main_made(db_url: str) -> None:
    # The first revision, frozen, makes exactly what Septet's built-in migration 1 made.
    engine = make_engine(db_url)
    from alembic import command

    from septet.server.db import alembic_config

    with engine.connect() as conn:
        command.upgrade(alembic_config(conn), "0001")  # type: ignore[arg-type]
        conn.commit()
    ours = _schema(engine)
    with engine.begin() as conn:
        for name in ("septet_moves", "septet_seats", "septet_tables", "septet_players",
                     "alembic_version"):  # fmt: skip
            conn.execute(text(f"DROP TABLE {name}"))
    legacy_db.migrate(engine)
    assert _schema(engine) == ours
    engine.dispose()


def test_server_db_database_made_by_main_upgrades_in_place(db_url: str) -> None:
    # A database as main's code left it (migration 1 recorded in septet_schema, a game in it)
    old = legacy_db.make_engine(db_url)
    assert legacy_db.migrate(old) == 0
    with old.begin() as conn:
        conn.execute(text(
            "INSERT INTO septet_tables (id, game, options, num_players, status, seed, owner_id,"
            " version, created_at, updated_at) VALUES ('old1', 'tiny-sevens', '{}', 2, 'playing',"
            " 's', 'p1', 2, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"))  # fmt: skip
        for i, n in enumerate(["deal 3", "deal 9"]):
            conn.execute(text(
                "INSERT INTO septet_moves (table_id, idx, notation, seat, created_at)"
                " VALUES ('old1', :i, :n, -1, CURRENT_TIMESTAMP)"), {"i": i, "n": n})  # fmt: skip
        conn.execute(text("INSERT INTO septet_seats (table_id, seat, player_id, name, bot,"
                          " replaced) VALUES ('old1', 0, 'p1', 'Aki', NULL, false),"
                          " ('old1', 1, NULL, 'random', 'random', false)"))  # fmt: skip
    old.dispose()
    store = Store(db_url)
    try:
        assert store.migrate() == "0001"  # recognised as the legacy schema, upgraded
        with store.engine.connect() as conn:
            assert current_revision(conn) == head_revision()
        got = store.get_table("old1", with_moves=True)
        assert got is not None and got.moves == ["deal 3", "deal 9"]
        assert got.created_by == "p1"  # the owner, for the caps
        assert [s.name for s in got.seats] == ["Aki", "random"]
        store.append_moves("old1", 2, [("add 1", 0)], to_move=1, bot_turn=True)
        assert store.stalled_bot_tables(before=_future()) == [("old1", 3)]
    finally:
        store.close()


def _future() -> object:
    from datetime import UTC, datetime, timedelta

    return datetime.now(UTC) + timedelta(seconds=5)


def test_server_db_processes_starting_together_migrate_once(db_url: str) -> None:
    # Four "processes" (engines of their own) start at once on an empty database: the lock
    # lets one migrate; the others find it done. No error, one head.
    errors: list[BaseException] = []
    befores: list[object] = []
    go = threading.Barrier(4)

    def start() -> None:
        engine = make_engine(db_url)
        try:
            go.wait()
            befores.append(migrate(engine))
        except BaseException as exc:
            errors.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(map(str, befores)) == sorted(["None"] + [head_revision()] * 3)


def _table(tid: str, **kw: object) -> TableData:
    seats = [SeatData(0, bot="random", name="random"), SeatData(1, player_id="p1", name="Aki")]
    base = dict(id=tid, game="tiny-sevens", options={"target": 7}, num_players=2,
                status="waiting", seed="s", owner_id="p1", version=0, result=None,
                created_at="", seats=seats)  # fmt: skip
    base.update(kw)
    return TableData(**base)  # type: ignore[arg-type]


def test_server_db_append_is_guarded_by_version(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate()
        store.create_table(_table("t1"))
        store.append_moves("t1", 0, [("deal 3", -1), ("deal 9", -1)], status="playing")
        with pytest.raises(StaleWriteError):  # a second writer at the same version
            store.append_moves("t1", 0, [("deal 1", -1)])
        store.append_moves(
            "t1", 2, [("add 3", 0)], seats=[SeatData(1, player_id="p1", name="Aki", bot="greedy",
            replaced=True)],
        )  # fmt: skip
        with pytest.raises(StaleWriteError):  # a bot worker's move when no bot is to move
            store.append_moves("t1", 3, [("add 3", 1)], by_bot=True)
        store.append_moves("t1", 3, [], bot_turn=True)  # (the seat handed to a bot)
        store.append_moves("t1", 3, [("add 3", 1)], status="finished", result={"winners": [1]},
                           by_bot=True)  # fmt: skip
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


def test_server_db_caps_claims_chat_and_expiry(db_url: str) -> None:
    from datetime import UTC, datetime, timedelta

    store = Store(db_url)
    try:
        store.migrate()
        pid, _ = store.create_player("Aki")
        for i in range(2):
            store.create_table(_table(f"w{i}", created_by=pid), max_open=2)
        with pytest.raises(CapError) as err:
            store.create_table(_table("w2", created_by=pid), max_open=2)
        assert (err.value.code, err.value.limit) == ("too_many_open", 2)
        assert store.get_table("w2") is None  # nothing written
        bots = [SeatData(0, bot="random", name="random"), SeatData(1, bot="random", name="random")]
        store.create_table(_table("b0", created_by=pid, owner_id=None, seats=bots,
                                  status="playing"), max_bot_tables=1)  # fmt: skip
        with pytest.raises(CapError, match="too_many_bot_tables"):
            store.create_table(_table("b1", created_by=pid, owner_id=None, seats=bots,
                                      status="playing"), max_bot_tables=1)  # fmt: skip
        # a seat is claimed once: the second claim (another process) finds it taken
        store.create_table(_table("c", seats=[SeatData(0), SeatData(1)], owner_id=None))
        assert store.claim_seat("c", SeatData(1, player_id="p2", name="Ben")) is True
        assert store.claim_seat("c", SeatData(1, player_id="p3", name="Cho")) is False
        # chat: kept in order, the last N
        for i in range(5):
            store.add_chat("c", 1, "p2", "Ben", f"hello {i}")
        recent = store.recent_chat("c", 3)
        assert [m.text for m in recent] == ["hello 2", "hello 3", "hello 4"]
        assert recent[0].id < recent[1].id < recent[2].id and recent[0].at.endswith("+00:00")
        # expiry: waiting tables untouched since before the cutoff, once
        later = datetime.now(UTC) + timedelta(seconds=1)
        assert sorted(store.expire_waiting(later)) == ["c", "w0", "w1"]
        assert store.expire_waiting(later) == []
        got = store.get_table("w0")
        assert got is not None and got.status == "expired"
        assert store.count_tables("expired") == 3
    finally:
        store.close()
