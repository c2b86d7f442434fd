"""Accounts (issue 24): claim this browser's guest as an account, sign in and out, change the
password, export or delete one's data. The API, its answers and error codes are in
docs/accounts.md; the work is done by :class:`septet.server.accounts.service.Accounts`.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import Request, Response
from pydantic import BaseModel, ConfigDict, StringConstraints

from septet.server.deps import COOKIE, OptionalPlayer, Player, RequiredPlayer, ServicesDep
from septet.server.live import LobbyError
from septet.server.routes import router

api = router(tags=["accounts"])

# Loose bounds here (the body's size); the accounts' own checks give the coded errors.
_Text = Annotated[str, StringConstraints(max_length=1024)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CredentialsIn(_Strict):
    """``POST /api/account`` and ``POST /api/login``: an account name and its password."""

    name: _Text
    password: _Text


class PasswordChangeIn(_Strict):
    """``POST /api/me/password``: the current password and the new one."""

    old: _Text
    new: _Text


class DeleteIn(_Strict):
    """``DELETE /api/me``: the account's password (a guest sends none)."""

    password: _Text | None = None


def player_json(player: Player) -> dict[str, Any]:
    """A player as the API gives it: ``{"id", "name", "account"}`` (``account``: false for a
    guest)."""
    return {"id": player.id, "name": player.name, "account": player.account}


def secure_cookie(request: Request, svc: Any) -> bool:
    """Whether the session cookie is ``Secure``: the client came over https
    (``client_scheme``: ``X-Forwarded-Proto`` behind ``--trust-proxy``), or the site's
    ``--public-url`` is an https address (a proxy in front that sends no such header)."""
    public = svc.settings.public_url.strip().lower()
    return bool(svc.client_scheme(request) == "https" or public.startswith("https://"))


def set_session_cookie(response: Response, request: Request, svc: Any, token: str) -> None:
    """Set the ``septet_token`` cookie: HttpOnly, SameSite=Lax, a year, Secure when the site is
    reached over https (:func:`secure_cookie`)."""
    response.set_cookie(COOKIE, token, max_age=365 * 24 * 3600, httponly=True, samesite="lax",
                        secure=secure_cookie(request, svc))  # fmt: skip


def _clear_cookie(response: Response, request: Request, svc: Any) -> None:
    response.delete_cookie(COOKIE, httponly=True, samesite="lax",
                           secure=secure_cookie(request, svc))  # fmt: skip


def _user_agent(request: Request) -> str:
    return request.headers.get("user-agent", "")[:64]


def _token(request: Request) -> str:
    token = request.cookies.get(COOKIE)
    assert token is not None  # a player was found by it
    return token


@api.post("/api/account")
async def create_account(
    body: CredentialsIn, request: Request, response: Response, svc: ServicesDep,
    player: OptionalPlayer,
) -> dict[str, Any]:  # fmt: skip
    """Make this browser's guest an account (the same player: its tables stay its), or create
    a new player that is an account; a new session cookie either way (the old one ends).

    Errors: ``bad_name``, ``password_short``, ``password_long``, ``password_is_name`` (400),
    ``already_account``, ``name_taken`` (409), ``guest_rate`` (429, no guest: a new player).
    """
    if player is None and not svc.allow_new_guest(svc.client_address(request)):
        raise LobbyError("guest_rate",
                         "Too many new players from your address; try again in a minute.",
                         status=429,
                         message_ja="このアドレスからの新しいプレイヤーが多すぎます。"
                                    "1分後にもう一度どうぞ。")  # fmt: skip
    found, token = await svc.accounts.claim(
        player, request.cookies.get(COOKIE), body.name, body.password, _user_agent(request)
    )
    set_session_cookie(response, request, svc, token)
    svc.remember(token, found)
    return {"player": player_json(found)}


@api.post("/api/login")
async def login(
    body: CredentialsIn, request: Request, response: Response, svc: ServicesDep
) -> dict[str, Any]:
    """Sign in to an account on this browser: a new session cookie (the browser's previous
    session, a guest's or another account's, ends).

    Errors: ``bad_login`` (401: the same for an unknown name and a wrong password),
    ``login_rate`` (429 with ``Retry-After``: 5 failures per account or 20 per address in
    15 minutes).
    """
    found, token = await svc.accounts.login(
        body.name, body.password, svc.client_address(request), _user_agent(request),
        request.cookies.get(COOKIE),
    )  # fmt: skip
    set_session_cookie(response, request, svc, token)
    svc.remember(token, found)
    return {"player": player_json(found)}


@api.post("/api/logout")
async def logout(request: Request, response: Response, svc: ServicesDep) -> dict[str, Any]:
    """End this browser's session (on every process) and clear its cookie."""
    token = request.cookies.get(COOKIE)
    if token and len(token) <= 100:
        await svc.accounts.logout(token)
    _clear_cookie(response, request, svc)
    return {"ok": True}


@api.post("/api/me/password")
async def change_password(
    body: PasswordChangeIn, request: Request, svc: ServicesDep, player: RequiredPlayer
) -> dict[str, Any]:
    """Change the account's password; every other session of it ends (this one stays).

    Errors: ``no_identity`` (401), ``not_account`` (403), ``wrong_password`` (403),
    ``password_short``, ``password_long``, ``password_is_name`` (400), ``login_rate`` (429).
    """
    ended = await svc.accounts.change_password(
        player, _token(request), body.old, body.new, svc.client_address(request)
    )
    return {"ok": True, "ended_sessions": ended}


@api.delete("/api/me")
async def delete_me(
    request: Request, response: Response, svc: ServicesDep, player: RequiredPlayer,
    body: DeleteIn | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Delete this player: an account gives its password, a guest's cookie is enough. Seats in
    others' histories stay, as "deleted player"; every session ends.

    Errors: ``no_identity`` (401), ``wrong_password`` (403), ``login_rate`` (429).
    """
    password = body.password if body else None
    await svc.accounts.delete(player, password, svc.client_address(request))
    _clear_cookie(response, request, svc)
    return {"ok": True}


@api.get("/api/me/export")
async def export_me(request: Request, svc: ServicesDep, player: RequiredPlayer) -> Response:
    """Everything stored about this player, as a JSON download (``septet-data.json``):
    ``profile``, ``sessions``, ``tables``, ``chat``, ``moves`` (docs/accounts.md).

    Errors: ``no_identity`` (401).
    """
    data = await svc.accounts.export(player, _token(request))
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="septet-data.json"',
                 "Cache-Control": "no-store"},
    )  # fmt: skip
