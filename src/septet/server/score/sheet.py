"""Score sheets: what a sheet holds, the operations that change it, and its standings.

A sheet is a game (``flip7``, ``double-seven``, ``seven-shot``), its options, the players'
names and an append-only list of operations (stored one row each, like a table's moves):

- ``{"op": "add", "entry": {...}}``: a new entry (a Flip 7 round, a Double Seven game, a Seven
  Shot deal; formats in ``docs/score.md``);
- ``{"op": "edit", "index": i, "entry": {...}}``, ``{"op": "delete", "index": i}``;
- ``{"op": "rename", "players": [...]}``;
- ``{"op": "undo"}`` / ``{"op": "redo"}``: back to the sheet before the last change, and again.

Replaying the operations gives the sheet (:func:`replay`). Every entry is scored by the engine's
own scoring functions (``septet.games.<game>.scoring``); nothing here knows a rule. An operation
that the rules refuse raises :class:`~septet.core.errors.ScoreError` and changes nothing; an
operation that is malformed raises :class:`SheetError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from septet import games
from septet.core.errors import OptionError, ScoreError, SeptetError
from septet.games.double_seven import rules as ds_rules
from septet.games.double_seven import scoring as ds
from septet.games.double_seven import tiles as ds_tiles
from septet.games.flip7 import scoring as f7
from septet.games.seven_shot import scoring as ss

GAMES = ("flip7", "double-seven", "seven-shot")
"""Games a score sheet can keep."""
MAX_NAME = 40
MAX_ENTRIES = 500


class SheetError(SeptetError, ValueError):
    """A malformed request on a sheet (wrong shape, unknown operation, bad index); the sentence
    says what, in English (``message_ja`` in Japanese)."""

    def __init__(self, message: str, message_ja: str = "") -> None:
        super().__init__(message)
        self.message_ja = message_ja or message


@dataclass
class SheetMeta:
    """What a sheet is: its id, game, options (validated, defaults filled), first names."""

    id: str
    game: str
    options: dict[str, Any]
    players: list[str]
    created_at: str = ""


# ----- reading JSON strictly --------------------------------------------------------------------
def _int(value: Any, what: str, what_ja: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SheetError(f"{what} must be a whole number", f"{what_ja}は整数で入力してください")
    return value


def _bool(value: Any, what: str, what_ja: str) -> bool:
    if not isinstance(value, bool):
        raise SheetError(f"{what} must be true or false", f"{what_ja}は true か false です")
    return value


def _list(value: Any, what: str, what_ja: str, limit: int = 64) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit:
        raise SheetError(
            f"{what} must be a list (at most {limit})",
            f"{what_ja}はリスト（最大{limit}個）です",
        )
    return value


def _obj(value: Any, what: str, what_ja: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SheetError(f"{what} must be an object", f"{what_ja}はオブジェクトです")
    return value


def _only(data: Mapping[str, Any], keys: Sequence[str], what: str) -> None:
    extra = sorted(set(data) - set(keys))
    if extra:
        raise SheetError(
            f"{what}: unknown field {extra[0]!r} (fields: {', '.join(keys)})",
            f"{what}：不明な項目 {extra[0]!r}（項目：{', '.join(keys)}）",
        )


def check_names(players: Any, game: str) -> list[str]:
    """Players' names, trimmed, 1 to 40 characters each, as many as the game allows.

    Raises:
        SheetError: not a list of names, or a count the game does not allow.
    """
    names = _list(players, "players", "プレイヤー", 36)
    out: list[str] = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise SheetError(
                f"player {i + 1}: a name of 1 to {MAX_NAME} characters",
                f"プレイヤー{i + 1}：名前は1〜{MAX_NAME}文字です",
            )
        out.append(name.strip())
    cls = games.game_class(game)
    if not cls.min_players <= len(out) <= cls.max_players:
        raise SheetError(
            f"{cls.titles['en']} is for {cls.min_players} to {cls.max_players} players, "
            f"not {len(out)}",
            f"{cls.titles['ja']}は{cls.min_players}〜{cls.max_players}人用です"
            f"（{len(out)}人ではありません）",
        )
    return out


OPTION_KEYS = {
    "flip7": ("edition", "brutal", "target", "decks"),
    "double-seven": ("double_seven",),
    "seven-shot": ("target",),
}
"""The options of each game that matter to its score sheet (the engine validates them)."""


def check_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The sheet's options, validated by the engine's own option class, defaults filled.

    Raises:
        SheetError: an unknown game, an option that does not matter to scoring, or a value the
            engine refuses (its sentence).
    """
    if game not in GAMES:
        raise SheetError(
            f"a score sheet keeps {', '.join(GAMES)}, not {game!r}",
            f"スコアシートで記録できるのは {', '.join(GAMES)} です（{game!r} ではありません）",
        )
    opts = _obj(options, "options", "オプション")
    _only(opts, OPTION_KEYS[game], "options")
    try:
        parsed = games.get(game, **dict(opts)).options
    except (OptionError, TypeError, ValueError) as exc:
        raise SheetError(str(exc)) from None
    return {k: getattr(parsed, k) for k in OPTION_KEYS[game]}


# ----- the games ----------------------------------------------------------------------------------
def sides(game: str, players: Sequence[str]) -> list[list[int]]:
    """The scoring sides: each player alone, except Seven Shot with 4 players (teams of the
    partners sitting opposite: seats 0 and 2, 1 and 3, SS-2.1)."""
    if game == "seven-shot" and len(players) == 4:
        return [[0, 2], [1, 3]]
    return [[i] for i in range(len(players))]


def side_names(game: str, players: Sequence[str]) -> list[str]:
    """A name per side (``"Ann & Cy"`` for a team)."""
    return [" & ".join(players[i] for i in m) for m in sides(game, players)]


def _flip7_entry(data: Mapping[str, Any], n: int) -> dict[str, Any]:
    _only(data, ("rows", "flip7_choice"), "entry")
    rows = _list(data.get("rows"), "rows", "列", 36)
    if len(rows) != n:
        raise SheetError(
            f"a round has one row per player: {n}, not {len(rows)}",
            f"ラウンドにはプレイヤーごとに1列、{n}列が必要です（{len(rows)}列ではありません）",
        )
    out_rows = []
    for i, row in enumerate(rows):
        r = _obj(row, f"row {i + 1}", f"{i + 1}列目")
        _only(r, ("cards", "busted", "after_bust", "points"), f"row {i + 1}")
        cards = [str(c) for c in _list(r.get("cards", []), "cards", "カード", 40)]
        after = [str(c) for c in _list(r.get("after_bust", []), "after_bust", "カード", 20)]
        busted = r.get("busted")
        if busted is not None:
            busted = _bool(busted, "busted", "バースト")
        points = r.get("points")
        if points is not None:
            points = _int(points, "points", "点数")
        elif not cards and not busted:
            raise SheetError(
                f"row {i + 1}: tap the cards, enter a number, or mark a bust",
                f"{i + 1}列目：カードを選ぶか、点数を入力するか、バーストにしてください",
            )
        out_rows.append({"cards": cards, "busted": busted, "after_bust": after, "points": points})
    choice = data.get("flip7_choice")
    if choice is not None:
        choice = _int(choice, "flip7_choice", "フリップ7の選択")
    return {"rows": out_rows, "flip7_choice": choice}


def _flip7_decks(options: Mapping[str, Any], n: int) -> int:
    """The decks of a Flip 7 sheet's game (the engine's ``num_decks``; a sheet stored before
    the ``decks`` option keeps the decks it was scored with, ``Game.recorded_options``)."""
    opts = games.recorded_options("flip7", options, n)
    return int(games.get("flip7", decks=opts["decks"]).num_decks(n))  # type: ignore[attr-defined]


def _flip7_score(entry: Mapping[str, Any], meta: SheetMeta) -> dict[str, Any]:
    n = len(meta.players)
    rows = [
        f7.RowEntry(tuple(r["cards"]), r["busted"], tuple(r["after_bust"]), r["points"])
        for r in entry["rows"]
    ]
    result = f7.score_round(
        rows,
        edition=meta.options["edition"],
        brutal=bool(meta.options["brutal"]),
        decks=_flip7_decks(meta.options, n),
        flip7_choice=entry.get("flip7_choice"),
        names=meta.players,
    )
    return result.to_json()


def _ds_entry(data: Mapping[str, Any], n: int) -> dict[str, Any]:
    _only(data, ("players",), "entry")
    players = _list(data.get("players"), "players", "プレイヤー", 4)
    if len(players) != n:
        raise SheetError(
            f"give every player's end: {n}, not {len(players)}",
            f"全員（{n}人）の結果を入力してください（{len(players)}人ではありません）",
        )
    out = []
    for i, p in enumerate(players):
        d = _obj(p, f"player {i + 1}", f"プレイヤー{i + 1}")
        _only(d, ("families", "sevens", "double_seven"), f"player {i + 1}")
        fams = [
            _int(x, "family size", "ファミリーの枚数")
            for x in _list(d.get("families", []), "families", "ファミリー", 40)
        ]
        out.append(
            {
                "families": fams,
                "sevens": _int(d.get("sevens", 0), "sevens", "7トークン"),
                "double_seven": _bool(d.get("double_seven", False), "double_seven", "77トークン"),
            }
        )
    return {"players": out}


def _ds_score(entry: Mapping[str, Any], meta: SheetMeta) -> dict[str, Any]:
    ends = [
        ds.PlayerEnd(tuple(p["families"]), p["sevens"], p["double_seven"]) for p in entry["players"]
    ]
    return ds.final_scores(
        ends, double_seven=meta.options["double_seven"], names=meta.players
    ).to_json()


def _ss_entry(data: Mapping[str, Any], n: int) -> dict[str, Any]:
    _only(data, ("ending", "side", "sevens", "hand_sevens", "indicator_seven"), "entry")
    ending = data.get("ending")
    if not isinstance(ending, str):
        raise SheetError("ending: sevens, seven_tricks or hands_empty", "ending を選んでください")
    sevens = [_int(x, "sevens", "7の数") for x in _list(data.get("sevens"), "sevens", "7", 4)]
    n_sides = 2 if n == 4 else 3
    if len(sevens) != n_sides:
        raise SheetError(
            f"give the 7s of each of the {n_sides} sides",
            f"{n_sides}つのサイドそれぞれの7の数を入力してください",
        )
    return {
        "ending": ending,
        "side": _int(data.get("side"), "side", "サイド"),
        "sevens": sevens,
        "hand_sevens": _int(data.get("hand_sevens", 0), "hand_sevens", "手札の7"),
        "indicator_seven": _bool(
            data.get("indicator_seven", False), "indicator_seven", "表示札が7"
        ),
    }


def _ss_score(entry: Mapping[str, Any], meta: SheetMeta) -> dict[str, Any]:
    deal = ss.DealEntry(
        entry["ending"],
        entry["side"],
        tuple(entry["sevens"]),
        entry["hand_sevens"],
        entry["indicator_seven"],
    )
    return ss.score_deal(deal, side_names(meta.game, meta.players)).to_json()


ENTRY_READERS: dict[str, Callable[[Mapping[str, Any], int], dict[str, Any]]] = {
    "flip7": _flip7_entry,
    "double-seven": _ds_entry,
    "seven-shot": _ss_entry,
}
ENTRY_SCORERS: dict[str, Callable[[Mapping[str, Any], SheetMeta], dict[str, Any]]] = {
    "flip7": _flip7_score,
    "double-seven": _ds_score,
    "seven-shot": _ss_score,
}


def read_entry(meta: SheetMeta, data: Any) -> dict[str, Any]:
    """An entry in its stored shape (fields checked, defaults filled).

    Raises:
        SheetError: the wrong shape for the sheet's game.
    """
    return ENTRY_READERS[meta.game](_obj(data, "entry", "エントリー"), len(meta.players))


def score_entry(meta: SheetMeta, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's scoring of one entry (its ``to_json``).

    Raises:
        ScoreError: an entry the rules make impossible.
    """
    return ENTRY_SCORERS[meta.game](entry, meta)


# ----- standings ------------------------------------------------------------------------------
def standings(meta: SheetMeta, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Totals after each entry and the end of the game, by the engine's rules.

    Returns:
        ``totals`` (per side, after the last entry), ``running`` (totals after each entry),
        ``winners`` (sides; ``[]`` while the game goes on), ``over`` (bool), ``ended_at`` (the
        entry that ended it), and for Double Seven ``wins`` (games won per player; every entry
        is a whole game, so a Double Seven sheet never ends).

    Raises:
        ScoreError: the game ended (F7V-3.7, SS-2.1) before the last entry.
    """
    n_sides = len(sides(meta.game, meta.players))
    totals = [0] * n_sides
    running: list[list[int]] = []
    winners: list[int] = []
    ended_at: int | None = None
    wins = [0] * n_sides
    for i, result in enumerate(results):
        if meta.game == "double-seven":
            for s in result["winners"]:
                wins[s] += 1
            totals = [t + x for t, x in zip(totals, result["scores"], strict=True)]
            running.append(list(totals))
            continue
        if ended_at is not None:
            raise ScoreError(
                f"the game ended after entry {ended_at + 1}; delete the entries after it first",
                rule="F7V-3.7" if meta.game == "flip7" else "SS-2.1",
                reason_ja=f"ゲームは{ended_at + 1}番目で終わっています。先にそれ以降を"
                "削除してください",
            )
        gains = result["scores"] if meta.game == "flip7" else result["gains"]
        totals = [t + x for t, x in zip(totals, gains, strict=True)]
        running.append(list(totals))
        if meta.game == "flip7":
            winners = f7.game_winners(totals, int(meta.options["target"]))
        else:
            winners = ss.race_winners(totals, int(meta.options["target"]))
        if winners:
            ended_at = i
    out: dict[str, Any] = {
        "totals": totals,
        "running": running,
        "winners": winners,
        "over": ended_at is not None,
        "ended_at": ended_at,
    }
    if meta.game == "double-seven":
        out["wins"] = wins
    return out


# ----- operations and replay ------------------------------------------------------------------
@dataclass
class SheetState:
    """A sheet after its operations: entries (stored shape) with the engine's results, the
    players' names, the undo and redo stacks (each snapshot with the operation it undoes)."""

    meta: SheetMeta
    entries: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    version: int = 0
    undo: list[tuple[Any, ...]] = field(default_factory=list)
    redo: list[tuple[Any, ...]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def snapshot(self, label: dict[str, Any]) -> tuple[Any, ...]:
        return (list(self.entries), list(self.results), list(self.players), label)

    def to_json(self) -> dict[str, Any]:
        """What every client of the sheet is sent (see ``docs/score.md``)."""
        meta = SheetMeta(self.meta.id, self.meta.game, self.meta.options, self.players)
        stand = standings(meta, self.results)
        return {
            "id": self.meta.id,
            "game": self.meta.game,
            "title": dict(games.game_class(self.meta.game).titles),
            "options": self.meta.options,
            **(
                {"decks": _flip7_decks(self.meta.options, len(self.players))}
                if self.meta.game == "flip7"
                else {}
            ),
            # the 7s that win a deal, the engine's figure for the client's words (SS-4.1, SS-5.3)
            **(
                {"threshold": ss.threshold(len(side_names(self.meta.game, self.players)))}
                if self.meta.game == "seven-shot"
                else {}
            ),
            **_rule_figures(self.meta.game),
            "players": self.players,
            "sides": sides(self.meta.game, self.players),
            "side_names": side_names(self.meta.game, self.players),
            "version": self.version,
            "entries": [
                {"index": i, "entry": e, "result": r}
                for i, (e, r) in enumerate(zip(self.entries, self.results, strict=True))
            ],
            **stand,
            "undo": self.undo[-1][3] if self.undo else None,
            "redo": self.redo[-1][3] if self.redo else None,
            "created_at": self.meta.created_at,
            "problems": self.problems,
        }


def _rule_figures(game: str) -> dict[str, Any]:
    """The engine's rule numbers a score keeper's entry form needs, so the client restates
    none (issue 25). Double Seven: ``family_sizes`` ``[min, max]`` tiles in a family (DS-5.1,
    DS-1.1), ``seven`` the size that earns a 7 token (DS-5.3), ``seven_tokens`` the tokens in
    the game (DS-1.2). Seven Shot: ``deck_sevens`` the 7s in the deck (SS-1.1), the most a side
    can take. Other games: ``{}``."""
    if game == "double-seven":
        return {
            "family_sizes": [ds_rules.MIN_FAMILY, ds_tiles.MAX_FAMILY],
            "seven": ds_rules.SEVEN,
            "seven_tokens": ds_tiles.NUM_SEVEN_TOKENS,
        }
    if game == "seven-shot":
        return {"deck_sevens": ss.SEVENS}
    return {}


def _index(state: SheetState, data: Mapping[str, Any]) -> int:
    i = _int(data.get("index"), "index", "番号")
    if not 0 <= i < len(state.entries):
        raise SheetError(
            f"no entry {i + 1}: the sheet has {len(state.entries)}",
            f"{i + 1}番目はありません（{len(state.entries)}件です）",
        )
    return i


def _undo_redo(new: SheetState, kind: str) -> None:
    """Undo or redo the last change on ``new`` (for :func:`apply_op`).

    Raises:
        SheetError: nothing to undo/redo.
    """
    source, target = (new.undo, new.redo) if kind == "undo" else (new.redo, new.undo)
    if not source:
        ja = "取り消す操作がありません" if kind == "undo" else "やり直す操作がありません"
        raise SheetError(f"nothing to {kind}", ja)
    entries, results, players, undone = source.pop()
    target.append(new.snapshot(undone))
    new.entries, new.results, new.players = list(entries), list(results), list(players)


def _change(new: SheetState, meta: SheetMeta, data: Mapping[str, Any], kind: Any) -> dict[str, Any]:
    """Apply an add, edit, delete or rename to ``new``; returns its undo label.

    Raises:
        SheetError: a malformed operation. ScoreError: an entry the rules make impossible.
    """
    label: dict[str, Any]
    if kind == "add":
        _only(data, ("op", "entry"), "add")
        if len(new.entries) >= MAX_ENTRIES:
            raise SheetError(f"a sheet holds at most {MAX_ENTRIES} entries")
        entry = read_entry(meta, data.get("entry"))
        result = score_entry(meta, entry)
        label = {"op": "add", "index": len(new.entries)}
        new.entries.append(entry)
        new.results.append(result)
    elif kind == "edit":
        _only(data, ("op", "index", "entry"), "edit")
        i = _index(new, data)
        entry = read_entry(meta, data.get("entry"))
        result = score_entry(meta, entry)
        label = {"op": "edit", "index": i}
        new.entries[i] = entry
        new.results[i] = result
    elif kind == "delete":
        _only(data, ("op", "index"), "delete")
        i = _index(new, data)
        label = {"op": "delete", "index": i}
        del new.entries[i]
        del new.results[i]
    elif kind == "rename":
        _only(data, ("op", "players"), "rename")
        names = check_names(data.get("players"), meta.game)
        if len(names) != len(new.players):
            raise SheetError(
                f"rename gives {len(new.players)} names, one per player",
                f"名前はプレイヤーごとに{len(new.players)}人分です",
            )
        label = {"op": "rename"}
        new.players = names
    else:
        raise SheetError(
            "op must be add, edit, delete, rename, undo or redo",
            "op は add、edit、delete、rename、undo、redo のどれかです",
        )
    return label


def apply_op(state: SheetState, op: Any) -> SheetState:
    """A new state with ``op`` applied (``state`` is left as it was).

    Raises:
        SheetError: a malformed operation, or nothing to undo/redo.
        ScoreError: an entry the rules make impossible, or a change that would end the game
            before its last entry.
    """
    data = _obj(op, "operation", "操作")
    kind = data.get("op")
    meta = SheetMeta(state.meta.id, state.meta.game, state.meta.options, state.players)
    new = SheetState(
        state.meta,
        list(state.entries),
        list(state.results),
        list(state.players),
        state.version + 1,
        list(state.undo),
        list(state.redo),
        list(state.problems),
    )
    if kind in ("undo", "redo"):
        _only(data, ("op",), "undo")
        _undo_redo(new, kind)
        return new
    label = _change(new, meta, data, kind)
    if kind in ("add", "edit", "delete"):
        # The end of the game comes from the engine's rules; refuse what would end it early.
        standings(meta, new.results)
    new.undo.append(state.snapshot(label))
    new.redo = []
    return new


def replay(meta: SheetMeta, ops: Sequence[Any]) -> SheetState:
    """The sheet after its stored operations. An operation that no longer applies (a damaged
    record, or an engine that now scores it otherwise) is skipped and named in ``problems``;
    the version still counts it, so the next write goes after it."""
    state = SheetState(meta, players=list(meta.players))
    for i, op in enumerate(ops):
        try:
            state = apply_op(state, op)
        except (SheetError, ScoreError, KeyError, TypeError, ValueError) as exc:
            state.version += 1
            state.problems.append(f"operation {i + 1} skipped: {exc}")
    return state


__all__ = [
    "GAMES",
    "SheetError",
    "SheetMeta",
    "SheetState",
    "apply_op",
    "check_names",
    "check_options",
    "read_entry",
    "replay",
    "score_entry",
    "side_names",
    "sides",
    "standings",
]
