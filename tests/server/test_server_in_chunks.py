"""IN lists padded to power-of-two lengths (issue 26, the server's memory under table churn):
each length of an ``IN (...)`` list is its own SQL text, and every pooled connection keeps a
prepared statement per text, so the session refresh (one query over the sockets' sessions, a
count that varies with the load) reads through :func:`septet.server.db.in_chunks` — a bounded
number of shapes, and the rows of the unpadded query."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, select

from septet.server.accounts.data import AccountData
from septet.server.db import PlayerRow, SessionRow, in_chunks, make_engine, padded, utcnow
from septet.server.store import Store, hash_token


def test_padded_lists_have_power_of_two_lengths() -> None:
    # Every count from 1 to 40 is one of 7 lengths.
    assert {len(padded(range(n))) for n in range(1, 41)} == {1, 2, 4, 8, 16, 32, 64}
    assert padded([]) == []
    assert padded(["a", "b", "c"]) == ["a", "b", "c", "c"]  # the last value repeated
    assert padded(["a", "b", "a", "c", "b"]) == ["a", "b", "c", "c"]  # repeats dropped first
    assert padded(range(5)) == [0, 1, 2, 3, 4, 4, 4, 4]
    chunks = list(in_chunks(range(1100)))  # at most 512 values a list
    assert [len(c) for c in chunks] == [512, 512, 128]
    assert list(dict.fromkeys(v for c in chunks for v in c)) == list(range(1100))
    assert [len(c) for c in in_chunks(range(9), most=4)] == [4, 4, 1]
    assert list(in_chunks([])) == []
    with pytest.raises(ValueError, match="power of two"):
        list(in_chunks([1], most=300))


def test_sessions_read_in_padded_lists_same_rows_seven_shapes(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    now = utcnow()
    tokens = [f"token-{i}" for i in range(40)]
    with store._session.begin() as s:
        for i, token in enumerate(tokens):
            s.add(PlayerRow(id=f"p{i:02d}", name=f"Player {i}"))
            s.flush()
            # every third session last seen long ago: its last_seen_at is refreshed
            seen = now - timedelta(hours=1) if i % 3 == 0 else now
            s.add(SessionRow(token_hash=hash_token(token), player_id=f"p{i:02d}",
                             last_seen_at=seen))  # fmt: skip
    unknown = [hash_token(f"gone-{i}") for i in range(10)]
    texts: list[str] = []

    def seen_sql(_conn: Any, _cur: Any, statement: str, *_args: Any) -> None:
        if "septet_sessions" in statement:
            texts.append(statement)

    event.listen(store.engine, "before_cursor_execute", seen_sql)
    reference = make_engine(db_url)  # the unpadded query, on an engine of its own
    data = AccountData(store)
    rng = random.Random(26)
    try:
        for n in range(1, 41):
            pick = rng.sample([hash_token(t) for t in tokens] + unknown, n)
            got = data.sessions(pick)
            with reference.connect() as conn:
                rows = conn.execute(
                    select(SessionRow.token_hash, PlayerRow.id, PlayerRow.name)
                    .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                    .where(SessionRow.token_hash.in_(pick))
                ).all()
            assert got == {h: (pid, name, False) for h, pid, name in rows}
            assert len(got) == sum(h not in unknown for h in pick)
        data.sessions([hash_token(t) for t in tokens])  # every session, in 64-long lists
        with reference.connect() as conn:
            seen_at = conn.execute(select(SessionRow.last_seen_at)).scalars().all()
        # the 14 sessions last seen an hour ago were refreshed (in padded UPDATE lists too)
        assert len(seen_at) == 40
        assert all(now - (t if t.tzinfo else t.replace(tzinfo=now.tzinfo)) < timedelta(minutes=1)
                   for t in seen_at)  # fmt: skip
    finally:
        event.remove(store.engine, "before_cursor_execute", seen_sql)
        reference.dispose()
        store.close()
    selects = {t for t in texts if t.lstrip().upper().startswith("SELECT")}
    updates = {t for t in texts if t.lstrip().upper().startswith("UPDATE")}
    assert len(selects) == 7  # lists of 1, 2, 4, 8, 16, 32, 64 (40 lengths unpadded)
    assert 1 <= len(updates) <= 7
