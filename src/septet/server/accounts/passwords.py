"""Passwords: argon2id hashes (argon2-cffi), the rules a new password must meet, and a hashing
pool of its own so that logins never stall the event loop or take every core.

Parameters (:data:`PARAMETERS`): argon2id, time cost 2, memory 19 MiB (19456 KiB), parallelism
1, 16-byte salt, 32-byte hash: OWASP's first recommended setting. Measured on the project's
2-core machine: about 30 ms of CPU per hash or verification (docs/accounts.md has the figures
and bench/bench_login.py measures them). A stored hash made with other parameters is replaced
at the next successful login (:meth:`Passwords.verify` says so).
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from septet.server.accounts.names import name_key
from septet.server.live import LobbyError

T = TypeVar("T")

MIN_PASSWORD = 8
"""Shortest password, in characters."""

MAX_PASSWORD = 128
"""Longest password, in characters (a hash costs the same for any length; the cap keeps bodies
and typing mistakes sane)."""

QUEUE_PER_WORKER = 8
"""Hashes that may wait per hashing thread; past ``workers * QUEUE_PER_WORKER`` waiting or
running, a new one is refused at once (:class:`Busy`, 503) instead of queueing: at about 30 ms
a hash, the last one waits about a quarter of a second with the defaults."""

PARAMETERS = {"time_cost": 2, "memory_cost": 19456, "parallelism": 1, "hash_len": 32,
              "salt_len": 16}  # fmt: skip
"""argon2id parameters of new hashes (memory in KiB)."""


def check_password(password: str, name: str) -> None:
    """Whether ``password`` may be the password of the account ``name``.

    Raises:
        LobbyError: ``password_short`` (under :data:`MIN_PASSWORD` characters),
            ``password_long`` (over :data:`MAX_PASSWORD`), ``password_is_name`` (the name
            itself, in any case or width); status 400.
    """
    if len(password) < MIN_PASSWORD:
        raise LobbyError("password_short",
                         f"Passwords have at least {MIN_PASSWORD} characters.", status=400,
                         message_ja=f"パスワードは{MIN_PASSWORD}文字以上です。")  # fmt: skip
    if len(password) > MAX_PASSWORD:
        raise LobbyError("password_long",
                         f"Passwords have at most {MAX_PASSWORD} characters.", status=400,
                         message_ja=f"パスワードは{MAX_PASSWORD}文字までです。")  # fmt: skip
    if name_key(password) == name_key(name):
        raise LobbyError("password_is_name", "Your password may not be your name.", status=400,
                         message_ja="名前と同じパスワードは使えません。")  # fmt: skip


NICE = 10
"""How much lower than the server's other threads the hashing threads run (Linux ``nice``
increment per thread): when the cores are all busy, the event loop (moves at tables) gets the
CPU first and logins wait, not the other way round."""


def _lower_priority() -> None:
    """Run the calling thread :data:`NICE` steps lower (where the OS allows it per thread)."""
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: the default priority
        pass


class Busy(LobbyError):
    """``busy`` (503): every hashing thread is taken and its queue is full; ``retry_after``
    seconds to wait (sent as the ``Retry-After`` header). Nothing was changed."""

    def __init__(self, retry_after: int = 2) -> None:
        super().__init__(
            "busy",
            "The server is busy signing people in; try again in a few seconds.",
            status=503,
            message_ja="サーバーがサインインの処理で混み合っています。数秒後にもう一度どうぞ。",
        )
        self.retry_after = retry_after


class Passwords:
    """Hashing and verification on ``workers`` threads of their own (argon2-cffi releases the
    GIL while it hashes), so at most ``workers`` hashes run at once, at a lower priority than
    the event loop (:data:`NICE`).

    At most ``workers * queue_per_worker`` hashes wait or run at once; one more raises
    :class:`Busy` before it is queued, so a flood of logins is answered 503 quickly while
    moves at tables (the event loop) go on.

    Args:
        workers: hashes computed at once.
        queue_per_worker: hashes that may wait per thread (:data:`QUEUE_PER_WORKER`).
        parameters: argon2id parameters (:data:`PARAMETERS` by default; tests may pass cheaper
            ones, and a change of them makes old hashes rehash at login).
    """

    def __init__(
        self,
        workers: int = 2,
        parameters: dict[str, int] | None = None,
        queue_per_worker: int = QUEUE_PER_WORKER,
    ) -> None:
        p = parameters or PARAMETERS
        self.capacity = workers * queue_per_worker
        self.pending = 0
        self.hasher = PasswordHasher(time_cost=p["time_cost"], memory_cost=p["memory_cost"],
                                     parallelism=p["parallelism"], hash_len=p["hash_len"],
                                     salt_len=p["salt_len"])  # fmt: skip
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="septet-argon2",
                                        initializer=_lower_priority)  # fmt: skip

    @functools.cached_property
    def dummy(self) -> str:
        """A hash verified when the name is unknown, so that an unknown name costs what a
        wrong password does (same answer, same time)."""
        return self.hasher.hash("septet dummy password")

    def check_room(self) -> None:
        """Refuse at once when the hashing queue is full (before any database read).

        Raises:
            Busy: :attr:`pending` has reached :attr:`capacity` (503)."""
        if self.pending >= self.capacity:
            raise Busy()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        self.check_room()
        self.pending += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, functools.partial(fn, *args))
        finally:
            self.pending -= 1

    async def hash(self, password: str) -> str:
        """A new argon2id PHC string for ``password`` (about 30 ms of CPU).

        Raises:
            Busy: the hashing queue is full (503)."""
        return await self._run(self.hasher.hash, unicodedata.normalize("NFC", password))

    def verify_sync(self, stored: str | None, password: str) -> tuple[bool, bool]:
        """``(matches, needs_rehash)``; ``stored`` None verifies the dummy hash (and fails).
        The password is compared in Unicode NFC (one keyboard's が is another's か + ゛), then
        as typed, for a hash made before passwords were normalised (which is then rehashed)."""
        normal = unicodedata.normalize("NFC", password)
        tries = [normal] if normal == password else [normal, password]
        for i, form in enumerate(tries):
            try:
                self.hasher.verify(stored or self.dummy, form)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                continue
            if stored is None:
                return False, False
            return True, i > 0 or self.hasher.check_needs_rehash(stored)
        return False, False

    async def verify(self, stored: str | None, password: str) -> tuple[bool, bool]:
        """:meth:`verify_sync` on the hashing threads.

        Raises:
            Busy: the hashing queue is full (503)."""
        return await self._run(self.verify_sync, stored, password)

    def close(self) -> None:
        """Stop the hashing threads."""
        self._pool.shutdown(wait=False)
