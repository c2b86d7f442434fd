"""The background parts of turn-based tables a server process starts with its application:
the notices of the other processes (``/ws/me``, scaled out) and, with ``--smtp``, the mail
sender. (The deadlines are swept with the expired tables: ``TableManager.sweep_forever``.)"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from septet.server.config import Settings
from septet.server.store import Store


async def start(manager: Any, store: Store, settings: Settings) -> Callable[[], Awaitable[None]]:
    """Start them; returns the coroutine function that stops them."""
    await manager.notifier.start()
    task: asyncio.Task[None] | None = None
    if settings.smtp_url:
        from septet.server.mail.sender import MailSender, parse_smtp_url

        sender = MailSender(
            store,
            parse_smtp_url(settings.smtp_url, settings.mail_from),
            manager.clock,
            settings.mail_interval,
            settings.mail_every,
            settings.public_url,
        )
        manager.mail_sender = sender
        task = asyncio.get_running_loop().create_task(sender.run())

    async def stop() -> None:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await manager.notifier.close()

    return stop
