"""The Septet web server (``septet serve``): lobby, real-time play, persistence, replays.

``create_app(Settings(...))`` builds the FastAPI application; see ``docs/server.md``. The
imports are lazy so that ``septet`` commands other than ``serve`` do not load FastAPI.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from septet.server.app import create_app

        return create_app
    if name == "Settings":
        from septet.server.config import Settings

        return Settings
    raise AttributeError(name)
