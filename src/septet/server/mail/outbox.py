"""E-mail addresses, the "your turn" notices and the outbox, on the server's database.

Everything that should become a mail is first a row of ``septet_outbox`` (in the transaction
that decides it), so a restart loses nothing; :mod:`septet.server.mail.sender` sends the rows.
A move never waits for a mail: the notices are found by a sweep over the tables, after the
moves are committed.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from septet import games
from septet.server.db import PlayerRow, SeatRow, TableRow
from septet.server.mail import templates
from septet.server.mail.models import MailAddressRow, MailNoticeRow, OutboxRow
from septet.server.store import Store

ADDRESS = re.compile(
    r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$"
)
"""What an address must look like (a local part, ``@``, a domain with a dot)."""

MAX_ATTEMPTS = 5
BACKOFF = (60.0, 300.0, 1800.0, 7200.0)
"""Seconds before each new attempt of a mail the server refused (then it is ``failed``)."""


class MailError(ValueError):
    """A mail request that cannot be granted: ``code``, ``status`` (HTTP) and a sentence in
    English and Japanese."""

    def __init__(self, code: str, message: str, message_ja: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.message_ja, self.status = code, message, message_ja, status


def may_mail(store: Store, player_id: str) -> bool:
    """Whether ``player_id`` may add an e-mail address: accounts only (a guest plays
    turn-based tables through its cookie, without mail). The one place to change that."""
    account = select(PlayerRow.id).where(
        PlayerRow.id == player_id, PlayerRow.account_at.is_not(None), PlayerRow.deleted_at.is_(None)
    )
    with Session(store.engine) as s:
        return s.scalar(account) is not None


def check_address(address: str) -> str:
    """``address`` trimmed, if it looks like an e-mail address.

    Raises:
        MailError: ``bad_email``.
    """
    address = address.strip()
    if len(address) > 254 or not ADDRESS.match(address):
        raise MailError(
            "bad_email",
            f"{address[:60]!r} is not an e-mail address (like name@example.org).",
            f"{address[:60]!r} はメールアドレスではありません（name@example.org のように）。",
        )
    return address


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Address:
    """A player's address as the API shows it (no tokens)."""

    address: str
    lang: str
    confirmed: bool
    digest: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"address", "lang", "confirmed", "digest"}``."""
        return {
            "address": self.address,
            "lang": self.lang,
            "confirmed": self.confirmed,
            "digest": self.digest,
        }


def _address(row: MailAddressRow) -> Address:
    return Address(row.address, row.lang, row.confirmed, bool(row.digest))


def get_address(store: Store, player_id: str) -> Address | None:
    """The player's address, or ``None``."""
    with Session(store.engine) as s:
        row = s.get(MailAddressRow, player_id)
        return _address(row) if row else None


def last_error(store: Store, player_id: str) -> str | None:
    """Why the player's last mail did not go (while it is waiting to be tried again or gave
    up), or ``None``."""
    with Session(store.engine) as s:
        row = s.execute(
            select(OutboxRow.status, OutboxRow.last_error)
            .where(OutboxRow.player_id == player_id)
            .order_by(OutboxRow.id.desc())
            .limit(1)
        ).first()
    return row[1] if row and row[0] != "sent" and row[1] else None


def _queue(
    s: Session, player_id: str | None, address: str, mail: tuple[str, str], now: datetime
) -> None:
    s.add(
        OutboxRow(
            player_id=player_id,
            address=address,
            subject=mail[0],
            body=mail[1],
            status="pending",
            attempts=0,
            next_at=now,
            created_at=now,
        )
    )


def set_address(
    store: Store,
    player_id: str,
    address: str,
    lang: str,
    base_url: str,
    now: datetime,
    digest: bool = False,
) -> Address:
    """Give the player the (new, unconfirmed) ``address`` and queue the confirmation mail, in
    the player's ``lang``, with links under ``base_url``; ``digest``: one mail a day listing
    the waiting tables instead of one per table.

    Raises:
        MailError: ``bad_email``.
    """
    address = check_address(address)
    lang = "ja" if lang == "ja" else "en"
    confirm, unsub = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    with Session(store.engine) as s, s.begin():
        name = s.scalar(select(PlayerRow.name).where(PlayerRow.id == player_id)) or ""
        s.execute(delete(MailAddressRow).where(MailAddressRow.player_id == player_id))
        s.add(
            MailAddressRow(
                player_id=player_id,
                address=address,
                lang=lang,
                confirmed=False,
                confirm_hash=_hash(confirm),
                unsub_token=unsub,
                base_url=base_url,
                created_at=now,
                digest=digest,
            )
        )
        mail = templates.render(
            "confirm",
            lang,
            name=name,
            confirm=f"{base_url}/mail/confirm/{confirm}",
            unsubscribe=f"{base_url}/mail/unsubscribe/{unsub}",
        )
        _queue(s, player_id, address, mail, now)
    return Address(address, lang, False, digest)


def set_prefs(
    store: Store, player_id: str, digest: bool | None = None, lang: str | None = None
) -> Address:
    """Change how the player's address gets mail (``None``: unchanged) without confirming it
    again: ``digest`` (one mail a day) and ``lang`` (``en`` / ``ja``).

    Raises:
        MailError: ``no_email`` (404).
    """
    with Session(store.engine) as s, s.begin():
        row = s.get(MailAddressRow, player_id)
        if row is None:
            raise _no_email()
        if digest is not None:
            row.digest = digest
        if lang is not None:
            row.lang = "ja" if lang == "ja" else "en"
        return _address(row)


def _no_email() -> MailError:
    return MailError(
        "no_email",
        "You have no e-mail address here yet.",
        "メールアドレスがまだ登録されていません。",
        404,
    )


def confirm(store: Store, token: str) -> bool:
    """Confirm the address whose confirmation link carries ``token``; whether one was."""
    with Session(store.engine) as s, s.begin():
        done = s.execute(
            update(MailAddressRow)
            .where(MailAddressRow.confirm_hash == _hash(token))
            .values(confirmed=True)
        ).rowcount  # type: ignore[attr-defined]
    return bool(done)


def unsubscribe(store: Store, token: str) -> bool:
    """Forget the address whose mails' unsubscribe links carry ``token`` (and drop its mails
    not sent yet); whether there was one. Works without logging in."""
    with Session(store.engine) as s, s.begin():
        row = s.scalar(select(MailAddressRow).where(MailAddressRow.unsub_token == token))
        if row is None:
            return False
        s.execute(
            delete(OutboxRow).where(
                OutboxRow.player_id == row.player_id, OutboxRow.status.in_(("pending",))
            )
        )
        s.delete(row)
    return True


def remove_address(store: Store, player_id: str) -> None:
    """Forget the player's address (the player asked, logged in)."""
    with Session(store.engine) as s, s.begin():
        s.execute(delete(MailAddressRow).where(MailAddressRow.player_id == player_id))


def queue_test(store: Store, player_id: str, now: datetime) -> None:
    """Queue a test mail to the player's confirmed address.

    Raises:
        MailError: ``no_email`` (404), ``unconfirmed`` (409).
    """
    with Session(store.engine) as s, s.begin():
        row = s.get(MailAddressRow, player_id)
        if row is None:
            raise _no_email()
        if not row.confirmed:
            raise MailError(
                "unconfirmed",
                f"Confirm {row.address} first: open the link in the mail Septet sent it.",
                f"先に {row.address} を確認してください。Septet が送ったメールのリンクを開きます。",
                409,
            )
        name = s.scalar(select(PlayerRow.name).where(PlayerRow.id == player_id)) or ""
        mail = templates.render(
            "test",
            row.lang,
            name=name,
            unsubscribe=f"{row.base_url}/mail/unsubscribe/{row.unsub_token}",
        )
        _queue(s, player_id, row.address, mail, now)


def queue_turn_mails(store: Store, now: datetime, every: float, public_url: str = "") -> int:
    """Queue one "your turn" mail for each turn-based table waiting for a person with a
    confirmed address (and no daily digest, see :func:`queue_digests`), unless that person had
    one about that table less than ``every`` seconds ago or about this very position. Several
    processes may run it at once: the notice row is claimed with a guarded write, so each mail
    is queued once. Returns how many were queued."""
    with Session(store.engine) as s:
        rows = s.execute(
            select(
                TableRow.id,
                TableRow.game,
                TableRow.options,
                TableRow.version,
                TableRow.deadline,
                MailAddressRow.player_id,
                PlayerRow.name,
            )
            .join(SeatRow, and_(SeatRow.table_id == TableRow.id, SeatRow.seat == TableRow.to_move))
            .join(MailAddressRow, MailAddressRow.player_id == SeatRow.player_id)
            .join(PlayerRow, PlayerRow.id == SeatRow.player_id)
            .where(
                TableRow.status == "playing",
                TableRow.pace == "turn-based",
                TableRow.bot_turn.is_(False),
                SeatRow.bot.is_(None),
                MailAddressRow.confirmed.is_(True),
                MailAddressRow.digest.is_(False),
            )
            .limit(500)
        ).all()
    queued = 0
    for tid, game, _options, version, deadline, pid, name in rows:
        queued += _queue_turn(
            store, tid, game, version, deadline, pid, name, now, every, public_url
        )
    return queued


def _queue_turn(
    store: Store,
    tid: str,
    game: str,
    version: int,
    deadline: datetime | None,
    pid: str,
    name: str,
    now: datetime,
    every: float,
    public_url: str,
) -> bool:
    try:
        with Session(store.engine) as s, s.begin():
            notice = s.get(MailNoticeRow, (pid, tid))
            if notice is None:
                s.add(MailNoticeRow(player_id=pid, table_id=tid, version=version, sent_at=now))
                s.flush()  # a second process inserting the same notice fails here
            else:
                last = (
                    notice.sent_at
                    if notice.sent_at.tzinfo
                    else notice.sent_at.replace(tzinfo=now.tzinfo)
                )
                if notice.version == version or last > now - timedelta(seconds=every):
                    return False
                claimed = s.execute(
                    update(MailNoticeRow)
                    .where(
                        MailNoticeRow.player_id == pid,
                        MailNoticeRow.table_id == tid,
                        MailNoticeRow.version == notice.version,
                    )
                    .values(version=version, sent_at=now)
                ).rowcount  # type: ignore[attr-defined]
                if claimed != 1:
                    return False
            row = s.get(MailAddressRow, pid)
            if row is None or not row.confirmed:
                return False
            base = public_url or row.base_url
            try:
                title = games.get(game).titles.get(row.lang) or game
            except Exception:
                title = game
            if deadline is not None and deadline.tzinfo is None:
                deadline = deadline.replace(tzinfo=now.tzinfo)
            mail = templates.render(
                "turn",
                row.lang,
                name=name,
                game=title,
                link=f"{base}/t/{tid}",
                deadline=templates.when(deadline, row.lang),
                unsubscribe=f"{base}/mail/unsubscribe/{row.unsub_token}",
            )
            _queue(s, pid, row.address, mail, now)
        return True
    except IntegrityError:  # another process queued it
        return False


def queue_digests(
    store: Store, now: datetime, period: float = 86400.0, public_url: str = ""
) -> int:
    """Queue the daily digest of every confirmed address that asked for one, had none for
    ``period`` seconds and has turn-based tables waiting for it: one mail listing them (title,
    deadline, link), oldest deadline first. The address's ``digest_at`` is claimed with a
    guarded write, so several processes queue it once. Returns how many were queued."""
    with Session(store.engine) as s:
        due = s.execute(
            select(MailAddressRow.player_id, MailAddressRow.digest_at).where(
                MailAddressRow.confirmed.is_(True),
                MailAddressRow.digest.is_(True),
                or_(
                    MailAddressRow.digest_at.is_(None),
                    MailAddressRow.digest_at <= now - timedelta(seconds=period),
                ),
            )
        ).all()
    return sum(_queue_digest(store, pid, last, now, public_url) for pid, last in due)


def _digest_lines(store: Store, pid: str, lang: str, base: str) -> list[str]:
    from septet.server.turns.deadlines import my_turns

    lines = []
    for turn in my_turns(store, pid):
        if turn["pace"] != "turn-based":
            continue
        try:
            title = games.get(turn["game"]).titles.get(lang) or turn["game"]
        except Exception:
            title = turn["game"]
        by = templates.when(parse_iso(turn["deadline"]), lang)
        lines.append(templates.digest_line(lang, title, by, f"{base}/t/{turn['id']}"))
    return lines


def _queue_digest(
    store: Store, pid: str, last: datetime | None, now: datetime, public_url: str
) -> bool:
    with Session(store.engine) as s, s.begin():
        row = s.get(MailAddressRow, pid)
        if row is None or not row.confirmed or not row.digest:
            return False
        base = public_url or row.base_url
        lines = _digest_lines(store, pid, row.lang, base)
        if not lines:
            return False
        guard = (
            MailAddressRow.digest_at.is_(None) if last is None else MailAddressRow.digest_at == last
        )
        claimed = s.execute(
            update(MailAddressRow)
            .where(MailAddressRow.player_id == pid, guard)
            .values(digest_at=now)
        ).rowcount  # type: ignore[attr-defined]
        if claimed != 1:
            return False
        name = s.scalar(select(PlayerRow.name).where(PlayerRow.id == pid)) or ""
        mail = templates.render(
            "digest",
            row.lang,
            name=name,
            n=str(len(lines)),
            tables="\n".join(lines),
            unsubscribe=f"{base}/mail/unsubscribe/{row.unsub_token}",
        )
        _queue(s, pid, row.address, mail, now)
    return True


def parse_iso(text: str | None) -> datetime | None:
    """An ISO-8601 time as the API writes it, or ``None``."""
    return datetime.fromisoformat(text) if text else None


@dataclass(frozen=True)
class Outgoing:
    """A mail claimed for sending."""

    id: int
    address: str
    subject: str
    body: str
    attempts: int


def claim(store: Store, now: datetime, hold: float = 120.0, limit: int = 20) -> list[Outgoing]:
    """Claim the mails due (pending, or claimed by a process that died more than ``hold``
    seconds ago) for this process for ``hold`` seconds; each attempt is counted here."""
    with Session(store.engine) as s:
        ids = s.scalars(
            select(OutboxRow.id)
            .where(OutboxRow.status.in_(("pending", "sending")), OutboxRow.next_at <= now)
            .order_by(OutboxRow.id)
            .limit(limit)
        ).all()
    out = []
    for mid in ids:
        with Session(store.engine) as s, s.begin():
            got = s.execute(
                update(OutboxRow)
                .where(
                    OutboxRow.id == mid,
                    OutboxRow.status.in_(("pending", "sending")),
                    OutboxRow.next_at <= now,
                )
                .values(
                    status="sending",
                    next_at=now + timedelta(seconds=hold),
                    attempts=OutboxRow.attempts + 1,
                )
            ).rowcount  # type: ignore[attr-defined]
            if got == 1:
                row = s.get(OutboxRow, mid)
                assert row is not None
                out.append(Outgoing(row.id, row.address, row.subject, row.body, row.attempts))
    return out


def finish(store: Store, mail: Outgoing, now: datetime, error: str | None) -> str:
    """Record the attempt: sent, to be tried again after :data:`BACKOFF`, or ``failed`` after
    :data:`MAX_ATTEMPTS`; returns the new status."""
    values: dict[str, Any] = {"last_error": error[:500] if error else None}
    if error is None:
        status = "sent"
    elif mail.attempts >= MAX_ATTEMPTS:
        status = "failed"
    else:
        status = "pending"
        values["next_at"] = now + timedelta(seconds=BACKOFF[min(mail.attempts, len(BACKOFF)) - 1])
    values["status"] = status
    with Session(store.engine) as s, s.begin():
        s.execute(update(OutboxRow).where(OutboxRow.id == mail.id).values(**values))
    return status
