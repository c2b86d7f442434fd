"""Live tables: the games in play, held in memory, driven by people and bots.

A :class:`LiveTable` owns one game's :class:`~septet.core.State`. Every change goes through
:meth:`LiveTable._play` under the table's lock: the action (and the chance outcomes that follow,
sampled from ``derive_rng(seed, "chance", index)`` so a continuation is the same after a restart)
is applied to a clone, the new steps are committed to the database, and only then does the table
take the new state, acknowledge the move and send every connection its own seat's view.

Nothing here knows a rule: legal moves, views, events and their texts all come from the engine.
Action notations are never broadcast (a pass or a chance outcome can be a secret); connections
receive ``view(seat)`` and the events ``Event.is_visible(seat)`` allows.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from septet import games
from septet.bots import AGENT_FACTORIES, make_agent
from septet.core import (
    Action,
    Event,
    Game,
    IllegalActionError,
    RecordError,
    State,
    replay_steps,
)
from septet.server.addresscap import AddressCaps, owner_key
from septet.server.botpool import BotJob, BotPool, fallback_move
from septet.server.config import Settings
from septet.server.levels import SERVER_BOT_SPECS, level_of
from septet.server.metrics import MOVE_SECONDS, MOVES_ACCEPTED, MOVES_REFUSED, is_outage
from septet.server.steps import Advance, advance, position
from septet.server.store import (
    CapError,
    ChatMessage,
    PlayerGoneError,
    SeatData,
    StaleWriteError,
    Store,
    TableData,
)
from septet.server.textcheck import MESSAGE as TEXT_MESSAGE
from septet.server.textcheck import MESSAGE_JA as TEXT_MESSAGE_JA
from septet.server.textcheck import storable
from septet.server.turns.clock import clock_from_env
from septet.server.turns.deadlines import TablePace, normal_spec, parse_time

log = logging.getLogger("septet.server")

__all__ = ["SERVER_BOT_SPECS", "Conn", "LiveTable", "LobbyError", "TableManager"]

CHAT_MAX = 200
"""Longest chat message, in characters once trimmed."""

QUEUE_LIMIT = 512
"""Messages waiting for a slow connection before it is dropped."""


def available_bots(game: Game[Any]) -> list[str]:
    """Agent specs (no parameters) that can play ``game``: what the lobby offers."""
    out = []
    for name in sorted(AGENT_FACTORIES):
        try:
            make_agent(name, game)
        except Exception:  # a bot that does not play this game, or is not installed
            continue
        out.append(name)
    return out


class TokenBucket:
    """A token bucket: ``burst`` tokens at most, refilled at ``rate`` per second.

    Args:
        burst: the bucket's size (and its content at first).
        rate: tokens added per second.
    """

    def __init__(self, burst: float, rate: float) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Take one token; ``False`` (and nothing taken) when the bucket is empty."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def full(self) -> bool:
        """Whether the bucket has refilled completely (an idle key may be forgotten)."""
        now = time.monotonic()
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class Conn:
    """One WebSocket connection to a table: a seat (``None`` for a spectator), an outgoing
    queue drained by the socket's writer task, and a token bucket for incoming messages.

    Args:
        seat: the seat whose view this connection receives, or ``None``.
        player_id: the guest behind it, if any.
        render_lang: ``"en"``/``"ja"`` to also receive the engine's text rendering, or ``None``.
        rate: messages per second allowed; burst: bucket size.
        chat_burst / chat_interval: the chat's own bucket (a burst, then one per interval).
        key: whom the connection counts against for the sockets cap (guest id or address).
        name: the display name of the guest behind it (chat), or ``""``.
    """

    def __init__(
        self,
        seat: int | None,
        player_id: str | None,
        render_lang: str | None = None,
        rate: float = 10.0,
        burst: float = 30.0,
        chat_burst: float = 3.0,
        chat_interval: float = 2.0,
        key: str = "",
        name: str = "",
    ) -> None:
        self.seat = seat
        self.player_id = player_id
        self.render_lang = render_lang
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.log_pos = 0
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.closed = False
        self.key = key
        self.name = name
        self.chat_bucket = TokenBucket(chat_burst, 1.0 / chat_interval if chat_interval else 1e9)

    def allow(self) -> bool:
        """Take a token for one incoming message; ``False`` when the bucket is empty."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def retry_after(self) -> float:
        """Seconds until :meth:`allow` has a token again (0 when it has one now): the delay a
        ``rate_limited`` answer advises before the refused message is sent again."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else 1.0

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict is JSON-encoded); a connection too far behind is closed."""
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self.queue.put_nowait(
            message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
        )

    def error(self, code: str, message: str, **extra: Any) -> None:
        """Queue an ``error`` message (``code`` is stable, ``message`` an English sentence;
        ``message_ja`` in ``extra`` gives the Japanese one)."""
        self.last_error = code
        self.send({"type": "error", "code": code, "message": message, **extra})

    def close(self) -> None:
        """Ask the writer task to close the socket."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


def event_json(game: Game[Any], version: int, event: Event) -> dict[str, Any]:
    """An event for the client: kind, seat, data, the step it happened at and its log line in
    English and Japanese (from ``game.describe_event``)."""
    out = event.to_json()
    out["v"] = version
    for lang in ("en", "ja"):
        try:
            out[lang] = game.describe_event(event, lang)
        except Exception:  # an engine without texts for this event
            out[lang] = event.kind
    return out


class LiveTable:
    """A table in memory. Create with :meth:`from_data` (which replays the stored record)."""

    def __init__(self, manager: TableManager, data: TableData) -> None:
        self.manager = manager
        self.store: Store = manager.store
        self.settings: Settings = manager.settings
        self.id = data.id
        self.game: Game[Any] = games.get(data.game, **data.options)
        self.num_players = data.num_players
        self.status = data.status
        self.seed = data.seed
        self.owner_id = data.owner_id
        self.created_by = data.created_by
        self.created_at = data.created_at
        self.updated_at = _parse_time(data.updated_at)
        self.chat: deque[ChatMessage] | None = None  # the recent chat, loaded on first use
        self.seats: list[SeatData] = sorted(data.seats, key=lambda s: s.seat)
        self.state: State | None = None
        self.log: list[tuple[int, Event]] = []
        self._event_json: dict[tuple[int, int], dict[str, Any]] = {}  # event -> JSON with texts
        self.conns: set[Conn] = set()
        self.remote: dict[int, set[str]] = {}  # seat -> other processes holding its sockets
        self.lock = asyncio.Lock()
        self.gone_since: dict[int, float] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.result: dict[str, Any] | None = data.result
        self.warming: set[int] = {s.seat for s in data.seats if s.warming}
        """Strong bot seats whose last move was Normal's, their compiled search still warming
        up (the summary says so: issue 27). The bot loop here keeps it; scaled out, the bot
        workers store it on the seats and send it with their steps."""
        self.options = self.game.options_dict()
        self.titles = dict(self.game.titles)
        self._levels: dict[str, str | None] = {}
        """Each bot spec's level, found once (the summary goes with every move)."""
        # turn-based tables (issue 28): the pace, the deadline of the move due, the timeout log
        self.pace = TablePace.of(data)
        self.deadline = parse_time(data.deadline)
        self.timeouts: list[tuple[int, int]] = list(data.timeouts)
        self.owner_key = owner_key(None, data.created_by or data.id)
        """Whose share of the bot processes this table's bots take (its creator's address)."""

    @classmethod
    def from_data(cls, manager: TableManager, data: TableData) -> LiveTable:
        """Rebuild a table from the database row, replaying its record move by move.

        Raises:
            RecordError: a stored move does not replay (corrupt data).
        """
        table = cls(manager, data)
        if data.status != "waiting":
            state = table.game.new_state(table.num_players)
            for step in replay_steps(state, data.moves or []):
                v = len(state.history)
                table.log.extend((v, e) for e in step.events)
            table.state = state
        now = time.monotonic()
        for seat in table.seats:
            if seat.player_id is not None:
                table.gone_since[seat.seat] = now
        return table

    # ----- facts ------------
    @property
    def version(self) -> int:
        """Number of steps (actions and chance outcomes) applied: the state's version."""
        return len(self.state.history) if self.state is not None else 0

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` (waiting, finished)."""
        if self.state is None or self.status != "playing":
            return None
        p = self.state.current_player
        return p if p >= 0 else None

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat held by ``player_id`` here, or ``None``."""
        if player_id is None:
            return None
        for seat in self.seats:
            if seat.player_id == player_id:
                return seat.seat
        return None

    def connected(self, seat: int) -> bool:
        """Whether some connection holds ``seat`` now (here, or in another process)."""
        return bool(self.remote.get(seat)) or any(c.seat == seat for c in self.conns)

    def level_of(self, spec: str | None) -> str | None:
        """The level of the bot ``spec`` at this table (:func:`levels.level_of`), found once
        per spec."""
        if not spec:
            return None
        if spec not in self._levels:
            self._levels[spec] = level_of(spec, self.game)
        return self._levels[spec]

    def summary(self) -> dict[str, Any]:
        """The public description of the table (lobby, headers): no hidden information."""
        now = time.monotonic()
        seats = []
        for s in self.seats:
            gone = None
            if s.player_id is not None and not self.connected(s.seat):
                gone = round(now - self.gone_since.get(s.seat, now), 1)
            seats.append(
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": "bot" if s.player_id is None and s.bot else "human",
                    "bot": s.bot,
                    "level": self.level_of(s.bot),
                    "taken": s.player_id is not None or s.bot is not None,
                    "replaced": s.replaced,
                    "connected": s.bot is not None or self.connected(s.seat),
                    "gone_for": gone,
                    "missed": s.missed,
                    "warming": s.seat in self.warming,
                }
            )
        due = self.deadline if self.to_move is not None else None  # turn-based (issue 28)
        out = {
            "id": self.id,
            "game": self.game.name,
            "title": self.titles,
            "options": self.options,
            "num_players": self.num_players,
            "status": self.status,
            "version": self.version,
            "to_move": self.to_move,
            "seats": seats,
            "result": self.result,
            "replace_after": None if self.pace.turn_based else self.settings.replace_after,
            "created_at": self.created_at,
            **self.pace.to_json(),
            "deadline": due.isoformat() if due is not None else None,
            "timeouts": [{"v": v, "seat": seat} for v, seat in self.timeouts[-20:]],
        }
        if self.status == "waiting":
            out["expires_at"] = self.expires_at().isoformat()
        return out

    def attended(self) -> bool:
        """Whether somebody is at this table: a person holds a seat that no bot took over
        after they left, or it is a table of bots only (the lobby lists only such games in
        play)."""
        people = [s for s in self.seats if s.player_id is not None]
        return not people or any(not s.replaced for s in people)

    def expires_at(self) -> datetime:
        """When this table expires if nobody joins or leaves before (waiting tables)."""
        return self.updated_at + timedelta(seconds=self.settings.waiting_ttl)

    # ----- messages ------------
    def _legal_json(self, state: State) -> list[dict[str, str]]:
        out = []
        for a in state.legal_actions():
            item = {"a": str(a)}
            for lang in ("en", "ja"):
                try:
                    item[lang] = self.game.describe_action(a, lang)
                except Exception:
                    item[lang] = str(a)
            out.append(item)
        return out

    def _event(self, v: int, e: Event) -> dict[str, Any]:
        key = (v, id(e))  # an engine may hand out the same Event object at several steps
        out = self._event_json.get(key)
        if out is None:
            if len(self._event_json) > 4 * self.settings.event_history:
                self._event_json.clear()
            out = self._event_json[key] = event_json(self.game, v, e)
        return out

    def conn_seat(self, conn: Conn) -> int | None:
        """The seat ``conn`` speaks for now: its seat only while its guest still holds it. A
        connection whose guest left the seat (and someone else took it) only watches from then
        on, so it never sees the new holder's hidden cards nor moves for them."""
        seat = conn.seat
        if seat is not None and self.seats[seat].player_id != conn.player_id:
            conn.seat = seat = None
        return seat

    def message_for(
        self, conn: Conn, history: bool = False, summary: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``state`` message for one connection: its seat's view, the legal moves if that
        seat is to move and held by this person, and the events it may see since its last
        message (``history``: the last ``event_history`` of them, and the recent ``chat``)."""
        seat = self.conn_seat(conn)
        state = self.state
        view = state.view(seat) if state is not None else None
        legal: list[dict[str, str]] = []
        if (
            state is not None
            and seat is not None
            and self.to_move == seat
            and self.seats[seat].bot is None
        ):
            legal = self._legal_json(state)
        start = 0 if history else conn.log_pos
        visible = [(v, e) for v, e in self.log[start:] if e.is_visible(seat)]
        if history:
            visible = visible[-self.settings.event_history :]
        conn.log_pos = len(self.log)
        msg: dict[str, Any] = {
            "type": "state",
            "table": summary if summary is not None else self.summary(),
            "seat": seat,
            "version": self.version,
            "view": view,
            "legal": legal,
            "events": [self._event(v, e) for v, e in visible],
        }
        if history:
            msg["chat"] = [m.to_json() for m in self.chat or ()]
        if conn.render_lang and view is not None:
            try:
                msg["text"] = self.game.render(view, conn.render_lang)
            except Exception:
                msg["text"] = None
        return msg

    def broadcast(self, skip: Conn | None = None) -> None:
        """Queue each connection's own ``state`` message (but ``skip``'s)."""
        summary = self.summary()
        for conn in list(self.conns):
            if conn is skip:
                continue
            try:
                conn.send(self.message_for(conn, summary=summary))
            except Exception:  # an engine failing to give a view must not stop the table
                log.exception("table %s: no message for seat %s", self.id, conn.seat)
                conn.error("server", "The table could not be shown; please reload.")

    # ----- connections ------------
    async def load_chat(self) -> None:
        """Read the recent chat from the database, once."""
        if self.chat is None:
            recent = await asyncio.to_thread(
                self.store.recent_chat, self.id, self.settings.chat_history
            )
            if self.chat is None:
                self.chat = deque(recent, maxlen=self.settings.chat_history)

    async def attach(self, conn: Conn) -> LiveTable:
        """Add a connection and send it the state alone (with the log and the chat). The others
        hear of it only when it brings a seat back (a seated player returning, who also takes
        back a seat a bot was keeping); a spectator costs them nothing.

        Returns the table the connection is attached to: this one, or the one the manager holds
        now when this one was let go (a scaled-out process lets go of a table without sockets,
        and may have done so between the request's load and this attach: a socket on a table
        no longer held would never hear another process's moves)."""
        await self.load_chat()
        async with self.lock:
            while (held := self.manager.tables.get(self.id)) is not self:
                if held is not None:
                    return await held.attach(conn)  # (its own lock: ours is not needed)
                if self.status in ("finished", "expired"):
                    break  # (never held: nothing changes them)
                self.manager.tables[self.id] = self  # let go meanwhile: held again, as stored
                await self.reload()
                await self.manager.held_elsewhere(self)
                # (no await from the last look to the connection's joining: no sweep between)
            seat = self.conn_seat(conn)
            first_here = seat is not None and not any(c.seat == seat for c in self.conns)
            returning = seat is not None and not self.connected(seat)
            reclaimed = False
            self.conns.add(conn)
            if seat is not None:
                self.gone_since.pop(seat, None)
                s = self.seats[seat]
                if s.replaced and not self.pace.keeps_bot(s):
                    s.bot, s.replaced, reclaimed = None, False, True
                    await self.store.write(self.store.save_seat, self.id, s, bot_turn=False)
            conn.send(self.message_for(conn, history=True))
            if returning or reclaimed:
                self.broadcast(skip=conn)
        if first_here and seat is not None:
            await self.manager.presence(self, seat, True)
        if reclaimed:
            await self.manager.seats_changed(self)
        return self

    async def detach(self, conn: Conn) -> None:
        """Remove a connection; when it was the last of a seat, note since when the seat is
        empty and tell the others."""
        async with self.lock:
            self.conns.discard(conn)
            if self.status in ("finished", "expired") and not self.conns:
                self.manager.tables.pop(self.id, None)
            seat = conn.seat
            last_here = seat is not None and not any(c.seat == seat for c in self.conns)
            if seat is not None and not self.connected(seat):
                self.gone_since[seat] = time.monotonic()
                self.broadcast()
        if last_here and seat is not None:
            await self.manager.presence(self, seat, False)

    def heard_presence(self, seat: int, process: str, here: bool) -> None:
        """Another process gained (or lost) its sockets of ``seat``."""
        if not 0 <= seat < self.num_players:
            return
        was = self.connected(seat)
        held = self.remote.setdefault(seat, set())
        if here:
            held.add(process)
            self.gone_since.pop(seat, None)
        else:
            held.discard(process)
        if was != self.connected(seat):
            if not self.connected(seat):
                self.gone_since[seat] = time.monotonic()
            self.broadcast()

    # ----- chat ------------
    async def say(self, conn: Conn, text: str) -> bool:
        """A chat message from ``conn``: seated players only, 1-:data:`CHAT_MAX` characters
        once trimmed, within the connection's chat rate. Stored, then sent to every connection
        as ``{"type": "chat", "message": {id, seat, name, text, at}}``. Error codes:
        ``chat_spectator``, ``chat_empty``, ``chat_too_long``, ``chat_rate``."""
        seat = self.conn_seat(conn)
        text = text.strip()
        refusal = None
        if seat is None:
            refusal = ("chat_spectator", "Only seated players can chat.",
                       "チャットできるのは席についたプレイヤーだけです。")  # fmt: skip
        elif not text:
            refusal = ("chat_empty", "The message is empty.", "メッセージが空です。")
        elif len(text) > CHAT_MAX:
            refusal = ("chat_too_long", f"Messages are at most {CHAT_MAX} characters.",
                       f"メッセージは{CHAT_MAX}文字までです。")  # fmt: skip
        elif not storable(text):
            refusal = ("bad_text", TEXT_MESSAGE, TEXT_MESSAGE_JA)
        elif not conn.chat_bucket.take():
            refusal = ("chat_rate", "You are chatting too fast; wait a moment.",
                       "チャットが速すぎます。少し待ってください。")  # fmt: skip
        if refusal is not None:
            conn.error(refusal[0], refusal[1], message_ja=refusal[2])
            return False
        name = self.seats[seat].name if seat is not None else conn.name
        try:
            message = await self.store.write(
                self.store.add_chat, self.id, seat, conn.player_id, name or conn.name, text
            )
        except PlayerGoneError:
            conn.error("no_identity", "This account has been deleted.",
                       message_ja="このアカウントは削除されました。")  # fmt: skip
            conn.close()
            return False
        except Exception:
            log.exception("table %s: could not store a chat message", self.id)
            conn.error("server", "The message could not be saved; please try again.",
                       message_ja="メッセージを保存できませんでした。もう一度どうぞ。")  # fmt: skip
            return False
        self.hear(message)
        await self.manager.published_chat(self, message)
        return True

    def hear(self, message: ChatMessage) -> None:
        """Keep a chat message and send it to every connection of this process."""
        kept = self.chat
        if kept is not None:
            if any(m.id == message.id for m in kept):
                return
            kept.append(message)
        out = json.dumps({"type": "chat", "message": message.to_json()}, ensure_ascii=False)
        for conn in list(self.conns):
            conn.send(out)

    # ----- lobby ------------
    async def join(self, player_id: str, name: str, seat: int | None = None) -> int:
        """Seat a guest; the game starts when the last seat is taken. Returns the seat. The
        database decides who gets a seat (another process may be seating someone at once).

        Raises:
            LobbyError: the table is not waiting, the guest is seated already, the seat is
                taken or out of range.
        """
        offered = await self.manager.offered_seats(self, player_id)
        async with self.lock:
            seat = self._free_seat(player_id, seat, offered)
            claim = SeatData(seat=seat, player_id=player_id, name=name)
            if not await self.store.write(self.store.claim_seat, self.id, claim):
                await self.reload()
                self.broadcast()
                raise LobbyError("seat_taken", f"Seat {seat} is not free.")
            self.seats[seat] = claim
            self.updated_at = datetime.now(UTC)
            if self.manager.shared:
                # Another process may have seated someone a moment ago (two last seats taken
                # at once): the stored seats decide whether the game starts.
                await self.reload()
            if self.status == "waiting" and all(
                s.player_id is not None or s.bot is not None for s in self.seats
            ):
                try:
                    await self._start()
                except StaleWriteError:  # another process dealt first
                    await self.reload()
            self.broadcast()
            await self.manager.seats_changed(self)
            self.schedule_bot()
            return seat

    def _free_seat(self, player_id: str, seat: int | None, offered: Sequence[int] = ()) -> int:
        """The seat a guest asks for (or the first free one), if free as far as known here
        (``offered``: seats kept for someone else by a rematch)."""
        if self.seat_of(player_id) is not None:
            raise LobbyError("already_seated", "You already have a seat at this table.")
        if self.status == "expired":
            raise LobbyError("expired", "Nobody joined this table in time; it was closed.")
        if self.status != "waiting":
            raise LobbyError("started", "This table has already started.")
        free = [s.seat for s in self.seats
                if s.player_id is None and s.bot is None and s.seat not in offered]  # fmt: skip
        if seat is None:
            if not free:
                raise LobbyError("full", "Every seat at this table is taken.")
            return free[0]
        if seat not in free:
            raise LobbyError("seat_taken", f"Seat {seat} is not free.")
        return seat

    async def leave(self, player_id: str) -> None:
        """Give up a seat before the game starts.

        Raises:
            LobbyError: not seated, or the game has started.
        """
        async with self.lock:
            seat = self.seat_of(player_id)
            if seat is None:
                raise LobbyError("not_seated", "You have no seat at this table.")
            if self.status != "waiting":
                raise LobbyError("started", "The game has started; a bot can take your seat.")
            s = self.seats[seat]
            s.player_id, s.name = None, ""
            await self.store.write(self.store.save_seat, self.id, s)
            self.updated_at = datetime.now(UTC)
            self.broadcast()
            await self.manager.seats_changed(self)

    async def _start(self, seats: Sequence[SeatData] = ()) -> None:
        """Deal: create the state, play the opening chance outcomes, commit (lock held)."""
        done = advance(self.game.new_state(self.num_players), self.seed, self._bots())
        deadline = self._deadline(done)
        await self.store.write(
            self.store.append_moves, self.id, 0, done.steps, status=done.status, seats=seats,
            deadline=deadline, **done.store_kwargs(),
        )  # fmt: skip
        self._take(done, deadline)

    def _bots(self) -> list[bool]:
        """Which seats bots hold."""
        return [s.bot is not None for s in self.seats]

    def _deadline(self, done: Advance) -> datetime | None:
        """The deadline of the move due after ``done`` (turn-based tables; the manager's clock)."""
        return self.pace.deadline(self.manager.clock, done.to_move, done.bot_turn)

    def _take(self, done: Advance, deadline: datetime | None = None) -> None:
        """Take the state, status, result and events of committed steps (and the deadline
        stored with them), and tell the players whose turn it is now."""
        self.state, self.status, self.result = done.state, done.status, done.result
        self.log.extend(done.events)
        self.deadline = deadline
        self.manager.turns_changed(self)
        if done.status == "finished":
            self.manager.finished(self)

    # ----- play ------------
    async def _play(
        self, action: Action, seat: int, mover: Conn | None = None, timeout: SeatData | None = None
    ) -> None:
        """Apply a legal ``action`` of ``seat`` and the chance outcomes after it, commit, then
        take the new state, acknowledge the move to ``mover`` and send everyone their view
        (lock held). ``timeout``: the move is a bot's at the seat's missed deadline, and this
        is the seat after it (turn-based tables). On a database error the table keeps its old
        state and the error propagates."""
        assert self.state is not None
        at = self.version
        bots = self._bots()
        if timeout is not None:
            bots[seat] = timeout.bot is not None
        done = advance(self.state, self.seed, bots, action, seat)
        deadline = self._deadline(done)
        try:
            await self.store.write(
                self.store.append_moves, self.id, at, done.steps,
                status=done.status if done.status != self.status else None,
                deadline=deadline, seats=[timeout] if timeout else (),
                timeout_seat=seat if timeout else None, **done.store_kwargs(),
            )  # fmt: skip
        except StaleWriteError:
            await self.reload()
            raise
        if timeout is not None:
            self.seats[seat] = timeout
            self.timeouts.append((at, seat))
        self._take(done, deadline)
        if mover is not None:
            mover.send(
                {"type": "ack", "version": self.version, "at": at, "action": done.steps[0][0]}
            )
        self.broadcast()
        await self.manager.committed(self, at, done)
        self.schedule_bot()

    async def finish_chance(self) -> None:
        """Play the chance outcomes due in a game whose record was cut short before them
        (stored by an older Septet, or by hand)."""
        if self.status != "playing" or self.state is None or not self.state.is_chance_node:
            return
        async with self.lock:
            if self.state is None or not self.state.is_chance_node:
                return
            done = advance(self.state, self.seed, self._bots())
            deadline = self._deadline(done)
            try:
                await self.store.write(
                    self.store.append_moves, self.id, self.version, done.steps,
                    status=done.status, deadline=deadline, **done.store_kwargs(),
                )  # fmt: skip
            except StaleWriteError:
                await self.reload()
                return
            self._take(done, deadline)

    def took_steps(self, events: list[tuple[int, Event]]) -> None:
        """The state was moved on by steps another process committed: take their events and
        the status they led to."""
        assert self.state is not None
        status, result, to_move, bot_turn = position(self.state, self._bots())
        self.status, self.result = status, result
        self.log.extend(events)
        # (the stored deadline is this within the message's delay; the sweepers read that one)
        self.deadline = self.pace.deadline(self.manager.clock, to_move, bot_turn)
        if status == "finished":
            self.manager.finished(self)

    async def reload(self) -> None:
        """Take the table as stored (another process moved it on)."""
        data = await asyncio.to_thread(self.store.get_table, self.id, True)
        if data is not None:  # (the replay in a thread: a long game takes a while)
            fresh = await asyncio.to_thread(LiveTable.from_data, self.manager, data)
            self.state, self.status, self.log = fresh.state, fresh.status, fresh.log
            self._event_json.clear()
            self.seats, self.result = fresh.seats, fresh.result
            if not self.manager.runs_bots:  # the bot workers' mark, as stored (issue 27)
                self.warming = fresh.warming
            self.updated_at = fresh.updated_at
            self.deadline, self.timeouts = fresh.deadline, fresh.timeouts

    async def move(self, conn: Conn, version: int, text: str) -> bool:
        """:meth:`_move`, counted in the metrics (accepted, or refused by error code; the time
        from the message to the new views queued)."""
        began = time.perf_counter()
        accepted = await self._move(conn, version, text)
        if accepted:
            MOVES_ACCEPTED.labels("person").inc()
            MOVE_SECONDS.observe(time.perf_counter() - began)
        else:
            MOVES_REFUSED.labels(getattr(conn, "last_error", "other")).inc()
        return accepted

    async def _move(self, conn: Conn, version: int, text: str) -> bool:
        """A person's move, made on ``version``; errors go back to ``conn`` and change nothing.

        Error codes: ``spectator``, ``not_started``, ``finished``, ``stale``, ``not_your_turn``,
        ``illegal`` (with the engine's reason and rule id), ``server``. Returns whether the move
        was accepted (an ``ack`` with the new version, the move's index ``at`` in the record and
        its notation is queued before the new views).
        """
        async with self.lock:
            seat = self.conn_seat(conn)
            if seat is None:
                conn.error("spectator", "Spectators cannot move.")
                return False
            if self.status == "waiting" or self.state is None:
                conn.error("not_started", "The game has not started yet.")
                return False
            if self.status == "finished":
                conn.error("finished", "The game is over.")
                return False
            if version != self.version:
                conn.error(
                    "stale",
                    f"That move was made on version {version}, but the game is at version "
                    f"{self.version}; it was not played.",
                    version=self.version,
                )
                return False
            if self.to_move != seat or self.seats[seat].bot is not None:
                conn.error("not_your_turn", "It is not your turn.")
                return False
            try:
                action = self.game.parse_action(self.state, text)
            except IllegalActionError as exc:
                # ``message`` is English; ``message_ja`` the Japanese reason (English when the
                # engine gave none), so that the client shows the one matching its language.
                conn.error(
                    "illegal",
                    exc.reason,
                    message_ja=exc.reason_ja or exc.reason,
                    rule=exc.rule,
                    action=text[:200],
                )
                return False
            try:
                await self._play(action, seat, conn)
            except StaleWriteError:  # another process got there first: show what it did
                self.broadcast()
                conn.error("stale", "The game moved on before your move; it was not played.",
                           version=self.version)  # fmt: skip
                return False
            except Exception as exc:
                if not is_outage(exc):
                    log.exception("table %s: could not store a move", self.id)
                conn.error("server", "The move could not be saved; please try again.",
                           message_ja="手を保存できませんでした。もう一度どうぞ。")  # fmt: skip
                return False
            return True

    async def replace(self, conn: Conn, seat: int) -> bool:
        """Hand an absent player's seat to a bot (asked by another seated player)."""
        async with self.lock:
            if conn.seat is None:
                conn.error("spectator", "Only seated players can call in a bot.")
                return False
            if not (0 <= seat < self.num_players) or self.status != "playing":
                conn.error("bad_seat", "No such seat in play.")
                return False
            if self.pace.turn_based:
                conn.error("turn_based", "At a turn-based table nobody is replaced for being "
                           "away; the deadline decides.", message_ja="手番制のテーブルでは、"
                           "席を外しても交代はありません。期限で決まります。")  # fmt: skip
                return False
            s = self.seats[seat]
            gone = self.gone_since.get(seat)
            if (
                s.bot is not None
                or s.player_id is None
                or self.connected(seat)
                or gone is None
                or await self.manager.present_elsewhere(self, seat)
            ):
                conn.error("not_absent", "That player is here.")
                return False
            waited = time.monotonic() - gone
            if waited < self.settings.replace_after:
                conn.error(
                    "too_soon",
                    f"Wait {self.settings.replace_after - waited:.0f} more seconds before "
                    "calling in a bot.",
                )
                return False
            s.bot, s.replaced = self.manager.replacement_bot(self.game), True
            await self.store.write(self.store.save_seat, self.id, s, bot_turn=self.to_move == seat)
            self.broadcast()
            await self.manager.seats_changed(self)
            self.schedule_bot()
            return True

    # ----- bots ------------
    def _bot_to_move(self) -> int | None:
        seat = self.to_move
        if seat is None or self.seats[seat].bot is None:
            return None
        return seat

    def schedule_bot(self) -> None:
        """Start the bot loop if a bot is to move and none is running (embedded mode; scaled
        out, the turn is queued for the bot workers)."""
        if self._bot_to_move() is None or self.manager.closing:
            return
        if not self.manager.runs_bots:
            self.manager.request_bot(self)
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    def bot_job(self, seat: int) -> BotJob:
        """The job of the bot at ``seat`` (to move now)."""
        assert self.state is not None
        return BotJob(
            self.id, self.game.name, self.options, self.num_players,
            tuple(str(a) for a in self.state.history), seat, self.seats[seat].bot or "random",
            self.seed,
        )  # fmt: skip

    async def _bot_loop(self) -> None:
        """Play the bots' turns: each move computed by the bot pool (a worker process) without
        the table's lock, then played under it if the table is still where it was."""
        failures = 0
        while not self.manager.closing:
            seat = self._bot_to_move()
            if seat is None or self.state is None:
                return
            await asyncio.sleep(self.settings.bot_delay + min(failures, 10))
            if self._bot_to_move() != seat or self.state is None:
                continue
            job = self.bot_job(seat)
            notation = await self.manager.bots.choose(job, self.settings.bot_timeout,
                                                      self.owner_key)  # fmt: skip
            async with self.lock:
                if self.version != job.version or self._bot_to_move() != seat:
                    continue  # the table moved on meanwhile (a reload, a person back)
                try:
                    action = self.game.parse_action(
                        self.state, notation or fallback_move(job, self.state)
                    )
                    # the players are told when a Strong bot played at Normal (warming up)
                    if getattr(notation, "warming", False):
                        self.warming.add(seat)
                    else:
                        self.warming.discard(seat)
                    await self._play(action, seat)
                    MOVES_ACCEPTED.labels("bot").inc()
                    failures = 0
                except Exception:
                    log.exception("table %s: bot move not stored", self.id)
                    failures += 1

    async def play_timeout(self, version: int) -> bool:
        """The move of a missed deadline at ``version`` (turn-based tables): a Normal bot makes
        it for the person to move (computed without the lock, by the bot pool), committed only
        if the table is still at ``version`` (another process or worker that saw the deadline
        first gets ``stale``: the move is made once). Returns whether this call made it.
        See :mod:`septet.server.turns.deadlines`."""
        seat = self.to_move
        if not self.pace.turn_based or self.version != version or seat is None:
            return False
        if self.seats[seat].bot is not None or self.state is None:
            return False
        spec = normal_spec(self.game, self.manager.replacement_bot(self.game))
        job = dataclasses.replace(self.bot_job(seat), spec=spec)
        notation = await self.manager.bots.choose(job, self.settings.bot_timeout)
        async with self.lock:
            if self.version != version or self.to_move != seat or self.state is None:
                return False
            action = self.game.parse_action(self.state, notation or fallback_move(job, self.state))
            after = self.pace.after_timeout(self.seats[seat], spec)
            try:
                await self._play(action, seat, timeout=after)
            except StaleWriteError:
                self.broadcast()
                return False
        await self.manager.seats_changed(self)  # the seat's missed count (others reload)
        return True


class LobbyError(Exception):
    """A lobby request that cannot be granted (``code`` is stable, ``message`` an English
    sentence, ``message_ja`` a Japanese one where given)."""

    def __init__(
        self, code: str, message: str, status: int = 409, message_ja: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.message_ja = message_ja


class TableManager:
    """All live tables of a server, and the store behind them.

    Args:
        store: the database.
        settings: server settings.
    """

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self.closing = False
        self.bots = BotPool.shared(settings.bot_workers)
        # turn-based tables (issue 28): the clock of deadlines, the per-player sockets
        from septet.server.turns.notify import TurnNotifier

        self.clock = clock_from_env()
        self.notifier = TurnNotifier(settings)
        # Called with each table whose game just ended here (ratings: septet.server.players).
        self.finish_hooks: list[Callable[[LiveTable], None]] = []
        self.address_caps = AddressCaps(settings.max_bot_tables_per_address)

    @property
    def runs_bots(self) -> bool:
        """Whether this process plays the bots' turns (embedded mode: its own bot pool)."""
        return True

    @property
    def shared(self) -> bool:
        """Whether other server processes share this database (scaled out)."""
        return not self.runs_bots

    async def load(self) -> int:
        """Revive every waiting or playing table from the database and restart their bots;
        returns how many. A table whose record no longer replays is skipped and logged."""
        self.bots.warm()
        rows = await asyncio.to_thread(self.store.active_tables)
        for data in rows:
            try:
                table = LiveTable.from_data(self, data)
            except Exception:
                log.exception("table %s does not replay; left out", data.id)
                continue
            self.tables[table.id] = table
        for table in list(self.tables.values()):
            await table.finish_chance()
            table.schedule_bot()
        return len(self.tables)

    async def committed(self, table: LiveTable, at: int, done: Advance) -> None:
        """Steps were committed at ``table`` from version ``at`` (scaled out, other processes
        and the bot workers hear of them here)."""

    async def seats_changed(self, table: LiveTable) -> None:
        """Someone joined, left, or a bot took or gave back a seat at ``table`` (scaled out,
        other processes reload it)."""

    async def presence(self, table: LiveTable, seat: int, here: bool) -> None:
        """This process gained its first (or lost its last) socket of ``seat`` at ``table``."""

    async def present_elsewhere(self, table: LiveTable, seat: int) -> bool:
        """Whether another process holds a socket of ``seat`` at ``table`` (its players may
        not hand it to a bot)."""
        return False

    def request_bot(self, table: LiveTable) -> None:
        """A bot is to move at ``table`` and this process does not play bots: queue the turn."""

    async def lobby(
        self, status: str, game: str | None, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """A page of the lobby's section of tables with ``status`` (``waiting`` or
        ``playing``): their summaries, and how many there are."""
        found = [
            t for t in self.tables.values()
            if t.status == status and (game is None or t.game.name == game)
            and (status != "playing" or t.attended())
        ]  # fmt: skip
        return [t.summary() for t in found[offset : offset + limit]], len(found)

    def replacement_bot(self, game: Game[Any]) -> str:
        """The spec of the bot that takes an abandoned seat (``random`` if the configured one
        does not play this game)."""
        spec = self.settings.replacement_bot
        try:
            make_agent(spec, game)
        except Exception:
            return "random"
        return spec

    async def create(
        self,
        game: Game[Any],
        num_players: int,
        bots: Sequence[str | None],
        owner: tuple[str, str] | None,
        created_by: str | None = None,
        pace: TablePace | None = None,
        address: str | None = None,
        seed: str | None = None,
    ) -> LiveTable:
        """A new table; ``bots[i]`` is the agent spec of seat i or ``None`` for a person. The
        owner (``(player_id, name)``) takes the first human seat; a table with no free human
        seat starts at once. ``created_by`` (a guest id) is held to the caps of the settings,
        and ``address`` (the client's) to the cap on tables of bots only per address; the
        table's bots share the bot processes as the address's (:attr:`LiveTable.owner_key`).
        ``seed`` fixes the chance outcomes (a guided first game); by default a random one.
        ``pace``: live (default) or turn-based (:class:`~septet.server.turns.deadlines.TablePace`).

        Raises:
            LobbyError: ``too_many_open`` / ``too_many_bot_tables`` (429), the guest's cap or
                the address's.
        """
        game.check_num_players(num_players)
        seats = [SeatData(seat=i, bot=b, name=b or "") for i, b in enumerate(bots)]
        if owner is not None:
            for s in seats:
                if s.bot is None:
                    s.player_id, s.name = owner
                    break
        data = TableData(
            id=secrets.token_urlsafe(9),
            game=game.name,
            options=game.options_dict(),
            num_players=num_players,
            status="waiting",
            seed=seed or secrets.token_hex(16),
            owner_id=owner[0] if owner else None,
            version=0,
            result=None,
            created_at="",
            seats=seats,
            created_by=created_by,
            **(pace or TablePace()).to_json(),
        )
        if owner is None and address is not None:
            await self.address_caps.admit(self, address, data.id)
        try:
            await self.store.write(
                self.store.create_table,
                data,
                max_open=self.settings.max_open_tables,
                max_bot_tables=self.settings.max_bot_tables,
            )
        except CapError as exc:
            if owner is None and address is not None:
                self.address_caps.forget(address, data.id)
            raise _cap_error(exc) from None
        table = LiveTable(self, data)
        table.owner_key = owner_key(address, created_by or data.id)
        table.created_at = datetime.now(UTC).isoformat()
        table.chat = deque(maxlen=self.settings.chat_history)
        self.tables[table.id] = table
        if all(s.player_id is not None or s.bot is not None for s in seats):
            async with table.lock:
                await table._start()
            table.schedule_bot()
        return table

    async def published_chat(self, table: LiveTable, message: ChatMessage) -> None:
        """A chat message was stored at ``table`` (other processes hear of it in scaled mode)."""

    async def sweep(self) -> int:
        """Expire the waiting tables nobody joined within ``waiting_ttl`` (in the database,
        whichever process holds them); those held here are closed and let go. Returns how many
        this call expired."""
        before = datetime.now(UTC) - timedelta(seconds=self.settings.waiting_ttl)
        ids = await self.store.write(self.store.expire_waiting, before)
        for tid in ids:
            self.expired(tid)
            table = self.tables.get(tid)
            if table is None:
                continue
            async with table.lock:
                table.status = "expired"
                table.broadcast()
                if not table.conns:
                    self.tables.pop(tid, None)
        return len(ids)

    def expired(self, table_id: str) -> None:
        """This process expired ``table_id`` (scaled out, the processes holding it hear)."""

    # ----- turn-based tables (issue 28) ------------
    def turns_changed(self, table: LiveTable) -> None:
        """Steps were committed here at ``table``: tell its players' open pages (``/ws/me``,
        through Redis when scaled out) whose turn it is now."""
        seat = table.to_move
        held = table.seats[seat] if seat is not None else None
        mover = held.player_id if held is not None and held.bot is None else None
        players = [s.player_id for s in table.seats if s.player_id]
        self.notifier.changed(table.id, players, mover)

    async def play_timeout(self, table_id: str, version: int) -> bool:
        """Play the move of the missed deadline of ``table_id`` at ``version`` (loading the
        table if it is not held here); ``False`` when the move is moot or another got there
        first."""
        table = await self.get_or_load(table_id)
        if table is None:
            return False
        if table.version != version:  # held here but behind: take the table as stored
            async with table.lock:
                await table.reload()
        return await table.play_timeout(version)

    async def sweep_forever(self) -> None:
        """Run :meth:`sweep` every ``sweep_interval`` seconds until closed."""
        from septet.server.turns.sweeper import sweep_deadlines

        while not self.closing:
            try:
                await self.sweep()
            except Exception as exc:  # the database away for a moment: try again next time
                if not is_outage(exc):  # (an outage is logged once, when it starts)
                    log.exception("sweep failed")
            try:  # turn-based tables' deadlines (issue 28)
                await sweep_deadlines(self.store, self.clock, self.play_timeout)
            except Exception as exc:
                if not is_outage(exc):
                    log.exception("deadline sweep failed")
            await asyncio.sleep(self.settings.sweep_interval)

    def finished(self, table: LiveTable) -> None:
        """Called when a table's game ends: it is let go once nobody is connected, and the
        bot process that played it forgets it."""
        if not table.conns:
            self.tables.pop(table.id, None)
        if self.runs_bots:
            self.bots.forget(table.id)
        for hook in self.finish_hooks:
            try:
                hook(table)
            except Exception:  # a rating failing must not stop the table
                log.exception("table %s: finish hook failed", table.id)

    async def offered_seats(self, table: LiveTable, player_id: str) -> list[int]:
        """Seats of a waiting ``table`` kept by a rematch for players other than
        ``player_id`` (septet.server.players.seats)."""
        if table.status != "waiting":
            return []
        from septet.server.players.seats import offers

        found = await asyncio.to_thread(offers, self.store, table.id)
        return [seat for seat, (pid, _) in found.items() if pid != player_id]

    async def held_elsewhere(self, table: LiveTable) -> None:
        """Learn which seats of a table just loaded here other processes hold sockets of (a
        single process: none)."""

    def get(self, table_id: str) -> LiveTable | None:
        """A live table by id, or ``None`` (finished tables may have been let go)."""
        return self.tables.get(table_id)

    async def get_or_load(self, table_id: str) -> LiveTable | None:
        """A live table, reloading a finished one from the database; ``None`` if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        data = await asyncio.to_thread(self.store.get_table, table_id, True)
        if data is None:
            return None
        table = self.tables.get(table_id)  # another request may have loaded it meanwhile
        if table is None:
            try:
                table = LiveTable.from_data(self, data)
            except RecordError as exc:
                raise LobbyError("corrupt", f"Damaged record: {exc}", 500) from None
            if table.status != "finished":
                self.tables[table_id] = table
                await self.held_elsewhere(table)
            # A finished table is not kept: nothing changes it, and keeping every one ever
            # looked at (a replay, a record download) would grow without bound.
        return table

    async def close(self) -> None:
        """Stop the bots (on shutdown)."""
        self.closing = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t


def _cap_error(exc: CapError) -> LobbyError:
    if exc.code == "too_many_open":
        return LobbyError(
            exc.code,
            f"You already have {exc.limit} tables waiting for players; start or leave one "
            "before opening another.",
            status=429,
            message_ja=f"参加者を待っているテーブルがすでに{exc.limit}つあります。"
            "新しく作る前に、どれかを始めるか離れてください。",
        )
    return LobbyError(
        exc.code,
        f"You already have {exc.limit} tables of bots only in play; let one finish first.",
        status=429,
        message_ja=f"ボットだけのテーブルがすでに{exc.limit}つ進行中です。終わるまでお待ちください。",
    )


def _parse_time(text: str) -> datetime:
    """A stored ISO-8601 time (now, for a table not stored yet)."""
    if not text:
        return datetime.now(UTC)
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)
