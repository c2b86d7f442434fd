"""The score keeper's API (/api/score, /ws/score): the rulebook examples through HTTP, impossible
entries refused with nothing changed, sheets edited, undone and shared live, a restart that
loses nothing, the odds of `septet advise flip7` (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

F7V_7_3 = ["3", "11", "5", "7", "10", "8", "4", "/2", "-4"]


def test_flip7_round_rulebook_example_scores_35(client: Any) -> None:
    # F7V-7.3: 3+11+5+7+10+8+4 = 48, ÷2 → 24, −4 → 20, Flip 7 → 35.
    r = client.post("/api/score/flip7/round", json={"rows": [{"cards": F7V_7_3}]})
    assert r.status_code == 200, r.text
    row = r.json()["rows"][0]
    assert (row["number_sum"], row["after_multiplier"], row["modifier_sum"]) == (48, 24, -4)
    assert (row["flip7"], row["bonus"], row["score"]) == (True, 15, 35)
    assert r.json()["flip7"] == 0


def test_flip7_round_totals_and_the_tie_rule(client: Any) -> None:
    # F7V-3.7: both reach 200 with the same total: no winner yet, play on.
    body = {"rows": [{"points": 20}, {"cards": ["12", "8"]}], "totals": [180, 180]}
    r = client.post("/api/score/flip7/round", json=body).json()
    assert r["totals"] == [200, 200] and r["winners"] == []
    body["rows"][0] = {"points": 21}
    assert client.post("/api/score/flip7/round", json=body).json()["winners"] == [0]


def test_double_seven_rulebook_example_scores_21(client: Any) -> None:
    # DS-8.3: families 7, 8, 2, two 7 tokens, the 77 → 21.
    body = {
        "players": [
            {"families": [7, 8, 2], "sevens": 2, "double_seven": True},
            {"families": [6, 5], "sevens": 0},
        ]
    }
    r = client.post("/api/score/double-seven/game", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["scores"] == [21, 11] and r.json()["winners"] == [0]


def test_seven_shot_deal_transfer(client: Any) -> None:
    # SS-4.2: team 1 takes 7 tricks; its 2 sevens in hand and the 7 indicator go to team 0.
    body = {
        "ending": "seven_tricks", "side": 1, "sevens": [2, 1], "hand_sevens": 2,
        "indicator_seven": True, "totals": [3, 4],
    }  # fmt: skip
    r = client.post("/api/score/seven-shot/deal", json=body).json()
    assert r["gains"] == [5, 0] and r["formula"] == "5 - 1 + 1 = 5"
    assert r["totals"] == [8, 4] and r["winners"] == [0]  # SS-2.1


@pytest.mark.parametrize(
    ("path", "body", "rule"),
    [
        ("/api/score/flip7/round", {"rows": [{"cards": ["5", "5"], "busted": False}]}, "F7V-2"),
        ("/api/score/double-seven/game", {"players": [{"sevens": 9}, {}]}, "DS-5.3, DS-5.4"),
        (
            "/api/score/double-seven/game",
            {"players": [{"families": [7, 7], "sevens": 2, "double_seven": True}] * 2},
            "DS-1.2",
        ),
        ("/api/score/seven-shot/deal", {"ending": "sevens", "side": 0, "sevens": [5, 3]}, "SS-1.1"),
    ],
)
def test_impossible_entries_are_refused(client: Any, path: str, body: Any, rule: str) -> None:
    r = client.post(path, json=body)
    assert r.status_code == 422, r.text
    data = r.json()
    assert data["error"] == "impossible" and data["rule"] == rule
    assert data["message"] and data["message_ja"] != data["message"]


def test_malformed_requests_get_a_sentence(client: Any) -> None:
    r = client.post("/api/score/flip7/round", json={"rows": [{"cards": ["5"], "x": 1}]})
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    r = client.post("/api/score/flip7/round", json={"rows": [{"points": "8"}]})
    assert r.status_code == 422  # strict types: "8" is not 8


def test_names_and_totals_of_the_wrong_count_are_refused(client: Any) -> None:
    # Fewer names than sides used to raise IndexError (a 500): now a 400 with a reason.
    body = {"ending": "sevens", "side": 2, "sevens": [0, 0, 1], "names": ["a"]}
    r = client.post("/api/score/seven-shot/deal", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "invalid" and r.json()["message"] == "names: one per side"
    body = {"ending": "sevens", "side": 0, "sevens": [4, 0], "totals": [3]}
    r = client.post("/api/score/seven-shot/deal", json=body)
    assert r.status_code == 400 and r.json()["message"] == "totals: one per side"
    r = client.post("/api/score/flip7/round", json={"rows": [{"points": 3}], "names": ["a", "b"]})
    assert r.status_code == 400 and r.json()["message"] == "names: one per row"


def _sheet(client: Any, game: str, players: list[str], **options: Any) -> dict[str, Any]:
    r = client.post(
        "/api/score/sheets", json={"game": game, "players": players, "options": options}
    )
    assert r.status_code == 200, r.text
    return r.json()


def _op(client: Any, sheet: dict[str, Any], op: dict[str, Any], status: int = 200) -> Any:
    r = client.post(
        f"/api/score/sheets/{sheet['id']}/ops", json={"version": sheet["version"], "op": op}
    )
    assert r.status_code == status, r.text
    return r.json()


def _round(*rows: Any) -> dict[str, Any]:
    return {"op": "add", "entry": {"rows": list(rows)}}


def test_flip7_sheet_edit_undo_and_the_end(client: Any) -> None:
    s = _sheet(client, "flip7", ["Aki", "Ben", "Cai"], target=60)
    assert s["link"] == f"/score/s/{s['id']}" and s["totals"] == [0, 0, 0]
    s = _op(client, s, _round({"cards": F7V_7_3}, {"cards": ["9", "9"]}, {"points": 12}))
    assert s["totals"] == [35, 0, 12] and s["entries"][0]["result"]["rows"][1]["busted"]
    # An impossible round changes nothing (F7V-3.6: the ÷2 exists once).
    before = client.get(f"/api/score/sheets/{s['id']}").json()
    bad = _op(client, s, _round({"cards": ["/2", "4"]}, {"cards": ["/2"]}, {"points": 1}), 422)
    assert bad["rule"] == "F7V-3.6"
    assert client.get(f"/api/score/sheets/{s['id']}").json() == before
    # Edit round 1, then undo and redo the edit.
    s = _op(client, s, {"op": "edit", "index": 0, "entry": {"rows": [{"points": 10}] * 3}})
    assert s["totals"] == [10, 10, 10] and s["undo"] == {"op": "edit", "index": 0}
    s = _op(client, s, {"op": "undo"})
    assert s["totals"] == [35, 0, 12] and s["redo"] == {"op": "edit", "index": 0}
    s = _op(client, s, {"op": "redo"})
    assert s["totals"] == [10, 10, 10]
    s = _op(client, s, {"op": "undo"})
    # A stale version is refused and the current sheet comes back.
    stale = client.post(
        f"/api/score/sheets/{s['id']}/ops", json={"version": s["version"] - 1, "op": {"op": "undo"}}
    )
    assert stale.status_code == 409 and stale.json()["sheet"]["version"] == s["version"]
    # F7V-3.7: Aki reaches 60 alone: the game ends and names her; more rounds are refused.
    s = _op(client, s, _round({"points": 30}, {"points": 4}, {"points": 4}))
    assert s["over"] and s["winners"] == [0] and s["totals"] == [65, 4, 16]
    refused = _op(client, s, _round({"points": 1}, {"points": 1}, {"points": 1}), 422)
    assert refused["rule"] == "F7V-3.7"
    # Deleting the last round reopens it; rename keeps the scores.
    s = _op(client, s, {"op": "delete", "index": 1})
    assert not s["over"] and s["totals"] == [35, 0, 12]
    s = _op(client, s, {"op": "rename", "players": ["Aki", "Ben", "Chai"]})
    assert s["players"][2] == "Chai" and s["totals"] == [35, 0, 12]


def test_double_seven_and_seven_shot_sheets(client: Any) -> None:
    d = _sheet(client, "double-seven", ["A", "B"])
    entry = {"players": [{"families": [7, 8, 2], "sevens": 2, "double_seven": True},
                         {"families": [9, 5], "sevens": 1}]}  # fmt: skip
    d = _op(client, d, {"op": "add", "entry": entry})
    assert d["entries"][0]["result"]["scores"] == [21, 15] and d["wins"] == [1, 0]
    s = _sheet(client, "seven-shot", ["N", "E", "S", "W"])
    assert s["side_names"] == ["N & S", "E & W"]
    s = _op(client, s, {"op": "add", "entry": {"ending": "sevens", "side": 0, "sevens": [4, 1]}})
    assert s["totals"] == [4, 0]
    s = _op(
        client, s,
        {"op": "add", "entry": {"ending": "seven_tricks", "side": 1, "sevens": [2, 2],
                                "hand_sevens": 1, "indicator_seven": True}},
    )  # fmt: skip
    assert s["totals"] == [7, 0] and s["over"] and s["winners"] == [0]  # SS-2.1: race to 7
    r = client.post("/api/score/sheets", json={"game": "seven-shot", "players": ["a", "b"]})
    assert r.status_code == 400 and "3 to 4" in r.json()["message"]
    r = client.post(
        "/api/score/sheets", json={"game": "flip7", "players": ["a", "b"], "options": {"target": 0}}
    )
    assert r.status_code == 400 and "target" in r.json()["message"]


def test_two_connections_see_each_other_and_a_restart_loses_nothing(
    client: Any, db_url: str
) -> None:
    s = _sheet(client, "flip7", ["Aki", "Ben"])
    with (
        client.websocket_connect(f"/ws/score/{s['id']}") as a,
        client.websocket_connect(f"/ws/score/{s['id']}") as b,
    ):
        assert a.receive_json()["sheet"]["version"] == 0
        assert b.receive_json()["sheet"]["version"] == 0
        s = _op(client, s, _round({"points": 8}, {"cards": ["12", "1"]}))
        for ws in (a, b):
            got = ws.receive_json()
            assert got["type"] == "sheet" and got["sheet"]["totals"] == [8, 13]
    # A second server on the same database (a restart) has the sheet as it was.
    from fastapi.testclient import TestClient

    from septet.server import Settings, create_app

    with TestClient(create_app(Settings(database_url=db_url))) as again:
        assert (
            again.get(f"/api/score/sheets/{s['id']}").json()
            == client.get(f"/api/score/sheets/{s['id']}").json()
        )
    assert client.get("/api/score/sheets/nope").status_code == 404


def test_odds_are_the_advise_command(client: Any) -> None:
    from septet.bots.flip7_advice import advise_position, build_position

    body = {"edition": "classic", "row": ["12", "9", "5", "+4"], "seen": ["3", "3", "7", "freeze"]}
    r = client.post("/api/score/flip7/odds", json=body)
    assert r.status_code == 200, r.text
    got = r.json()
    mine, pool = build_position("classic", body["row"], body["seen"])
    advice, method = advise_position("classic", mine, pool)
    assert got["bust_probability"] == pytest.approx(advice.bust_probability)
    assert got["stay"] == advice.stay == 30.0 and got["hit"] == pytest.approx(advice.hit)
    assert got["action"] == advice.action and got["method"] == method
    assert got["left"] == 94 - 8 and got["cards_left"]["3"] == 1
    r = client.post("/api/score/flip7/odds", json={"row": ["5", "5"]})
    assert r.status_code == 422 and "bust" in r.json()["message"]
    cards = client.get("/api/score/flip7/cards?edition=vengeance").json()["cards"]
    assert sum(c["count"] for c in cards) == 108  # F7V-1
    assert {c["token"]: c["group"] for c in cards}["l13"] == "special"


def test_openapi_documents_the_score_api(client: Any) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for kind in ("flip7/round", "double-seven/game", "seven-shot/deal", "flip7/odds", "sheets"):
        assert f"/api/score/{kind}" in paths
    assert client.get("/score").status_code == 200
    assert "text/html" in client.get("/score/flip7/odds").headers["content-type"]


def test_revision_0002_upgrades_in_place(tmp_path: Any) -> None:
    # A database of the revision before the score keeper gets its tables (revision 0003) and
    # keeps its rows.
    from alembic import command

    from septet.server.db import alembic_config, current_revision, head_revision, migrate

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")  # type: ignore[arg-type]
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO septet_players (id, token_hash, name, created_at) "
                "VALUES ('p1', 'h', 'Aki', '2026-12-01')"
            )
        )
    assert migrate(engine) == "0002"
    names = set(inspect(engine).get_table_names())
    assert {"septet_score_sheets", "septet_score_ops", "septet_tables"} <= names
    with engine.connect() as conn:
        assert current_revision(conn) == head_revision()
        assert conn.execute(text("SELECT name FROM septet_players")).scalar() == "Aki"
    engine.dispose()


@pytest.mark.parametrize(
    ("edition", "row", "seen", "alone"),
    [
        ("vengeance", "12 9 5", "3 3 7 flip4", False),
        ("vengeance", "13 l13 11 10 9 -4", "1 2", True),
        ("classic", "11 10 9 8 7", "x2 3", False),
        pytest.param("classic", "12 9 5 +4", "3 3 7 freeze", False, marks=pytest.mark.slow),
    ],
)
def test_advice_order_gives_the_commands_answers(
    edition: str, row: str, seen: str, alone: bool
) -> None:
    # The reduced model first only skips work: the answers are those of the exact programme
    # tried first (septet advise flip7 before), method included.
    from septet.bots.flip7_advice import advise_position, advise_position_plain, build_position

    mine, pool = build_position(edition, row, seen)
    assert advise_position(edition, mine, pool, alone) == advise_position_plain(
        edition, mine, pool, alone
    )


def test_qr_code_of_the_link(client: Any) -> None:
    s = _sheet(client, "flip7", ["Aki", "Ben"])
    r = client.get(f"/api/score/sheets/{s['id']}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.text.startswith("<?xml") and "<svg" in r.text
    assert client.get("/api/score/sheets/nope/qr.svg").status_code == 404


def test_double_seven_two_families_is_checked_by_default(client: Any) -> None:
    # DS-5.3 (issue 25): by default (two_families, the Japanese rulebook) a player with two
    # families of 7+ means someone took the 77; 7 + 7 = 14 used to be scored.
    body = {"players": [{"families": [7, 7]}, {"families": [3]}]}
    r = client.post("/api/score/double-seven/game", json=body)
    assert r.status_code == 422 and r.json()["rule"] == "DS-5.3", r.text
    body["players"][0]["double_seven"] = True
    assert client.post("/api/score/double-seven/game", json=body).json()["scores"] == [16, 3]


def test_score_keeper_and_odds_follow_the_decks_option(client: Any) -> None:
    # F7V-1.5 (issue 25): decks="auto" is two decks from 18 players, 1 or 2 fix it; F7V-3.6:
    # no card more often than the decks hold it. Two rows with the Zero at 18 players.
    rows = [{"cards": ["zero", "5"]}, {"cards": ["zero", "6"]}] + [{"points": 0}] * 16
    r = client.post("/api/score/flip7/round", json={"rows": rows})
    assert r.status_code == 200, r.text
    r = client.post("/api/score/flip7/round", json={"rows": rows, "decks": 1})
    assert r.status_code == 422 and r.json()["rule"] == "F7V-3.6"
    r = client.post("/api/score/flip7/round", json={"rows": rows[:2], "decks": 2})
    assert r.status_code == 200, r.text  # two players, two decks chosen
    names = [f"P{i}" for i in range(18)]
    auto = _sheet(client, "flip7", names)
    assert auto["decks"] == 2 and _sheet(client, "flip7", names[:17])["decks"] == 1
    assert _op(client, auto, {"op": "add", "entry": {"rows": rows}})["totals"][:2] == [0, 0]
    one = _sheet(client, "flip7", names, decks=1)
    assert one["decks"] == 1
    assert _op(client, one, {"op": "add", "entry": {"rows": rows}}, 422)["rule"] == "F7V-3.6"
    # the odds page counts the cards of the decks chosen: row 12 11 10, nothing seen, two
    # Vengeance decks (216 cards): 23 + 21 + 19 = 63 of the 213 left bust you (29.6%)
    cards = client.get("/api/score/flip7/cards?edition=vengeance&decks=2").json()["cards"]
    assert sum(c["count"] for c in cards) == 216
    body = {"edition": "vengeance", "row": ["12", "11", "10"], "decks": 2}
    got = client.post("/api/score/flip7/odds", json=body).json()
    assert got["left"] == 213 and got["cards_left"]["zero"] == 2
    assert got["bust_probability"] == pytest.approx(63 / 213) and got["stay"] == 33.0
    one_deck = client.post("/api/score/flip7/odds", json={**body, "decks": 1}).json()
    assert one_deck["left"] == 105 and one_deck["bust_probability"] == pytest.approx(30 / 105)
    got = client.post("/api/score/flip7/odds", json={**body, "seen": ["zero", "zero"]}).json()
    assert got["cards_left"]["zero"] == 0
    r = client.post("/api/score/flip7/odds", json={**body, "seen": ["zero", "zero"], "decks": 1})
    assert r.status_code == 422


def test_flip7_cards_carry_the_engines_bonus(client: Any) -> None:  # F7V-7.2, F7V-8.3
    # the score keeper writes "+15" / "−15" from this number, never its own (issue 25)
    from septet.games.flip7.rules import FLIP7_BONUS

    for edition in ("vengeance", "classic"):
        got = client.get(f"/api/score/flip7/cards?edition={edition}").json()
        assert got["flip7_bonus"] == FLIP7_BONUS == 15


def test_score_targets_default_to_the_engines() -> None:  # F7V-3.7, SS-2.1
    from septet import games
    from septet.server.score.api import Flip7RoundIn, SSDealIn

    assert Flip7RoundIn.model_fields["target"].default == games.get("flip7").options.target == 200
    assert SSDealIn.model_fields["target"].default == games.get("seven-shot").options.target == 7


def test_seven_shot_sheet_carries_the_engines_threshold(client: Any) -> None:  # SS-4.1, SS-5.3
    # the score keeper writes "4 sevens taken" / "3 sevens taken" from this figure (issue 25)
    for players, want in ((["A", "B", "C", "D"], 4), (["A", "B", "C"], 3)):
        r = client.post("/api/score/sheets", json={"game": "seven-shot", "players": players})
        assert r.status_code == 200, r.text
        assert r.json()["threshold"] == want
        got = client.get(f"/api/score/sheets/{r.json()['id']}").json()
        assert got["threshold"] == want


def test_double_seven_sheet_carries_the_engines_family_figures(client: Any) -> None:
    # DS-5.1, DS-1.1, DS-5.3, DS-1.2: the entry form offers families of 2 to 14 tiles (every tile
    # of one animal, 11, and the 3 clovers), marks 7 and up, and counts at most 8 7 tokens, from
    # these figures (issue 25)
    from septet.games.double_seven.rules import MIN_FAMILY, SEVEN
    from septet.games.double_seven.tiles import MAX_FAMILY, NUM_SEVEN_TOKENS

    r = client.post("/api/score/sheets", json={"game": "double-seven", "players": ["A", "B"]})
    assert r.status_code == 200, r.text
    for sheet in (r.json(), client.get(f"/api/score/sheets/{r.json()['id']}").json()):
        assert sheet["family_sizes"] == [MIN_FAMILY, MAX_FAMILY] == [2, 11 + 3]
        assert sheet["seven"] == SEVEN == 7
        assert sheet["seven_tokens"] == NUM_SEVEN_TOKENS == 8
        assert "deck_sevens" not in sheet


def test_seven_shot_sheet_carries_the_decks_sevens(client: Any) -> None:  # SS-1.1
    # one 7 per suit, 7 suits: the score keeper's 7s steppers stop there (issue 25)
    from septet.games.seven_shot.cards import NUM_SUITS, SEVENS

    for players in (["A", "B", "C", "D"], ["A", "B", "C"]):
        r = client.post("/api/score/sheets", json={"game": "seven-shot", "players": players})
        assert r.status_code == 200, r.text
        assert r.json()["deck_sevens"] == len(SEVENS) == NUM_SUITS == 7
        assert "family_sizes" not in r.json()
    f7 = client.post("/api/score/sheets", json={"game": "flip7", "players": ["A", "B"]}).json()
    assert not {"family_sizes", "seven", "seven_tokens", "deck_sevens"} & set(f7)
