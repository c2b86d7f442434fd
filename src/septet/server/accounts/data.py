"""The accounts' data access (synchronous, one transaction per call; writes go through
``Store.write``): sessions as rows, claiming a guest, passwords, deletion and the export.

Every refusal raises before anything is written (a transaction that raises is rolled back).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from septet.server.db import (
    ChatRow,
    MoveRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    TableRow,
    in_chunks,
    padded,
    utcnow,
)
from septet.server.live import LobbyError
from septet.server.store import Store, _iso, hash_token

TOUCH_EVERY = timedelta(minutes=5)
"""A session's ``last_seen_at`` is refreshed at most this often."""


def name_taken() -> LobbyError:
    """``name_taken`` (409): an account already has this name (in any case or width)."""
    return LobbyError("name_taken", "That name is taken; choose another.", status=409,
                      message_ja="その名前は使われています。別の名前にしてください。")  # fmt: skip


def already_account() -> LobbyError:
    """``already_account`` (409): this player is an account already."""
    return LobbyError("already_account", "You already have an account (you are signed in).",
                      status=409,
                      message_ja="すでにアカウントがあります（サインイン中です）。")  # fmt: skip


class AccountData:
    """Accounts and sessions in the store's database.

    Args:
        store: the server's store (its engine; its writer thread runs the writes).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._session = sessionmaker(store.engine, expire_on_commit=False)

    # ----- sessions ------------
    def session(self, token: str, now: datetime | None = None) -> tuple[str, str, bool] | None:
        """``(player_id, name, is_account)`` of the session holding ``token`` (``None``: no
        such session, or the player was deleted); refreshes ``last_seen_at`` when it is older
        than :data:`TOUCH_EVERY`."""
        now = now or utcnow()
        digest = hash_token(token)
        with self._session() as s:
            row = s.execute(
                select(PlayerRow.id, PlayerRow.name, PlayerRow.password_hash.is_not(None),
                       SessionRow.last_seen_at)
                .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                .where(SessionRow.token_hash == digest, PlayerRow.deleted_at.is_(None))
            ).first()  # fmt: skip
            if row is None:
                return None
            seen = row[3] if row[3].tzinfo else row[3].replace(tzinfo=now.tzinfo)
            if now - seen > TOUCH_EVERY:
                s.execute(update(SessionRow).where(SessionRow.token_hash == digest)
                          .values(last_seen_at=now))  # fmt: skip
                s.commit()
        return row[0], row[1], bool(row[2])

    def sessions(
        self, digests: Sequence[str], now: datetime | None = None
    ) -> dict[str, tuple[str, str, bool]]:
        """:meth:`session` for many sessions in one query, by the SHA-256 hex digests of their
        tokens (:func:`~septet.server.store.hash_token`): digest -> ``(player_id, name,
        is_account)`` of those that still hold a player (an ended session, or a deleted
        player's, is absent). Refreshes ``last_seen_at`` where it is older than
        :data:`TOUCH_EVERY`, in one statement."""
        now = now or utcnow()
        found: dict[str, tuple[str, str, bool]] = {}
        stale: list[str] = []
        with self._session() as s:
            for chunk in in_chunks(digests):
                rows = s.execute(
                    select(SessionRow.token_hash, PlayerRow.id, PlayerRow.name,
                           PlayerRow.password_hash.is_not(None), SessionRow.last_seen_at)
                    .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                    .where(SessionRow.token_hash.in_(chunk),
                           PlayerRow.deleted_at.is_(None))
                ).all()  # fmt: skip
                for digest, pid, name, is_account, seen in rows:
                    found[digest] = (pid, name, bool(is_account))
                    seen = seen if seen.tzinfo else seen.replace(tzinfo=now.tzinfo)
                    if now - seen > TOUCH_EVERY:
                        stale.append(digest)
            if stale:
                for chunk in in_chunks(stale):
                    s.execute(update(SessionRow).where(SessionRow.token_hash.in_(chunk))
                              .values(last_seen_at=now))  # fmt: skip
                s.commit()
        return found

    @staticmethod
    def _new_session(s: Session, player_id: str, user_agent: str) -> str:
        token = secrets.token_urlsafe(32)
        s.add(SessionRow(token_hash=hash_token(token), player_id=player_id,
                         user_agent=user_agent[:64]))  # fmt: skip
        return token

    def start_session(self, player_id: str, user_agent: str, replacing: str | None) -> str:
        """A new session of ``player_id``; the session of ``replacing`` (the cookie the
        browser held before, if any) ends. Returns the new secret token."""
        with self._session.begin() as s:
            if replacing:
                s.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(replacing)))
            return self._new_session(s, player_id, user_agent)

    def end_session(self, token: str) -> None:
        """End the session of ``token`` (logout)."""
        with self._session.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(token)))

    def end_other_sessions(self, player_id: str, keep: str) -> int:
        """End every session of ``player_id`` but ``keep``'s; returns how many ended."""
        with self._session.begin() as s:
            result = s.execute(
                delete(SessionRow).where(SessionRow.player_id == player_id,
                                         SessionRow.token_hash != hash_token(keep))
            )  # fmt: skip
            return int(getattr(result, "rowcount", 0) or 0)

    # ----- accounts ------------
    def credentials(self, keys: Sequence[str]) -> tuple[str, str, str] | None:
        """``(player_id, name, password_hash)`` of the account whose ``name_key`` is one of
        ``keys`` (:func:`~septet.server.accounts.names.name_keys`)."""
        with self._session() as s:
            row = s.execute(
                select(PlayerRow.id, PlayerRow.name, PlayerRow.password_hash).where(
                    PlayerRow.name_key.in_(padded(keys)), PlayerRow.deleted_at.is_(None)
                )
            ).first()
        return (row[0], row[1], row[2]) if row and row[2] else None

    def password_hash(self, player_id: str) -> str | None:
        """The stored hash of ``player_id`` (``None``: a guest)."""
        with self._session() as s:
            return s.scalar(select(PlayerRow.password_hash).where(PlayerRow.id == player_id))

    def name_in_use(self, keys: Sequence[str], other_than: str | None = None) -> bool:
        """Whether an account other than ``other_than`` has one of the name keys ``keys``
        (:func:`~septet.server.accounts.names.name_keys`)."""
        with self._session() as s:
            found = s.scalars(select(PlayerRow.id).where(PlayerRow.name_key.in_(padded(keys))))
            return any(pid != other_than for pid in found)

    def claim(
        self, player_id: str | None, name: str, key: str, pw_hash: str, user_agent: str
    ) -> tuple[str, str]:
        """Make the guest ``player_id`` an account (same row: its tables and seats stay its)
        or, with ``player_id`` None, create a new player that is an account. Every session
        the guest had ends; returns ``(player_id, new_token)``.

        Raises:
            LobbyError: ``name_taken`` (409), ``already_account`` (409).
        """
        now = utcnow()
        try:
            with self._session.begin() as s:
                if player_id is None:
                    player_id = secrets.token_hex(8)
                    s.add(PlayerRow(id=player_id, name=name, name_key=key, password_hash=pw_hash,
                                    account_at=now))  # fmt: skip
                    s.flush()
                else:
                    done = s.execute(
                        update(PlayerRow)
                        .where(PlayerRow.id == player_id, PlayerRow.password_hash.is_(None),
                               PlayerRow.deleted_at.is_(None))
                        .values(name=name, name_key=key, password_hash=pw_hash, account_at=now)
                    )  # fmt: skip
                    if not getattr(done, "rowcount", 0):
                        raise already_account()
                    s.execute(delete(SessionRow).where(SessionRow.player_id == player_id))
                token = self._new_session(s, player_id, user_agent)
        except IntegrityError:
            raise name_taken() from None
        return player_id, token

    def set_password_hash(self, player_id: str, pw_hash: str) -> None:
        """Store a new hash for ``player_id`` (a new password, or a rehash at login)."""
        with self._session.begin() as s:
            s.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                      .values(password_hash=pw_hash))  # fmt: skip

    def rename_account(self, player_id: str, name: str, key: str) -> None:
        """Rename an account (its key with it).

        Raises:
            LobbyError: ``name_taken`` (409).
        """
        try:
            with self._session.begin() as s:
                s.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                          .values(name=name, name_key=key))  # fmt: skip
        except IntegrityError:
            raise name_taken() from None

    def delete_player(self, player_id: str) -> None:
        """Delete a player: the row stays (others' histories name it "deleted player") with
        no name, key or credentials and a ``deleted_at``; every session ends; its seats and
        chat lines lose the name (the chat's text stays in the tables' conversations); its
        e-mail address, mail notices and mails not yet sent are deleted."""
        from septet.server.mail.models import MailAddressRow, MailNoticeRow, OutboxRow

        with self._session.begin() as s:
            for mail_row in (MailAddressRow, MailNoticeRow, OutboxRow):
                s.execute(delete(mail_row).where(mail_row.player_id == player_id))
            s.execute(
                update(PlayerRow).where(PlayerRow.id == player_id)
                .values(name="", name_key=None, password_hash=None, deleted_at=utcnow())
            )  # fmt: skip
            s.execute(delete(SessionRow).where(SessionRow.player_id == player_id))
            s.execute(update(SeatRow).where(SeatRow.player_id == player_id).values(name=""))
            s.execute(update(ChatRow).where(ChatRow.player_id == player_id).values(name=""))

    # ----- export ------------
    def export(self, player_id: str, token: str) -> dict[str, Any]:
        """Everything stored about ``player_id`` (see docs/accounts.md): ``profile``,
        ``sessions`` (created, last seen, user agent, ``current``: the one asking), ``tables``
        (with the seats they held), ``chat`` and ``moves`` (those made at their seats),
        ``ratings`` (per game) and ``email`` (the address for turn-based mail, or None)."""
        with self._session() as s:
            extra = self._ratings_and_email(s, player_id)
            p = s.get(PlayerRow, player_id)
            assert p is not None
            sessions = s.scalars(select(SessionRow).where(SessionRow.player_id == player_id)
                                 .order_by(SessionRow.created_at)).all()  # fmt: skip
            seats = s.scalars(select(SeatRow).where(SeatRow.player_id == player_id)).all()
            chat = s.scalars(select(ChatRow).where(ChatRow.player_id == player_id)
                             .order_by(ChatRow.id)).all()  # fmt: skip
            return {
                "profile": {"id": p.id, "name": p.name, "account": p.password_hash is not None,
                            "created_at": _iso(p.created_at), "account_at": _iso(p.account_at)},
                "sessions": [{"created_at": _iso(r.created_at),
                              "last_seen_at": _iso(r.last_seen_at), "user_agent": r.user_agent,
                              "current": r.token_hash == hash_token(token)} for r in sessions],
                "tables": self._tables(s, player_id, seats),
                "chat": [{"table_id": c.table_id, "seat": c.seat, "name": c.name, "text": c.text,
                          "at": _iso(c.created_at)} for c in chat],
                "moves": self._moves(s, seats),
                **extra,
            }  # fmt: skip

    @staticmethod
    def _ratings_and_email(s: Session, player_id: str) -> dict[str, Any]:
        from septet.server.db import RatingRow
        from septet.server.mail.models import MailAddressRow

        ratings = s.scalars(select(RatingRow).where(RatingRow.player_id == player_id)).all()
        mail = s.get(MailAddressRow, player_id)
        return {
            "ratings": [{"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                         "wins": r.wins, "updated_at": _iso(r.updated_at)} for r in ratings],
            "email": None if mail is None else {"address": mail.address, "lang": mail.lang,
                                                "confirmed": mail.confirmed,
                                                "created_at": _iso(mail.created_at)},
        }  # fmt: skip

    @staticmethod
    def _tables(s: Session, player_id: str, seats: Any) -> list[dict[str, Any]]:
        held: dict[str, list[int]] = {}
        for seat in seats:
            held.setdefault(seat.table_id, []).append(seat.seat)
        rows = s.scalars(select(TableRow).where(
            TableRow.id.in_(padded(held)) | (TableRow.created_by == player_id)
        ).order_by(TableRow.created_at)).all()  # fmt: skip
        return [{"id": t.id, "game": t.game, "options": json.loads(t.options or "{}"),
                 "status": t.status, "created_at": _iso(t.created_at),
                 "created_by_you": t.created_by == player_id, "your_seats": held.get(t.id, []),
                 "result": json.loads(t.result) if t.result else None}
                for t in rows]  # fmt: skip

    @staticmethod
    def _moves(s: Session, seats: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for seat in seats:
            rows = s.scalars(select(MoveRow).where(MoveRow.table_id == seat.table_id,
                                                   MoveRow.seat == seat.seat)
                             .order_by(MoveRow.idx)).all()  # fmt: skip
            out += [{"table_id": m.table_id, "idx": m.idx, "seat": m.seat,
                     "notation": m.notation, "at": _iso(m.created_at)} for m in rows]  # fmt: skip
        return out
