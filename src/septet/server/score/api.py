"""The score keeper's HTTP routes, its WebSocket hub and its pages.

Scoring (stateless; every rule from the engines' ``scoring`` modules):

- ``POST /api/score/flip7/round``: rows of one round → each row's score and arithmetic;
- ``POST /api/score/double-seven/game``: every player's families and tokens → points, winners,
  the tie-break by the 77 token;
- ``POST /api/score/seven-shot/deal``: how a deal ended and the 7s each side took → points;
- ``POST /api/score/flip7/odds``: your row and the cards seen → the advice of
  ``septet advise flip7``; ``GET /api/score/flip7/cards``: the cards of an edition.

Sheets (shared by link, stored, live):

- ``POST /api/score/sheets`` {game, options, players} → the sheet;
- ``GET /api/score/sheets/{id}``; ``POST /api/score/sheets/{id}/ops`` {version, op} → the sheet
  after the operation (add, edit, delete, rename, undo, redo: :mod:`.sheet`);
- ``WS /ws/score/{id}``: the sheet now and after every accepted change (``{"type": "sheet",
  "sheet": ...}``).

Errors are ``{"error": code, "message": English, "message_ja": Japanese}`` with codes
``impossible`` (the rules refuse it; plus ``rule``), ``invalid`` (malformed), ``not_found``,
``stale`` (the sheet changed since ``version``; plus ``sheet``, the current one).
A refused request changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from septet import games
from septet.core.errors import ScoreError
from septet.games.double_seven import scoring as ds
from septet.games.double_seven.game import DoubleSevenOptions
from septet.games.flip7 import cards as C
from septet.games.flip7 import scoring as f7
from septet.games.flip7.game import Flip7Options
from septet.games.flip7.rules import FLIP7_BONUS
from septet.games.seven_shot import scoring as ss
from septet.games.seven_shot.game import SevenShotOptions
from septet.server.origin import same_origin
from septet.server.routes import router as strict_router
from septet.server.routes.client import CLIENT_HEADERS
from septet.server.score.sheet import (
    SheetError,
    SheetMeta,
    SheetState,
    apply_op,
    check_names,
    check_options,
    replay,
)
from septet.server.score.store import ScoreStore
from septet.server.store import StaleWriteError

log = logging.getLogger("septet.server")

WEB_DIR = Path(str(resources.files("septet") / "web"))
ODDS_CACHE = 4096
"""Pieces of advice kept in memory (the same position is often asked again: the first cards)."""
ODDS_WORKERS = 2
"""Pieces of advice computed at once (each under a second of one core)."""
SOCKETS_PER_SHEET = 64
"""Live connections one sheet may have in one process (a table's phones, and some spare)."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


Name = Annotated[str, Field(min_length=1, max_length=40)]
Card = Annotated[str, Field(min_length=1, max_length=12)]


class Flip7RowIn(_In):
    """One player's row: the cards in front of them at the end of the round (engine notation:
    ``1``-``13``, ``zero``, ``u7``, ``l13``, ``/2``, ``-2``..``-10``; classic ``0``-``12``,
    ``+2``..``+10``, ``x2``, ``second``), or a plain number in ``points``."""

    cards: list[Card] = Field(default_factory=list, max_length=40)
    busted: StrictBool | None = Field(
        None, description="true/false, or null to read it from the cards (a duplicate busts)"
    )
    after_bust: list[Card] = Field(
        default_factory=list, max_length=20, description="brutal: modifiers after the bust"
    )
    points: StrictInt | None = Field(None, description="a plain round score instead of cards")


class Flip7RoundIn(_In):
    """A round of Flip 7 (F7V-7, F7V-8, F7V-9)."""

    edition: Literal["vengeance", "classic"] = "vengeance"
    brutal: StrictBool = False
    rows: list[Flip7RowIn] = Field(min_length=1, max_length=36)
    flip7_choice: StrictInt | None = Field(
        None, description="brutal: the seat that takes the Flip 7's −15 (null: the +15)"
    )
    names: list[Name] | None = Field(None, max_length=36)
    totals: list[StrictInt] | None = Field(None, description="game totals before this round")
    target: StrictInt = Field(Flip7Options.target, ge=1, le=10000)  # the engine's default, F7V-3.7
    decks: Literal["auto", 1, 2] = Field(
        "auto", description="the game's option decks (F7V-1.5): auto is two from 18 players"
    )


class DSPlayerIn(_In):
    """A player's end of game: family sizes, 7 tokens, the 77 token (DS-8)."""

    families: list[StrictInt] = Field(default_factory=list, max_length=40)
    sevens: StrictInt = 0
    double_seven: StrictBool = False


class DSGameIn(_In):
    """The end of a game of Double Seven (DS-8)."""

    players: list[DSPlayerIn] = Field(min_length=1, max_length=4)
    double_seven: Literal["second_token", "two_families"] = DoubleSevenOptions().double_seven
    names: list[Name] | None = Field(None, max_length=4)


class SSDealIn(_In):
    """A deal of Seven Shot (SS-4, SS-5): sides are teams 0 (seats 0 & 2) and 1 (seats 1 & 3)
    with 4 players, the players themselves with 3."""

    ending: Literal["sevens", "seven_tricks", "hands_empty"]
    side: StrictInt = Field(description="the side that took the 4th/3rd 7, 7 tricks, or the last")
    sevens: list[StrictInt] = Field(min_length=2, max_length=3, description="7s taken in tricks")
    hand_sevens: StrictInt = Field(0, description="4 players, 7 tricks: 7s in the losers' hands")
    indicator_seven: StrictBool = False
    names: list[Name] | None = Field(None, max_length=3)
    totals: list[StrictInt] | None = Field(None, description="points per side before the deal")
    target: StrictInt = Field(SevenShotOptions.target, ge=1, le=100)  # the engine's, SS-2.1


class OddsIn(_In):
    """A Flip 7 hit/stay decision: your row and every other card seen since the shuffle."""

    edition: Literal["vengeance", "classic"] = "vengeance"
    row: list[Card] = Field(default_factory=list, max_length=20)
    seen: list[Card] = Field(default_factory=list, max_length=200)
    alone: StrictBool = Field(False, description="every other player has busted")
    decks: Literal[1, 2] = Field(
        1, description="decks shuffled together (F7V-1.5: two from 18 players by default)"
    )


class SheetIn(_In):
    """A new score sheet."""

    game: Literal["flip7", "double-seven", "seven-shot"]
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[Name] = Field(min_length=2, max_length=36)


class OpIn(_In):
    """An operation on a sheet made on ``version`` (see :mod:`septet.server.score.sheet`)."""

    version: StrictInt = Field(ge=0)
    op: dict[str, Any]


def _impossible(exc: ScoreError) -> JSONResponse:
    return JSONResponse(
        {
            "error": "impossible",
            "message": exc.message("en"),
            "message_ja": exc.message("ja"),
            "rule": exc.rule,
        },
        status_code=422,
    )


def _invalid(exc: SheetError) -> JSONResponse:
    return JSONResponse(
        {"error": "invalid", "message": str(exc), "message_ja": exc.message_ja},
        status_code=400,
    )


def _not_found() -> JSONResponse:
    return JSONResponse(
        {
            "error": "not_found",
            "message": "No such score sheet.",
            "message_ja": "そのスコアシートはありません。",
        },
        status_code=404,
    )


# ----- the Flip 7 odds ------------------------------------------------------------------------
@functools.lru_cache(maxsize=ODDS_CACHE)
def _advice(
    edition: str, row: tuple[str, ...], pool: tuple[int, ...], alone: bool
) -> dict[str, Any]:
    from septet.bots.flip7_advice import advise_position

    advice, method = advise_position(edition, list(row), pool, alone)
    return {
        "bust_probability": advice.bust_probability,
        "stay": advice.stay,
        "hit": advice.hit,
        "best": advice.best,
        "action": advice.action,
        "method": method,
    }


def odds(body: OddsIn) -> dict[str, Any]:
    """The advice of ``septet advise flip7`` for ``body`` (blocking: run it in a thread).

    Raises:
        AdviceInputError: an unknown card, a card more often than the deck has it, a row that
            has busted or made Flip 7.
    """
    from septet.bots.flip7_advice import build_position

    mine, pool = build_position(body.edition, body.row, body.seen, decks=body.decks)
    kinds = C.VENGEANCE_KINDS if body.edition == "vengeance" else C.CLASSIC_KINDS
    out = dict(_advice(body.edition, tuple(sorted(mine)), pool, body.alone))
    out["left"] = sum(pool)
    out["cards_left"] = {C.TOKENS[k]: pool[k] for k in kinds}
    return out


def card_list(edition: str, decks: int = 1) -> list[dict[str, Any]]:
    """The cards of ``edition`` with their copies in ``decks`` decks and names, for the pads of
    the pages."""
    deck = f7.deck_counts("vengeance" if edition == "vengeance" else "classic", decks)
    kinds = C.VENGEANCE_KINDS if edition == "vengeance" else C.CLASSIC_KINDS
    out = []
    for k in kinds:
        group = (
            "action"
            if C.IS_ACT[k] and k != C.SECOND
            else "modifier"
            if C.IS_MOD[k]
            else "special"
            if k in (C.ZERO, C.U7, C.L13, C.SECOND)
            else "number"
        )
        out.append(
            {
                "token": C.TOKENS[k],
                "group": group,
                "value": C.VALUE[k] if C.IS_NUM[k] else None,
                "count": deck[k],
                "en": C.card_name(k, "en"),
                "ja": C.card_name(k, "ja"),
            }
        )
    return out


def qr_svg(url: str) -> bytes:
    """``url`` as a QR code, an SVG document (the ``qrcode`` library; no image library)."""
    import io

    import qrcode
    import qrcode.image.svg

    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


# ----- the live hub ---------------------------------------------------------------------------
class ScoreHub:
    """The WebSocket connections of each sheet in this process, and the latest state sent.

    :meth:`publish` queues a sheet for every connection of it, unless a later version was sent
    already. With several server processes (``septet serve --redis URL``) the process that
    accepted a change also publishes it on the sheet's Redis channel (the tables' fan-out,
    :class:`septet.server.scale.ScaledTableManager`), and every other process publishes it to
    its own connections (:meth:`heard`).
    """

    def __init__(self) -> None:
        self.subs: dict[str, set[asyncio.Queue[str | None]]] = {}
        self.sent: dict[str, int] = {}  # sheet -> the version last sent to its connections

    def subscribe(self, sheet_id: str) -> asyncio.Queue[str | None] | None:
        """A queue of the sheet's messages, or ``None`` when the sheet has
        :data:`SOCKETS_PER_SHEET` connections already."""
        subs = self.subs.setdefault(sheet_id, set())
        if len(subs) >= SOCKETS_PER_SHEET:
            return None
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=64)
        subs.add(queue)
        return queue

    def unsubscribe(self, sheet_id: str, queue: asyncio.Queue[str | None]) -> None:
        subs = self.subs.get(sheet_id)
        if subs is not None:
            subs.discard(queue)
            if not subs:
                del self.subs[sheet_id]
                self.sent.pop(sheet_id, None)

    def publish(self, sheet_id: str, message: dict[str, Any]) -> None:
        """Queue ``message`` (``{"type": "sheet", "sheet": {..., "version": n}}``) for every
        connection of the sheet in this process; a version older than one sent is dropped (two
        processes' messages may cross)."""
        subs = self.subs.get(sheet_id)
        if not subs:
            return
        version = int(message.get("sheet", {}).get("version", -1))
        if version < self.sent.get(sheet_id, -1):
            return
        self.sent[sheet_id] = version
        text = json.dumps(message, ensure_ascii=False)
        for queue in list(subs):
            if queue.full():  # a connection far behind: drop it, it reloads on reconnect
                with contextlib.suppress(asyncio.QueueFull):
                    queue.put_nowait(None)
                continue
            queue.put_nowait(text)


def _warm_odds() -> None:
    """Import the compiled Flip 7 programme (numba loads it from its cache, or compiles it:
    seconds) in the background; without numba, nothing."""
    with contextlib.suppress(Exception):
        from septet.bots.flip7_ev_fast import load

        load()


class _Parts:
    """What one application's score keeper holds: its store, hub, per-sheet locks and the
    slots of the odds workers (made on first use, inside the application's event loop)."""

    def __init__(self, engine: Any, manager: Any = None) -> None:
        self.store = ScoreStore(engine)
        self.hub = ScoreHub()
        self.locks: dict[str, asyncio.Lock] = {}
        self.odds_slots = asyncio.Semaphore(ODDS_WORKERS)
        # Load the compiled odds programme now, not on the first phone's request.
        threading.Thread(target=_warm_odds, name="septet-odds-warm", daemon=True).start()
        # Several processes on Redis: the tables' hub carries the sheets' updates too.
        self.redis = getattr(manager, "hub", None)
        if self.redis is not None:
            manager.sheet_listener = self.heard

    async def changed(self, sheet: dict[str, Any]) -> None:
        """Send a sheet just changed here to this process's connections and, with Redis, to
        the other processes'."""
        message = {"type": "sheet", "sheet": sheet}
        self.hub.publish(sheet["id"], message)
        if self.redis is not None:
            from septet.server.scale import SHEET_CHANNEL

            try:
                await self.redis.publish(SHEET_CHANNEL + sheet["id"], {"k": "sheet", "s": sheet})
            except Exception:  # stored already: the others catch up on their next load
                log.exception("sheet %s: not published", sheet["id"])

    async def heard(self, sheet_id: str, message: dict[str, Any]) -> None:
        """A sheet changed by another process (its Redis message)."""
        if message.get("k") == "sheet" and isinstance(message.get("s"), dict):
            self.hub.publish(sheet_id, {"type": "sheet", "sheet": message["s"]})


def _parts(request: Request | WebSocket) -> _Parts:
    """The score keeper's parts of the request's application (made on first use)."""
    state = request.app.state
    if not hasattr(state, "score"):
        state.score = _Parts(state.store.engine, getattr(state, "manager", None))
    return state.score  # type: ignore[no-any-return]


async def _load(store: ScoreStore, sheet_id: str) -> SheetState | None:
    """A sheet replayed from its stored operations, or ``None``."""
    found = await asyncio.to_thread(store.load, sheet_id[:40])
    if found is None:
        return None
    state = replay(found.meta, found.ops)
    state.version = found.version
    return state


def _stale(state: SheetState | None) -> JSONResponse:
    return JSONResponse(
        {
            "error": "stale",
            "message": "The sheet changed meanwhile; here it is. Try again.",
            "message_ja": "その間にシートが変わりました。最新のシートでもう一度どうぞ。",
            "sheet": state.to_json() if state else None,
        },
        status_code=409,
    )


def _scored(compute: Any) -> Any:
    """``compute()``'s result, or the error answer of a refused entry."""
    try:
        return compute()
    except ScoreError as exc:
        return _impossible(exc)
    except SheetError as exc:
        return _invalid(exc)


# ----- stateless scoring ------------------------------------------------------------------------
def _flip7_round(body: Flip7RoundIn) -> dict[str, Any]:
    n = len(body.rows)
    if body.names is not None and len(body.names) != n:
        raise SheetError("names: one per row", "名前は列ごとに1つです")
    if body.totals is not None and len(body.totals) != n:
        raise SheetError("totals: one per row", "合計は列ごとに1つです")
    result = f7.score_round(
        [f7.RowEntry(tuple(r.cards), r.busted, tuple(r.after_bust), r.points) for r in body.rows],
        edition=body.edition,
        brutal=body.brutal,
        decks=games.get("flip7", edition=body.edition, decks=body.decks).num_decks(n),  # type: ignore[attr-defined]
        flip7_choice=body.flip7_choice,
        names=body.names,
    )
    out = result.to_json()
    if body.totals is not None:
        out["totals"] = [t + s for t, s in zip(body.totals, result.scores, strict=True)]
        out["winners"] = f7.game_winners(out["totals"], body.target)
    return out


def _double_seven_game(body: DSGameIn) -> dict[str, Any]:
    if body.names is not None and len(body.names) != len(body.players):
        raise SheetError("names: one per player", "名前はプレイヤーごとに1つです")
    return ds.final_scores(
        [ds.PlayerEnd(tuple(p.families), p.sevens, p.double_seven) for p in body.players],
        double_seven=body.double_seven,
        names=body.names,
    ).to_json()


def _seven_shot_deal(body: SSDealIn) -> dict[str, Any]:
    if body.names is not None and len(body.names) != len(body.sevens):
        raise SheetError("names: one per side", "名前はサイドごとに1つです")
    if body.totals is not None and len(body.totals) != len(body.sevens):
        raise SheetError("totals: one per side", "合計はサイドごとに1つです")
    entry = ss.DealEntry(
        body.ending, body.side, tuple(body.sevens), body.hand_sevens, body.indicator_seven
    )
    result = ss.score_deal(entry, body.names)
    out = result.to_json()
    if body.totals is not None:
        out["totals"] = [t + g for t, g in zip(body.totals, result.gains, strict=True)]
        out["winners"] = ss.race_winners(out["totals"], body.target)
    return out


def _scoring_routes(router: APIRouter) -> None:
    """The stateless scoring routes (every rule from the engines' ``scoring`` modules)."""

    @router.post("/api/score/flip7/round", tags=["score"])
    async def flip7_round(body: Flip7RoundIn) -> Any:
        """Score one round of Flip 7: each row's score and its arithmetic (sum, ÷2 or ×2,
        modifiers, floor at 0, the Zero, +15 for Flip 7, brutal −15), by the engine's
        ``septet.games.flip7.scoring.score_round``; with ``totals``, the new totals and the
        winner (F7V-3.7: a tie at the top plays on)."""
        return _scored(lambda: _flip7_round(body))

    @router.post("/api/score/double-seven/game", tags=["score"])
    async def double_seven_game(body: DSGameIn) -> Any:
        """Score the end of a game of Double Seven (DS-8): each player's tiles, 7 tokens and
        the 77, the winners and the tie-break by the 77 token, by the engine's
        ``septet.games.double_seven.scoring.final_scores``."""
        return _scored(lambda: _double_seven_game(body))

    @router.post("/api/score/seven-shot/deal", tags=["score"])
    async def seven_shot_deal(body: SSDealIn) -> Any:
        """Score a deal of Seven Shot (SS-4, SS-5: the 7-trick transfer, three-player second
        place) by the engine's ``septet.games.seven_shot.scoring.score_deal``; with ``totals``,
        the new points per side and the winners of the race (SS-2.1, SS-5.6). ``names`` and
        ``totals`` have one item per side."""
        return _scored(lambda: _seven_shot_deal(body))


def _odds_routes(router: APIRouter) -> None:
    """The Flip 7 cards and odds."""

    @router.get("/api/score/flip7/cards", tags=["score"])
    async def flip7_cards(
        request: Request,
        edition: Literal["vengeance", "classic"] = "vengeance",
        decks: Annotated[int, Query(ge=1, le=2)] = 1,
    ) -> Any:
        """The cards of an edition: token, group (number, special, modifier, action), value,
        copies in ``decks`` decks (F7V-1.5), names in English and Japanese; ``flip7_bonus``, the
        points a Flip 7 adds or, brutal, takes (F7V-7.2, F7V-8.3), for the client's words."""
        _parts(request)  # the odds page asks this first: the odds programme loads meanwhile
        return {
            "edition": edition,
            "decks": decks,
            "cards": card_list(edition, decks),
            # the rule's number for the score keeper's words (F7V-7.2, F7V-8.3)
            "flip7_bonus": FLIP7_BONUS,
        }

    @router.post("/api/score/flip7/odds", tags=["score"])
    async def flip7_odds(body: OddsIn, request: Request) -> Any:
        """The cards left, the chance that the next card busts you, the expected score of
        staying and of the best play after a hit, and the advice: the exact programme of
        ``septet advise flip7`` (``method``: ``exact``, else ``reduced`` or ``lower_bound``),
        compiled when numba is installed."""
        from septet.bots.flip7_advice import AdviceInputError

        async with _parts(request).odds_slots:
            try:
                return await asyncio.to_thread(odds, body)
            except AdviceInputError as exc:
                return JSONResponse(
                    {"error": "impossible", "message": str(exc), "message_ja": str(exc)},
                    status_code=422,
                )


def _sheet_routes(router: APIRouter) -> None:
    """Creating and reading sheets, and their QR codes."""

    @router.post("/api/score/sheets", tags=["score"])
    async def create_sheet(body: SheetIn, request: Request) -> Any:
        """A new sheet: pick a game, its options and the players; share ``link``."""
        try:
            options = check_options(body.game, body.options)
            names = check_names(body.players, body.game)
        except SheetError as exc:
            return _invalid(exc)
        meta = await asyncio.to_thread(_parts(request).store.create, body.game, options, names)
        return {**replay(meta, []).to_json(), "link": f"/score/s/{meta.id}"}

    @router.get("/api/score/sheets/{sheet_id}", tags=["score"])
    async def get_sheet(sheet_id: str, request: Request) -> Any:
        """A sheet: its entries with the engine's results, totals, winners, undo and redo."""
        state = await _load(_parts(request).store, sheet_id)
        return _not_found() if state is None else state.to_json()

    @router.get("/api/score/sheets/{sheet_id}/qr.svg", tags=["score"])
    async def sheet_qr(sheet_id: str, request: Request) -> Any:
        """A QR code (SVG) of the sheet's link, for the other phones at the table to scan: the
        server's public URL (``--public-url``) when set, else the address this page used."""
        found = await asyncio.to_thread(_parts(request).store.load, sheet_id[:40])
        if found is None:
            return _not_found()
        base = request.app.state.settings.public_url or str(request.base_url)
        return Response(
            qr_svg(f"{base.rstrip('/')}/score/s/{found.meta.id}"),
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=3600"},
        )


def _op_route(router: APIRouter) -> None:
    """Operations on a sheet (stored, then sent to every connection of the sheet)."""

    @router.post("/api/score/sheets/{sheet_id}/ops", tags=["score"])
    async def sheet_op(sheet_id: str, body: OpIn, request: Request) -> Any:
        """Apply one operation made on ``version``: ``add``/``edit`` an entry (scored and
        checked by the engine), ``delete``, ``rename``, ``undo``, ``redo``. Stored before the
        answer; every connection of the sheet (in every server process) is sent the new
        sheet."""
        p = _parts(request)
        async with p.locks.setdefault(sheet_id[:40], asyncio.Lock()):
            state = await _load(p.store, sheet_id)
            if state is None:
                return _not_found()
            if body.version != state.version:
                return _stale(state)
            new = _scored(lambda: apply_op(state, body.op).to_json())
            if isinstance(new, JSONResponse):
                return new
            try:
                await asyncio.to_thread(p.store.append_op, state.meta.id, state.version, body.op)
            except StaleWriteError:
                return _stale(await _load(p.store, sheet_id))
        await p.changed(new)
        return new


def _ws_route(router: APIRouter) -> None:
    """The live sheet: ``WS /ws/score/{id}``."""

    @router.websocket("/ws/score/{sheet_id}")
    async def ws_sheet(ws: WebSocket, sheet_id: str) -> None:
        origin, svc = ws.headers.get("origin"), getattr(ws.app.state, "services", None)
        scheme = svc.client_scheme(ws) if svc else ws.url.scheme
        if origin and not same_origin(origin, ws, scheme, svc.settings.public_url if svc else ""):
            await ws.close(code=1008)
            return
        p = _parts(ws)
        state = await _load(p.store, sheet_id)
        if state is None:
            await ws.close(code=4404)
            return
        sid = state.meta.id
        queue = p.hub.subscribe(sid)
        if queue is None:
            await ws.close(code=1013)  # try again later: the sheet has too many connections
            return
        await ws.accept()
        try:
            # The state is read after subscribing, so no change falls between the two.
            fresh = await _load(p.store, sid)
            sheet = (fresh or state).to_json()
            await ws.send_text(json.dumps({"type": "sheet", "sheet": sheet}, ensure_ascii=False))
            await _serve_socket(ws, queue)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            p.hub.unsubscribe(sid, queue)


async def _serve_socket(ws: WebSocket, queue: asyncio.Queue[str | None]) -> None:
    """Send the sheet's queued messages while answering pings, until either side ends."""

    async def writer() -> None:
        with contextlib.suppress(Exception):
            while True:
                msg = await queue.get()
                if msg is None:
                    await ws.close()
                    return
                await ws.send_text(msg)

    task = asyncio.get_running_loop().create_task(writer())
    try:
        while True:
            raw = await ws.receive_text()
            if len(raw) > 256:
                break
            if '"ping"' in raw:
                queue.put_nowait(json.dumps({"type": "pong"}))
    finally:
        task.cancel()


def _page_routes(router: APIRouter, client_headers: Mapping[str, str]) -> None:
    """The pages (one HTML file; the client routes by path)."""
    page_file = WEB_DIR / "score.html"

    async def page(_: Request) -> FileResponse:
        return FileResponse(page_file, headers={"Cache-Control": "no-cache", **client_headers})

    for path in ("/score", "/score/s/{sheet_id}", "/score/flip7/odds", "/score/print/{game}"):
        router.add_api_route(path, page, methods=["GET"], include_in_schema=False)


def make_router(client_headers: Mapping[str, str]) -> APIRouter:
    """The score keeper's routes (strict JSON bodies, like the rest of the API); the pages
    are served with ``client_headers``."""
    router = strict_router()
    _scoring_routes(router)
    _odds_routes(router)
    _sheet_routes(router)
    _op_route(router)
    _ws_route(router)
    _page_routes(router, client_headers)
    return router


api = make_router(CLIENT_HEADERS)
"""The score keeper's router, included by :func:`septet.server.routes.all_routers`."""

__all__ = ["ScoreHub", "SheetMeta", "api", "card_list", "make_router", "odds"]
