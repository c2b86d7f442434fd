"""Guests: a display name and a secret token in an HttpOnly cookie."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response

from septet.server.deps import COOKIE, OptionalPlayer, Player, ServicesDep
from septet.server.live import LobbyError
from septet.server.routes import router
from septet.server.schemas import GuestIn

api = router(tags=["guests"])


@api.get("/api/me")
async def me(player: OptionalPlayer) -> dict[str, Any]:
    """The guest of this browser, or ``{"player": null}``."""
    return {"player": {"id": player.id, "name": player.name} if player else None}


@api.post("/api/guest")
async def guest(
    body: GuestIn, request: Request, response: Response, svc: ServicesDep, player: OptionalPlayer
) -> dict[str, Any]:
    """Rename the guest of this browser, or create one (sets the ``septet_token`` cookie).

    Errors: ``guest_rate`` (429) when this address has created too many guests lately.
    """
    token = request.cookies.get(COOKIE)
    if player is not None and token is not None:
        await svc.store.write(svc.store.rename_player, player.id, body.name)
        svc.remember(token, Player(player.id, body.name))
        return {"player": {"id": player.id, "name": body.name}}
    if not svc.allow_new_guest(svc.client_address(request)):
        raise LobbyError(
            "guest_rate",
            "Too many new guests from your address; try again in a minute.",
            status=429,
            message_ja="このアドレスからの新しいゲストが多すぎます。1分後にもう一度どうぞ。",
        )
    pid, new_token = await svc.store.write(svc.store.create_player, body.name)
    response.set_cookie(
        COOKIE,
        new_token,
        max_age=365 * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=svc.client_scheme(request) == "https",
    )
    return {"player": {"id": pid, "name": body.name}}
