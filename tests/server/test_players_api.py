"""Rematch, Play now, "My games", profiles over HTTP and a lobby that stays true (issue 24),
on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

from septet.server.db import PlayNowRow, RatingHistoryRow
from septet.server.players.tables import _due, fill_due, relieve_abandoned
from septet.server.store import Store
from tests.server.conftest import make_client, new_guest
from tests.server.players_kit import finished_table


def post(client: Any, path: str, cookie: str, body: Any = None) -> Any:
    return client.post(path, json=body if body is not None else {}, headers={"cookie": cookie})


def me(client: Any, cookie: str) -> str:
    return str(client.get("/api/me", headers={"cookie": cookie}).json()["player"]["id"])


def wait_status(client: Any, table_id: str, status: str, timeout: float = 20.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        got = client.get(f"/api/tables/{table_id}").json()
        if got["status"] == status or time.monotonic() > end:
            assert got["status"] == status, got
            return dict(got)
        time.sleep(0.05)


def test_rematch_same_table_for_all_bots_back_offers_and_decline(db_url: str) -> None:
    with make_client(db_url) as client:
        store = client.app.state.store
        a, b, c, d = (new_guest(client, n) for n in ("Aki", "Ben", "Cho", "Dan"))
        ids = [me(client, x) for x in (a, b, c)]
        old = finished_table(store, "tiny-sevens", [(ids[0], "Aki", None), (ids[1], "Ben", None),
                                                    (ids[2], "Cho", None),
                                                    (None, "random", "random")],
                             [1, 0, 0, 0], [0])  # fmt: skip
        first = post(client, f"/api/tables/{old}/rematch", a)
        assert first.status_code == 200, first.text
        new = first.json()["table"]
        assert new["status"] == "waiting" and new["my_seat"] == 0 and new["game"] == "tiny-sevens"
        assert [(s["kind"], s["bot"], s["taken"]) for s in new["seats"]] == [
            ("human", None, True), ("human", None, False), ("human", None, False),
            ("bot", "random", True)]  # fmt: skip
        second = post(client, f"/api/tables/{old}/rematch", b).json()["table"]
        assert second["id"] == new["id"] and second["my_seat"] == 1
        assert post(client, f"/api/tables/{old}/rematch", a).json()["table"]["id"] == new["id"]
        # A stranger: not at the old table (403); Cho's seat is kept for her.
        r = post(client, f"/api/tables/{old}/rematch", d)
        assert r.status_code == 403 and r.json()["error"] == "not_your_table"
        assert "message_ja" in r.json()
        r = post(client, f"/api/tables/{new['id']}/join", d, {"seat": 2})
        assert r.status_code == 409 and r.json()["error"] == "seat_taken"
        r = post(client, f"/api/tables/{new['id']}/join", d)
        assert r.status_code == 409 and r.json()["error"] == "full"
        mine = client.get("/api/me/games", headers={"cookie": c}).json()
        assert [(x["id"], x["offered_seat"]) for x in mine["offers"]] == [(new["id"], 2)]
        # Cho declines: the seat is free at once; Dan takes it and the game starts.
        assert post(client, f"/api/tables/{new['id']}/decline", c).status_code == 200
        r = post(client, f"/api/tables/{new['id']}/decline", c)
        assert r.status_code == 409 and r.json()["error"] == "no_offer"
        r = post(client, f"/api/tables/{new['id']}/join", d)
        assert r.status_code == 200 and r.json()["my_seat"] == 2
        assert r.json()["status"] == "playing"
        # Not finished: no rematch of the new table yet (409, in player words).
        r = post(client, f"/api/tables/{new['id']}/rematch", a)
        assert r.status_code == 409 and r.json()["error"] == "not_finished"
        assert r.json()["message"] == "A rematch can only be asked for once the game is over."


def test_rematch_seat_is_free_once_the_offer_runs_out(db_url: str) -> None:
    # offer_seconds: how long a seat is kept (60 by default); 0: nobody took it in time.
    with make_client(db_url, offer_seconds=0.0) as client:
        store = client.app.state.store
        a, b, d = (new_guest(client, n) for n in ("Aki", "Ben", "Dan"))
        ida, idb = me(client, a), me(client, b)
        old = finished_table(store, "tiny-sevens", [(ida, "Aki", None), (idb, "Ben", None)],
                             [1, 0], [0])  # fmt: skip
        new = post(client, f"/api/tables/{old}/rematch", a).json()["table"]
        r = post(client, f"/api/tables/{new['id']}/join", d, {"seat": 1})
        assert r.status_code == 200 and r.json()["status"] == "playing"
        # Ben asks too late: he gets the same table, without a seat.
        late = post(client, f"/api/tables/{old}/rematch", b).json()["table"]
        assert late["id"] == new["id"] and late["my_seat"] is None


def test_play_now_seats_two_players_at_one_table_then_bots(db_url: str) -> None:
    with make_client(db_url) as client:
        a, b, c = (new_guest(client, n) for n in ("Aki", "Ben", "Cho"))
        body = {"game": "tiny-sevens", "players": 3, "bots_after": 600}
        ta = post(client, "/api/play-now", a, body).json()["table"]
        tb = post(client, "/api/play-now", b, body).json()["table"]
        assert ta["id"] == tb["id"] and (ta["my_seat"], tb["my_seat"]) == (0, 1)
        again = post(client, "/api/play-now", a, body).json()["table"]
        assert (again["id"], again["my_seat"]) == (ta["id"], 0)
        other = post(client, "/api/play-now", c, {**body, "players": 2}).json()["table"]
        assert other["id"] != ta["id"]  # another size: another table
        r = post(client, "/api/play-now", c, {**body, "game": "nope"})
        assert r.status_code == 400 and r.json()["error"] == "bad_game"
        r = post(client, "/api/play-now", c, {**body, "bots_after": -1})
        assert r.status_code == 422
        # bots_after 0: the free seat gets a bot (Tiny Sevens has no Normal: random) at once.
        soon = post(client, "/api/play-now", b, {**body, "players": 2, "bots_after": 0})
        # Cho's 2-player table was older, so Ben is seated there (its bots come in 600 s).
        assert soon.json()["table"]["id"] == other["id"]
        assert soon.json()["table"]["status"] == "playing"
        d = new_guest(client, "Dan")
        alone = post(client, "/api/play-now", d, {**body, "players": 2, "bots_after": 0})
        tid = alone.json()["table"]["id"]
        got = wait_status(client, tid, "playing")
        assert [(s["kind"], s["bot"]) for s in got["seats"]] == [("human", None), ("bot", "random")]
        assert client.portal.call(fill_due, client.app.state.manager) == 0  # filled once


def test_play_now_bots_claimed_once_by_two_processes(db_url: str) -> None:
    with make_client(db_url) as client:
        a = new_guest(client, "Aki")
        body = {"game": "tiny-sevens", "players": 2, "bots_after": 0}
        # The running app's loop may take it first: hold it back by a far fill time.
        tid = post(client, "/api/play-now", a, {**body, "bots_after": 600}).json()["table"]["id"]
        store: Store = client.app.state.store
        with store._session.begin() as s:
            row = s.get(PlayNowRow, tid)
            assert row is not None
            row.fill_at = row.created_at
        other = Store(db_url)
        try:
            got = [_due(other), _due(store)]
        finally:
            other.close()
        assert sorted(map(len, got)) == [0, 1] and tid in got[0] + got[1]


def test_a_table_nobody_is_at_leaves_games_in_play_and_its_leaver_loses(db_url: str) -> None:
    with make_client(db_url) as client:
        a = new_guest(client, "Aki")
        body = {"game": "tiny-sevens", "options": {"target": 40}, "seats": ["human", "bot:easy"]}
        tid = post(client, "/api/tables", a, body).json()["id"]
        playing = client.get("/api/tables?status=playing").json()["playing"]
        assert tid in [t["id"] for t in playing]  # Aki holds her seat (within replace_after)
        mine = client.get("/api/me/games", headers={"cookie": a}).json()
        assert [t["id"] for t in mine["playing"]] == [tid]
        manager = client.app.state.manager
        table = manager.get(tid)
        table.gone_since[0] = time.monotonic() - 60  # Aki has been gone a minute
        assert client.portal.call(relieve_abandoned, manager) == 1
        playing = client.get("/api/tables?status=playing").json()["playing"]
        assert tid not in [t["id"] for t in playing]
        assert client.app.state.store.tables_attended([tid]) == set()  # the scaled lobby's test
        done = wait_status(client, tid, "finished", timeout=60)
        assert done["seats"][0]["replaced"] is True
        aki = me(client, a)
        end = time.monotonic() + 20
        while True:  # rated as the game ended (a task of the finishing process)
            with client.app.state.store._session() as s:
                h = s.get(RatingHistoryRow, (tid, aki))
            if h is not None or time.monotonic() > end:
                break
            time.sleep(0.05)
        assert h is not None and (h.left, h.won) == (True, False)
        prof = client.get(f"/api/players/~{aki}").json()
        assert prof["games"][0]["rating"]["games"] == 1
        assert prof["recent"][0]["left"] is True and prof["recent"][0]["replay"] == f"/r/{tid}"
        assert client.get("/api/players/Aki").json()["player"]["id"] == aki  # a unique guest
        assert client.get("/api/players/Nobody").status_code == 404


def test_unrated_table_option_and_leaderboard_route(db_url: str) -> None:
    with make_client(db_url) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        # the rated option first, then the pace of turn-based tables (issue 28)
        rated = games["flip7"]["table_options"][0]
        assert [o["name"] for o in games["flip7"]["table_options"]] == [
            "rated",
            "pace",
            "turn_hours",
            "on_timeout",
        ]
        assert (rated["kind"], rated["default"]) == ("bool", True)
        a = new_guest(client, "Aki")
        body = {"game": "tiny-sevens", "options": {"rated": False}, "seats": ["human", "human"]}
        tid = post(client, "/api/tables", a, body).json()["id"]
        from septet.server.db import RatedTableRow

        with client.app.state.store._session() as s:
            row = s.get(RatedTableRow, tid)
            assert row is not None and row.counted is False
        board = client.get("/api/leaderboard/flip7?page=1&size=10").json()
        assert (board["total"], board["players"], board["min_games"]) == (0, [], 10)
        assert client.get("/api/leaderboard/nope").status_code == 404
        assert client.get("/api/leaderboard/flip7?size=0").status_code == 422
        assert client.get("/u/~abc").status_code == 200
        assert client.get("/leaderboard/flip7").status_code == 200
