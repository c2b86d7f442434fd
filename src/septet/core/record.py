"""Game records: the seed-free list of actions and chance outcomes from the initial state.

A record replays to the same state exactly; it is what the server stores, what ``septet play``
saves and what ``septet replay`` reads. Format (JSON)::

    {"format": "septet-record", "version": 1, "game": "flip7", "options": {...},
     "num_players": 4, "players": ["you", "greedy", ...], "actions": ["deal 7", "hit", ...],
     "result": {"scores": [...], "winners": [...]} | null, "meta": {...},
     "action_encoding": 1}

``action_encoding`` (optional; absent from older records) is the version of the game's integer
action encoding (``Game.action_encoding(n).version``) when the record was written: the actions
are stored as notation, so a record replays under any version, and the version says which ids
a dataset made from it used. :meth:`GameRecord.action_ids` gives the ids of a record's actions
and refuses (``RecordError``, naming both versions) a record written under another version than
this Septet's, unless asked to translate: the translation is exact, since the notation is read
again and encoded with today's encoding (a dataset of ids made under the old version must then be
rebuilt from its records, not reused). The server's records carry the version of the server that
serves them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from septet.core.errors import IllegalActionError, RecordError
from septet.core.game import Action, State
from septet.core.registry import get as get_game
from septet.core.registry import recorded_options
from septet.core.types import JSON, Event

FORMAT = "septet-record"
VERSION = 1


@dataclass
class GameRecord:
    """A game as played: what to replay and how it ended.

    Attributes:
        game: registry name of the game.
        options: the game's options (all of them, as ``Game.options_dict()``).
        num_players: number of seats.
        players: a label per seat (agent spec or display name).
        actions: the notation of every action and chance outcome, in order.
        result: ``{"scores": [...], "winners": [...]}`` once finished, else ``None``.
        meta: free JSON (dates, seed, where it was played).
        action_encoding: the version of the game's action-id encoding, or ``None`` if unknown.
    """

    game: str
    options: dict[str, JSON]
    num_players: int
    players: list[str]
    actions: list[str]
    result: dict[str, JSON] | None = None
    meta: dict[str, JSON] = field(default_factory=dict)
    action_encoding: int | None = None

    @classmethod
    def of(
        cls,
        state: State,
        players: Sequence[str] | None = None,
        meta: Mapping[str, JSON] | None = None,
    ) -> GameRecord:
        """The record of ``state``'s history (with its result if it is terminal)."""
        result: dict[str, JSON] | None = None
        if state.is_terminal:
            result = {"scores": list(state.scores()), "winners": list(state.winners())}
        try:
            version: int | None = state.game.action_encoding(state.num_players).version
        except NotImplementedError:
            version = None
        return cls(
            game=state.game.name,
            options=state.game.options_dict(),
            num_players=state.num_players,
            players=list(players)
            if players is not None
            else [f"seat {i}" for i in range(state.num_players)],
            actions=[str(a) for a in state.history],
            result=result,
            meta=dict(meta or {}),
            action_encoding=version,
        )

    def to_json(self) -> dict[str, JSON]:
        """The record as a JSON object in the format above."""
        out: dict[str, JSON] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "num_players": self.num_players,
            "players": self.players,
            "actions": self.actions,
            "result": self.result,
            "meta": self.meta,
        }
        if self.action_encoding is not None:
            out["action_encoding"] = self.action_encoding
        return out

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record from its JSON object or text.

        Raises:
            RecordError: not a Septet record, or a field is missing or of the wrong type.
        """
        try:
            if isinstance(data, (str, bytes)):
                data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(f"not JSON: {exc}") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError('not a Septet game record (missing "format": "septet-record")')
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported record version {data.get('version')!r}")
        try:
            rec = cls(
                game=str(data["game"]),
                options=dict(data.get("options") or {}),
                num_players=int(data["num_players"]),
                players=[str(p) for p in data.get("players") or []],
                actions=[str(a) for a in data["actions"]],
                result=data.get("result"),
                meta=dict(data.get("meta") or {}),
                action_encoding=(
                    None if data.get("action_encoding") is None else int(data["action_encoding"])
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed record: {exc}") from exc
        if not isinstance(data["actions"], list):
            raise RecordError("malformed record: actions must be a list")
        # A record written before an option existed replays as it was played (docs/rulings.md).
        rec.options = recorded_options(rec.game, rec.options, rec.num_players)
        return rec

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON to ``path``; returns the path."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        return p

    def action_ids(self, translate: bool = False) -> list[int | None]:
        """One entry per action of the record: a player action's id in the game's action
        encoding of today (``Game.action_encoding(num_players)``), ``None`` for a chance
        outcome (chance outcomes have no ids); by replaying the record.

        Args:
            translate: accept a record written under another encoding version (its notation is
                re-encoded with today's); by default such a record is refused.

        Raises:
            RecordError: the record's ``action_encoding`` is another version than today's and
                ``translate`` is false (the message gives both); the game declares no encoding;
                or the record does not replay.
        """
        try:
            game = get_game(self.game, **self.options)
            enc = game.action_encoding(self.num_players)
        except NotImplementedError as exc:
            raise RecordError(f"{self.game} declares no action encoding") from exc
        except Exception as exc:  # UnknownGameError, OptionError
            raise RecordError(f"cannot set up {self.game!r}: {exc}") from exc
        if self.action_encoding not in (None, enc.version) and not translate:
            raise RecordError(
                f"this record of {self.game} was written under action encoding version "
                f"{self.action_encoding}, this Septet encodes {self.game} with version "
                f"{enc.version}: ids differ between versions. Its moves are notation and still "
                "replay; call action_ids(translate=True) for today's ids (and rebuild any "
                "dataset of old ids from the records)"
            )
        state = game.new_state(self.num_players)
        return [
            None if step.seat < 0 else enc.id_of(step.action)
            for step in replay_steps(state, self.actions)
        ]

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file.

        Raises:
            RecordError: unreadable, malformed or foreign file.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {path}: {exc}") from exc
        return cls.from_json(text)


def replay(record: GameRecord, upto: int | None = None) -> State:
    """Rebuild the state after the first ``upto`` actions of ``record`` (all by default).

    Raises:
        RecordError: unknown game, bad options, or an action that does not parse or is illegal
            (the message gives its index).
    """
    try:
        game = get_game(record.game, **record.options)
        state = game.new_state(record.num_players)
    except Exception as exc:  # UnknownGameError, OptionError
        raise RecordError(f"cannot set up {record.game!r}: {exc}") from exc
    for _ in replay_steps(state, record.actions[:upto]):
        pass
    return state


@dataclass(frozen=True)
class ReplayStep:
    """One action of a record, just applied by :func:`replay_steps`.

    Attributes:
        index: its position in the record, from 0.
        seat: who took it: a seat, or ``CHANCE`` for a chance outcome.
        text: its notation as stored.
        action: the parsed action.
        events: what applying it caused (some may be private to a seat).
        state: the state after it. It is the one state being replayed, changed in place by
            the next step: clone it to keep it.
    """

    index: int
    seat: int
    text: str
    action: Action
    events: list[Event]
    state: State


def replay_steps(state: State, actions: Sequence[str]) -> Iterator[ReplayStep]:
    """Apply ``actions`` (notation) to ``state`` one by one, yielding each step as it is
    applied; the one replay loop behind :func:`replay`, the server's tables and replays, and
    ``septet replay``.

    Raises:
        RecordError: an action does not parse or is illegal where it stands (the message gives
            its index and text); the steps before it have been applied.
    """
    game = state.game
    for i, text in enumerate(actions):
        seat = state.current_player
        try:
            action = game.parse_action(state, text)
            events = state.apply(action)
        except IllegalActionError as exc:
            raise RecordError(f"action {i} ({text!r}) does not replay: {exc}") from exc
        yield ReplayStep(i, seat, text, action, events, state)
