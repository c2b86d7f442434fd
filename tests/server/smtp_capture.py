"""A local SMTP server for the mail tests (aiosmtpd), keeping every mail it is sent: shared by
the server's mail tests and the browser's e-mail settings test."""

from __future__ import annotations

import email
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.policy import default
from typing import Any


class Capture:
    """An SMTP handler keeping every mail; ``refuse`` makes it refuse every recipient."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.refuse = False

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: Any) -> str:  # fmt: skip
        if self.refuse:
            return "550 5.1.1 Mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(msg, EmailMessage)
        self.mails.append(msg)
        return "250 OK"

    def wait(self, count: int, timeout: float = 30.0) -> EmailMessage:
        """The ``count``-th mail, once it came (a server sends every few seconds).

        Raises AssertionError after ``timeout`` seconds with fewer mails."""
        end = time.monotonic() + timeout
        while len(self.mails) < count:
            assert time.monotonic() < end, f"{len(self.mails)} mails, not {count}"
            time.sleep(0.2)
        return self.mails[count - 1]


@contextmanager
def smtp_server(port: int) -> Iterator[Capture]:
    """An aiosmtpd server on 127.0.0.1:``port`` for the block; yields its :class:`Capture`."""
    from aiosmtpd.controller import Controller

    handler = Capture()
    smtp = Controller(handler, hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        yield handler
    finally:
        smtp.stop()
