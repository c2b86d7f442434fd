"""A chat line from a player deleted meanwhile (another process still trusting the session for
up to --session-cache seconds) is refused by the store and keeps no name (SQLite and
PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from septet.server.accounts.data import AccountData
from septet.server.db import ChatRow
from septet.server.store import PlayerGoneError, Store
from tests.server.players_kit import add_player, finished_table


@pytest.fixture
def store(db_url: str) -> Any:
    st = Store(db_url)
    st.migrate()
    yield st
    st.close()


def test_a_deleted_players_chat_is_refused_and_the_older_lines_lose_the_name(store: Store) -> None:
    a, b = add_player(store, "Aki"), add_player(store, "Ben")
    tid = finished_table(store, "flip7", [(a, "Aki", None), (b, "Ben", None)], [210, 150], [0])
    store.add_chat(tid, 0, a, "Aki", "gg")
    store.add_chat(tid, 1, b, "Ben", "again?")
    AccountData(store).delete_player(a)
    with pytest.raises(PlayerGoneError):
        store.add_chat(tid, 0, a, "Aki", "one more")  # the cached session's last word
    store.add_chat(tid, 1, b, "Ben", "bye")  # the other player still chats
    with store._session() as s:
        rows = s.execute(select(ChatRow.name, ChatRow.text).order_by(ChatRow.id)).all()
    assert [tuple(r) for r in rows] == [("", "gg"), ("Ben", "again?"), ("Ben", "bye")]
