"""Seven Shot scoring as pure functions: the points of a deal from how it ended and the 7s each
side took, with the 7-trick transfer and the three-player second place (SS-4, SS-5), the race
to 7 points (SS-2.1, SS-5.6), and the checks that refuse a deal the rules cannot produce (for
the score keeper, ``/score``).

A *side* is a team of two partners with 4 players (side 0: seats 0 and 2; side 1: seats 1 and
3) or a single player with 3. The engine
(:class:`~septet.games.seven_shot.state.SevenShotState`) scores each deal with
:func:`deal_points` and ends the game with :func:`race_winners`; the score keeper uses
:func:`score_deal`, which checks the entry first and raises
:class:`~septet.core.errors.ScoreError` (rule id, English and Japanese).

Example (SS-4.2, 4 players): team 1 takes its 7th trick holding 1 seven in tricks and 2 in
hand, the indicator is a 7; team 0 had 2 sevens in tricks::

    >>> r = deal_points("seven_tricks", 1, (2, 1), hand_sevens=2, indicator_seven=True)
    >>> (r.winning_sides, r.transferred, r.sevens, r.gains, r.formula)
    ((0,), 3, (5, 1), (5, 0), '5 - 1 + 1 = 5')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from septet.core.errors import ScoreError
from septet.core.types import JSON

Ending = Literal["sevens", "seven_tricks", "hands_empty"]
ENDINGS: tuple[Ending, ...] = ("sevens", "seven_tricks", "hands_empty")
CONDITION_RULES: dict[str, str] = {
    "sevens": "SS-4.1",
    "seven_tricks": "SS-4.2",
    "hands_empty": "SS-4.3",
}
"""The rule of each way a deal ends (checked in this order after every trick, SS-4)."""
SEVENS = 7
"""7s in the deck: one per suit (SS-1.1)."""
TRICKS_TO_LOSE = 7
"""Tricks that make a side lose the deal (SS-4.2, SS-5.5)."""
THREE_PLAYER_TRICK_POINTS = 2
"""Points each of the two others scores when a player takes 7 tricks (SS-5.5)."""


def threshold(num_sides: int) -> int:
    """7s that win a deal: 4 with two teams (SS-4.1), 3 with three players (SS-5.3)."""
    return 4 if num_sides == 2 else 3


@dataclass(frozen=True)
class DealScore:
    """A deal's points (SS-4.4, SS-5.4, SS-5.5).

    Attributes:
        ending: ``"sevens"``, ``"seven_tricks"`` or ``"hands_empty"``; rule: its rule id.
        side: the side that met the condition (took the 4th/3rd 7, the 7th trick, or the last
            trick).
        winning_sides: the sides that win the deal.
        transferred: 7s added to the winners by SS-4.2 (the losers' 7s in hand and a 7
            indicator).
        indicator_to: the side that took the indicator by SS-4.3, or ``None``.
        sevens: 7s per side after those additions (what the points are counted from).
        gains: points per side for this deal.
        formula: the arithmetic (``"4 - 3 + 1 = 2"``; ``"2"`` for SS-5.5).
        second: with 3 players, the sides given half the winner's points (SS-5.4).
        terms: the formula's terms, ``{"sevens", "other_sevens", "raw"}`` (the winner's 7s, the
            other side's or the second-highest count, and the result before the minimum of 1),
            or ``None`` for SS-5.5's flat 2 points.
    """

    ending: Ending
    rule: str
    side: int
    winning_sides: tuple[int, ...]
    transferred: int
    indicator_to: int | None
    sevens: tuple[int, ...]
    gains: tuple[int, ...]
    formula: str
    second: tuple[int, ...] = ()
    terms: dict[str, int] | None = None

    def to_json(self) -> dict[str, JSON]:
        """The fields as JSON (lists for tuples)."""
        return {
            "ending": self.ending,
            "rule": self.rule,
            "side": self.side,
            "winning_sides": list(self.winning_sides),
            "transferred": self.transferred,
            "indicator_to": self.indicator_to,
            "sevens": list(self.sevens),
            "gains": list(self.gains),
            "formula": self.formula,
            "second": list(self.second),
            "terms": dict(self.terms) if self.terms is not None else None,
        }


def deal_points(
    ending: Ending,
    side: int,
    sevens: Sequence[int],
    *,
    hand_sevens: int = 0,
    indicator_seven: bool = False,
) -> DealScore:
    """Score a deal (SS-4.2 … SS-4.4, SS-5.4, SS-5.5). Trusts its input (see
    :func:`score_deal` for the checked version).

    Args:
        ending: how the deal ended (SS-4.1, SS-4.2, SS-4.3).
        side: the side that met it.
        sevens: 7s each side took in tricks (2 teams or 3 players).
        hand_sevens: 4 players, ``seven_tricks``: 7s left in the losing team's hands, which go
            to the other team with a 7 indicator (SS-4.2).
        indicator_seven: the trump indicator is a 7 (it goes to the winners by SS-4.2, or to
            the last trick's side by SS-4.3).
    """
    ns = len(sevens)
    after = list(sevens)
    transferred = 0
    indicator_to: int | None = None
    if ending == "seven_tricks":
        if ns == 2:
            winning: list[int] = [1 - side]
            transferred = hand_sevens + (1 if indicator_seven else 0)  # SS-4.2
            after[1 - side] += transferred
        else:
            winning = [s for s in range(ns) if s != side]  # SS-5.5: no transfer
    else:
        winning = [side]
        if ending == "hands_empty":
            indicator_to = side  # SS-4.3: the last trick's winner takes the indicator
            if indicator_seven:
                after[side] += 1
    gains, formula, terms, second = _gains(ending, winning, after)
    return DealScore(
        ending=ending,
        rule=CONDITION_RULES[ending],
        side=side,
        winning_sides=tuple(winning),
        transferred=transferred,
        indicator_to=indicator_to,
        sevens=tuple(after),
        gains=tuple(gains),
        formula=formula,
        second=second,
        terms=terms,
    )


def _gains(
    ending: Ending, winning: list[int], after: list[int]
) -> tuple[list[int], str, dict[str, int] | None, tuple[int, ...]]:
    """The points of a deal from the 7s each side has once the deal-end cards are added.

    Returns:
        ``(gains, formula, terms, second)``: points per side; the formula as text; its terms
        (``None`` for SS-5.5's flat points); the sides paid half as second (SS-5.4).
    """
    ns = len(after)
    gains = [0] * ns
    if ns == 2:
        w = winning[0]
        raw = after[w] - after[1 - w] + 1  # SS-4.4
        gains[w] = max(1, raw)  # SS-4.4 ruling: at least 1
        formula = f"{after[w]} - {after[1 - w]} + 1 = {raw}"
        return gains, formula, {"sevens": after[w], "other_sevens": after[1 - w], "raw": raw}, ()
    if ending == "seven_tricks":
        for s in winning:
            gains[s] = THREE_PLAYER_TRICK_POINTS  # SS-5.5
        return gains, str(THREE_PLAYER_TRICK_POINTS), None, ()
    w = winning[0]
    runner_up = max(after[s] for s in range(ns) if s != w)
    raw = after[w] - runner_up + 1  # SS-5.4
    gains[w] = max(1, raw)
    second = tuple(s for s in range(ns) if s != w and after[s] == runner_up)
    for s in second:
        gains[s] = gains[w] // 2  # SS-5.4: half, rounded down
    formula = f"{after[w]} - {runner_up} + 1 = {raw}"
    return gains, formula, {"sevens": after[w], "other_sevens": runner_up, "raw": raw}, second


@dataclass(frozen=True)
class DealEntry:
    """A deal as entered on a score sheet.

    Attributes:
        ending: how it ended (SS-4.1 … SS-4.3).
        side: the side that took the 4th (3rd) 7, took 7 tricks, or took the last trick.
        sevens: 7s each side took in tricks (2 teams or 3 players).
        hand_sevens: 4 players, 7 tricks: 7s left in the losing team's hands (SS-4.2).
        indicator_seven: the trump indicator is a 7.
    """

    ending: str
    side: int
    sevens: tuple[int, ...]
    hand_sevens: int = 0
    indicator_seven: bool = False


def _err(en: str, ja: str, rule: str) -> ScoreError:
    return ScoreError(en, rule=rule, reason_ja=ja)


def check_deal(entry: DealEntry, names: Sequence[str] | None = None) -> None:
    """Refuse a deal the rules cannot produce.

    Raises:
        ScoreError: not 2 teams or 3 players (SS-2, SS-5); an unknown ending or side; a negative
            count, or more 7s than the deck's seven (SS-1.1); a side at the threshold that did not
            end the deal by it (SS-4.1 is checked after every trick, first); an SS-4.1 ending
            below the threshold; 7s in hand outside a 4-player 7-trick ending (SS-4.2); an
            SS-4.3 ending with 7s unaccounted for (every card was played), which needs a 7
            indicator (a side would have reached the threshold otherwise).
    """
    ns = len(entry.sevens)
    if ns not in (2, 3):
        raise _err(
            f"give the 7s of 2 teams (4 players) or 3 players, not {ns} sides",
            f"7の数は2チーム（4人）か3人分を入力してください（{ns}つではありません）",
            "SS-2.1, SS-5.1",
        )
    labels = list(names) if names is not None else [f"side {i + 1}" for i in range(ns)]
    labels_ja = list(names) if names is not None else [f"サイド{i + 1}" for i in range(ns)]
    if entry.ending not in ENDINGS:
        raise _err(
            f"a deal ends by sevens, seven_tricks or hands_empty, not {entry.ending!r}",
            f"ディールの終わり方は sevens、seven_tricks、hands_empty のどれかです"
            f"（{entry.ending!r} ではありません）",
            "SS-4",
        )
    if not 0 <= entry.side < ns:
        raise _err(
            f"the side must be one of the {ns}",
            f"サイドは{ns}つのうちのどれかです",
            "SS-4",
        )
    if any(x < 0 for x in entry.sevens) or entry.hand_sevens < 0:
        raise _err("a negative number of 7s", "7の数が負です", "SS-1.1")
    _check_counts(entry, labels, labels_ja)


def _check_counts(entry: DealEntry, labels: list[str], labels_ja: list[str]) -> None:
    """:func:`check_deal`'s checks of the 7s counted (SS-1.1, SS-4.1 … SS-4.3, SS-5.3)."""
    ns = len(entry.sevens)
    t = threshold(ns)
    total = sum(entry.sevens) + entry.hand_sevens + (1 if entry.indicator_seven else 0)
    if total > SEVENS:
        raise _err(
            f"{total} sevens counted, but the deck has {SEVENS} (one per suit)",
            f"7が{total}枚数えられていますが、山札には{SEVENS}枚（各スートに1枚）しかありません",
            "SS-1.1",
        )
    s = entry.side
    if entry.hand_sevens and not (entry.ending == "seven_tricks" and ns == 2):
        raise _err(
            "7s left in hand only count when a team took 7 tricks (4 players)",
            "手札に残った7が数えられるのは、4人戦でチームが7トリックを取ったときだけです",
            "SS-4.2",
        )
    for i, x in enumerate(entry.sevens):
        if x >= t and not (entry.ending == "sevens" and i == s):
            raise _err(
                f"{labels[i]} took {x} sevens: the deal ends as soon as a side has {t} (checked "
                "first, after every trick)",
                f"{labels_ja[i]}は7を{x}枚取っています。{t}枚に達したらすぐにディールは終わります"
                "（毎トリック後に最初に確かめます）",
                "SS-4.1" if ns == 2 else "SS-5.3",
            )
    if entry.ending == "sevens" and entry.sevens[s] < t:
        raise _err(
            f"{labels[s]} took {entry.sevens[s]} sevens; winning by sevens takes {t}",
            f"{labels_ja[s]}が取った7は{entry.sevens[s]}枚です。7で勝つには{t}枚必要です",
            "SS-4.1" if ns == 2 else "SS-5.3",
        )
    if entry.ending == "hands_empty":
        _check_hands_empty(entry, t)


def _check_hands_empty(entry: DealEntry, t: int) -> None:
    """SS-4.3: every card was played, so every 7 but a 7 indicator was taken in tricks; and the
    hands can only run out with a 7 indicator (else a side reached the threshold ``t``)."""
    taken = sum(entry.sevens)
    expected = SEVENS - (1 if entry.indicator_seven else 0)
    if taken != expected:
        if entry.indicator_seven:
            en = (
                f"the hands ran out, so all {expected} sevens besides the indicator were "
                f"taken in tricks, not {taken}"
            )
            ja = (
                f"手札がなくなったので、表示札以外の7は{expected}枚すべてトリックで"
                f"取られています（{taken}枚ではありません）"
            )
        else:
            en = (
                "the hands can only run out when the indicator is a 7: with all seven 7s "
                f"taken in tricks a side would have reached {t}"
            )
            ja = (
                "手札がなくなるのはトランプ表示札が7のときだけです。7がすべてトリックで"
                f"取られたら、どこかのサイドが{t}枚に達しています"
            )
        raise _err(en, ja, "SS-4.3")


def score_deal(entry: DealEntry, names: Sequence[str] | None = None) -> DealScore:
    """Check a deal entered by players (:func:`check_deal`) and score it (:func:`deal_points`).

    Raises:
        ScoreError: see :func:`check_deal`.
    """
    check_deal(entry, names)
    ending: Ending = (
        "sevens"
        if entry.ending == "sevens"
        else "seven_tricks"
        if entry.ending == "seven_tricks"
        else "hands_empty"
    )
    return deal_points(
        ending,
        entry.side,
        entry.sevens,
        hand_sevens=entry.hand_sevens,
        indicator_seven=entry.indicator_seven,
    )


def race_winners(points: Sequence[int], target: int = 7) -> list[int]:
    """The sides that win the game (SS-2.1, SS-5.6): once a side has ``target`` points or
    more, the highest total wins and a tie is a shared win; ``[]`` while nobody has reached it.
    """
    if not points:
        return []
    best = max(points)
    if best < target:
        return []
    return [s for s, x in enumerate(points) if x == best]


__all__ = [
    "CONDITION_RULES",
    "ENDINGS",
    "DealEntry",
    "DealScore",
    "check_deal",
    "deal_points",
    "race_winners",
    "score_deal",
    "threshold",
]
