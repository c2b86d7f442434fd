"""Guests: a display name and a secret token in an HttpOnly cookie (a session row; an account is
a guest that claimed a name and a password: :mod:`septet.server.routes.accounts`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request, Response

from septet.server.accounts.data import name_taken
from septet.server.accounts.names import check_name, name_key, name_keys
from septet.server.deps import COOKIE, OptionalPlayer, Player, ServicesDep
from septet.server.live import LobbyError
from septet.server.routes import router
from septet.server.routes.accounts import player_json, set_session_cookie
from septet.server.schemas import GuestIn

api = router(tags=["guests"])


@api.get("/api/me")
async def me(player: OptionalPlayer) -> dict[str, Any]:
    """The player of this browser, ``{"player": {"id", "name", "account"}}`` (``account``:
    false for a guest), or ``{"player": null}``."""
    return {"player": player_json(player) if player else None}


@api.post("/api/guest")
async def guest(
    body: GuestIn, request: Request, response: Response, svc: ServicesDep, player: OptionalPlayer
) -> dict[str, Any]:
    """Rename the player of this browser (an account's new name must be free), or create a
    guest (sets the ``septet_token`` cookie). A guest may not take an account's name.

    Errors: ``bad_name`` (400), ``name_taken`` (409), ``guest_rate`` (429) when this address
    has created too many guests lately.
    """
    name = check_name(body.name)
    key = name_key(name)
    data = svc.accounts.data
    if await asyncio.to_thread(data.name_in_use, name_keys(name), player.id if player else None):
        raise name_taken()
    token = request.cookies.get(COOKIE)
    if player is not None and token is not None:
        if player.account:
            await svc.store.write(data.rename_account, player.id, name, key)
        else:
            await svc.store.write(svc.store.rename_player, player.id, name)
        renamed = Player(player.id, name, player.account)
        svc.remember(token, renamed)
        return {"player": player_json(renamed)}
    if not svc.allow_new_guest(svc.client_address(request)):
        raise LobbyError(
            "guest_rate",
            "Too many new guests from your address; try again in a minute.",
            status=429,
            message_ja="このアドレスからの新しいゲストが多すぎます。1分後にもう一度どうぞ。",
        )
    pid, new_token = await svc.store.write(
        svc.store.create_player, name, request.headers.get("user-agent", "")
    )
    set_session_cookie(response, request, svc, new_token)
    return {"player": player_json(Player(pid, name))}
