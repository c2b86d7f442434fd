"""The browser client's pages (``/``, ``/t/{id}``, ``/r/{id}``, ``/account``, ``/u/{name}``,
``/leaderboard/{game}``); its files are mounted at
``/static`` by ``create_app``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi.responses import FileResponse

from septet.server.routes import router

WEB_DIR = Path(str(resources.files("septet") / "web"))
CLIENT_HEADERS = {
    # The client is our own modules only: no inline script, nothing from elsewhere.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}

api = router(include_in_schema=False)


@api.get("/")
@api.get("/t/{table_id}")
@api.get("/r/{table_id}")
@api.get("/account")  # accounts (issue 24)
@api.get("/u/{player_ref}")
@api.get("/leaderboard/{game}")
async def page() -> FileResponse:
    """The client's single page (it reads the path itself)."""
    return FileResponse(
        WEB_DIR / "index.html", headers={"Cache-Control": "no-cache", **CLIENT_HEADERS}
    )
