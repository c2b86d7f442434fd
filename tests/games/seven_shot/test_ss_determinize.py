"""Seven Shot determinization: consistent with the seat's view, voids and passes respected."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ss_helpers import fill_hands, game, play

from septet.core.record import GameRecord, replay
from septet.core.types import CHANCE
from septet.games.seven_shot.cards import SUIT_MASK, SUIT_OF, cards_of, parse_card
from septet.games.seven_shot.determinize import constrained_deal
from septet.games.seven_shot.state import SevenShotState


def _check(state: SevenShotState, seat: int, det: SevenShotState) -> None:
    assert json.dumps(det.view(seat), sort_keys=True) == json.dumps(
        state.view(seat), sort_keys=True
    )
    assert det.current_player == state.current_player
    n = state.num_players
    seen = sum(1 << c for c in det.undealt) | (1 << det.indicator if det.indicator >= 0 else 0)
    for m in det.bonus:
        seen |= m
    for s in range(n):
        seen |= det.hands[s] | det.pass_sel[s] | det.played[s]
        # SS-3.1: a seat known to be void in a suit holds none of it.
        for suit in range(7):
            if det.voids[s] >> suit & 1:
                assert not det.hands[s] & SUIT_MASK[suit], (s, suit)
    assert seen == (1 << 49) - 1
    if state.phase >= 2 and state.phase < 4:
        # The cards this seat passed and that are not played yet are in the receiver's hand.
        target = state.pass_target(seat)
        unplayed = state.passed[seat] & ~state.played[target]
        assert det.hands[target] & unplayed == unplayed
        for s in range(n):
            t = state.pass_target(s)
            assert det.passed[s] == det.received[t]
            assert det.passed[s] & ~(det.hands[t] | det.played[t]) == 0


def _random_positions(
    num_players: int, rng: random.Random, games: int, share: float
) -> Iterator[SevenShotState]:
    """Play ``games`` random games from ``rng`` and yield the state after about ``share`` of
    the steps (the caller may draw from ``rng`` before the game goes on)."""
    for _ in range(games):
        state = game().new_state(num_players)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            if rng.random() < share:
                yield state


@pytest.mark.parametrize("num_players", [3, 4])
def test_determinize_respects_voids_passes_and_the_view(num_players: int) -> None:
    rng = random.Random(f"det{num_players}")
    checked = 0
    for state in _random_positions(num_players, rng, games=12, share=0.08):
        for seat in range(num_players):
            det = state.determinize(seat, random.Random(rng.random()))
            _check(state, seat, det)
            checked += 1
    assert checked > 100


def test_determinize_never_gives_a_void_suit() -> None:
    # SS-3.1 voids: seat 1 and seat 2 showed they hold no Water; seat 3 followed with W7.
    fixed = [["W4", "W5", "W6", "W8", "W9", "W10"], ["E8"], ["S1"], ["W7"]]
    hands = fill_hands(4, fixed, "E13", voids={1: "W", 2: "W"})
    state = game(pass_cards=0).deal_state(hands, "E13")
    play(state, "W5 E8 S1 W7")  # seat 2 wins with the A and leads
    play(state, "T10")
    rng = random.Random(1)
    for _ in range(200):
        det = state.determinize(3, rng)
        _check(state, 3, det)
        assert det.hands[1] & SUIT_MASK[3] == 0
        assert det.hands[2] & SUIT_MASK[3] == 0
        # Seat 0 still has W4 W6 W8 W9 W10 (seat 3 saw none of them): they must all be with
        # seat 0, the only seat not void in Water... unless seat 3 held them: it does not.
        assert det.hands[0] & SUIT_MASK[3] == state.hands[0] & SUIT_MASK[3]


def test_determinized_history_replays_to_the_sample() -> None:
    g = game()
    rng = random.Random(5)
    state = g.new_state(4)
    for _ in range(49 + 12 + 1 + 9):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(state.legal_actions()[0])
    det = state.determinize(1, rng)
    assert len(det.history) == len(state.history)
    again = replay(GameRecord.of(det))
    assert json.dumps(again.to_json()) == json.dumps(det.to_json())


def test_constrained_deal_with_tight_voids_never_fails() -> None:
    # Three seats, each void in a different pair of suits; every card has exactly one or two
    # possible holders.
    rng = random.Random(0)
    pool = cards_of(SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2])  # 21 cards: suits S, M, F
    voids = [0b011, 0b110, 0b101]  # seat 0 may hold F only; seat 1 S only; seat 2 M only
    for _ in range(50):
        out = constrained_deal(pool, [7, 7, 7], voids, rng)
        assert out == [SUIT_MASK[2], SUIT_MASK[0], SUIT_MASK[1]]
    voids = [0b001, 0b010, 0b000]  # seat 0 no S, seat 1 no M
    for _ in range(200):
        out = constrained_deal(pool, [5, 9, 7], voids, rng)
        assert [m.bit_count() for m in out] == [5, 9, 7]
        assert out[0] & SUIT_MASK[0] == 0 and out[1] & SUIT_MASK[1] == 0
        assert out[0] | out[1] | out[2] == SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2]
    with pytest.raises(ValueError):
        constrained_deal(pool, [7, 7, 7], [0b111, 0, 0], rng)  # seat 0 can hold nothing here


@pytest.mark.parametrize("num_players", [3, 4])
def test_sample_state_from_a_plain_json_view(num_players: int) -> None:
    # A remote bot only has the JSON view: the engine rebuilds an information-set sample from it.
    rng = random.Random(f"view{num_players}")
    checked = 0
    for state in _random_positions(num_players, rng, games=6, share=0.1):
        seat = rng.randrange(num_players)
        view = json.loads(json.dumps(state.view(seat)))
        sample = game().sample_state(view, rng)
        assert isinstance(sample, SevenShotState)
        _check(state, seat, sample)
        assert sample.history == []
        assert sample.legal_actions() == state.legal_actions() or state.current_player != seat
        checked += 1
    assert checked > 20


def test_sample_state_rejects_a_spectator_view() -> None:
    from septet.core.errors import RecordError

    state = game().new_state(3)
    with pytest.raises(RecordError):
        game().sample_state(state.view(None), random.Random(0))


@given(st.randoms(use_true_random=False), st.integers(2, 3), st.integers(0, 14))
@settings(max_examples=150, deadline=None)
def test_constrained_deal_never_fails_when_a_deal_exists(
    rng: random.Random, seats: int, voids_wanted: int
) -> None:
    # Take a true deal, mark voids that it satisfies, and ask for another deal: one always comes,
    # and it keeps every void and every hand size.
    cards = list(range(49))
    rng.shuffle(cards)
    sizes = [rng.randint(0, 16) for _ in range(seats)]
    hands = []
    pos = 0
    for k in sizes:
        hands.append(sum(1 << c for c in cards[pos : pos + k]))
        pos += k
    voids = [0] * seats
    for _ in range(voids_wanted):
        s = rng.randrange(seats)
        suit = rng.randrange(7)
        if not hands[s] & SUIT_MASK[suit]:
            voids[s] |= 1 << suit
    pool = cards_of(sum(hands))
    out = constrained_deal(pool, sizes, voids, rng)
    assert [m.bit_count() for m in out] == sizes
    assert sum(out) == sum(hands)
    for s in range(seats):
        for suit in range(7):
            if voids[s] >> suit & 1:
                assert not out[s] & SUIT_MASK[suit]


def test_constrained_deal_is_uniform_over_consistent_deals() -> None:
    # 6 cards, 3 seats of 2; seat 0 is void in Sun, seat 1 in Moon. Every consistent deal must
    # come up equally often.
    import itertools

    pool = [parse_card(c) for c in ("S1", "S2", "M2", "M3", "F3", "F4")]
    voids = [0b001, 0b010, 0b000]
    valid = set()
    for perm in itertools.permutations(pool):
        hands = (frozenset(perm[0:2]), frozenset(perm[2:4]), frozenset(perm[4:6]))
        if not any(SUIT_OF[c] == 0 for c in hands[0]) and not any(
            SUIT_OF[c] == 1 for c in hands[1]
        ):
            valid.add(hands)
    # By hand: seat 0 takes 2 of M2 M3 F3 F4, seat 1 then 2 of what is left without Moon.
    # Seat 0 MM (1 way) x seat 1 any 2 of S1 S2 F3 F4 (6) = 6; seat 0 one M and one F (4) x
    # seat 1 2 of S1 S2 and the other F (3) = 12; seat 0 FF (1) x seat 1 S1 S2 (1) = 1.
    assert len(valid) == 6 + 12 + 1
    rng = random.Random(7)
    counts: dict[tuple[frozenset[int], ...], int] = {}
    n = 200 * len(valid)
    for _ in range(n):
        out = constrained_deal(pool, [2, 2, 2], voids, rng)
        key = tuple(frozenset(cards_of(m)) for m in out)
        assert key in valid
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == len(valid)
    assert all(140 <= v <= 260 for v in counts.values()), sorted(counts.values())


def test_constrained_deal_falls_back_when_counting_is_too_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from septet.games.seven_shot import determinize as det

    monkeypatch.setattr(det, "_EXACT_WORK_LIMIT", -1)
    pool = cards_of(SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2])
    rng = random.Random(3)
    for _ in range(50):
        out = constrained_deal(pool, [5, 9, 7], [0b001, 0b010, 0b000], rng)
        assert out[0] & SUIT_MASK[0] == 0 and out[1] & SUIT_MASK[1] == 0
        assert [m.bit_count() for m in out] == [5, 9, 7]
