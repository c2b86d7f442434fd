"""A record's actions as ids of the game's action encoding, and the encoding version carried by
records: the CLI's, the server's, and what happens to a record of another version."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from septet import games
from septet.bots import make_agent
from septet.core import GameRecord, RecordError, play_game


def _record() -> GameRecord:
    game = games.get("flip7", edition="classic")
    return play_game(game, [make_agent("random", game)] * 2, seed=4).record


def test_action_ids_of_a_record() -> None:
    rec = _record()
    enc = games.get("flip7", edition="classic").action_encoding(2)
    ids = rec.action_ids()
    assert len(ids) == len(rec.actions)
    assert ids[0] is None  # the first deal is chance: no id
    for text, i in zip(rec.actions, ids, strict=True):
        if text in ("hit", "stay"):
            assert i is not None and enc.decode(i) == (text, ())
        if i is not None:
            assert str(enc.action(i)) == text  # the id names the same move
    assert enc.encode("stay", ()) in ids and enc.encode("hit", ()) in ids


def test_a_record_of_another_encoding_version_is_refused_or_translated() -> None:
    rec = _record()
    today = rec.action_ids()
    rec.action_encoding = 2  # as if written by a Septet whose Flip 7 encoding had moved on
    with pytest.raises(RecordError, match=r"version 2.*version 1"):
        rec.action_ids()
    assert rec.action_ids(translate=True) == today  # the notation re-encoded: exact
    rec.action_encoding = None  # an older record without the field: read as today's
    assert rec.action_ids() == today


def test_server_records_carry_the_encoding_version() -> None:
    from septet.server.routes.replays import record_of

    rec = _record()
    data = SimpleNamespace(
        id="t1",
        game="flip7",
        options={"edition": "classic"},
        num_players=2,
        seats=[SimpleNamespace(seat=i, name=f"P{i}", bot=None) for i in range(2)],
        moves=rec.actions,
        result=rec.result,
        created_at="2026-12-01T00:00:00Z",
    )
    served = record_of(data).to_json()  # type: ignore[arg-type]
    assert served["action_encoding"] == 1
    assert GameRecord.from_json(served).action_ids() == rec.action_ids()
