"""Double Seven scoring as pure functions: the points of a player's families and tokens, the
winner with the tie-break by the 77 token (DS-8), and the checks that refuse an end position
the rules cannot produce (for the score keeper, ``/score``).

The engine (:class:`~septet.games.double_seven.state.DoubleSevenState`) scores with
:func:`score_of` and :func:`winners`; the score keeper uses :func:`final_scores`, which checks
the entry first and raises :class:`~septet.core.errors.ScoreError` (rule id, English and
Japanese) for what cannot happen.

Example (DS-8.3)::

    >>> final_scores([PlayerEnd((7, 8, 2), sevens=2, double_seven=True)]).players[0].score
    21
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from septet.core.errors import ScoreError
from septet.core.types import JSON
from septet.games.double_seven.rules import (
    DOUBLE_SEVEN_POINTS,
    MAX_PLAYERS,
    MIN_FAMILY,
    MIN_PLAYERS,
    SEVEN,
    SEVEN_TOKEN_POINTS,
    qualifies_for_77,
)
from septet.games.double_seven.tiles import (
    MAX_FAMILY,
    NUM_CLOVERS,
    NUM_SEVEN_TOKENS,
    NUM_TILES,
    TILES_PER_ANIMAL,
    Family,
)


def score_of(families: tuple[Family, ...], sevens: int, has77: bool) -> int:
    """DS-8.1: one point per tile in families, +1 per 7 token, +2 for the 77 token.

    Args:
        families: ``(animal, animal tiles, clovers)`` per family (:mod:`.tiles`).
        sevens: 7 tokens held. has77: the 77 token is held.
    """
    return points(tuple(f[1] + f[2] for f in families), sevens, has77)


def points(sizes: Sequence[int], sevens: int, has77: bool) -> int:
    """DS-8.1: the sum of the family sizes (tiles), +1 per 7 token, +2 for the 77 token; rack
    tiles score nothing."""
    return sum(sizes) + SEVEN_TOKEN_POINTS * sevens + (DOUBLE_SEVEN_POINTS if has77 else 0)


def winners(scores: Sequence[float], holder77: int | None) -> list[int]:
    """DS-8.2: the seats with the most points; when several tie, the one holding the 77 token
    wins alone, otherwise they share the victory."""
    best = max(scores)
    tied = [s for s, x in enumerate(scores) if x == best]
    if holder77 is not None and holder77 in tied:
        return [holder77]
    return tied


@dataclass(frozen=True)
class PlayerEnd:
    """A player's end of game as entered on a score sheet (DS-8).

    Attributes:
        families: the size (tiles, clovers included) of each family in front of the player.
        sevens: 7 tokens held (DS-1.2).
        double_seven: holds the 77 token.
    """

    families: tuple[int, ...] = ()
    sevens: int = 0
    double_seven: bool = False


@dataclass(frozen=True)
class PlayerScore:
    """One player's points: ``tiles`` (family sizes added), ``sevens`` (+1 each),
    ``double_seven`` (+2 or 0) and ``score``; ``families`` as entered."""

    families: tuple[int, ...]
    tiles: int
    sevens: int
    double_seven: int
    score: int

    def to_json(self) -> dict[str, JSON]:
        """The fields as JSON."""
        return {
            "families": list(self.families),
            "tiles": self.tiles,
            "sevens": self.sevens,
            "double_seven": self.double_seven,
            "score": self.score,
        }


@dataclass(frozen=True)
class GameScore:
    """The end of a game (DS-8).

    Attributes:
        players: one :class:`PlayerScore` per seat.
        winners: the seats that win (DS-8.2).
        tied: the seats that shared the most points (one seat when nobody tied).
        tie_break: ``"77"`` when a tie was broken by the 77 token, ``"shared"`` when the tied
            players share the victory, ``None`` without a tie.
    """

    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    tied: tuple[int, ...]
    tie_break: Literal["77", "shared"] | None

    def to_json(self) -> dict[str, JSON]:
        """``players``, ``scores``, ``winners``, ``tied``, ``tie_break``."""
        return {
            "players": [p.to_json() for p in self.players],
            "scores": [p.score for p in self.players],
            "winners": list(self.winners),
            "tied": list(self.tied),
            "tie_break": self.tie_break,
        }


def _err(en: str, ja: str, rule: str) -> ScoreError:
    return ScoreError(en, rule=rule, reason_ja=ja)


def check_end(
    players: Sequence[PlayerEnd],
    *,
    double_seven: str = "two_families",
    names: Sequence[str] | None = None,
) -> None:
    """Refuse an end of game the rules cannot produce.

    Args:
        players: each player's families, 7 tokens and 77 token, in seat order (2 to 4, DS-1.3).
        double_seven: the game's option (DS-5.3): ``"two_families"`` (the default: the first
            player with a second family of 7 or more tiles takes the 77) or ``"second_token"``
            (the first player to take a second 7 token).
        names: players' names for the messages.

    Raises:
        ScoreError: a family under 2 or over 14 tiles (DS-5.1, DS-1.1); more family tiles than
            the box holds, or than 11 of an animal plus the 3 clovers allow (DS-1.1); more than
            eight 7 tokens or a negative count (DS-1.2); more 7 tokens than families of 7 or more
            (each token comes with an expansion to 7+, DS-5.3, and an exchange gives back a
            family of the same size, DS-5.4); two 77 tokens (DS-1.2); with ``second_token``, a
            77 holder with fewer than two 7 tokens or a player with two tokens and no 77 taken
            (DS-5.3); with ``two_families``, a 77 holder without two families of 7 or more, or a
            player with two such families and no 77 taken (DS-5.3).
    """
    n = len(players)
    labels = list(names) if names is not None else [f"player {i + 1}" for i in range(n)]
    labels_ja = list(names) if names is not None else [f"プレイヤー{i + 1}" for i in range(n)]
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise _err(
            f"Double Seven is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}",
            f"ダブルセブンは{MIN_PLAYERS}〜{MAX_PLAYERS}人用です（{n}人ではありません）",
            "DS-1.3",
        )
    if double_seven not in ("second_token", "two_families"):
        raise _err(
            f"double_seven must be second_token or two_families, not {double_seven!r}",
            f"double_seven は second_token か two_families です（{double_seven!r} ではありません）",
            "DS-5.3",
        )
    for i, p in enumerate(players):
        _check_player(p, labels[i], labels_ja[i])
    holders = _check_totals(players, labels, labels_ja)
    _check_77(players, holders, double_seven, labels, labels_ja)


def _check_player(p: PlayerEnd, label: str, label_ja: str) -> None:
    """One player's families (DS-5.1, DS-1.1) and 7 tokens (DS-1.2, DS-5.3, DS-5.4)."""
    for size in p.families:
        if not MIN_FAMILY <= size <= MAX_FAMILY:
            raise _err(
                f"{label}: a family of {size} tiles is impossible (a family starts "
                f"with at least {MIN_FAMILY} and holds at most {MAX_FAMILY}: "
                f"{TILES_PER_ANIMAL} tiles of its animal and the {NUM_CLOVERS} clovers)",
                f"{label_ja}：{size}枚のファミリーはありえません（ファミリーは"
                f"{MIN_FAMILY}枚以上で始まり、最大{MAX_FAMILY}枚：その動物{TILES_PER_ANIMAL}枚と"
                f"クローバー{NUM_CLOVERS}枚）",
                "DS-5.1" if size < MIN_FAMILY else "DS-1.1",
            )
    if p.sevens < 0:
        raise _err(
            f"{label}: a negative number of 7 tokens",
            f"{label_ja}：7トークンの数が負です",
            "DS-1.2",
        )
    big = sum(1 for size in p.families if size >= SEVEN)
    if p.sevens > big:
        raise _err(
            f"{label}: {p.sevens} 7 tokens but {big} families of 7 or more: each token "
            "comes with a family reaching 7, and an exchange gives back one of the same size",
            f"{label_ja}：7トークンが{p.sevens}個ですが、7枚以上のファミリーは{big}つです。"
            "トークンはファミリーが7枚に達したときにもらい、交換では同じ枚数のファミリーが"
            "戻ってきます",
            "DS-5.3, DS-5.4",
        )


def _check_totals(
    players: Sequence[PlayerEnd], labels: list[str], labels_ja: list[str]
) -> list[int]:
    """The box's limits over all players (DS-1.1, DS-1.2); returns the 77 token's holders."""
    tokens = sum(p.sevens for p in players)
    if tokens > NUM_SEVEN_TOKENS:
        raise _err(
            f"{tokens} 7 tokens in all, but there are only {NUM_SEVEN_TOKENS}",
            f"7トークンが合計{tokens}個ですが、{NUM_SEVEN_TOKENS}個しかありません",
            "DS-1.2",
        )
    holders = [i for i, p in enumerate(players) if p.double_seven]
    if len(holders) > 1:
        raise _err(
            f"{labels[holders[0]]} and {labels[holders[1]]} both hold the 77 token, but there "
            "is only one",
            f"{labels_ja[holders[0]]}と{labels_ja[holders[1]]}の両方が77トークンを持っていますが、"
            "77トークンは1つだけです",
            "DS-1.2",
        )
    tiles = sum(sum(p.families) for p in players)
    if tiles > NUM_TILES:
        raise _err(
            f"{tiles} tiles in families, but the box holds {NUM_TILES}",
            f"ファミリーのタイルが合計{tiles}枚ですが、タイルは{NUM_TILES}枚しかありません",
            "DS-1.1",
        )
    over = sum(max(0, size - TILES_PER_ANIMAL) for p in players for size in p.families)
    if over > NUM_CLOVERS:
        raise _err(
            f"families over {TILES_PER_ANIMAL} tiles need {over} clovers, "
            f"but there are {NUM_CLOVERS}",
            f"{TILES_PER_ANIMAL}枚を超えるファミリーにはクローバーが{over}枚必要ですが、"
            f"{NUM_CLOVERS}枚しかありません",
            "DS-1.1",
        )
    return holders


def _check_77(
    players: Sequence[PlayerEnd],
    holders: list[int],
    double_seven: str,
    labels: list[str],
    labels_ja: list[str],
) -> None:
    """Who may hold the 77 token under the game's option (DS-5.3), by the engine's rule
    :func:`~septet.games.double_seven.rules.qualifies_for_77`: its holder has met the
    condition, and when anyone has met it, someone holds it."""
    met = [i for i, p in enumerate(players) if qualifies_for_77(double_seven, p.families, p.sevens)]
    tokens = double_seven == "second_token"
    if holders and holders[0] not in met:
        h = holders[0]
        if tokens:
            raise _err(
                f"{labels[h]} holds the 77 token with {players[h].sevens} 7 tokens: it goes to "
                "the first player to take a second 7 token",
                f"{labels_ja[h]}は7トークン{players[h].sevens}個で77トークンを持っています。"
                "77トークンは2個目の7トークンを最初に取ったプレイヤーのものです",
                "DS-5.3",
            )
        raise _err(
            f"{labels[h]} holds the 77 token without two families of 7 or more",
            f"{labels_ja[h]}は7枚以上のファミリーを2つ持たずに77トークンを持っています",
            "DS-5.3",
        )
    if met and not holders:
        m = met[0]
        if tokens:
            raise _err(
                f"{labels[m]} has {players[m].sevens} 7 tokens, so someone took the 77 "
                "token with a second 7 token",
                f"{labels_ja[m]}は7トークンを{players[m].sevens}個持っているので、"
                "だれかが2個目の7トークンで77トークンを取っています",
                "DS-5.3",
            )
        raise _err(
            f"{labels[m]} has two families of 7 or more, so someone took the 77 token "
            "(the first player with a second family of 7 or more takes it)",
            f"{labels_ja[m]}は7枚以上のファミリーを2つ持っているので、だれかが77トークンを"
            "取っています（7枚以上の2つ目のファミリーを最初に作ったプレイヤーが取ります）",
            "DS-5.3",
        )


def final_scores(
    players: Sequence[PlayerEnd],
    *,
    double_seven: str = "two_families",
    names: Sequence[str] | None = None,
) -> GameScore:
    """Check an end of game (:func:`check_end`) and score it (DS-8.1), with the winners and
    the tie-break by the 77 token (DS-8.2).

    Raises:
        ScoreError: see :func:`check_end`.
    """
    check_end(players, double_seven=double_seven, names=names)
    scored = tuple(
        PlayerScore(
            families=tuple(p.families),
            tiles=sum(p.families),
            sevens=p.sevens,
            double_seven=2 if p.double_seven else 0,
            score=points(p.families, p.sevens, p.double_seven),
        )
        for p in players
    )
    scores = [p.score for p in scored]
    holder = next((i for i, p in enumerate(players) if p.double_seven), None)
    best = max(scores)
    tied = tuple(i for i, x in enumerate(scores) if x == best)
    won = tuple(winners(scores, holder))
    tie_break: Literal["77", "shared"] | None = None
    if len(tied) > 1:
        tie_break = "77" if len(won) == 1 else "shared"
    return GameScore(scored, won, tied, tie_break)


__all__ = [
    "GameScore",
    "PlayerEnd",
    "PlayerScore",
    "check_end",
    "final_scores",
    "points",
    "score_of",
    "winners",
]
