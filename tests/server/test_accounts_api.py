"""Accounts over HTTP (issue 24): claiming a guest keeps its player and tables, signing in and
out, passwords, deletion, the export; every refusal has its code and changes nothing in the
database; cross-origin writes are refused in one middleware."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from septet.server.accounts.limits import Attempts
from septet.server.accounts.passwords import Passwords
from septet.server.store import SeatData, TableData
from tests.server.accounts_kit import CHEAP, accounts_client, cookie_of, snapshot
from tests.server.conftest import new_guest

PW = "correct horse"


@pytest.fixture
def client(tmp_path: Any) -> Iterator[Any]:
    """An accounts client on an SQLite file (the PostgreSQL runs are the ``db_url`` tests)."""
    with accounts_client(f"sqlite:///{tmp_path / 'septet.sqlite3'}") as c:
        yield c


def call(client: Any, method: str, path: str, cookie: str | None = None, **kw: Any) -> Any:
    """One request with exactly ``cookie`` (the client's own jar emptied around it)."""
    client.cookies.clear()
    headers = {**kw.pop("headers", {}), **({"cookie": cookie} if cookie else {})}
    r = client.request(method, path, headers=headers, **kw)
    client.cookies.clear()
    return r


def me(client: Any, cookie: str) -> Any:
    return call(client, "GET", "/api/me", cookie).json()["player"]


def refused(client: Any, code: str, status: int, method: str, path: str, **kw: Any) -> Any:
    """The request is refused with ``code``/``status``, both sentences, and nothing changed."""
    before = snapshot(client)
    r = call(client, method, path, **kw)
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    assert r.json()["message"] and r.json()["message_ja"]
    assert snapshot(client) == before
    return r


def test_accounts_claim_keeps_the_player_and_its_tables(db_url: str) -> None:
    with accounts_client(db_url) as client:
        guest = new_guest(client, "Aki")
        pid = me(client, guest)["id"]
        r = call(client, "POST", "/api/tables", guest,
                 json={"game": "tiny-sevens", "seats": ["human", "human"]})  # fmt: skip
        tid = r.json()["id"]
        r = call(client, "POST", "/api/account", guest, json={"name": "Aki", "password": PW})
        assert r.status_code == 200, r.text
        assert r.json()["player"] == {"id": pid, "name": "Aki", "account": True}
        account = cookie_of(r)
        assert account != guest  # a new session token: no fixation
        assert me(client, guest) is None  # the guest's token stopped working
        assert me(client, account) == {"id": pid, "name": "Aki", "account": True}
        seats = call(client, "GET", f"/api/tables/{tid}").json()["seats"]
        assert seats[0]["name"] == "Aki" and seats[0]["taken"]
        r = call(client, "POST", f"/api/tables/{tid}/join", account, json={})
        assert r.json()["error"] == "already_seated"  # the seat is still theirs
        with client.app.state.store.engine.connect() as conn:
            row = conn.execute(text("SELECT created_by FROM septet_tables")).one()
            assert row[0] == pid
            n = conn.execute(text("SELECT count(*) FROM septet_sessions WHERE player_id = :p"),
                             {"p": pid}).scalar()  # fmt: skip
            assert n == 1
        refused(client, "already_account", 409, "POST", "/api/account", cookie=account,
                json={"name": "Other", "password": PW})  # fmt: skip
        # Without a guest cookie: a new player that is an account.
        r = call(client, "POST", "/api/account", json={"name": "Ben", "password": PW})
        assert r.json()["player"]["account"] is True and r.json()["player"]["id"] != pid


def test_accounts_bad_inputs_have_codes_and_change_nothing(client: Any) -> None:
    call(client, "POST", "/api/account", json={"name": "Aki", "password": PW})
    guest = new_guest(client, "Ben")
    cases = [
        ("password_short", 400, "Cho", "seven77"),
        ("password_long", 400, "Cho", "x" * 129),
        ("password_is_name", 400, "Cho Itoh", "CHO ITOH"),
        ("password_is_name", 400, "Choito12", "Ｃｈｏｉｔｏ１２"),  # full width is the same
        ("name_taken", 409, "AKI", PW),  # case
        ("name_taken", 409, "Ａｋｉ", PW),  # width (NFKC)
        ("name_taken", 409, " aki ", PW),  # spaces around
        ("bad_name", 400, "A\u200bki", PW),  # zero-width space
        ("bad_name", 400, "A\u200dki", PW),  # zero-width joiner
        ("bad_name", 400, "A\u202eki", PW),  # bidi override
        ("bad_name", 400, "\u2066Aki\u2069", PW),  # bidi isolate
        ("bad_name", 400, "Ak\x00i", PW),  # NUL
        ("bad_name", 400, "Ak\x07i", PW),  # control
        ("bad_name", 400, "\u3164", PW),  # Hangul filler: invisible
        ("bad_name", 400, "x" * 33, PW),
        ("bad_name", 400, "\u0410ki", PW),  # a Cyrillic А among Latin letters
        ("name_taken", 409, "\u0410\u041a\u0406", PW),  # Cyrillic АКІ: looks like AKI
        ("name_taken", 409, "\u0391\u039a\u0399", PW),  # Greek ΑΚΙ too
    ]
    for code, status, name, password in cases:
        refused(client, code, status, "POST", "/api/account", cookie=guest,
                json={"name": name, "password": password})  # fmt: skip
    # Guests' names go through the same check, and may not pass for an account.
    refused(client, "name_taken", 409, "POST", "/api/guest", cookie=guest, json={"name": "aKi"})
    refused(client, "bad_name", 400, "POST", "/api/guest", cookie=guest,
            json={"name": "B\u200ben"})  # fmt: skip
    refused(client, "bad_name", 400, "POST", "/api/guest", json={"name": "\u202eBen"})
    assert me(client, guest) == {"id": me(client, guest)["id"], "name": "Ben", "account": False}


def test_accounts_login_same_answer_for_name_and_password_then_limits(client: Any) -> None:
    svc = client.app.state.services
    now = [1000.0]
    svc.accounts.attempts = Attempts(clock=lambda: now[0])
    call(client, "POST", "/api/account", json={"name": "Aki", "password": PW})
    verified: list[str | None] = []
    real = svc.accounts.passwords.verify_sync
    svc.accounts.passwords.verify_sync = lambda h, p: (verified.append(h), real(h, p))[1]
    wrong = refused(client, "bad_login", 401, "POST", "/api/login",
                    json={"name": "Aki", "password": "wrong password"})  # fmt: skip
    unknown = refused(client, "bad_login", 401, "POST", "/api/login",
                      json={"name": "Nobody", "password": "wrong password"})  # fmt: skip
    assert wrong.json() == unknown.json()
    # The same work: a hash verified both times (the dummy one for the unknown name).
    assert len(verified) == 2 and verified[0] and verified[1] is None
    for _ in range(4):  # 5 failures of "Aki" in all (one above)
        call(client, "POST", "/api/login", json={"name": "aki", "password": "nope nope"})
    r = refused(client, "login_rate", 429, "POST", "/api/login",
                json={"name": "Aki", "password": PW})  # even the right password  # fmt: skip
    assert 1 <= int(r.headers["retry-after"]) <= 900
    assert len(verified) == 6  # the refused attempt hashed nothing
    assert call(client, "POST", "/api/login", json={"name": "Aki2", "password": PW}).status_code \
        == 401  # another name from the same address is not held up by Aki's count  # fmt: skip
    now[0] += 901  # the window is over
    r = call(client, "POST", "/api/login", json={"name": "Aki", "password": PW})
    assert r.status_code == 200 and r.json()["player"]["name"] == "Aki"
    # 20 failures from one address (any names) hold up the address.
    for i in range(20):
        call(client, "POST", "/api/login", json={"name": f"n{i}", "password": "nope nope"})
    refused(client, "login_rate", 429, "POST", "/api/login", json={"name": "Aki", "password": PW})


def test_accounts_sessions_password_logout_delete_export(client: Any) -> None:
    store = client.app.state.store
    guest = new_guest(client, "Aki")
    r = call(client, "POST", "/api/account", guest, json={"name": "Aki", "password": PW},
             headers={"user-agent": "Phone browser"})  # fmt: skip
    phone = cookie_of(r)
    pid = r.json()["player"]["id"]
    laptop = cookie_of(call(client, "POST", "/api/login", json={"name": "aki", "password": PW}))
    assert me(client, laptop)["id"] == pid  # any device
    # Their data: a finished table with their moves and chat.
    store.create_table(TableData(id="t1", game="tiny-sevens", options={}, num_players=2,
                                 status="playing", seed="s", owner_id=pid, version=0, result=None,
                                 created_at="", created_by=pid,
                                 seats=[SeatData(0, player_id=pid, name="Aki"),
                                        SeatData(1, bot="random", name="random")]))  # fmt: skip
    store.append_moves("t1", 0, [("deal 3", -1), ("add 1", 0), ("add 2", 1)], to_move=0,
                       bot_turn=False)  # fmt: skip
    store.add_chat("t1", 0, pid, "Aki", "good game")
    refused(client, "wrong_password", 403, "POST", "/api/me/password", cookie=phone,
            json={"old": "not it at all", "new": "a new password"})  # fmt: skip
    refused(client, "password_short", 400, "POST", "/api/me/password", cookie=phone,
            json={"old": PW, "new": "short"})  # fmt: skip
    refused(client, "no_identity", 401, "POST", "/api/me/password",
            json={"old": PW, "new": "a new password"})  # fmt: skip
    r = call(client, "POST", "/api/me/password", phone, json={"old": PW, "new": "a new password"})
    assert r.json() == {"ok": True, "ended_sessions": 1}
    assert me(client, laptop) is None and me(client, phone)["id"] == pid
    refused(client, "bad_login", 401, "POST", "/api/login", json={"name": "Aki", "password": PW})
    from septet.server.mail.models import MailAddressRow

    with store._session.begin() as s:  # a turn-based mail address (issue 28)
        s.add(MailAddressRow(player_id=pid, address="aki@example.org", lang="ja",
                             confirm_hash="c" * 64, unsub_token="u" * 64))  # fmt: skip
    r = call(client, "GET", "/api/me/export", phone)
    assert "attachment" in r.headers["content-disposition"]
    assert r.json()["email"]["address"] == "aki@example.org" and r.json()["ratings"] == []
    data = r.json()
    assert data["profile"]["id"] == pid and data["profile"]["account"] is True
    assert [(s["user_agent"], s["current"]) for s in data["sessions"]] == [("Phone browser", True)]
    assert [(t["id"], t["your_seats"], t["created_by_you"]) for t in data["tables"]] == [
        ("t1", [0], True)]  # fmt: skip
    assert [(c["table_id"], c["text"]) for c in data["chat"]] == [("t1", "good game")]
    assert [(m["idx"], m["notation"]) for m in data["moves"]] == [(1, "add 1")]
    laptop = cookie_of(call(client, "POST", "/api/login",
                            json={"name": "Aki", "password": "a new password"}))  # fmt: skip
    r = call(client, "POST", "/api/logout", laptop)
    assert r.json() == {"ok": True} and me(client, laptop) is None and me(client, phone)
    refused(client, "wrong_password", 403, "DELETE", "/api/me", cookie=phone,
            json={"password": PW})  # fmt: skip
    assert call(client, "DELETE", "/api/me", phone, json={"password": "a new password"}).json() \
        == {"ok": True}  # fmt: skip
    assert me(client, phone) is None  # a deleted account's cookie: no player
    r = call(client, "POST", "/api/tables", phone,
             json={"game": "tiny-sevens", "seats": ["human", "human"]})  # fmt: skip
    assert (r.status_code, r.json()["error"]) == (401, "no_identity") and r.json()["message_ja"]
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM septet_mail_addresses")).scalar() == 0
        sql = "SELECT name, name_key, password_hash, deleted_at IS NOT NULL FROM septet_players"
        row = conn.execute(text(sql + " WHERE id = :p"), {"p": pid}).one()
        assert tuple(row) == ("", None, None, True)  # the row stays, without name or credentials
        assert conn.execute(text("SELECT count(*) FROM septet_sessions")).scalar() == 0
    assert [s.name for s in store.get_table("t1").seats] == ["", "random"]  # "deleted player"
    assert store.recent_chat("t1")[0].name == "" and store.recent_chat("t1")[0].text == "good game"
    # The name is free again.
    r = call(client, "POST", "/api/account", json={"name": "Aki", "password": PW})
    assert r.status_code == 200 and r.json()["player"]["id"] != pid


def test_accounts_guest_deletes_with_its_cookie_and_rehash_on_login(client: Any) -> None:
    guest = new_guest(client, "Cho")
    assert call(client, "DELETE", "/api/me", guest).json() == {"ok": True}
    assert me(client, guest) is None
    call(client, "POST", "/api/account", json={"name": "Dai", "password": PW})
    engine = client.app.state.store.engine
    with engine.connect() as conn:
        old = conn.execute(text("SELECT password_hash FROM septet_players WHERE name = 'Dai'"))
        old_hash = old.scalar()
    assert ",t=1," in old_hash
    # The parameters change (a new release): the next sign-in stores a hash made with them.
    svc = client.app.state.services
    svc.accounts.passwords = Passwords(parameters={**CHEAP, "time_cost": 2})
    assert call(client, "POST", "/api/login", json={"name": "Dai", "password": PW}).status_code \
        == 200  # fmt: skip
    with engine.connect() as conn:
        new = conn.execute(text("SELECT password_hash FROM septet_players WHERE name = 'Dai'"))
        new_hash = new.scalar()
    assert new_hash != old_hash and ",t=2," in new_hash
    assert call(client, "POST", "/api/login", json={"name": "Dai", "password": PW}).status_code \
        == 200  # fmt: skip


def test_accounts_cross_origin_writes_are_refused(client: Any) -> None:
    guest = new_guest(client, "Aki")
    for headers in [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "https://testserver"},  # another scheme is another site
        {"origin": "http://testserver:8080"},  # and another port
        {"referer": "http://evil.example/page"},  # no Origin: the Referer is checked
    ]:
        refused(client, "cross_origin", 403, "POST", "/api/account", cookie=guest,
                json={"name": "Aki", "password": PW}, headers=headers)  # fmt: skip
        refused(client, "cross_origin", 403, "DELETE", "/api/me", cookie=guest, headers=headers)
        refused(client, "cross_origin", 403, "POST", "/api/guest", json={"name": "Eve"},
                headers=headers)  # fmt: skip
    # Reads are not writes; the site itself and clients that send no Origin (the CLI) may write.
    assert call(client, "GET", "/api/me", guest, headers={"origin": "http://evil.example"}).json()
    r = call(client, "POST", "/api/guest", guest, json={"name": "Aki 2"},
             headers={"origin": "http://testserver"})  # fmt: skip
    assert r.status_code == 200
    r = call(client, "POST", "/api/guest", guest, json={"name": "Aki 3"},
             headers={"referer": "http://testserver/account"})  # fmt: skip
    assert r.status_code == 200
    # The WebSocket handshake compares the scheme too.
    tid = call(client, "POST", "/api/tables", guest,
               json={"game": "tiny-sevens", "seats": ["human", "human"]}).json()["id"]  # fmt: skip
    for origin in ["https://testserver", "http://evil.example"]:
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/tables/{tid}",
                                     headers={"origin": origin, "cookie": guest}) as ws,
        ):  # fmt: skip
            ws.receive_text()
    with client.websocket_connect(
        f"/ws/tables/{tid}", headers={"origin": "http://testserver", "cookie": guest}
    ) as ws:
        assert ws.receive_json()["type"]  # fmt: skip


def test_accounts_busy_hashing_answers_503_and_changes_nothing(client: Any) -> None:
    call(client, "POST", "/api/account", json={"name": "Eri", "password": PW})
    guest = new_guest(client, "Fumi")
    svc = client.app.state.services
    # No room in the hashing queue: every request that would hash is refused before it queues.
    svc.accounts.passwords = Passwords(parameters=CHEAP, queue_per_worker=0)
    r = refused(client, "busy", 503, "POST", "/api/login", json={"name": "Eri", "password": PW})
    assert r.headers["retry-after"] == "2" and "busy" in r.json()["message"]
    refused(client, "busy", 503, "POST", "/api/account", cookie=guest,
            json={"name": "Fumi", "password": PW})  # fmt: skip
    assert me(client, guest)["account"] is False
    svc.accounts.passwords = Passwords(parameters=CHEAP)
    assert call(client, "POST", "/api/login", json={"name": "Eri", "password": PW}).status_code \
        == 200  # fmt: skip


def test_accounts_made_before_look_alikes_were_read_still_sign_in(client: Any) -> None:
    # An account stored under the old key (Cyrillic АКІ kept its own letters) signs in, is
    # found by its page, and keeps its name from Latin AKI (both keys are asked for).
    cyrillic = "\u0410\u041a\u0406"
    call(client, "POST", "/api/account", json={"name": cyrillic, "password": PW})
    engine = client.app.state.store.engine
    with engine.begin() as conn:
        conn.execute(text("UPDATE septet_players SET name_key = :old WHERE name = :n"),
                     {"old": "\u0430\u043a\u0456", "n": cyrillic})  # fmt: skip
    r = call(client, "POST", "/api/login", json={"name": cyrillic, "password": PW})
    assert r.status_code == 200 and r.json()["player"]["name"] == cyrillic
    assert call(client, "GET", f"/api/players/{cyrillic}").status_code == 200
    refused(client, "name_taken", 409, "POST", "/api/account",
            json={"name": cyrillic.lower(), "password": PW})  # fmt: skip
    # Latin AKI's key is "aki", the old account's "акі": apart in the index, but both
    # readings of "АКІ" are looked up, so a new Cyrillic АКІ is refused above, and Latin Aki
    # is a different name to the old key (its own reading only).
    assert call(client, "POST", "/api/account", json={"name": "Aki", "password": PW}).status_code \
        == 200  # fmt: skip


def _cookie_flags(response: Any) -> set[str]:
    """The attributes of the response's ``septet_token`` cookie, lower case (``secure``,
    ``httponly``, ``samesite=lax``, ...)."""
    header = next(h for h in response.headers.get_list("set-cookie") if "septet_token=" in h)
    return {part.strip().lower() for part in header.split(";")[1:]}


@pytest.mark.parametrize(
    ("overrides", "headers", "secure"),
    [
        ({}, {}, False),
        ({}, {"x-forwarded-proto": "https"}, False),  # not trusted without --trust-proxy
        ({"trust_proxy": True}, {"x-forwarded-proto": "https"}, True),
        ({"trust_proxy": True}, {"x-forwarded-proto": "http"}, False),
        ({"public_url": "https://septet.example.org"}, {}, True),
        ({"public_url": "http://192.168.1.20:8000"}, {}, False),
    ],
)
def test_accounts_cookie_httponly_samesite_and_secure_behind_https(
    tmp_path: Any, overrides: dict[str, Any], headers: dict[str, str], secure: bool
) -> None:
    with accounts_client(f"sqlite:///{tmp_path / 's.sqlite3'}", **overrides) as client:
        guest_r = call(client, "POST", "/api/guest", json={"name": "Aki"}, headers=headers)
        claim_r = call(client, "POST", "/api/account", cookie_of(guest_r), headers=headers,
                       json={"name": "Aki", "password": PW})  # fmt: skip
        login_r = call(client, "POST", "/api/login", cookie_of(claim_r), headers=headers,
                       json={"name": "Aki", "password": PW})  # fmt: skip
        out_r = call(client, "POST", "/api/logout", cookie_of(login_r), headers=headers)
        tokens = [r.cookies["septet_token"] for r in (guest_r, claim_r, login_r)]
        assert len(set(tokens)) == 3  # a new token on claiming and on signing in: no fixation
        for r in (guest_r, claim_r, login_r, out_r):
            flags = _cookie_flags(r)
            assert {"httponly", "samesite=lax", "path=/"} <= flags
            assert ("secure" in flags) is secure
        assert me(client, cookie_of(guest_r)) is None  # the guest's and the claim's sessions
        assert me(client, cookie_of(claim_r)) is None  # ended; logout ended the last one
        assert me(client, cookie_of(login_r)) is None


def _chat_answer(ws: Any, text: str) -> dict[str, Any]:
    """Say ``text`` on ``ws`` and return the first chat or error message that answers it."""
    ws.send_json({"type": "chat", "text": text})
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("chat", "error"):
            return dict(msg)


@pytest.mark.parametrize("end", ["logout", "delete"])
def test_accounts_a_socket_opened_before_the_session_ended_acts_no_more(
    client: Any, end: str
) -> None:
    # A socket opened with a session may not go on moving or chatting as its player once the
    # session has ended (found by the stop-32 attack: chat went on after logout and deletion).
    cookie = cookie_of(call(client, "POST", "/api/account", json={"name": "Gin", "password": PW}))
    tid = call(client, "POST", "/api/tables", cookie,
               json={"game": "tiny-sevens", "seats": ["human", "human"]}).json()["id"]  # fmt: skip
    with client.websocket_connect(f"/ws/tables/{tid}", headers={"cookie": cookie}) as ws:
        said = _chat_answer(ws, "before")
        assert said["type"] == "chat" and said["message"]["text"] == "before", said
        if end == "logout":
            assert call(client, "POST", "/api/logout", cookie).status_code == 200
        else:
            r = call(client, "DELETE", "/api/me", cookie, json={"password": PW})
            assert r.status_code == 200, r.text
        refused_msg = _chat_answer(ws, "said-after-the-end")
        assert refused_msg["code"] == "no_identity" and refused_msg["message_ja"], refused_msg
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


@pytest.mark.parametrize(
    ("body", "ja"),
    [
        ([1, 2], "本文はJSONのオブジェクトにしてください。"),
        ({"name": 5, "password": PW}, "「name」は文字列にしてください。"),
        ({"name": "Hoshi", "password": PW, "admin": True}, "「admin」という項目は使えません。"),
        ({"password": PW}, "「name」がありません。"),
    ],
)
def test_accounts_malformed_requests_are_refused_in_both_languages(
    client: Any, body: Any, ja: str
) -> None:
    # Found by the stop-32 attack: a body that fails the schema had only an English sentence.
    r = refused(client, "invalid", 422, "POST", "/api/account", json=body)
    assert r.json()["message_ja"] == ja, r.json()
    r = call(
        client,
        "POST",
        "/api/login",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422 and r.json()["message_ja"] == "本文が正しいJSONではありません。"
