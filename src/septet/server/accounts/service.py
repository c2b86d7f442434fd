"""What the account routes do: sign in (limited, same answer and cost for a wrong name and a
wrong password), claim a guest, change the password, sign out, delete, each keeping the
process's cache of sessions (``Services.identities``) in step.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from septet.server.accounts.data import AccountData, name_taken
from septet.server.accounts.limits import PER_ACCOUNT, PER_ADDRESS, Attempts, RedisAttempts
from septet.server.accounts.names import check_name, name_key, name_keys
from septet.server.accounts.passwords import MAX_PASSWORD, Passwords, check_password
from septet.server.live import LobbyError
from septet.server.store import hash_token

if TYPE_CHECKING:
    from septet.server.deps import Player, Services


class RateLimited(LobbyError):
    """``login_rate`` (429): too many failed sign-ins; ``retry_after`` seconds to wait (sent as
    the ``Retry-After`` header)."""

    def __init__(self, retry_after: int) -> None:
        minutes = max(1, (retry_after + 59) // 60)
        super().__init__(
            "login_rate",
            f"Too many failed sign-ins; try again in {minutes} min.",
            status=429,
            message_ja=f"サインインの失敗が多すぎます。{minutes}分後にもう一度どうぞ。",
        )
        self.retry_after = retry_after


def bad_login() -> LobbyError:
    """``bad_login`` (401): the same answer for an unknown name and a wrong password."""
    return LobbyError("bad_login", "That name and password do not match an account.", status=401,
                      message_ja="名前かパスワードが違います。")  # fmt: skip


def wrong_password() -> LobbyError:
    """``wrong_password`` (403): the current password given is not the account's."""
    return LobbyError("wrong_password", "Your current password is not right.", status=403,
                      message_ja="今のパスワードが違います。")  # fmt: skip


def not_account() -> LobbyError:
    """``not_account`` (403): only an account can do this (a guest has no password)."""
    return LobbyError("not_account", "Create an account first.", status=403,
                      message_ja="先にアカウントを作ってください。")  # fmt: skip


class Accounts:
    """The accounts of one server process.

    Args:
        services: the server's :class:`~septet.server.deps.Services` (store, settings, cache).
    """

    def __init__(self, services: Services) -> None:
        self.svc = services
        self.data = AccountData(services.store)
        self.passwords = Passwords()
        settings = services.settings
        self.attempts: Attempts = (
            RedisAttempts(settings.redis_url, settings.redis_prefix)
            if settings.redis_url
            else Attempts()
        )

    # ----- the cache ------------
    def forget(self, token: str | None) -> None:
        """Drop ``token`` from this process's cache of sessions."""
        if token:
            self.svc.identities.pop(hash_token(token), None)

    def forget_player(self, player_id: str) -> None:
        """Drop every cached session of ``player_id`` in this process."""
        cache = self.svc.identities
        for key in [k for k, (p, _) in cache.items() if p.id == player_id]:
            del cache[key]

    # ----- limits ------------
    async def _check_limits(self, key: str, address: str) -> None:
        waits = await asyncio.gather(
            self.attempts.retry_after("acct:" + key, PER_ACCOUNT),
            self.attempts.retry_after("addr:" + address, PER_ADDRESS),
        )
        if max(waits) > 0:
            raise RateLimited(max(waits))

    async def _failed(self, key: str, address: str) -> None:
        await self.attempts.fail("acct:" + key)
        await self.attempts.fail("addr:" + address)

    # ----- sign in ------------
    async def login(
        self, name: str, password: str, address: str, user_agent: str, replacing: str | None
    ) -> tuple[Player, str]:
        """Sign in as the account ``name``: a new session (the browser's previous one ends).

        Raises:
            LobbyError: ``login_rate`` (429, :class:`RateLimited`), ``bad_login`` (401),
                ``busy`` (503, :class:`~septet.server.accounts.passwords.Busy`).
        """
        from septet.server.deps import Player

        key = name_key(name)[:128]
        await self._check_limits(key, address)
        self.passwords.check_room()  # a full queue answers 503 before reading anything
        keys = [k[:128] for k in name_keys(name[:1024])]
        found = await asyncio.to_thread(self.data.credentials, keys)
        # An unknown name verifies the dummy hash: the same answer, in the same time.
        ok, rehash = await self.passwords.verify(found[2] if found else None,
                                                 password[: MAX_PASSWORD * 4])  # fmt: skip
        if not ok or found is None:
            await self._failed(key, address)
            raise bad_login()
        await self.attempts.clear("acct:" + key)
        pid, display, _ = found
        if rehash:
            await self.svc.store.write(
                self.data.set_password_hash, pid, await self.passwords.hash(password)
            )
        token = await self.svc.store.write(self.data.start_session, pid, user_agent, replacing)
        self.forget(replacing)
        return Player(pid, display, True), token

    async def claim(
        self, player: Player | None, token: str | None, name: str, password: str, user_agent: str
    ) -> tuple[Player, str]:
        """Make this browser's guest an account (or, with no guest, a new account player).

        Raises:
            LobbyError: ``bad_name`` (400), ``password_short`` / ``password_long`` /
                ``password_is_name`` (400), ``already_account`` (409), ``name_taken`` (409),
                ``busy`` (503).
        """
        from septet.server.accounts.data import already_account
        from septet.server.deps import Player

        if player is not None and player.account:
            raise already_account()
        name = check_name(name)
        check_password(password, name)
        key = name_key(name)
        self.passwords.check_room()
        if await asyncio.to_thread(self.data.name_in_use, name_keys(name)):
            raise name_taken()
        pw_hash = await self.passwords.hash(password)
        pid, new_token = await self.svc.store.write(
            self.data.claim, player.id if player else None, name, key, pw_hash, user_agent
        )
        self.forget(token)
        if player is not None:
            self.forget_player(player.id)
        return Player(pid, name, True), new_token

    async def _verify_current(self, player: Player, password: str, address: str) -> None:
        if not player.account:
            raise not_account()
        key = "id:" + player.id
        await self._check_limits(key, address)
        stored = await asyncio.to_thread(self.data.password_hash, player.id)
        ok, _ = await self.passwords.verify(stored, password[: MAX_PASSWORD * 4])
        if not ok:
            await self._failed(key, address)
            raise wrong_password()

    async def change_password(
        self, player: Player, token: str, old: str, new: str, address: str
    ) -> int:
        """Change the password; every other session of the account ends (returns how many).

        Raises:
            LobbyError: ``not_account`` (403), ``login_rate`` (429), ``wrong_password`` (403),
                ``password_short`` / ``password_long`` / ``password_is_name`` (400).
        """
        check_password(new, player.name)
        await self._verify_current(player, old, address)
        await self.svc.store.write(self.data.set_password_hash, player.id,
                                   await self.passwords.hash(new))  # fmt: skip
        ended = await self.svc.store.write(self.data.end_other_sessions, player.id, token)
        self.forget_player(player.id)
        return ended

    async def delete(self, player: Player, password: str | None, address: str) -> None:
        """Delete this player (an account gives its password; a guest's cookie is enough).

        Raises:
            LobbyError: ``login_rate`` (429), ``wrong_password`` (403).
        """
        if player.account:
            await self._verify_current(player, password or "", address)
        await self.svc.store.write(self.data.delete_player, player.id)
        self.forget_player(player.id)
        for table in list(self.svc.manager.tables.values()):  # this process's live copies
            for seat in table.seats:
                if seat.player_id == player.id:
                    seat.name = ""

    async def logout(self, token: str) -> None:
        """End the session of ``token``."""
        await self.svc.store.write(self.data.end_session, token)
        self.forget(token)

    async def export(self, player: Player, token: str) -> dict[str, Any]:
        """Everything stored about ``player`` (:meth:`AccountData.export`)."""
        return await asyncio.to_thread(self.data.export, player.id, token)

    async def close(self) -> None:
        """Stop the hashing threads and the counters' connection."""
        self.passwords.close()
        await self.attempts.close()
