"""Mail of turn-based tables (issue 28), captured by a local SMTP server (aiosmtpd) started by
the test: an address is confirmed by a link; an unconfirmed one gets no "your turn" mail (and
a test mail is refused with a sentence); the turn mail is in the player's language with the
table's link and an unsubscribe link that works without logging in; a bad address and an SMTP
server that refuses give clear errors, the refused mail is tried again, and no move waits for
any of it. The mail rounds are run by hand with a manual clock."""

from __future__ import annotations

import queue
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any

import pytest

from septet.server.mail.sender import parse_smtp_url
from septet.server.turns.clock import ManualClock
from tests.server.conftest import make_client, new_guest
from tests.server.multiproc import free_port
from tests.server.server_clients import WsClient
from tests.server.smtp_capture import Capture, smtp_server

aiosmtpd = pytest.importorskip("aiosmtpd", reason="the dev extra's aiosmtpd (a local SMTP server)")

pytestmark = pytest.mark.timeout(120)
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def mail_site(tmp_path: Any) -> Iterator[tuple[Any, ManualClock, Capture]]:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'septet.sqlite3'}"
    with (
        smtp_server(port) as handler,
        make_client(
            db,
            sweep_interval=3600,
            smtp_url=f"smtp://127.0.0.1:{port}",
            mail_from="septet@example.org",
            mail_interval=3600,
        ) as client,  # fmt: skip
    ):
        clock = ManualClock(START)
        manager = client.app.state.manager
        manager.clock = manager.mail_sender.clock = clock
        yield client, clock, handler


def account(client: Any, name: str) -> str:
    """A new player that is an account (mail needs one); returns its cookie."""
    client.cookies.clear()
    r = client.post("/api/account", json={"name": name, "password": "a long secret 7"})
    assert r.status_code == 200, r.text
    token = r.cookies["septet_token"]
    client.cookies.clear()
    return f"septet_token={token}"


def mail_round(client: Any) -> int:
    return int(client.portal.call(client.app.state.manager.mail_sender.round))


def links(msg: EmailMessage) -> list[str]:
    body = msg.get_content()
    return re.findall(r"http://testserver/\S+", body)


def test_turns_mail_confirm_turn_unsubscribe_and_refusals(
    mail_site: tuple[Any, ManualClock, Capture],
) -> None:
    client, clock, smtp = mail_site
    ann, bob = account(client, "Ann"), new_guest(client, "Bob")  # Bob plays as a guest
    r = client.post("/api/me/email", json={"address": "bob@example.org"}, headers={"cookie": bob})
    assert r.status_code == 403 and r.json()["error"] == "account_needed"
    r = client.post("/api/me/email", json={"address": "ann at example", "lang": "ja"},
                    headers={"cookie": ann})  # fmt: skip
    assert r.status_code == 400 and r.json()["error"] == "bad_email", r.text
    assert "not an e-mail address" in r.json()["message"] and r.json()["message_ja"]
    r = client.post("/api/me/email", json={"address": "ann@example.org", "lang": "ja"},
                    headers={"cookie": ann})  # fmt: skip
    assert r.json()["email"] == {
        "address": "ann@example.org",
        "lang": "ja",
        "confirmed": False,
        "digest": False,
    }
    r = client.post("/api/me/email/test", headers={"cookie": ann})
    assert r.status_code == 409 and r.json()["error"] == "unconfirmed"
    assert "ann@example.org" in r.json()["message"]
    assert mail_round(client) == 1
    confirm = smtp.mails[-1]
    assert confirm["To"] == "ann@example.org" and confirm["From"] == "septet@example.org"
    assert confirm["Subject"] == "Septet のメールアドレスの確認"
    confirm_link, unsub_link = links(confirm)
    assert confirm_link.startswith("http://testserver/mail/confirm/")
    assert unsub_link.startswith("http://testserver/mail/unsubscribe/")
    # a turn-based table that waits for Ann (Bob moves first if the deal says so)
    options = {"target": 40, "pace": "turn-based", "turn_hours": 24}
    body = {"game": "tiny-sevens", "options": options, "seats": ["human", "human"]}
    tid = client.post("/api/tables", json=body, headers={"cookie": ann}).json()["id"]
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": bob})
    seats = {0: WsClient(client, tid, ann, queue.Queue(), "ann"),
             1: WsClient(client, tid, bob, queue.Queue(), "bob")}  # fmt: skip

    def move(seat: int) -> None:
        v = client.get(f"/api/tables/{tid}").json()["version"]
        st = seats[seat].wait_for(
            lambda m: m["type"] == "state" and m["legal"] and m["version"] == v
        )
        seats[seat].send({"type": "move", "version": v, "action": st["legal"][0]["a"]})
        seats[seat].wait_for(lambda m: m["type"] == "ack" and m["at"] == v)

    if client.get(f"/api/tables/{tid}").json()["to_move"] == 1:
        move(1)
    assert mail_round(client) == 0  # unconfirmed: no turn mail
    assert client.get(confirm_link.replace("http://testserver", "")).status_code == 200
    assert client.get("/api/me/email", headers={"cookie": ann}).json()["email"]["confirmed"]
    assert mail_round(client) == 1
    turn = smtp.mails[-1]
    deadline = datetime.fromisoformat(client.get(f"/api/tables/{tid}").json()["deadline"])
    assert turn["Subject"] == "ちいさなセブンであなたの番です"
    text = turn.get_content()
    assert f"{deadline.year}年{deadline.month}月{deadline.day}日 {deadline:%H:%M}（UTC）" in text
    assert links(turn) == [f"http://testserver/t/{tid}", unsub_link]
    assert mail_round(client) == 0  # once per position
    # back to Ann within three hours: no second mail about this table
    move(0)
    move(1)
    assert mail_round(client) == 0
    # three hours later the SMTP server refuses: the mail waits, the error is said, moves go on
    clock.advance(hours=3, seconds=1)
    move(0)
    move(1)
    smtp.refuse = True
    assert mail_round(client) == 0
    state = client.get("/api/me/email", headers={"cookie": ann}).json()
    assert state["last_error"].startswith("The mail server refused the address: 550")
    assert state["last_error_ja"].startswith("メールサーバーがアドレスを拒否しました: 550")
    move(0)  # a move is never held up by mail
    move(1)
    smtp.refuse = False
    assert mail_round(client) == 0  # tried again only after a minute
    clock.advance(seconds=61)
    assert mail_round(client) == 1 and smtp.mails[-1]["Subject"] == turn["Subject"]
    assert client.get("/api/me/email", headers={"cookie": ann}).json()["last_error"] is None
    # the unsubscribe link works without a cookie
    client.cookies.clear()
    page = client.get(unsub_link.replace("http://testserver", ""))
    assert page.status_code == 200 and "no more mail" in page.text
    assert client.get("/api/me/email", headers={"cookie": ann}).json()["email"] is None
    clock.advance(hours=4)
    move(0)
    move(1)
    assert mail_round(client) == 0
    for ws in seats.values():
        ws.close()


def test_turns_mail_english_test_mail_and_no_smtp(
    mail_site: tuple[Any, ManualClock, Capture], tmp_path: Any
) -> None:
    client, _, smtp = mail_site
    bob = account(client, "Bob")
    client.post("/api/me/email", json={"address": "bob@example.org"}, headers={"cookie": bob})
    mail_round(client)
    assert smtp.mails[-1]["Subject"] == "Confirm your e-mail address for Septet"
    assert "Hello Bob," in smtp.mails[-1].get_content()
    client.get(links(smtp.mails[-1])[0].replace("http://testserver", ""))
    assert client.post("/api/me/email/test", headers={"cookie": bob}).json() == {"queued": True}
    assert mail_round(client) == 1 and smtp.mails[-1]["Subject"] == "Septet test mail"
    with make_client(f"sqlite:///{tmp_path / 'plain.sqlite3'}") as plain:  # no --smtp
        carl = account(plain, "Carl")
        r = plain.post("/api/me/email", json={"address": "c@example.org"}, headers={"cookie": carl})
        assert r.status_code == 409 and r.json()["error"] == "mail_off" and r.json()["message_ja"]


def test_turns_mail_smtp_urls() -> None:
    cfg = parse_smtp_url("smtp+starttls://me%40x:pa%3Ass@mail.example.org", "s@example.org")
    assert (cfg.host, cfg.port, cfg.security, cfg.user, cfg.password) == (
        "mail.example.org", 587, "starttls", "me@x", "pa:ss")  # fmt: skip
    assert parse_smtp_url("smtps://h", "s@example.org").port == 465
    assert parse_smtp_url("smtp://h:2525", "s@example.org").port == 2525
    for url, sender, says in [
        ("http://h", "s@example.org", "must start with smtp://"),
        ("smtp://", "s@example.org", "names no host"),
        ("smtp://h", "nobody", "--mail-from must be an e-mail address"),
    ]:
        with pytest.raises(ValueError, match=says):
            parse_smtp_url(url, sender)


def waiting_for_first(client: Any, first: str, second: str) -> tuple[str, dict[int, WsClient]]:
    """A turn-based Tiny Sevens table of ``first`` (seat 0) and ``second`` (seat 1), moved on
    by ``second`` if the deal makes it move first: it waits for ``first``. Returns its id and
    the seats' sockets."""
    options = {"target": 40, "pace": "turn-based", "turn_hours": 24}
    body = {"game": "tiny-sevens", "options": options, "seats": ["human", "human"]}
    tid = client.post("/api/tables", json=body, headers={"cookie": first}).json()["id"]
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": second})
    seats = {0: WsClient(client, tid, first, queue.Queue(), "first"),
             1: WsClient(client, tid, second, queue.Queue(), "second")}  # fmt: skip
    if client.get(f"/api/tables/{tid}").json()["to_move"] == 1:
        v = client.get(f"/api/tables/{tid}").json()["version"]
        st = seats[1].wait_for(lambda m: m["type"] == "state" and m["legal"] and m["version"] == v)
        seats[1].send({"type": "move", "version": v, "action": st["legal"][0]["a"]})
        seats[1].wait_for(lambda m: m["type"] == "ack" and m["at"] == v)
    assert client.get(f"/api/tables/{tid}").json()["to_move"] == 0
    return tid, seats


def test_turns_mail_daily_digest_lists_the_waiting_tables(
    mail_site: tuple[Any, ManualClock, Capture],
) -> None:
    client, clock, smtp = mail_site
    ann, bob = account(client, "Ann"), new_guest(client, "Bob")
    r = client.post("/api/me/email", json={"address": "ann@example.org", "digest": True},
                    headers={"cookie": ann})  # fmt: skip
    assert r.json()["email"] == {
        "address": "ann@example.org", "lang": "en", "confirmed": False, "digest": True}  # fmt: skip
    assert mail_round(client) == 1  # the confirmation
    confirm_link, unsub_link = links(smtp.mails[-1])
    client.get(confirm_link.replace("http://testserver", ""))
    first, s1 = waiting_for_first(client, ann, bob)
    second, s2 = waiting_for_first(client, ann, bob)
    assert mail_round(client) == 1  # one digest, not one mail per table
    digest = smtp.mails[-1]
    assert digest["Subject"] == "Septet: 2 turn-based tables wait for you"
    text = digest.get_content()
    assert text.count("- Tiny Sevens: move by ") == 2
    # oldest deadline first (the same clock here: then the one changed first)
    assert links(digest) == [f"http://testserver/t/{first}", f"http://testserver/t/{second}",
                             unsub_link]  # fmt: skip
    assert mail_round(client) == 0
    clock.advance(hours=23, seconds=59 * 60)
    assert mail_round(client) == 0  # a day has not passed
    # in Japanese from now on, still confirmed; the next day's digest
    r = client.patch("/api/me/email", json={"lang": "ja"}, headers={"cookie": ann})
    assert r.json()["email"]["confirmed"] and r.json()["email"]["lang"] == "ja"
    clock.advance(seconds=60)
    assert mail_round(client) == 1
    assert smtp.mails[-1]["Subject"] == "Septet: 手番制のテーブル2卓であなたの番です"
    assert smtp.mails[-1].get_content().count("・ちいさなセブン: ") == 2
    # the digest off: one mail per table again
    r = client.patch("/api/me/email", json={"digest": False}, headers={"cookie": ann})
    assert r.json()["email"]["digest"] is False
    assert mail_round(client) == 2
    assert {m["Subject"] for m in smtp.mails[-2:]} == {"ちいさなセブンであなたの番です"}
    r = client.patch("/api/me/email", json={"digest": "yes"}, headers={"cookie": ann})
    assert r.status_code in (400, 422)
    client.delete("/api/me/email", headers={"cookie": ann})
    r = client.patch("/api/me/email", json={"digest": True}, headers={"cookie": ann})
    assert r.status_code == 404 and r.json()["error"] == "no_email" and r.json()["message_ja"]
    for ws in [*s1.values(), *s2.values()]:
        ws.close()
