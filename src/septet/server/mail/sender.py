"""Sending the outbox: ``septet serve --smtp URL --mail-from ADDRESS``.

:func:`parse_smtp_url` reads the server's address: ``smtp://host:25`` (plain),
``smtp+starttls://user:password@host:587`` (STARTTLS) or ``smtps://user:password@host:465``
(TLS from the start). :class:`MailSender` runs in every server process with ``--smtp``: every
``interval`` seconds it queues the "your turn" mails due
(:func:`septet.server.mail.outbox.queue_turn_mails`) and the daily digests
(:func:`septet.server.mail.outbox.queue_digests`), claims the mails due and sends each
with :mod:`smtplib` in a thread; a refused or failed mail is tried again later (see
:data:`septet.server.mail.outbox.BACKOFF`) and its error kept for the player to read. Nothing
here runs inside a move.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import unquote, urlsplit

from septet.server.mail import outbox
from septet.server.store import Store
from septet.server.turns.clock import Clock

log = logging.getLogger("septet.server")

DIGEST_PERIOD = 86400.0
"""Seconds between two daily digests to one address."""


@dataclass(frozen=True)
class SmtpConfig:
    """Where mail goes: ``host``, ``port``, ``security`` (``plain``, ``starttls``, ``tls``),
    optional ``user`` / ``password``, and the ``sender`` address (``From``)."""

    host: str
    port: int
    security: str = "plain"
    user: str = ""
    password: str = ""
    sender: str = ""


def parse_smtp_url(url: str, sender: str) -> SmtpConfig:
    """The SMTP server of ``url`` (see the module) sending as ``sender``.

    Raises:
        ValueError: an unknown scheme, no host, a bad port, or a ``sender`` that is no address.
    """
    parts = urlsplit(url.strip())
    schemes = {"smtp": ("plain", 25), "smtp+starttls": ("starttls", 587), "smtps": ("tls", 465)}
    if parts.scheme not in schemes:
        raise ValueError(
            f"--smtp must start with smtp://, smtp+starttls:// or smtps://, not {url!r}"
        )
    if not parts.hostname:
        raise ValueError(f"--smtp {url!r} names no host")
    try:
        port = parts.port or schemes[parts.scheme][1]
    except ValueError:
        raise ValueError(f"--smtp {url!r} has a bad port") from None
    try:
        outbox.check_address(sender)
    except outbox.MailError:
        raise ValueError(f"--mail-from must be an e-mail address, not {sender!r}") from None
    return SmtpConfig(
        parts.hostname,
        port,
        schemes[parts.scheme][0],
        unquote(parts.username or ""),
        unquote(parts.password or ""),
        sender,
    )


def send_one(config: SmtpConfig, to: str, subject: str, body: str, timeout: float = 20.0) -> None:
    """Send one plain-text UTF-8 mail (blocking: call it in a thread).

    Raises:
        smtplib.SMTPException, OSError: the server refused it or could not be reached.
    """
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = config.sender, to, subject
    msg["Date"], msg["Message-ID"] = formatdate(localtime=False), make_msgid("septet")
    msg.set_content(body, charset="utf-8")
    if config.security == "tls":
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(
            config.host, config.port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        smtp = smtplib.SMTP(config.host, config.port, timeout=timeout)
    with smtp:
        if config.security == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if config.user:
            smtp.login(config.user, config.password)
        smtp.send_message(msg)


def describe_error(exc: BaseException) -> str:
    """An SMTP failure as a sentence for the player (English; the code and the server's words
    are kept)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [
            f"{c} {m.decode('utf-8', 'replace') if isinstance(m, bytes) else m}"
            for c, m in exc.recipients.values()
        ]
        return f"The mail server refused the address: {'; '.join(codes)}"
    if isinstance(exc, smtplib.SMTPResponseException):
        text = (
            exc.smtp_error.decode("utf-8", "replace")
            if isinstance(exc.smtp_error, bytes)
            else str(exc.smtp_error)
        )
        return f"The mail server refused the mail: {exc.smtp_code} {text}"
    if isinstance(exc, OSError):
        return f"The mail server could not be reached: {exc}"
    return f"The mail could not be sent: {exc}"


_JA_PREFIXES = (
    ("The mail server refused the address: ", "メールサーバーがアドレスを拒否しました: "),
    ("The mail server refused the mail: ", "メールサーバーがメールを拒否しました: "),
    ("The mail server could not be reached: ", "メールサーバーにつながりませんでした: "),
    ("The mail could not be sent: ", "メールを送れませんでした: "),
)


def error_ja(text: str | None) -> str | None:
    """A sentence of :func:`describe_error` in Japanese (the server's own words after the
    colon stay as they came); ``None`` for ``None``."""
    if text is None:
        return None
    for en, ja in _JA_PREFIXES:
        if text.startswith(en):
            return ja + text[len(en) :]
    return text


class MailSender:
    """The background task of one process that queues and sends mail (see the module).

    Args:
        store: the database.
        config: the SMTP server.
        clock: the clock (deadlines, retries and the "once per table" spacing follow it).
        interval: seconds between rounds.
        every: seconds between two "your turn" mails about one table.
        public_url: the site's address for links (else the one the address was added from).
    """

    def __init__(
        self,
        store: Store,
        config: SmtpConfig,
        clock: Clock,
        interval: float = 10.0,
        every: float = 3 * 3600.0,
        public_url: str = "",
    ) -> None:
        self.store, self.config, self.clock = store, config, clock
        self.interval, self.every, self.public_url = interval, every, public_url
        self.sent = 0

    async def round(self) -> int:
        """Queue the turn mails due, then send what is due; returns how many were sent."""
        now = self.clock.now()
        await asyncio.to_thread(
            outbox.queue_turn_mails, self.store, now, self.every, self.public_url
        )
        await asyncio.to_thread(
            outbox.queue_digests, self.store, now, DIGEST_PERIOD, self.public_url
        )
        sent = 0
        for mail in await asyncio.to_thread(outbox.claim, self.store, now):
            error = None
            try:
                await asyncio.to_thread(
                    send_one, self.config, mail.address, mail.subject, mail.body
                )
            except Exception as exc:
                error = describe_error(exc)
                log.warning("mail %s to %s not sent: %s", mail.id, mail.address, error)
            status = await asyncio.to_thread(
                outbox.finish, self.store, mail, self.clock.now(), error
            )
            sent += status == "sent"
        self.sent += sent
        return sent

    async def run(self) -> None:
        """Rounds every ``interval`` seconds until cancelled."""
        while True:
            try:
                await self.round()
            except Exception:
                log.exception("mail round failed")
            await asyncio.sleep(self.interval)
