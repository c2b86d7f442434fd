"""Seven Shot through the shared test kit, with an independent recomputation of the scores."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from ss_helpers import game

from septet.bots.greedy.seven_shot import GreedyAgent
from septet.core.game import Action, State
from septet.core.testkit import check_game, kit_games


def _card(text: str) -> tuple[str, int]:
    return text[0], int(text[1:])


def score_oracle(state: State) -> tuple[Sequence[float], Sequence[int]]:
    """Replay the notation of the whole game with a separate, plain implementation of SS-2 … SS-5
    and return ``(scores per seat, winners)``."""
    n = state.num_players
    k = state.game.options.pass_cards
    target = state.game.options.target
    side = [s % 2 for s in range(n)] if n == 4 else list(range(n))
    sides = max(side) + 1
    members = [[s for s in range(n) if side[s] == t] for t in range(sides)]
    need_sevens = 4 if n == 4 else 3
    moves = [str(a).split() for a in state.history]
    points = [0] * sides
    i = 0
    first: int | None = None
    while i < len(moves):
        hands: list[list[str]] = [[] for _ in range(n)]
        for pos in range(48):
            assert moves[i][0] == "deal"
            hands[pos % n].append(moves[i][1])
            i += 1
        indicator = moves[i][1]
        i += 1
        gifts = []
        for _s in range(n):
            gifts.append([m[1] for m in moves[i : i + k]])
            i += k
        for s in range(n):
            to = (s + 2) % 4 if n == 4 else (s + 1) % 3
            for c in gifts[s]:
                hands[s].remove(c)
                hands[to].append(c)
        if first is None:
            first = int(moves[i][1])
            i += 1
        else:
            first = (first + 1) % n
        leader = first
        taken: list[list[str]] = [[] for _ in range(n)]
        won = [0] * n
        trump = indicator[0]
        while True:
            cards = [moves[i + j][0] for j in range(n)]
            i += n
            for j, c in enumerate(cards):
                hands[(leader + j) % n].remove(c)
            if "S1" in cards:
                best = cards.index("S1")
            else:
                suit = trump if any(c[0] == trump for c in cards) else cards[0][0]
                ranks = [_card(c)[1] if c[0] == suit else -1 for c in cards]
                best = ranks.index(max(ranks))
            winner = (leader + best) % n
            taken[winner] += cards
            won[winner] += 1
            leader = winner
            sevens = [sum(_card(c)[1] == 7 for p in m for c in taken[p]) for m in members]
            tricks = [sum(won[p] for p in m) for m in members]
            team = side[winner]
            if sevens[team] >= need_sevens:
                winning = [team]
                break
            if tricks[team] >= 7:
                if n == 4:
                    winning = [1 - team]
                    moved = [c for p in members[team] for c in hands[p] if _card(c)[1] == 7]
                    moved += [indicator] if _card(indicator)[1] == 7 else []
                    sevens[1 - team] += len(moved)
                else:
                    winning = [t for t in range(sides) if t != team]
                break
            if not any(hands):
                winning = [team]
                sevens[team] += _card(indicator)[1] == 7
                break
        if n == 4:
            w = winning[0]
            points[w] += max(1, sevens[w] - sevens[1 - w] + 1)
        elif len(winning) == 2:
            for t in winning:
                points[t] += 2
        else:
            w = winning[0]
            second = max(sevens[t] for t in range(sides) if t != w)
            gain = max(1, sevens[w] - second + 1)
            points[w] += gain
            for t in range(sides):
                if t != w and sevens[t] == second:
                    points[t] += gain // 2
        if max(points) >= target:
            assert i == len(moves), "the game went on after a side reached the target"
            break
    best = max(points)
    winners = [s for s in range(n) if points[side[s]] == best]
    return [float(points[side[s]]) for s in range(n)], winners


def _secondary() -> int:
    """Games for the secondary configurations: a fifth of the main count (SEPTET_KIT_GAMES)."""
    return max(4, kit_games(40) // 5)


@pytest.mark.parametrize("num_players", [3, 4])
def test_kit_random_games(num_players: int) -> None:
    report = check_game(
        game(), num_players, num_games=kit_games(40), seed=1, score_oracle=score_oracle
    )
    assert report.games == kit_games(40)
    assert report.illegal_rejected > 0


@pytest.mark.parametrize("num_players", [3, 4])
def test_kit_without_the_pass(num_players: int) -> None:
    report = check_game(
        game(pass_cards=0, target=3),
        num_players,
        num_games=_secondary(),
        seed=2,
        score_oracle=score_oracle,
    )
    assert report.games == _secondary()


@pytest.mark.parametrize("num_players", [3, 4])
def test_kit_with_greedy_play(num_players: int) -> None:
    # Greedy play reaches positions random play seldom does (long deals, empty hands).
    bot = GreedyAgent(game())

    def policy(state: State, rng: random.Random) -> Action:
        seat = state.current_player
        return bot.act(state.view(seat), state.legal_actions(), rng)

    report = check_game(
        game(),
        num_players,
        num_games=_secondary(),
        seed=4,
        score_oracle=score_oracle,
        policy=policy,
    )
    assert report.games == _secondary()


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [3, 4])
def test_kit_thousands_of_games(num_players: int) -> None:
    report = check_game(
        game(),
        num_players,
        num_games=kit_games(2000),
        seed=3,
        score_oracle=score_oracle,
        deep_check_rate=0.01,
    )
    assert report.games == kit_games(2000)
