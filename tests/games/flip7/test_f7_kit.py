"""The shared test kit on Flip 7, with an independent F7V-7 scoring oracle.

Games per configuration: ``SEPTET_KIT_GAMES`` (CI) or a small default.
"""

from __future__ import annotations

import pytest

from septet.core.testkit import check_game, kit_games
from septet.games import get

_VALUES = {"zero": 0, "u7": 7, "l13": 13}
_MINUS = {"-2": 2, "-4": 4, "-6": 6, "-8": 8, "-10": 10}
_PLUS = {"+2": 2, "+4": 4, "+6": 6, "+8": 8, "+10": 10}


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _VALUES.get(token)


def oracle_round(data, seat, edition, brutal):
    """F7V-7 (and F7V-8, F7V-9) from a round_end event's cards, written again independently."""
    row = data["rows"][seat]
    flip7 = data["flip7"] == seat
    if data["status"][seat] == "busted":
        score = -sum(_MINUS.get(t, 0) for t in data["after_bust"][seat]) if brutal else 0
    else:
        total = sum(v for v in map(_number, row) if v is not None)
        if edition == "vengeance":
            total = total // (2 ** row.count("/2"))
            total -= sum(_MINUS.get(t, 0) for t in row)
            if not brutal:
                total = max(total, 0)
            if "zero" in row and not flip7:
                total = 0
            if flip7 and (not brutal or data["flip7_choice"] == seat):
                total += 15
        else:
            total = total * (2 ** row.count("x2")) + sum(_PLUS.get(t, 0) for t in row)
            if flip7:
                total += 15
        score = total
    if brutal and data["flip7"] is not None and data["flip7_choice"] == seat != data["flip7"]:
        score -= 15
    return score


def flip7_oracle(state):
    """Replay the game, rescoring each round from the cards on the table at its end."""
    opts = state.game.options
    fresh = state.game.new_state(state.num_players)
    totals = [0] * state.num_players
    for action in state.history:
        for event in fresh.apply(action):
            if event.kind == "round_end":
                for p in range(state.num_players):
                    totals[p] += oracle_round(event.data, p, opts.edition, opts.brutal)
    best = max(totals)
    return [float(t) for t in totals], [p for p, t in enumerate(totals) if t == best]


# 6 and 18 seats (two decks) take a minute or more each: the long runs (`-m slow`) check them.
@pytest.mark.parametrize(
    "players", [2, 3, *(pytest.param(n, marks=pytest.mark.slow) for n in (6, 18))]
)
@pytest.mark.parametrize("edition", ["vengeance", "classic"])
def test_kit(edition, players):
    game = get("flip7", edition=edition)
    n = kit_games(60 if players < 18 else 12)
    report = check_game(game, players, num_games=n, seed=7, score_oracle=flip7_oracle)
    assert report.games == n
    assert report.illegal_rejected > 0


@pytest.mark.parametrize("players", [3, pytest.param(19, marks=pytest.mark.slow)])
def test_kit_brutal_and_two_decks(players):
    game = get("flip7", brutal=True)
    n = kit_games(20 if players < 18 else 4)
    report = check_game(game, players, num_games=n, seed=3, score_oracle=flip7_oracle)
    assert report.games == n


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 6, 18])
@pytest.mark.parametrize("edition", ["vengeance", "classic"])
def test_kit_thousands(edition, players):
    game = get("flip7", edition=edition)
    n = 2000 if players < 18 else 500
    check_game(game, players, num_games=n, seed=11, score_oracle=flip7_oracle, deep_check_rate=0.01)
