"""Accounts (issue 24): a guest keeps everything when it becomes an account.

- :mod:`.names`: the one name check (:func:`check_name`, guests' names too) and the unique
  :func:`name_key` (NFKC + case folding);
- :mod:`.passwords`: argon2id hashing on threads of its own, the password rules;
- :mod:`.limits`: failed sign-ins per account and per address (memory, or Redis);
- :mod:`.data`: sessions as rows, claiming, deletion, the export;
- :mod:`.service`: what the routes (:mod:`septet.server.routes.accounts`) do.

How to tell a guest from an account: ``Player.account`` (the request's player,
:mod:`septet.server.deps`), ``PlayerRow.is_account`` (a row), or in SQL
``password_hash IS NOT NULL AND deleted_at IS NULL``; deleted players have ``deleted_at``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septet.server.accounts.names import check_name, name_key

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["check_name", "install", "name_key"]


def install(app: FastAPI) -> None:
    """Wire the accounts into a FastAPI ``app`` whose ``app.state.services`` is set: the one
    cross-origin middleware (:class:`septet.server.origin.SameOrigin`) and the answers of a
    rate-limited sign-in (429) and of a full hashing queue (503), both with ``Retry-After``."""
    from fastapi import Request
    from fastapi.responses import JSONResponse

    from septet.server.accounts.passwords import Busy
    from septet.server.accounts.service import RateLimited
    from septet.server.origin import SameOrigin

    app.add_middleware(SameOrigin, services=app.state.services)

    async def _wait(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RateLimited | Busy)
        body = {"error": exc.code, "message": exc.message, "message_ja": exc.message_ja}
        return JSONResponse(body, status_code=exc.status,
                            headers={"Retry-After": str(exc.retry_after)})  # fmt: skip

    app.add_exception_handler(RateLimited, _wait)
    app.add_exception_handler(Busy, _wait)
