"""Ratings of finished rated tables (issue 24): the arena's openskill code, teams at four-player
Seven Shot, the leaver's loss, unrated tables, once across processes; the leaderboard's pages
and a profile's contents (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import select

from septet.arena.report import ratings as arena_ratings
from septet.arena.runner import GameResult
from septet.server.db import RatingHistoryRow, RatingRow
from septet.server.players import profiles
from septet.server.players.ratings import display, mark_unrated, rate_pending, rate_table
from septet.server.store import Store
from tests.server.players_kit import add_player, finished_table


@pytest.fixture
def store(db_url: str) -> Any:
    st = Store(db_url)
    st.migrate()
    yield st
    st.close()


def rating(store: Store, game: str, pid: str) -> tuple[float, float, int, int] | None:
    with store._session() as s:
        r = s.get(RatingRow, (game, pid))
        return (r.mu, r.sigma, r.games, r.wins) if r else None


def test_two_player_update_equals_the_arenas(store: Store) -> None:
    a, b = add_player(store, "Aki"), add_player(store, "Ben")
    tid = finished_table(store, "flip7", [(a, "Aki", None), (b, "Ben", None)], [210, 150], [0])
    assert rate_table(store, tid) is True
    # Two newcomers (25, 25/3), the first wins: openskill's Plackett-Luce gives these.
    mu_a, sigma_a, games_a, wins_a = rating(store, "flip7", a)  # type: ignore[misc]
    assert (round(mu_a, 6), round(sigma_a, 6), games_a, wins_a) == (27.635389, 8.065901, 1, 1)
    mu_b, sigma_b, _, wins_b = rating(store, "flip7", b)  # type: ignore[misc]
    assert (round(mu_b, 6), round(sigma_b, 6), wins_b) == (22.364611, 8.065901, 0)
    # The arena's tournament rating of the same game, agent 0 winning: the same numbers.
    arena = arena_ratings([GameResult(0, 0, (0, 1), (210.0, 150.0), (0,), 10)], 2)
    assert (arena[0]["mu"], arena[0]["sigma"]) == (mu_a, sigma_a)
    assert (arena[1]["mu"], arena[1]["sigma"]) == (mu_b, sigma_b)
    # 1000 + 40 x (mu - 3 sigma): 1000 + 40 x 3.437685 = 1137.5 -> 1138; the loser 926.7 -> 927
    assert (display((mu_a, sigma_a)), display((mu_b, sigma_b))) == (1138, 927)
    assert rate_table(store, tid) is None  # settled once


def test_teams_at_four_player_seven_shot(store: Store) -> None:
    a, b = add_player(store, "Aki"), add_player(store, "Ben")
    # SS-2.1: seats 0+2 and 1+3 are partners; Aki and Ben (0, 2) beat two Normal bots.
    seats = [(a, "Aki", None), (None, "greedy", "greedy"), (b, "Ben", None),
             (None, "greedy", "greedy")]  # fmt: skip
    tid = finished_table(store, "seven-shot", seats, [7, 3, 7, 3], [0, 2])
    assert rate_table(store, tid) is True
    # A team of two newcomers beats one newcomer (the Normal bot, counted once):
    # openskill gives each partner (25.746117, 8.207298) and the bot (24.253883, 8.244536).
    for pid in (a, b):
        mu, sigma, games, wins = rating(store, "seven-shot", pid)  # type: ignore[misc]
        assert (round(mu, 6), round(sigma, 6), games, wins) == (25.746117, 8.207298, 1, 1)
    mu, sigma, games, wins = rating(store, "seven-shot", "bot:normal")  # type: ignore[misc]
    assert (round(mu, 6), round(sigma, 6), games, wins) == (24.253883, 8.244536, 1, 0)


def test_one_person_and_three_bots_of_a_level_at_seven_shot(store: Store) -> None:
    a = add_player(store, "Aki")
    seats = [(a, "Aki", None), (None, "greedy", "greedy"), (None, "greedy", "greedy"),
             (None, "greedy", "greedy")]  # fmt: skip
    tid = finished_table(store, "seven-shot", seats, [7, 2, 7, 2], [0, 2])
    assert rate_table(store, tid) is True
    # Normal counts in the team without people: Aki alone beat Normal, one newcomer each.
    assert [round(x, 6) for x in rating(store, "seven-shot", a)[:2]] == [27.635389, 8.065901]  # type: ignore[index]
    assert round(rating(store, "seven-shot", "bot:normal")[0], 6) == 22.364611  # type: ignore[index]


def test_the_leaver_takes_the_loss(store: Store) -> None:
    a, b, c = (add_player(store, n) for n in ("Aki", "Ben", "Cho"))
    # Aki left and a bot finished for her, winning: she still takes the loss, below everyone.
    seats = [(a, "Aki", "greedy", True), (b, "Ben", None), (c, "Cho", None)]
    tid = finished_table(store, "flip7", seats, [205, 120, 90], [0])
    assert rate_table(store, tid) is True
    # Ranks: Ben 1 (best score among the others), Cho 2, Aki 3: three newcomers.
    assert round(rating(store, "flip7", b)[0], 6) == 27.869049  # type: ignore[index]
    assert round(rating(store, "flip7", c)[0], 6) == 25.717262  # type: ignore[index]
    mu, _, games, wins = rating(store, "flip7", a)  # type: ignore[misc]
    assert (round(mu, 6), games, wins) == (21.413689, 1, 0)
    with store._session() as s:
        h = s.get(RatingHistoryRow, (tid, a))
        assert h is not None and (h.left, h.won, h.rank) == (True, False, 3)
    assert profiles.profile(store, profiles.find_player(store, "Aki"))["games"][0]["won"] == 0  # type: ignore[arg-type]


def test_unrated_and_bots_only_tables_change_nothing(store: Store) -> None:
    a, b = add_player(store, "Aki"), add_player(store, "Ben")
    tid = finished_table(store, "flip7", [(a, "Aki", None), (b, "Ben", None)], [210, 150], [0])
    mark_unrated(store, tid)  # the table option rated=false
    assert rate_table(store, tid) is None
    bots = finished_table(store, "flip7", [(None, "greedy", "greedy"),
                                            (None, "e", "epsilon-greedy:epsilon=0.3")],
                          [210, 150], [0])  # fmt: skip
    assert rate_table(store, bots) is False  # no person at it
    assert rate_pending(store) == 0
    with store._session() as s:
        assert s.scalars(select(RatingRow)).all() == []


def test_rated_once_across_two_processes(db_url: str, store: Store) -> None:
    other = Store(db_url)  # a second server process's store on the same database
    try:
        a, b = add_player(store, "Aki"), add_player(store, "Ben")
        tid = finished_table(store, "flip7", [(a, "Aki", None), (b, "Ben", None)], [9, 3], [0])
        got: list[Any] = []
        barrier = threading.Barrier(2)

        def rate(st: Store) -> None:
            barrier.wait()
            got.append(rate_table(st, tid))

        threads = [threading.Thread(target=rate, args=(st,)) for st in (store, other)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(got, key=str) == [None, True]
        assert rating(store, "flip7", a)[2:] == (1, 1)  # type: ignore[index]
        assert rate_pending(other) == 0
    finally:
        other.close()


def test_catch_up_rates_in_finish_order(store: Store) -> None:
    a, b = add_player(store, "Aki"), add_player(store, "Ben")
    for i in range(3):
        finished_table(store, "flip7", [(a, "Aki", None), (b, "Ben", None)], [9, 3], [0], at=i)
    assert rate_pending(store) == 3
    assert rating(store, "flip7", a)[2:] == (3, 3)  # type: ignore[index]
    history = profiles.profile(store, profiles.find_player(store, "Aki"))["games"][0]["history"]  # type: ignore[arg-type]
    assert history[0]["rating"] == 1138
    assert len(history) == 3 and history[0]["rating"] < history[1]["rating"] < history[2]["rating"]


def test_leaderboard_pages_and_bots_marked(store: Store) -> None:
    people = [add_player(store, f"P{i}") for i in range(4)]
    with store._session.begin() as s:
        for i, pid in enumerate(people):
            s.add(RatingRow(game="flip7", player_id=pid, mu=30.0 - i, sigma=2.0,
                            ordinal=24.0 - i, games=10 + i, wins=5))  # fmt: skip
        s.add(RatingRow(game="flip7", player_id="bot:normal", mu=27.5, sigma=2.0,
                        ordinal=21.5, games=40, wins=20))  # fmt: skip
        s.add(
            RatingRow(
                game="flip7",
                player_id=add_player(store, "New"),
                mu=40.0,
                sigma=2.0,
                ordinal=34.0,
                games=9,
                wins=9,
            )
        )  # provisional: left out
    first = profiles.leaderboard(store, "flip7", 1, 2)
    assert first["total"] == 5 and first["min_games"] == 10
    assert [(p["rank"], p["name"], p["rating"]) for p in first["players"]] == [
        (1, "P0", 1960),
        (2, "P1", 1920),
    ]  # 1000 + 40 x (30 - 6), 1000 + 40 x (29 - 6)
    second = profiles.leaderboard(store, "flip7", 2, 2)["players"]
    # The Normal bot at 1000 + 40 x 21.5 = 1860 sits between P2 (1880) and P3 (1840).
    assert [(p["rank"], p["name"], p["bot"], p["rating"]) for p in second] == [
        (3, "P2", False, 1880),
        (4, "Normal bot", True, 1860),
    ]
    assert second[1]["names"]["ja"] == "普通のボット" and second[1]["path"] is None
    third = profiles.leaderboard(store, "flip7", 3, 2)["players"]
    assert [(p["rank"], p["name"], p["path"]) for p in third] == [(5, "P3", f"/u/~{people[3]}")]
    assert profiles.leaderboard(store, "flip7", 4, 2)["players"] == []


def test_profile_contents(store: Store) -> None:
    a, b = add_player(store, "Aki"), add_player(store, "Ben")
    t1 = finished_table(store, "flip7", [(a, "Aki", None), (None, "greedy", "greedy")],
                        [210, 100], [0], at=1)  # fmt: skip
    easy = (None, "e", "epsilon-greedy:epsilon=0.3")
    t2 = finished_table(store, "flip7", [(a, "Aki", None), easy], [100, 205], [1], at=2)
    t3 = finished_table(store, "double-seven", [(a, "Aki", None), (b, "Ben", None)],
                        [40, 50], [1], at=3)  # fmt: skip
    finished_table(store, "flip7", [(b, "Ben", None), (None, "greedy", "greedy")], [1, 2], [1])
    assert rate_pending(store) == 4
    found = profiles.find_player(store, "Aki")
    assert found is not None and profiles.find_player(store, f"~{a}").id == a  # type: ignore[union-attr]
    p = profiles.profile(store, found)
    assert p["player"] == {"id": a, "name": "Aki", "account": False, "deleted": False,
                           "path": f"/u/~{a}"}  # fmt: skip
    by_game = {g["game"]: g for g in p["games"]}
    flip = by_game["flip7"]
    assert (flip["played"], flip["won"]) == (2, 1)
    assert flip["vs_bots"] == [{"level": "easy", "games": 1, "wins": 0},
                               {"level": "normal", "games": 1, "wins": 1}]  # fmt: skip
    assert flip["rating"]["games"] == 2 and flip["rating"]["provisional"] is True
    assert len(flip["history"]) == 2 and flip["history"][0]["table"] == t1
    assert (by_game["double-seven"]["played"], by_game["double-seven"]["won"]) == (1, 0)
    assert [g["id"] for g in p["recent"]] == [t3, t2, t1]
    assert p["recent"][0]["replay"] == f"/r/{t3}" and p["recent"][0]["seats"][1]["name"] == "Ben"
    assert profiles.find_player(store, "Nobody") is None
