"""The Expert's fitted Seven Shot opponent model: the plays it rebuilds from a sample against the
engine's own play, its features on hand-built tricks, its probabilities and likelihood."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from septet.bots.expert.opponent import (
    FEATURE_NAMES,
    NUM_FEATURES,
    NUM_PASS_FEATURES,
    PASS_FEATURE_NAMES,
    OpponentModel,
    PassContext,
    PlayContext,
    features,
    fitted_model,
    pass_contexts,
    pass_features,
    play_contexts,
    subset_log_probability,
)
from septet.core.types import CHANCE
from septet.games import get
from septet.games.seven_shot.cards import card_id, mask_of, parse_card
from septet.games.seven_shot.rules import playable
from septet.games.seven_shot.state import PH_PLAY

F = {name: i for i, name in enumerate(FEATURE_NAMES)}


def _play_deal(n: int, seed: int) -> tuple[Any, list[tuple[int, int, tuple[int, ...], int]]]:
    """One deal of random play, stopped before its last card (SS-4.2 takes the 7s out of the
    losing side's hands when the deal ends): that state, and every card play in it as the
    engine saw it: (seat, hand before, trick before, card)."""
    game = get("seven-shot", target=1)
    rng = random.Random(seed)
    state: Any = game.new_state(n)
    seen = []
    while not state.is_terminal:
        p = state.current_player
        if p == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        a = legal[rng.randrange(len(legal))]
        if state.phase == PH_PLAY:
            before = state.clone()
            seen.append((p, state.hands[p], tuple(state.trick), int(a.card)))
            state.apply(a)
            if state.phase != PH_PLAY:
                return before, seen[:-1]
        else:
            state.apply(a)
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("n", [3, 4])
def test_play_contexts_rebuild_every_play_as_the_engine_saw_it(n: int) -> None:
    # SS-3.1: the hands rebuilt backwards from the deal's end equal the engine's hands at each
    # play, and the trick so far and the card played are the engine's.
    for seed in range(20):
        state, seen = _play_deal(n, seed)
        ctxs = list(play_contexts(state))
        assert [(c.seat, c.hand, c.trick, c.card) for c in ctxs] == seen
        gone = 1 << state.indicator
        for c in ctxs:
            assert c.gone == gone and c.players == n and c.trump == state.indicator // 7
            assert c.hand >> c.card & 1
            gone |= 1 << c.card


def test_side_tricks_count_the_sides_tricks_before_the_trick() -> None:
    # SS-2.1: at 4 players partners share their tricks.
    state, _ = _play_deal(4, 3)
    won = [0, 0]
    k = 0
    ctxs = list(play_contexts(state))
    for _leader, cards, winner in state.tricks:
        for _ in cards:
            assert ctxs[k].side_tricks == won[ctxs[k].side]
            k += 1
        won[winner % 2] += 1


def _ctx(hand: list[str], trick: list[str], sides: list[int], side: int, trump: int,
         players: int = 4, gone: list[str] = (), side_tricks: int = 0) -> PlayContext:  # fmt: skip
    cards = [parse_card(x) for x in hand]
    return PlayContext(
        players=players,
        seat=0,
        hand=mask_of(cards),
        trick=tuple(parse_card(x) for x in trick),
        trick_sides=tuple(sides),
        side=side,
        trump=trump,
        gone=mask_of([parse_card(x) for x in gone]),
        side_tricks=side_tricks,
        card=cards[0],
    )


def test_features_of_a_follow_worked_by_hand() -> None:
    # 4 players, trump Earth (6). Fire (3–9) led: F5 by an opponent (side 1), then the partner's
    # F7 (side 0, winning, a 7). The last seat holds F9, F4 and W7: it must follow in Fire
    # (SS-3.1), so W7 is not legal. F9 wins (over the partner: overtakes it) and takes the F7:
    # 1 seven; F4 does not win and goes under the partner's trick. Heights: F9 = 6/6, F4 = 1/6.
    ctx = _ctx(["F9", "F4", "W7"], ["F5", "F7"], [1, 0], 0, 6, side_tricks=5)
    legal, f = features(ctx)
    assert legal == [parse_card("F4"), parse_card("F9")]
    f4, f9 = f[0], f[1]
    assert f9[F["wins_now"]] == 1 and f4[F["wins_now"]] == 0
    assert f9[F["wins_sevens"]] == 1 and f4[F["wins_sevens"]] == 0
    assert f9[F["wins_last"]] == 0  # a third card: one seat is still to play
    assert f9[F["overtakes_partner"]] == 1
    assert f9[F["height_winning"]] == 1.0 and f4[F["height_losing"]] == pytest.approx(1 / 6)
    assert f4[F["sevens_to_opponent"]] == 0  # the partner's trick
    assert f4[F["lowest_legal"]] == 1 and f9[F["highest_legal"]] == 1
    assert f9[F["wins_near_seven_tricks"]] == 1  # the side has 5 tricks (SS-4.2)
    assert f9[F["top_live"]] == 1  # F9 is Fire's highest card
    assert f4[F["top_live"]] == 0  # F6, F8 are still out
    assert f[:, F["lead_seven"] :].sum() == 0


def test_features_of_a_discard_and_a_ruff_worked_by_hand() -> None:
    # 3 players (sides are seats), trump Water (3). Moon (1) led by seat 1 with M8, seat 2
    # played M7. The last seat (side 0) has no Moon: any card. W4 ruffs (a trump) and wins
    # the M7 as the last to play; S2 is a discard under an opponent's trick holding one 7.
    ctx = _ctx(["W4", "S2"], ["M8", "M7"], [1, 2], 0, 3, players=3)
    legal, f = features(ctx)
    assert legal == [parse_card("S2"), parse_card("W4")]
    s2, w4 = f
    assert w4[F["ruff"]] == 1 and w4[F["trump"]] == 1 and w4[F["wins_last"]] == 1
    assert w4[F["wins_sevens"]] == 1
    assert s2[F["discard"]] == 1 and s2[F["sevens_to_opponent"]] == 1
    assert s2[F["seven_to_opponent"]] == 0  # S2 is not a 7
    assert s2[F["voids_suit"]] == 1 and w4[F["voids_suit"]] == 1


def test_features_of_a_lead_worked_by_hand() -> None:
    # Leading with E7, E13, S1 (the A) and T11, trump Earth, T9 and T10 gone: E13 is Earth's
    # top card, T11 is Tree's top live card, the A always is; Earth has 2 cards in the hand.
    ctx = _ctx(["E7", "E13", "S1", "T11"], [], [], 0, 6, gone=["T9", "T10"], side_tricks=6)
    legal, f = features(ctx)
    by = dict(zip(legal, f, strict=True))
    e7, e13, ace, t11 = (by[parse_card(x)] for x in ("E7", "E13", "S1", "T11"))
    assert e7[F["lead_seven"]] == 1 and e7[F["lead_trump"]] == 1
    assert e7[F["lead_suit_length"]] == pytest.approx(2 / 4)
    assert e13[F["lead_top_live"]] == 1 and e7[F["lead_top_live"]] == 0
    assert t11[F["lead_top_live"]] == 1 and t11[F["lead_singleton"]] == 1
    assert ace[F["lead_ace"]] == 1 and ace[F["lead_height"]] == 1.0
    assert e7[F["lead_low_near_seven_tricks"]] == pytest.approx(1.0)  # E7: Earth's lowest
    assert f[:, : F["lead_seven"]].sum() == 0
    assert card_id(6, 7) == parse_card("E7")


def test_probabilities_are_the_softmax_with_the_uniform_share() -> None:
    ctx = _ctx(["F9", "F4", "W7"], ["F5", "F7"], [1, 0], 0, 6)
    w = np.zeros(NUM_FEATURES)
    w[F["wins_now"]] = math.log(3.0)  # F9 three times as likely as F4 before the mix
    _legal, p = OpponentModel(w, epsilon=0.2).probabilities(ctx)
    assert p.sum() == pytest.approx(1.0)
    assert p[1] == pytest.approx(0.8 * 3 / 4 + 0.1) and p[0] == pytest.approx(0.8 / 4 + 0.1)
    with pytest.raises(ValueError):
        OpponentModel(np.zeros(3))
    with pytest.raises(ValueError):
        OpponentModel(w, temper=0.0)


@pytest.mark.parametrize("n", [3, 4])
def test_log_likelihood_sums_the_others_plays_and_is_tempered(n: int) -> None:
    state, seen = _play_deal(n, 7)
    rng = np.random.default_rng(n)
    model = OpponentModel(rng.normal(size=NUM_FEATURES), epsilon=0.1)
    observer = 1
    want = 0.0
    for ctx in play_contexts(state):
        legal, p = model.probabilities(ctx)
        assert legal == [c for c in range(49) if playable(ctx.hand, -1 if not ctx.trick else
                                                           ctx.trick[0] // 7) >> c & 1]  # fmt: skip
        if ctx.seat != observer and len(legal) > 1:
            want += math.log(p[legal.index(ctx.card)])
    assert want < 0
    assert model.log_likelihood(state, observer) == pytest.approx(want)
    half = OpponentModel(model.weights, epsilon=0.1, temper=0.5)
    assert half.log_likelihood(state, observer) == pytest.approx(want / 2)
    assert len(seen) > 0


def test_fitted_weights_exist_for_three_and_four_players() -> None:
    for n in (3, 4):
        assert fitted_model(n).weights.shape == (NUM_FEATURES,)
    with pytest.raises(ValueError):
        fitted_model(5)


@pytest.mark.parametrize("n", [3, 4])
def test_pass_contexts_rebuild_each_hand_before_the_pass(n: int) -> None:
    # SS-2.3 / SS-5.2: the hand before the pass, rebuilt from a play-phase state, is the hand
    # the engine dealt, and the cards passed are the engine's.
    from septet.games.seven_shot.state import PH_PASS

    for seed in range(10):
        game = get("seven-shot", target=1)
        rng = random.Random(seed)
        state: Any = game.new_state(n)
        dealt: list[int] = []
        while state.phase != PH_PLAY or state.current_player == CHANCE:
            if state.phase == PH_PASS and not dealt:
                dealt = list(state.hands)
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
        for _ in range(2 * n):  # a few card plays
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        ctxs = list(pass_contexts(state))
        assert [c.hand for c in ctxs] == dealt
        assert [c.passed for c in ctxs] == list(state.passed)
        assert all(c.passed.bit_count() == 3 and c.hand & c.passed == c.passed for c in ctxs)


def test_subset_log_probability_equals_the_sum_over_every_subset() -> None:
    # P(S) = exp(sum of z over S) / sum over all 3-subsets T of exp(sum of z over T).
    from itertools import combinations

    z = np.array([0.3, -1.2, 2.0, 0.0, 0.7, -0.4])
    denom = sum(math.exp(sum(z[list(t)])) for t in combinations(range(6), 3))
    for s in combinations(range(6), 3):
        want = sum(z[list(s)]) - math.log(denom)
        assert subset_log_probability(z, s, 3) == pytest.approx(want)
    total = sum(math.exp(subset_log_probability(z, s, 3)) for s in combinations(range(6), 3))
    assert total == pytest.approx(1.0)
    with pytest.raises(ValueError):
        subset_log_probability(z, [0, 0, 1], 3)


def test_pass_features_worked_by_hand_and_the_pass_in_the_likelihood() -> None:
    # Hand F9 F4 W7 E13, trump Earth: W7 is a 7 and a singleton; E13 the trump and Earth's
    # top; F4 and F9 a doubleton, F9 its top.
    hand = mask_of([parse_card(x) for x in ("F9", "F4", "W7", "E13")])
    ctx = PassContext(seat=1, hand=hand, trump=6, passed=mask_of([parse_card("W7")]))
    cards, f = pass_features(ctx)
    by = dict(zip(cards, f, strict=True))
    P = {name: i for i, name in enumerate(PASS_FEATURE_NAMES)}
    w7, e13, f9, f4 = (by[parse_card(x)] for x in ("W7", "E13", "F9", "F4"))
    assert w7[P["seven"]] == 1 and w7[P["singleton"]] == 1 and w7[P["suit_length"]] == 0.25
    assert e13[P["trump"]] == 1 and e13[P["top_of_suit"]] == 1 and e13[P["height"]] == 1.0
    assert f9[P["doubleton"]] == 1 and f9[P["top_of_suit"]] == 1 and f4[P["top_of_suit"]] == 0
    # The model's pass term: one card of four, P = exp(z_W7) / sum exp(z).
    pw = np.zeros(NUM_PASS_FEATURES)
    pw[P["seven"]] = math.log(5.0)
    model = OpponentModel(np.zeros(NUM_FEATURES), pass_weights=pw)
    assert model.pass_log_probability(ctx) == pytest.approx(math.log(5 / 8))
    # In a deal's likelihood every other seat's pass counts; zero play weights leave the plays
    # at uniform (1 - eps) / k + eps / k = 1 / k.
    state, _ = _play_deal(4, 2)
    want = sum(model.pass_log_probability(c) for c in pass_contexts(state) if c.seat != 0)
    plays = sum(math.log(len(features(c)[0])) for c in play_contexts(state) if c.seat != 0)
    assert model.log_likelihood(state, 0) == pytest.approx(want - plays)


def _greedy_to_play(game: Any, greedy: Any, n: int, rng: random.Random) -> Any:
    """A deal dealt and passed by the greedy bot at every seat, at its first card play."""
    state: Any = game.new_state(n)
    while not (state.phase == PH_PLAY and state.current_player >= 0):
        p = state.current_player
        if p == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(greedy.act(state.view(p), state.legal_actions(), rng))
    return state


@pytest.mark.parametrize("n", [3, 4])
def test_greedy_pass_cards_are_the_cards_greedy_passes(n: int) -> None:
    # SS-2.3 / SS-5.2: the pure pass rule gives, from each hand as dealt, the three cards the
    # greedy bot passes one at a time in a real game.
    from septet.bots import make_agent

    game = get("seven-shot")
    greedy = make_agent("greedy", game)
    for seed in range(8):
        state = _greedy_to_play(game, greedy, n, random.Random(seed))
        for ctx in pass_contexts(state):
            assert greedy.pass_cards(ctx.hand, ctx.trump, n) == ctx.passed  # type: ignore[attr-defined]


def test_partner_weight_reads_the_partners_pass_by_its_rule() -> None:
    from septet.bots import make_agent
    from septet.bots.expert.seven_shot import PARTNER_MISS, partner_weight

    game = get("seven-shot")
    greedy: Any = make_agent("greedy", game)
    state = _greedy_to_play(game, greedy, 4, random.Random(4))
    seat = state.current_player
    partner = (seat + 2) % 4
    assert partner_weight(state, seat, greedy.pass_cards) == 1.0  # the real deal
    # Swap a card the partner kept for one an opponent holds: the partner's hand before the
    # pass changes. A deal where the rule, read on that hand, passes other cards weighs
    # PARTNER_MISS; one where it passes the same cards weighs 1.
    opp = (seat + 1) % 4
    seen = set()
    for mine in (c for c in range(49) if state.hands[partner] >> c & 1):
        for theirs in (c for c in range(49) if state.hands[opp] >> c & 1):
            other = state.clone()
            other.hands[partner] ^= 1 << mine | 1 << theirs
            other.hands[opp] ^= 1 << mine | 1 << theirs
            ctx = next(c for c in pass_contexts(other) if c.seat == partner)
            same = greedy.pass_cards(ctx.hand, ctx.trump, 4) == ctx.passed
            assert partner_weight(other, seat, greedy.pass_cards) == (1.0 if same else PARTNER_MISS)
            seen.add(same)
    assert seen == {True, False}  # both kinds of deal occur among the swaps
    # Three players have no partner.
    three, _ = _play_deal(3, 1)
    assert partner_weight(three, 0, lambda *a: 0) == 1.0


def test_partner_rule_needs_a_pass_rule() -> None:
    from septet.bots import AgentSpecError, make_agent

    game = get("seven-shot")
    with pytest.raises(AgentSpecError, match="partner"):
        make_agent("expert:partner=rule", game)
    assert make_agent("expert:partner=rule,passing=greedy", game).partner == "rule"  # type: ignore[attr-defined]
