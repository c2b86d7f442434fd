"""Seven Shot determinization built through the engine's own moves (issue 17, item 5)."""

from __future__ import annotations

import json
import random

from ss_helpers import game

from septet.core.record import GameRecord, replay
from septet.core.types import CHANCE
from septet.games.seven_shot.actions import Deal, Pass, Play
from septet.games.seven_shot.state import SevenShotState


def _play_until(state: SevenShotState, rng: random.Random, deal: int, plays: int) -> None:
    """Random moves until deal ``deal`` has ``plays`` cards played."""
    while not (state.deal_number == deal and sum(p.bit_count() for p in state.played) >= plays):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_deal_start_state_is_the_position_before_the_deals_first_card() -> None:
    # SS-2.4: in a later deal the start keeps the points, summaries and first leader; it equals
    # the engine's own position after the earlier deals' moves.
    g = game()
    rng = random.Random(11)
    state = g.new_state(4)
    _play_until(state, rng, deal=2, plays=9)
    start = state.deal_start_state()
    earlier = g.new_state(4)
    for a in state.history[: state.deal_start]:
        earlier.apply(a)
    assert start.state_dict() == earlier.state_dict()
    assert start.history == earlier.history
    assert start.current_player == CHANCE and start.deal_pos == 0
    assert state.deal_pos == 49  # the state itself is unchanged


def test_a_later_deals_sample_keeps_earlier_history_and_replays() -> None:
    # The sample's history is the engine's: earlier deals as played, then this deal's 49 cards,
    # 4 x 3 passes and the same public plays; replaying it gives the sample.
    g = game()
    rng = random.Random(12)
    state = g.new_state(4)
    _play_until(state, rng, deal=2, plays=6)
    det = state.determinize(0, random.Random(3))
    start = state.deal_start
    assert det.history[:start] == state.history[:start]
    deal_part = det.history[start:]
    assert [type(a) for a in deal_part[:49]] == [Deal] * 49
    assert [type(a) for a in deal_part[49:61]] == [Pass] * 12
    assert deal_part[61:] == state.history[start + 61 :]
    assert all(type(a) is Play for a in deal_part[61:])
    again = replay(GameRecord.of(det))
    assert json.dumps(again.to_json()) == json.dumps(det.to_json())
    assert det.view(0) == state.view(0)
