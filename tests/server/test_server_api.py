"""HTTP API of the server: guests, lobby, validation, records (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import new_guest


def create(client: Any, cookie: str, seats: list[dict[str, Any]], **options: Any) -> Any:
    return client.post(
        "/api/tables",
        json={"game": "tiny-sevens", "options": options, "seats": seats},
        headers={"cookie": cookie},
    )


def test_server_health_games_and_client(client: Any) -> None:
    assert client.get("/api/health").json()["ok"] is True
    assert client.get("/api/config").json() == {"public_url": ""}  # invite links: page address
    games = {g["name"]: g for g in client.get("/api/games").json()}
    tiny = games["tiny-sevens"]
    assert tiny["titles"]["ja"] == "ちいさなセブン"
    assert (tiny["min_players"], tiny["max_players"]) == (2, 4)
    assert [(o["name"], o["default"], o["kind"]) for o in tiny["options"]] == [("target", 7, "int")]
    assert "random" in tiny["bots"]
    r = client.get("/api/games/tiny-sevens/rules?lang=ja")
    assert r.json() == {"game": "tiny-sevens", "lang": "ja", "text": "ちいさなセブン"}
    assert client.get("/api/games/nope/rules").status_code == 404
    page = client.get("/t/abc")
    assert page.status_code == 200 and '<script type="module"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    js = client.get("/static/app.js")
    assert js.status_code == 200 and js.headers["x-content-type-options"] == "nosniff"


def test_server_guest_identity_and_rename(client: Any) -> None:
    assert client.get("/api/me").json() == {"player": None}
    cookie = new_guest(client, "  Aki  ")
    me = client.get("/api/me", headers={"cookie": cookie}).json()["player"]
    assert me["name"] == "Aki"  # stripped
    r = client.post("/api/guest", json={"name": "Aki 2"}, headers={"cookie": cookie})
    assert r.json()["player"] == {"id": me["id"], "name": "Aki 2", "account": False}
    assert "septet_token" not in r.cookies  # same identity, no new token
    assert client.get("/api/me", headers={"cookie": "septet_token=forged"}).json() == {
        "player": None
    }


def test_server_input_validation(client: Any) -> None:
    cookie = new_guest(client, "Aki")
    assert client.post("/api/guest", json={"name": ""}).status_code == 422
    assert client.post("/api/guest", json={"name": "x" * 33}).status_code == 422
    assert client.post("/api/guest", json={"name": "a", "admin": True}).status_code == 422
    # no identity: cannot create
    r = create(client, "", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert r.status_code == 401 and r.json()["error"] == "no_identity"
    r = create(client, cookie, [{"kind": "human"}])  # one seat: 2-4 players
    assert r.status_code == 400 and "2 to 4 players" in r.json()["message"]
    r = create(client, cookie, [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:time=99"}])
    assert r.status_code == 400 and r.json()["error"] == "bad_bot"
    r = create(client, cookie, [{"kind": "human"}] * 2, target=1)
    assert r.status_code == 400 and "target" in r.json()["message"]
    r = create(client, cookie, [{"kind": "human"}] * 2, colour="red")
    assert r.status_code == 400 and "unknown option" in r.json()["message"]
    r = client.post(
        "/api/tables",
        json={"game": "no-such-game", "seats": [{"kind": "human"}] * 2},
        headers={"cookie": cookie},
    )
    assert r.status_code == 400 and "unknown game" in r.json()["message"]
    big = {"name": "x" * 20000}
    assert client.post("/api/guest", json=big).status_code == 413
    # The same body sent in chunks, with no Content-Length, is refused the same way.
    chunks = (part for part in [b'{"name": "', b"x" * 20000, b'"}'])
    r = client.post("/api/guest", content=chunks, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    small = (part for part in [b'{"name": ', b'"Chunky"}'])
    r = client.post("/api/guest", content=small, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text


def test_server_lobby_join_start_and_record(client: Any) -> None:
    a = new_guest(client, "Aki")
    b = new_guest(client, "Ben")
    c = new_guest(client, "Cho")
    r = create(client, a, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert r.status_code == 200, r.text
    table = r.json()
    tid = table["id"]
    assert table["invite"] == f"/t/{tid}"
    assert table["status"] == "waiting"
    assert [s["name"] for s in table["seats"]] == ["Aki", "", "random"]
    assert client.get("/api/tables").json()["open"][0]["id"] == tid
    # the record of an unfinished table holds every secret: refused
    assert client.get(f"/api/tables/{tid}/record").status_code == 409
    r = client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": a})
    assert r.status_code == 409 and r.json()["error"] == "already_seated"
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 2}, headers={"cookie": b})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b})
    assert r.status_code == 200 and r.json()["my_seat"] == 1
    info = r.json()
    assert info["status"] == "playing"  # full: started; the deal is 3 chance steps
    assert info["version"] == 3 and info["to_move"] == 0
    r = client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": c})
    assert r.status_code == 409 and r.json()["error"] == "started"
    # while the game is played no endpoint hands out its record or any seat's view
    for path in ("record", "replay", "replay/0", "replay/3"):
        r = client.get(f"/api/tables/{tid}/{path}", headers={"cookie": b})
        assert r.status_code == 409 and r.json()["error"] == "not_finished", path
    assert set(client.get(f"/api/tables/{tid}").json()) == {
        "id", "game", "title", "options", "num_players", "status", "version", "to_move",
        "seats", "result", "replace_after", "created_at", "my_seat",
    }  # fmt: skip
    assert client.get(f"/api/tables/{tid}", headers={"cookie": b}).json()["my_seat"] == 1
    assert client.get("/api/tables/nope").status_code == 404


def test_server_leave_before_start(client: Any) -> None:
    a = new_guest(client, "Aki")
    b = new_guest(client, "Ben")
    tid = create(client, a, [{"kind": "human"}] * 3).json()["id"]
    assert client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b}).status_code == 200
    r = client.post(f"/api/tables/{tid}/leave", headers={"cookie": b})
    assert r.status_code == 200 and r.json()["seats"][1]["taken"] is False
    r = client.post(f"/api/tables/{tid}/leave", headers={"cookie": b})
    assert r.status_code == 409 and r.json()["error"] == "not_seated"


def test_server_bot_table_finishes_and_record_replays(client: Any) -> None:
    import time

    from septet.core import GameRecord, replay

    a = new_guest(client, "Aki")
    seats = [{"kind": "bot", "bot": "random"}] * 3
    tid = create(client, a, seats, target=30).json()["id"]
    for _ in range(200):
        info = client.get(f"/api/tables/{tid}").json()
        if info["status"] == "finished":
            break
        time.sleep(0.05)
    assert info["status"] == "finished"
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="septet-{tid}.json"'
    rec = GameRecord.from_json(r.json())
    assert rec.players == ["random"] * 3
    state = replay(rec)
    assert state.is_terminal
    assert rec.result == {"scores": state.scores(), "winners": state.winners()}
    assert len(rec.actions) == info["version"]
    replay_data = client.get(f"/api/tables/{tid}/replay").json()
    steps = replay_data["steps"]
    assert replay_data["seats"][2] == {"seat": 2, "kind": "bot", "bot": "random", "name": "random"}
    assert len(steps) == len(rec.actions)
    assert [s["seat"] for s in steps[:3]] == [None, None, None]  # the deal is chance
    assert steps[3]["a"].startswith("add ") and steps[3]["seat"] == 0
    mid = client.get(f"/api/tables/{tid}/replay/3").json()
    assert mid["total"] == len(rec.actions)
    assert [v["hand"] for v in mid["views"]] == [[int(rec.actions[i][5:])] for i in range(3)]
    assert mid["spectator"]["hand"] == []
    assert client.get(f"/api/tables/{tid}/replay/99999").status_code == 400
    finished = client.get("/api/tables").json()["finished"]
    assert [t["id"] for t in finished] == [tid]


def test_server_stored_game_that_no_longer_replays(client: Any) -> None:
    # A finished game whose stored record was damaged (by hand, a bad migration): the replay
    # pages and the table page say so with the move at fault, as a 500 "corrupt", not a
    # generic "invalid request".
    import time

    from sqlalchemy import update

    from septet.server.db import MoveRow

    a = new_guest(client, "Aki")
    tid = create(client, a, [{"kind": "bot", "bot": "random"}] * 3, target=30).json()["id"]
    for _ in range(200):
        if client.get(f"/api/tables/{tid}").json()["status"] == "finished":
            break
        time.sleep(0.05)
    store = client.app.state.store
    with store.engine.begin() as conn:
        conn.execute(
            update(MoveRow)
            .where(MoveRow.table_id == tid, MoveRow.idx == 4)
            .values(notation="bogus")
        )
    for path in ("", "/replay"):
        r = client.get(f"/api/tables/{tid}{path}")
        assert r.status_code == 500, (path, r.text)
        body = r.json()
        assert body["error"] == "corrupt"
        assert "action 4 ('bogus') does not replay" in body["message"]
