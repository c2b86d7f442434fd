"""Flip 7 scoring as pure functions: a row's round score with its arithmetic, a whole round
checked for what the rules make impossible, and the end of the game (F7V-7, F7V-8, F7V-9,
F7V-3.7).

The engine (:class:`~septet.games.flip7.state.Flip7State`) scores its rows with
:func:`score_row`; the score keeper (``/score``) and its JSON API score rows entered by players
with :func:`score_round`, which first refuses rows that cannot happen (:class:`ScoreError`, with
the rule id and a sentence in English and Japanese). Cards are the engine's kinds
(:mod:`.cards`) or their tokens (``"13"``, ``"l13"``, ``"/2"``, ``"-4"``, ``"x2"``, ``"second"``).

Example (F7V-7.3)::

    >>> r = score_row([3, 11, 5, 7, 10, 8, 4, C.DIV2, C.M4], vengeance=True, flip7=True)
    >>> (r.number_sum, r.after_multiplier, r.modifier_sum, r.bonus, r.score)
    (48, 24, -4, 15, 35)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from septet.core.errors import ScoreError
from septet.core.types import JSON
from septet.games.flip7 import cards as C
from septet.games.flip7.rules import FLIP7_BONUS, FLIP7_CARDS, copies_allowed, unlucky7_discards

# FLIP7_BONUS (F7V-7.2, F7V-8.3) and FLIP7_CARDS (F7V-3.4, F7V-7) live in .rules; re-exported.

Edition = Literal["vengeance", "classic"]


@dataclass(frozen=True)
class RowScore:
    """One row's round score and how it was reached (F7V-7.2, F7V-8, F7V-9).

    Attributes:
        busted: the row busted (F7V-7.1: it scores 0, or in brutal mode the modifiers received
            after busting, F7V-8.2).
        numbers: values of the number cards counted (in the order given; empty when busted).
        number_sum: their sum.
        multiplier: how many ÷2 (Vengeance) or ×2 (classic) cards applied.
        after_multiplier: the sum after them (÷2 rounds down).
        modifiers: the ± modifier values added (the after-bust ones for a busted brutal row).
        modifier_sum: their sum.
        floored: the result was below 0 and was raised to 0 (F7V-7.2; never in brutal mode).
        zero: the Zero made the score 0 (F7V-6.1).
        flip7: the row achieved Flip 7.
        bonus: +15 for the Flip 7 (0 when the brutal achiever gave −15 instead).
        penalty: −15 received from another player's brutal Flip 7 (F7V-8.3), else 0.
        score: the round score, in points.
        plain: the score was entered as a plain number (no cards; nothing else is known).
    """

    busted: bool = False
    numbers: tuple[int, ...] = ()
    number_sum: int = 0
    multiplier: int = 0
    after_multiplier: int = 0
    modifiers: tuple[int, ...] = ()
    modifier_sum: int = 0
    floored: bool = False
    zero: bool = False
    flip7: bool = False
    bonus: int = 0
    penalty: int = 0
    score: int = 0
    plain: bool = False

    def breakdown(self) -> dict[str, JSON]:
        """The engine's ``round_end`` breakdown of one seat (F7V-7.2): ``busted``, ``numbers``
        (the sum), ``after_multiplier``, ``modifiers`` (their sum), ``zero``, ``bonus``,
        ``penalty``, ``score``."""
        return {
            "busted": self.busted,
            "numbers": self.number_sum,
            "after_multiplier": self.after_multiplier,
            "modifiers": self.modifier_sum,
            "zero": self.zero,
            "bonus": self.bonus,
            "penalty": self.penalty,
            "score": self.score,
        }

    def to_json(self) -> dict[str, JSON]:
        """Every field, for the score keeper's API (lists for tuples)."""
        return {
            "busted": self.busted,
            "numbers": list(self.numbers),
            "number_sum": self.number_sum,
            "multiplier": self.multiplier,
            "after_multiplier": self.after_multiplier,
            "modifiers": list(self.modifiers),
            "modifier_sum": self.modifier_sum,
            "floored": self.floored,
            "zero": self.zero,
            "flip7": self.flip7,
            "bonus": self.bonus,
            "penalty": self.penalty,
            "score": self.score,
            "plain": self.plain,
        }


def score_row(
    cards: Sequence[int],
    *,
    vengeance: bool,
    brutal: bool = False,
    busted: bool = False,
    after_bust: Sequence[int] = (),
    flip7: bool = False,
    bonus: bool = True,
    penalized: bool = False,
) -> RowScore:
    """Score one row at the end of a round (F7V-7, F7V-8, F7V-9). Trusts its input: the engine
    calls it on its own rows; :func:`score_round` checks players' entries first.

    Args:
        cards: card kinds in the row (numbers, special numbers, modifiers, a classic Second
            Chance, which scores nothing).
        vengeance: the Vengeance edition (else classic).
        brutal: brutal mode (F7V-8): scores may go below 0, busted rows keep the modifiers
            received after busting (``after_bust``).
        busted: the row busted (F7V-7.1).
        after_bust: brutal only: modifier kinds received after busting (F7V-8.2).
        flip7: this row achieved Flip 7 (+15, F7V-7.2; the Zero still counts, F7V-6.1).
        bonus: brutal Flip 7 only: the achiever took the +15 (``False``: gave −15 to another).
        penalized: this row received another player's brutal −15 (F7V-8.3).

    Returns:
        The :class:`RowScore`.
    """
    s, mult, add, floored, zeroed, points = C.row_arithmetic(cards, vengeance, brutal, flip7)
    mults = cards.count(C.DIV2 if vengeance else C.X2)
    penalty = -FLIP7_BONUS if brutal and penalized else 0
    if busted:
        post = [C.MOD_ADD[c] for c in after_bust] if brutal else []
        return RowScore(
            busted=True,
            number_sum=s,
            multiplier=mults,
            after_multiplier=mult,
            modifiers=tuple(post),
            modifier_sum=sum(post),
            penalty=penalty,
            score=sum(post) + penalty,  # F7V-7.1, F7V-8.2
        )
    got = FLIP7_BONUS if flip7 and (not brutal or bonus) else 0
    return RowScore(
        numbers=tuple(C.VALUE[c] for c in cards if C.IS_NUM[c]),
        number_sum=s,
        multiplier=mults,
        after_multiplier=mult,
        modifiers=tuple(C.MOD_ADD[c] for c in cards if C.MOD_ADD[c]),
        modifier_sum=add,
        floored=floored,
        zero=zeroed,
        flip7=flip7,
        bonus=got,
        penalty=penalty,
        score=points + got + penalty,
    )


# ----- players' entries ------------------------------------------------------------------------
@dataclass(frozen=True)
class RowEntry:
    """One player's row as entered on a score sheet: the cards in front of them at the end of
    the round, or a plain number.

    Attributes:
        cards: card tokens (``"12"``, ``"l13"``, ``"/2"``, ``"x2"`` …) or kinds, in any order.
        busted: ``True``/``False``, or ``None`` to read it from the cards (a duplicate busts).
        after_bust: brutal mode: modifiers received after busting (F7V-8.2).
        points: a plain round score instead of cards (then ``cards`` must be empty).
    """

    cards: tuple[str | int, ...] = ()
    busted: bool | None = None
    after_bust: tuple[str | int, ...] = ()
    points: int | None = None


@dataclass(frozen=True)
class RoundScore:
    """A round of rows scored by :func:`score_round`.

    Attributes:
        rows: one :class:`RowScore` per player, in seat order.
        flip7: the seat that achieved Flip 7, or ``None``.
        penalty_to: brutal: the seat that received the −15, or ``None``.
    """

    rows: tuple[RowScore, ...]
    flip7: int | None = None
    penalty_to: int | None = None
    scores: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", tuple(r.score for r in self.rows))

    def to_json(self) -> dict[str, JSON]:
        """``rows`` (see :meth:`RowScore.to_json`), ``scores``, ``flip7``, ``penalty_to``."""
        return {
            "rows": [r.to_json() for r in self.rows],
            "scores": list(self.scores),
            "flip7": self.flip7,
            "penalty_to": self.penalty_to,
        }


def _err(en: str, ja: str, rule: str) -> ScoreError:
    return ScoreError(en, rule=rule, reason_ja=ja)


def deck_counts(edition: Edition, decks: int = 1) -> list[int]:
    """Copies of each card kind in play: one deck per 18 players (F7V-1, F7V-1.5, F7V-9)."""
    base = C.vengeance_deck() if edition == "vengeance" else C.classic_deck()
    return [c * decks for c in base]


def _kind(card: str | int, who: str, who_ja: str) -> int:
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < C.NUM_KINDS:
        return card
    kind = C.KIND_OF_TOKEN.get(str(card).strip().lower())
    if kind is None:
        raise _err(
            f"{who}: {card!r} is not a Flip 7 card",
            f"{who_ja}：{card!r} はフリップ7のカードではありません",
            "F7V-1",
        )
    return kind


def score_range(edition: Edition, brutal: bool = False, decks: int = 1) -> tuple[int, int]:
    """The lowest and highest round score any row can have (F7V-7, F7V-8, F7V-9), computed from
    the deck: the best row is the seven highest number values that can be held together (two 13s
    with the Lucky 13, F7V-6.3), doubled by every ×2, plus every + modifier and the Flip 7 bonus;
    the worst (brutal only) is every − modifier and a −15 (below 0 only in brutal mode)."""
    vengeance = edition == "vengeance"
    deck = deck_counts(edition, decks)
    values: list[int] = []
    for k in sorted(range(C.NUM_KINDS), key=lambda k: -C.VALUE[k]):
        if C.IS_NUM[k] and deck[k]:
            values.append(C.VALUE[k])
    held: list[int] = []
    for v in values:  # highest first; a value twice only for the Lucky 13 pair
        allowed = copies_allowed(v, vengeance=vengeance, lucky=deck[C.L13] > 0)
        if held.count(v) < allowed:
            held.append(v)
    best = sum(held[:FLIP7_CARDS])
    for _ in range(deck[C.X2]):
        best *= 2
    best += sum(C.MOD_ADD[k] * deck[k] for k in range(C.NUM_KINDS) if C.MOD_ADD[k] > 0)
    best += FLIP7_BONUS
    worst = 0
    if brutal:
        worst = sum(C.MOD_ADD[k] * deck[k] for k in range(C.NUM_KINDS) if C.MOD_ADD[k] < 0)
        worst -= FLIP7_BONUS
    return worst, best


def check_row(
    entry: RowEntry,
    *,
    edition: Edition,
    brutal: bool = False,
    decks: int = 1,
    who: str = "row",
    who_ja: str = "列",
) -> tuple[list[int], list[int], bool, bool]:
    """Read and check one row of cards entered by a player.

    Returns:
        ``(cards, after_bust, busted, flip7)``: kinds, and whether the row busted or achieved
        Flip 7 (seven number cards, F7V-7).

    Raises:
        ScoreError: a card that is not in the edition's rows, more copies than the deck has, two
            equal numbers without a bust (F7V-2) or more than one duplicate (a row busts at its
            first, F7V-2), more than seven number cards (F7V-3.4), a Second Chance beside a
            duplicate or twice (F7V-9), after-bust modifiers outside brutal mode (F7V-8.2).
    """
    cards = [_kind(c, who, who_ja) for c in entry.cards]
    post = [_kind(c, who, who_ja) for c in entry.after_bust]
    _check_cards(cards, post, edition=edition, brutal=brutal, decks=decks, who=who, who_ja=who_ja)
    vengeance = edition == "vengeance"
    return _check_numbers(cards, post, entry.busted, vengeance, who=who, who_ja=who_ja)


def _check_cards(
    cards: list[int],
    post: list[int],
    *,
    edition: Edition,
    brutal: bool,
    decks: int,
    who: str,
    who_ja: str,
) -> None:
    """The cards of a row: the edition's row cards (F7V-1, F7V-4.3, F7V-9), no more copies than
    the deck has, after-bust modifiers only in brutal mode (F7V-8.2)."""
    vengeance = edition == "vengeance"
    row_kinds = C.VENGEANCE_ROW_KINDS if vengeance else C.CLASSIC_ROW_KINDS
    ed_en = "With a Vengeance" if vengeance else "classic Flip 7"
    ed_ja = "復讐心とともに" if vengeance else "クラシック版"
    deck = deck_counts(edition, decks)
    for k in cards + post:
        if k not in row_kinds:
            name, name_ja = C.card_name(k), C.card_name(k, "ja")
            if C.IS_ACT[k] and k in (C.VENGEANCE_KINDS if vengeance else C.CLASSIC_KINDS):
                raise _err(
                    f"{who}: {name} is an action card; it is discarded once played and never "
                    "stays in a row",
                    f"{who_ja}：{name_ja}はアクションカードです。使ったら捨て札になり、列には"
                    "残りません",
                    "F7V-4.3",
                )
            raise _err(
                f"{who}: {name} is not a card of {ed_en}",
                f"{who_ja}：{name_ja}は{ed_ja}のカードではありません",
                "F7V-9" if vengeance is False else "F7V-1",
            )
    for k in set(cards + post):
        n = (cards + post).count(k)
        if n > deck[k]:
            name, name_ja = C.card_name(k), C.card_name(k, "ja")
            raise _err(
                f"{who}: {n} × {name}, but the deck has {deck[k]}",
                f"{who_ja}：{name_ja}が{n}枚ありますが、山札には{deck[k]}枚しかありません",
                "F7V-1" if vengeance else "F7V-9",
            )
    if post and not brutal:
        raise _err(
            f"{who}: only brutal mode gives modifiers to a busted player",
            f"{who_ja}：バーストしたプレイヤーに修正カードを渡せるのは残忍モードだけです",
            "F7V-8.2",
        )
    if any(not C.IS_MOD[k] for k in post):
        raise _err(
            f"{who}: only modifier cards can reach a busted row",
            f"{who_ja}：バーストした列に届くのは修正カードだけです",
            "F7V-8.2",
        )


def _check_length(
    values: list[int], cards: list[int], *, busted: bool, extra: int, who: str, who_ja: str
) -> None:
    """A row's count of number cards (the round ends at the seventh, F7V-3.4) and a busted row
    without a Second Chance (F7V-9), for :func:`_check_numbers`."""
    limit = FLIP7_CARDS if not busted or extra else FLIP7_CARDS - 1
    if len(values) > limit:
        raise _err(
            f"{who}: {len(values)} number cards, but the round ends at once at the seventh "
            "(Flip 7)",
            f"{who_ja}：数字カードが{len(values)}枚ありますが、7枚目でラウンドはすぐ終わります"
            "（フリップ7）",
            "F7V-3.4",
        )
    if busted and C.SECOND in cards:
        raise _err(
            f"{who}: a row holding a Second Chance does not bust",
            f"{who_ja}：セカンドチャンスを持つ列はバーストしません",
            "F7V-9",
        )


def _check_duplicates(
    cards: list[int], values: list[int], vengeance: bool, *, who: str, who_ja: str
) -> int:
    """The repeated cards of a row, for :func:`_check_numbers`: one Unlucky 7 at most
    (F7V-6.2), one Second Chance at most and never beside a duplicate (F7V-9), one duplicate
    at most (a row busts at its first, F7V-2). Returns the number of copies beyond what a live
    row may hold (0 or 1)."""
    if cards.count(C.U7) > 1 and unlucky7_discards(C.U7):
        raise _err(
            f"{who}: a row holds one Unlucky 7 at most: a second one discards the first with "
            "the rest of the row",
            f"{who_ja}：アンラッキー7は1列に1枚まで。2枚目は1枚目を列のほかのカードと一緒に"
            "捨てさせます",
            "F7V-6.2",
        )
    extra = 0  # copies beyond what a live row may hold: each one is a bust
    for v in set(values):
        allowed = copies_allowed(v, vengeance=vengeance, lucky=C.L13 in cards)
        extra += max(0, values.count(v) - allowed)
    if C.SECOND in cards and cards.count(C.SECOND) > 1:
        raise _err(
            f"{who}: a player holds at most one Second Chance",
            f"{who_ja}：セカンドチャンスは1枚までしか持てません",
            "F7V-9",
        )
    if extra > 1:
        raise _err(
            f"{who}: {extra + 1} number cards repeat a value, but a row busts at its first "
            "duplicate",
            f"{who_ja}：同じ数字が{extra + 1}枚ありますが、最初の重複でバーストします",
            "F7V-2",
        )
    if extra and C.SECOND in cards:
        raise _err(
            f"{who}: with a Second Chance a duplicate is discarded with it instead of busting",
            f"{who_ja}：セカンドチャンスがあると、重複したカードはそれと一緒に捨てられ、"
            "バーストしません",
            "F7V-9",
        )
    return extra


def _check_numbers(
    cards: list[int],
    post: list[int],
    busted_given: bool | None,
    vengeance: bool,
    *,
    who: str,
    who_ja: str,
) -> tuple[list[int], list[int], bool, bool]:
    """The number cards of a row: duplicates only as its one bust (F7V-2, F7V-6.3, F7V-9), seven
    at most (F7V-3.4). Returns ``(cards, post, busted, flip7)`` as :func:`check_row`."""
    values = [C.VALUE[k] for k in cards if C.IS_NUM[k]]
    extra = _check_duplicates(cards, values, vengeance, who=who, who_ja=who_ja)
    busted = busted_given if busted_given is not None else bool(extra)
    if extra and not busted:
        dup = next(v for v in values if values.count(v) > 1)
        raise _err(
            f"{who}: two {dup}s is a bust; mark the row busted or correct the cards",
            f"{who_ja}：{dup}が2枚あるのはバーストです。バーストにするか、カードを直してください",
            "F7V-2, F7V-6.3" if dup == 13 else "F7V-2",
        )
    if post and not busted:
        raise _err(
            f"{who}: cards after a bust, but the row did not bust",
            f"{who_ja}：バースト後のカードがありますが、この列はバーストしていません",
            "F7V-8.2",
        )
    _check_length(values, cards, busted=busted, extra=extra, who=who, who_ja=who_ja)
    flip7 = not busted and len(values) == FLIP7_CARDS
    return cards, post, busted, flip7


def score_round(
    rows: Sequence[RowEntry],
    *,
    edition: Edition,
    brutal: bool = False,
    decks: int = 1,
    flip7_choice: int | None = None,
    names: Sequence[str] | None = None,
) -> RoundScore:
    """Check and score every player's row of one round (F7V-7, F7V-8, F7V-9).

    Args:
        rows: one :class:`RowEntry` per player, in seat order.
        edition: ``"vengeance"`` or ``"classic"``.
        brutal: brutal mode (Vengeance only, F7V-8).
        decks: decks in play (the game's ``num_decks``: option ``decks``, F7V-1.5).
        flip7_choice: brutal only: the seat that receives the Flip 7 achiever's −15, or
            ``None``/the achiever's own seat for the +15 (F7V-8.3).
        names: players' names for the messages (default "player 1", …).

    Raises:
        ScoreError: an impossible row (:func:`check_row`), a plain number outside
            :func:`score_range`, two Flip 7s in one round (F7V-3.4), more copies of a card across
            the rows than the deck has (cards in front of players are never reshuffled,
            F7V-3.6), or a brutal choice that does not fit (F7V-8.3).
    """
    _check_edition(edition, brutal)
    vengeance = edition == "vengeance"
    n = len(rows)
    labels = list(names) if names is not None else [f"player {i + 1}" for i in range(n)]
    labels_ja = list(names) if names is not None else [f"プレイヤー{i + 1}" for i in range(n)]
    who = list(zip(labels, labels_ja, strict=True))
    read = [
        _read_entry(entry, edition, brutal, decks, w) for entry, w in zip(rows, who, strict=True)
    ]
    f = _check_table(read, edition, decks, who)
    penalty_to = _penalty_target(flip7_choice, f, brutal, read, who)
    out: list[RowScore] = []
    for i, r in enumerate(read):
        if r is None:
            out.append(RowScore(score=int(rows[i].points or 0), plain=True))
            continue
        cards, post, busted, flip7 = r
        out.append(
            score_row(
                cards,
                vengeance=vengeance,
                brutal=brutal,
                busted=busted,
                after_bust=post,
                flip7=flip7,
                bonus=penalty_to is None,
                penalized=penalty_to == i,
            )
        )
    return RoundScore(tuple(out), f, penalty_to)


_Read = tuple[list[int], list[int], bool, bool] | None
"""A row read by :func:`check_row` (cards, after_bust, busted, flip7), or ``None`` for a plain
number."""


def _check_edition(edition: str, brutal: bool) -> None:
    """Raise unless ``edition`` is known and brutal mode is Vengeance only (F7V-8, F7V-9)."""
    if edition not in ("vengeance", "classic"):
        raise _err(
            f"edition must be vengeance or classic, not {edition!r}",
            f"版は vengeance か classic です（{edition!r} ではありません）",
            "F7V-9",
        )
    if brutal and edition != "vengeance":
        raise _err(
            "brutal mode exists only in With a Vengeance",
            "残忍モードは復讐心とともにだけです",
            "F7V-8",
        )


def _read_entry(
    entry: RowEntry, edition: Edition, brutal: bool, decks: int, who: tuple[str, str]
) -> _Read:
    """One entry checked: a plain number within :func:`score_range` (``None``), or its cards
    read by :func:`check_row` (F7V-7, F7V-8.1)."""
    if entry.points is None:
        return check_row(
            entry, edition=edition, brutal=brutal, decks=decks, who=who[0], who_ja=who[1]
        )
    if entry.cards or entry.after_bust:
        raise _err(
            f"{who[0]}: give the cards or a plain number, not both",
            f"{who[1]}：カードか点数のどちらか一方を入力してください",
            "F7V-7",
        )
    lo, hi = score_range(edition, brutal, decks)
    if not lo <= entry.points <= hi:
        raise _err(
            f"{who[0]}: {entry.points} points is not a possible round score ({lo} to {hi})",
            f"{who[1]}：{entry.points}点はありえないラウンド得点です（{lo}〜{hi}点）",
            "F7V-8.1" if entry.points < 0 else "F7V-7",
        )
    return None


def _check_table(
    read: list[_Read], edition: Edition, decks: int, who: list[tuple[str, str]]
) -> int | None:
    """Check the rows together: one Flip 7 at most (F7V-3.4), no more copies of a card than the
    deck has (F7V-3.6). Returns the Flip 7 achiever's seat or ``None``."""
    achievers = [i for i, r in enumerate(read) if r is not None and r[3]]
    if len(achievers) > 1:
        (a, a_ja), (b, b_ja) = who[achievers[0]], who[achievers[1]]
        raise _err(
            f"{a} and {b} both have seven number cards, but the round ends at the first Flip 7",
            f"{a_ja}と{b_ja}の両方に数字カードが7枚ありますが、最初のフリップ7で"
            "ラウンドは終わります",
            "F7V-3.4",
        )
    deck = deck_counts(edition, decks)
    used = [0] * C.NUM_KINDS
    for r in read:
        if r is not None:
            for k in r[0] + r[1]:
                used[k] += 1
    for k in range(C.NUM_KINDS):
        if used[k] > deck[k]:
            name, name_ja = C.card_name(k), C.card_name(k, "ja")
            raise _err(
                f"{used[k]} × {name} on the table, but the deck has {deck[k]} (cards in front of "
                "players are never reshuffled during a round)",
                f"場に{name_ja}が{used[k]}枚ありますが、山札には{deck[k]}枚しかありません"
                "（ラウンド中、場のカードは混ぜ直されません）",
                "F7V-3.6",
            )
    return achievers[0] if achievers else None


def _penalty_target(
    flip7_choice: int | None,
    f: int | None,
    brutal: bool,
    read: list[_Read],
    who: list[tuple[str, str]],
) -> int | None:
    """The seat receiving a brutal Flip 7's −15, or ``None`` for the +15 (F7V-8.3)."""
    n = len(read)
    if flip7_choice is None or flip7_choice == f:
        return None
    if not brutal:
        raise _err(
            f"only brutal mode lets a Flip 7 give −{FLIP7_BONUS} to another player",
            f"フリップ7で他のプレイヤーに−{FLIP7_BONUS}を与えられるのは残忍モードだけです",
            "F7V-8.3",
        )
    if f is None:
        raise _err(
            f"nobody has a Flip 7 of cards this round, so there is no −{FLIP7_BONUS} to give",
            f"このラウンドにカードでのフリップ7がないので、−{FLIP7_BONUS}は与えられません",
            "F7V-8.3",
        )
    if not 0 <= flip7_choice < n:
        raise _err(
            f"the −{FLIP7_BONUS} must go to one of the {n} players",
            f"−{FLIP7_BONUS}は{n}人のプレイヤーのだれかに与えます",
            "F7V-8.3",
        )
    if read[flip7_choice] is None:
        raise _err(
            f"{who[flip7_choice][0]}'s row is a plain number (already the round score); "
            f"enter its cards to give it the −{FLIP7_BONUS}",
            f"{who[flip7_choice][1]}の列は点数で入力されています（それがラウンド得点です）。"
            f"−{FLIP7_BONUS}を与えるにはカードを入力してください",
            "F7V-8.3",
        )
    return flip7_choice


def game_winners(totals: Sequence[int], target: int) -> list[int]:
    """The winner after a round (F7V-3.7): the one player with the highest total, if it is at
    or above ``target``; ``[]`` while the game goes on, and while several share the highest
    total at or above it (they play further rounds)."""
    if not totals:
        return []
    best = max(totals)
    if best >= target and list(totals).count(best) == 1:
        return [list(totals).index(best)]
    return []


__all__ = [
    "FLIP7_BONUS",
    "FLIP7_CARDS",
    "RoundScore",
    "RowEntry",
    "RowScore",
    "check_row",
    "deck_counts",
    "game_winners",
    "score_range",
    "score_round",
    "score_row",
]
