"""``septet bots``: a bot worker of a scaled-out site. It takes bot turns from the Redis queue
(:mod:`septet.server.hub`), computes each move in its own pool of processes within the move's
budget (a seeded random fallback on timeout or a dead process), commits it to the database with
the same version check as a person's move, publishes the steps to the servers holding the
table's sockets, and queues the next bot turn. Any number of workers on any machines may share a
queue; a worker killed in the middle of a turn leaves it pending, and another (or the same one,
restarted) claims it after the move's budget plus 2 seconds.

A worker never exits on a Redis or database error: it starts while either is away, waits for
them with a growing pause (0.5 s doubling to 10 s), logs one line when an outage starts and one
when it ends, recreates the queue's consumer group when Redis comes back without its data (and
then queues again every bot turn the database says is due), and shares its processes fairly
among the tables' owners (:class:`~septet.server.botpool.FairGate`), so that one owner's many
tables cannot hold up everyone else's bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import OrderedDict

from septet import games
from septet.core import State
from septet.server.botpool import BotJob, BotPool, fallback_move
from septet.server.config import Settings
from septet.server.hub import Hub
from septet.server.metrics import BOT_QUEUE, DATABASE, MOVES_ACCEPTED, is_outage
from septet.server.steps import Advance, advance, follow
from septet.server.store import StaleWriteError, Store, TableData
from septet.server.turns.clock import clock_from_env
from septet.server.turns.deadlines import TablePace
from septet.server.turns.notify import TurnNotifier
from septet.server.turns.sweeper import play_stored_timeout, sweep_deadlines

log = logging.getLogger("septet.bots")

IN_FLIGHT = 256
"""Bot turns one worker holds at once; the moves are computed ``processes`` at a time."""

CLAIM_EVERY = 0.5
"""Seconds between looks for turns a dead worker left (claimed once idle for the move's budget
plus :data:`CLAIM_GRACE`)."""

CLAIM_GRACE = 2.0

BEAT_EVERY = 5.0
"""Seconds between a worker's heartbeats (``/api/ready`` of the servers looks for one)."""


class Backoff:
    """Pauses after failures: ``first`` seconds, doubling up to ``most``; :meth:`reset` after a
    success."""

    def __init__(self, first: float = 0.5, most: float = 10.0) -> None:
        self.first, self.most = first, most
        self.next = first

    async def pause(self) -> None:
        """Sleep the current pause, and double the next."""
        await asyncio.sleep(self.next)
        self.next = min(self.most, self.next * 2)

    def reset(self) -> None:
        """The next pause is the first again."""
        self.next = self.first


class BotWorker:
    """One ``septet bots`` process.

    Args:
        settings: ``database_url``, ``redis_url``, ``redis_prefix``, ``bot_delay`` (pause before
            a bot's next turn), ``bot_timeout`` (a move's budget).
        processes: processes computing moves (turns played at once).
    """

    def __init__(self, settings: Settings, processes: int = 2) -> None:
        self.settings = settings
        self.processes = max(1, processes)
        self.store = Store(settings.database_url)
        self.hub = Hub(settings.redis_url, settings.redis_prefix)
        self.pool = BotPool(self.processes)
        self.consumer = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        # table -> its state, record and row (seats, seed) as this worker last saw them
        self.states: OrderedDict[str, tuple[State, list[str], TableData]] = OrderedDict()
        # Turns in flight (most wait: for their time to move, the database, a process).
        self.busy = asyncio.Semaphore(IN_FLIGHT)
        self.played = 0
        self.stopping = False
        # turn-based tables (issue 28): deadlines are swept here too; notices only published
        self.clock = clock_from_env()
        self.notifier = TurnNotifier(settings, listen=False)
        # table -> (version, owner) of next turns that could not be queued (Redis away)
        self.unqueued: dict[str, tuple[int, str]] = {}

    async def run(self, until: float | None = None) -> None:
        """Take and play bot turns until stopped (or ``until``, a ``time.monotonic()``).
        Redis and database errors are waited out, never raised."""
        tasks: set[asyncio.Task[None]] = set()
        beat = asyncio.get_running_loop().create_task(self._beat_forever())
        self.pool.warm()  # the processes start now: the first turn does not wait for them
        try:
            await self._migrate(until)  # (the deadline sweep reads the tables: after it)
            tasks.add(asyncio.get_running_loop().create_task(self._deadlines_forever()))
            await self._loop(tasks, until)
        finally:
            beat.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(beat, *tasks, return_exceptions=True)
            await self.close()

    def _running(self, until: float | None) -> bool:
        return not self.stopping and (until is None or time.monotonic() < until)

    async def _migrate(self, until: float | None) -> None:
        """Bring the schema up to date, waiting for the database as long as it takes."""
        backoff = Backoff()
        while self._running(until):
            try:
                await asyncio.to_thread(self.store.migrate)
                DATABASE.ok()
                return
            except Exception as exc:
                if not is_outage(exc):
                    log.exception("the database could not be migrated; retrying")
                await backoff.pause()

    async def _loop(self, tasks: set[asyncio.Task[None]], until: float | None) -> None:
        backoff = Backoff()
        last_claim = 0.0
        grouped = False
        while self._running(until):
            try:
                if not grouped:
                    self.hub.group_lost = await self.hub.ensure_group()
                    grouped = True
                entries = []
                if time.monotonic() - last_claim > CLAIM_EVERY:  # turns a dead worker left
                    entries = await self.hub.claim_stale(
                        self.consumer, self.settings.bot_timeout + CLAIM_GRACE
                    )
                    last_claim = time.monotonic()
                if not entries:
                    entries = await self.hub.take(self.consumer, 16, 250)
                backoff.reset()
                await self._after_outage()
            except Exception as exc:
                if not is_outage(exc):
                    log.exception("the bot queue could not be read; retrying")
                grouped = False  # Redis may come back empty: make sure the group is there
                await backoff.pause()
                continue
            for entry_id, fields in entries:
                await self.busy.acquire()
                task = asyncio.get_running_loop().create_task(self._turn(entry_id, fields))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

    async def _after_outage(self) -> None:
        """Queue again what an outage lost: turns this worker could not queue, and every due
        bot turn when Redis came back without the queue."""
        if self.unqueued:
            for table_id, (version, owner) in list(self.unqueued.items()):
                await self.hub.enqueue(table_id, version, 0.0, owner)
                self.unqueued.pop(table_id, None)
        if self.hub.group_lost:
            due = await asyncio.to_thread(self.store.stalled_bot_tables, None, 10_000)
            for table_id, version in due:
                await self.hub.enqueue(table_id, version)
            log.warning("queued again %d bot turns that Redis lost", len(due))
            self.hub.group_lost = False

    async def _beat_forever(self) -> None:
        """Every :data:`BEAT_EVERY` seconds: say this worker is alive, and measure the queue."""
        while True:
            with contextlib.suppress(Exception):  # (an outage is logged by the loop)
                await self.hub.heartbeat(self.consumer)
                BOT_QUEUE.set(await self.hub.queue_depth())
            await asyncio.sleep(BEAT_EVERY)

    async def _turn(self, entry_id: str, fields: dict[str, str]) -> None:
        try:
            wait = float(fields.get("at", "0")) - time.time()
            if wait > 0:
                await asyncio.sleep(min(wait, 30.0))
            await self.play(fields["t"], int(fields["v"]), fields.get("o", ""))
            DATABASE.ok()
            await self.hub.done(entry_id)
        except Exception as exc:  # left pending: claimed again later
            if not is_outage(exc):
                log.exception("bot turn %s not played", fields)
        finally:
            self.busy.release()

    async def play(self, table_id: str, version: int, owner: str = "") -> bool:
        """Play the bot turn of ``table_id`` at ``version`` if it is still due; returns whether
        a move was committed. The table is read from the database unless this worker played the
        step before (the commit's guards, version and a bot to move, refuse a stale turn).
        ``owner`` is whose share of the processes the move takes (and the next turn's)."""
        cached = self.states.pop(table_id, None)
        if (
            cached is not None
            and len(cached[1]) == version
            and cached[0].current_player >= 0
            and cached[2].seats[cached[0].current_player].bot is not None
        ):
            data, state, notations = cached[2], cached[0], cached[1]
        else:  # not played here, or the seats changed since (a seat handed to a bot)
            seen = len(cached[1]) if cached is not None and len(cached[1]) <= version else 0
            got = await asyncio.to_thread(self.store.get_table, table_id, True, seen)
            if got is None or got.status != "playing" or got.version != version:
                return False  # moot: the game moved on (another worker, a person, a reload)
            data = got
            state, notations = self._catch_up(data, cached if seen else None)
        seat = state.current_player
        if seat < 0 or data.seats[seat].bot is None:
            return False
        job = BotJob(data.id, data.game, data.options, data.num_players, tuple(notations),
                     seat, data.seats[seat].bot or "random", data.seed)  # fmt: skip
        notation = await self.pool.choose(job, self.settings.bot_timeout, owner or table_id)
        action = state.game.parse_action(state, notation or fallback_move(job, state))
        # a Strong bot playing Normal's move while its search warms up: the seat says so, for
        # the players of every server process (stored when it changes; issue 27)
        warm = bool(getattr(notation, "warming", False))
        warming = {seat: warm} if warm != data.seats[seat].warming else None
        done = advance(state, data.seed, [s.bot is not None for s in data.seats], action, seat)
        deadline = TablePace.of(data).deadline(self.clock, done.to_move, done.bot_turn)
        try:
            await asyncio.to_thread(
                self.store.append_moves, table_id, version, done.steps, by_bot=True,
                status=done.status if done.status != "playing" else None, deadline=deadline,
                warming=warming, **done.store_kwargs(),
            )  # fmt: skip
        except StaleWriteError:
            return False
        data.seats[seat].warming = warm
        self._notify_turns(data, done)
        self._keep(data, done.state, notations + [n for n, _ in done.steps])
        self.played += 1
        MOVES_ACCEPTED.labels("bot").inc()
        # Committed: Redis away now only delays the others (they catch up from the database)
        # and the next turn (queued again when Redis is back).
        with contextlib.suppress(Exception):
            warm_seats = [s.seat for s in data.seats if s.warming]
            await self.hub.publish(table_id, {"k": "steps", "from": version,
                                              "n": [n for n, _ in done.steps],
                                              "w": warm_seats})  # fmt: skip
        if done.bot_turn:
            next_version = version + len(done.steps)
            try:
                await self.hub.enqueue(table_id, next_version, self.settings.bot_delay, owner)
            except Exception:
                self.unqueued[table_id] = (next_version, owner)
        return True

    # ----- turn-based tables (issue 28) ------------
    def _notify_turns(self, data: TableData, done: Advance) -> None:
        """Tell the table's players' open pages whose turn it is now."""
        seat = done.to_move
        mover = data.seats[seat].player_id if seat is not None and not done.bot_turn else None
        self.notifier.changed(data.id, [s.player_id for s in data.seats if s.player_id], mover)

    async def play_timeout(self, table_id: str, version: int) -> bool:
        """Make the move of the missed deadline of ``table_id`` at ``version`` (unless another
        process made it first), publish it, queue the next bot turn; whether this did."""
        made = await play_stored_timeout(self.store, self.pool, self.clock, table_id, version,
                                         self.settings.bot_timeout)  # fmt: skip
        if made is None:
            return False
        data, done = made
        self.states.pop(table_id, None)
        await self.hub.publish(table_id, {"k": "seats"})  # the seat's missed count changed
        self._notify_turns(data, done)
        if done.bot_turn:
            await self.hub.enqueue(table_id, version + len(done.steps), self.settings.bot_delay)
        return True

    async def _deadlines_forever(self) -> None:
        while not self.stopping:
            try:
                await sweep_deadlines(self.store, self.clock, self.play_timeout)
            except Exception:
                log.exception("deadline sweep failed")
            await asyncio.sleep(self.settings.sweep_interval)

    def _catch_up(
        self, data: TableData, cached: tuple[State, list[str], TableData] | None
    ) -> tuple[State, list[str]]:
        """The table's state and record at its stored version: the cached ones moved on by
        the new steps (``data.moves`` holds only those), or the record replayed."""
        if cached is None:
            state = games.get(data.game, **data.options).new_state(data.num_players)
            notations: list[str] = []
        else:
            state, notations = cached[0], cached[1]
        new = data.moves or []
        follow(state.game, state, new)
        notations += new
        return state, notations

    def _keep(self, data: TableData, state: State, notations: list[str]) -> None:
        data.moves = None  # (the notations are kept apart)
        self.states[data.id] = (state, notations, data)
        while len(self.states) > 1000:
            self.states.popitem(last=False)

    async def close(self) -> None:
        """Release the pool, Redis and the database."""
        self.pool.shutdown()
        await self.notifier.close()
        await self.hub.close()
        self.store.close()


def run_worker(settings: Settings, processes: int, metrics_port: int = 0) -> None:
    """Run a worker in this process until interrupted (its metrics on ``metrics_port``, if
    not 0)."""
    if metrics_port:
        from septet.server.metrics import serve_worker_metrics

        serve_worker_metrics(metrics_port)
    worker = BotWorker(settings, processes)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(worker.run())


__all__ = ["BotWorker", "run_worker"]
