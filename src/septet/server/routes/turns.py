"""Turn-based tables (issue 28): "your turn" across tables and the e-mail notices.

- ``GET /api/me/turns``: the tables waiting for this player's move, oldest deadline first.
- ``WS /ws/me``: this player's notices: ``{"type": "turns", "turns": [...], "your_turn":
  table id or null}`` at once and whenever a table of theirs moves on (any process).
- ``GET/POST/PATCH/DELETE /api/me/email``, ``POST /api/me/email/test``: the player's address
  (confirmed by a link), its daily digest and language, a test mail.
- ``GET /mail/confirm/{token}``, ``GET /mail/unsubscribe/{token}``: the mails' links (no login).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any

from fastapi import Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, StringConstraints

from septet import games
from septet.server.deps import OptionalPlayer, RequiredPlayer, Services, ServicesDep
from septet.server.live import LobbyError
from septet.server.mail import outbox
from septet.server.origin import same_origin
from septet.server.routes import router
from septet.server.turns.deadlines import my_turns
from septet.server.turns.notify import MeSocket

api = router(tags=["turns"])

CLOSE_NO_IDENTITY = 4401


class EmailIn(BaseModel):
    """``POST /api/me/email``: the address and the language of its mails."""

    model_config = ConfigDict(extra="forbid", strict=True)
    address: Annotated[str, StringConstraints(max_length=300)]
    lang: Annotated[str, StringConstraints(max_length=8)] = "en"
    digest: bool = False


class EmailPrefsIn(BaseModel):
    """``PATCH /api/me/email``: how the address gets mail (absent: unchanged)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    digest: bool | None = None
    lang: Annotated[str, StringConstraints(max_length=8)] | None = None


def _with_titles(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        options = json.loads(row.pop("options") or "{}")
        try:
            title = dict(games.get(row["game"], **options).titles)
        except Exception:  # an engine no longer installed
            title = {"en": row["game"], "ja": row["game"]}
        out.append({**row, "title": title})
    return out


async def turns_of(svc: Services, player_id: str) -> list[dict[str, Any]]:
    """The player's waiting tables (``GET /api/me/turns``' items): ``id``, ``game``,
    ``title`` (``{"en", "ja"}``), ``seat``, ``version``, ``pace``, ``turn_hours``,
    ``deadline`` (ISO-8601 or ``None`` for a live table)."""
    return _with_titles(await asyncio.to_thread(my_turns, svc.store, player_id))


@api.get("/api/me/turns")
async def get_turns(svc: ServicesDep, player: OptionalPlayer) -> dict[str, Any]:
    """``{"turns": [...], "count": n}``: the tables waiting for this player's move, oldest
    deadline first (then the live ones); empty without a guest."""
    found = await turns_of(svc, player.id) if player else []
    return {"turns": found, "count": len(found)}


@api.websocket("/ws/me")
async def ws_me(ws: WebSocket, svc: ServicesDep, player: OptionalPlayer) -> None:
    """This player's "your turn" notices (see the module); a socket without a guest is closed
    with code 4401."""
    origin = ws.headers.get("origin")
    if origin and not same_origin(origin, ws, svc.client_scheme(ws), svc.settings.public_url):
        await ws.close(code=1008)  # scheme, host and port alike (as /ws/tables)
        return
    await ws.accept()
    if player is None:
        await ws.close(code=CLOSE_NO_IDENTITY)
        return
    notifier = svc.manager.notifier
    sock = MeSocket(player.id)
    notifier.add(sock)
    reader = asyncio.get_running_loop().create_task(_read_pings(ws))
    try:
        await ws.send_text(
            json.dumps(
                {"type": "turns", "turns": await turns_of(svc, player.id), "your_turn": None},
                ensure_ascii=False,
            )
        )
        while not reader.done():
            waiter = asyncio.ensure_future(sock.queue.get())
            await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if not waiter.done():
                waiter.cancel()
                break
            table_id, yours = waiter.result()
            while not sock.queue.empty():  # a burst of notices: one list
                other, mine = sock.queue.get_nowait()
                if mine:
                    table_id, yours = other, True
            found = await turns_of(svc, player.id)
            await ws.send_text(
                json.dumps(
                    {"type": "turns", "turns": found, "your_turn": table_id if yours else None},
                    ensure_ascii=False,
                )
            )
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        notifier.remove(sock)
        reader.cancel()
        with contextlib.suppress(Exception):
            await ws.close()


async def _read_pings(ws: WebSocket) -> None:
    """Answer ``{"type": "ping"}`` until the peer leaves (everything else is ignored)."""
    with contextlib.suppress(Exception):
        while True:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                return
            if '"ping"' in (raw.get("text") or "")[:100]:
                await ws.send_text('{"type": "pong"}')


# ----- e-mail ------------
def _mail_error(exc: outbox.MailError) -> LobbyError:
    return LobbyError(exc.code, exc.message, status=exc.status, message_ja=exc.message_ja)


def _require_mail(svc: Services, player_id: str) -> None:
    if not svc.settings.smtp_url:
        raise LobbyError(
            "mail_off",
            "This server sends no e-mail (it runs without --smtp).",
            status=409,
            message_ja="このサーバーはメールを送りません（--smtp なしで動いています）。",
        )
    if not outbox.may_mail(svc.store, player_id):
        raise LobbyError(
            "account_needed",
            "E-mail notices need an account; sign up first.",
            status=403,
            message_ja="メール通知にはアカウントが必要です。先に登録してください。",
        )


@api.get("/api/me/email")
async def get_email(svc: ServicesDep, player: RequiredPlayer) -> dict[str, Any]:
    """``{"email": {"address", "lang", "confirmed", "digest"} or null, "last_error": why the
    last mail did not go (a sentence) or null, "last_error_ja": the same in Japanese, "enabled":
    whether this server sends mail}``."""
    found = await asyncio.to_thread(outbox.get_address, svc.store, player.id)
    error = await asyncio.to_thread(outbox.last_error, svc.store, player.id)
    return {
        "email": found.to_json() if found else None,
        **_errors(error),
        "enabled": bool(svc.settings.smtp_url),
    }


def _errors(error: str | None) -> dict[str, str | None]:
    from septet.server.mail.sender import error_ja

    return {"last_error": error, "last_error_ja": error_ja(error)}


@api.post("/api/me/email")
async def set_email(
    body: EmailIn, request: Request, svc: ServicesDep, player: RequiredPlayer
) -> dict[str, Any]:
    """Add (or change) this player's address: it gets a confirmation link, and mails about
    turn-based tables only once confirmed (``digest``: one a day listing them all). Errors:
    ``mail_off`` (409), ``account_needed`` (403), ``bad_email`` (400)."""
    _require_mail(svc, player.id)
    base = (
        svc.settings.public_url
        or f"{svc.client_scheme(request)}://{request.headers.get('host', '')}"
    )
    try:
        found = await svc.store.write(
            outbox.set_address,
            svc.store,
            player.id,
            body.address,
            body.lang,
            base,
            svc.manager.clock.now(),
            body.digest,
        )
    except outbox.MailError as exc:
        raise _mail_error(exc) from None
    return {"email": found.to_json(), **_errors(None), "enabled": True}


@api.patch("/api/me/email")
async def patch_email(
    body: EmailPrefsIn, svc: ServicesDep, player: RequiredPlayer
) -> dict[str, Any]:
    """Change the daily digest or the mails' language of this player's address (it stays
    confirmed). Errors: ``mail_off`` (409), ``account_needed`` (403), ``no_email`` (404)."""
    _require_mail(svc, player.id)
    try:
        found = await svc.store.write(
            outbox.set_prefs, svc.store, player.id, body.digest, body.lang
        )
    except outbox.MailError as exc:
        raise _mail_error(exc) from None
    error = await asyncio.to_thread(outbox.last_error, svc.store, player.id)
    return {"email": found.to_json(), **_errors(error), "enabled": True}


@api.delete("/api/me/email")
async def delete_email(svc: ServicesDep, player: RequiredPlayer) -> dict[str, Any]:
    """Forget this player's address."""
    await svc.store.write(outbox.remove_address, svc.store, player.id)
    return {"email": None, **_errors(None), "enabled": bool(svc.settings.smtp_url)}


@api.post("/api/me/email/test")
async def test_email(svc: ServicesDep, player: RequiredPlayer) -> dict[str, Any]:
    """Queue a test mail. Errors: ``mail_off`` (409), ``no_email`` (404), ``unconfirmed``
    (409)."""
    _require_mail(svc, player.id)
    try:
        await svc.store.write(outbox.queue_test, svc.store, player.id, svc.manager.clock.now())
    except outbox.MailError as exc:
        raise _mail_error(exc) from None
    return {"queued": True}


def _page(title: str, en: str, ja: str, status: int = 200) -> HTMLResponse:
    body = (
        f'<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width"><title>{title}</title></head><body>'
        f'<p lang="en">{en}</p><p lang="ja">{ja}</p><p><a href="/">Septet</a></p>'
        "</body></html>"
    )
    return HTMLResponse(body, status_code=status)


@api.get("/mail/confirm/{token}", include_in_schema=False)
async def confirm_email(token: str, svc: ServicesDep) -> HTMLResponse:
    """The confirmation link of a mail."""
    if await svc.store.write(outbox.confirm, svc.store, token[:100]):
        return _page(
            "Septet", "Your e-mail address is confirmed.", "メールアドレスを確認しました。"
        )
    return _page(
        "Septet",
        "This confirmation link is not valid (any more).",
        "この確認リンクは無効です。",
        404,
    )


@api.get("/mail/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe_email(token: str, svc: ServicesDep) -> HTMLResponse:
    """The unsubscribe link of every mail (no login needed)."""
    if await svc.store.write(outbox.unsubscribe, svc.store, token[:100]):
        return _page(
            "Septet",
            "Done: Septet will send no more mail to this address.",
            "完了しました。このアドレスには今後メールを送りません。",
        )
    return _page(
        "Septet",
        "This address gets no mail from Septet (already unsubscribed).",
        "このアドレスには Septet からメールは届きません（停止済み）。",
        404,
    )
