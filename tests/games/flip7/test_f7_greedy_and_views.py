"""The Flip 7 greedy bot, views, sample_state, the observation tensor and the action encoding."""

from __future__ import annotations

import json
import random

import pytest
from f7_helpers import game, play, position

from septet.bots import make_agent
from septet.bots.greedy.flip7 import GreedyAgent
from septet.core.errors import RecordError
from septet.core.play import play_game
from septet.core.testkit import check_game


def choose(state, agent=None):
    agent = agent or GreedyAgent(state.game)
    seat = state.current_player
    return str(agent.act(state.view(seat), state.legal_actions(), random.Random(0)))


def test_greedy_stays_on_a_high_risky_row_and_hits_a_safe_one():
    # 12+11+10+9 = 42 with many 9..12 left: too risky (F7V-2 bust), stay.
    s = position(2, [["12", "11", "10", "9"], ["3"]], to_move=0)
    assert choose(s) == "stay"
    s = position(2, [["1"], ["3"]], to_move=0)
    assert choose(s) == "hit"


def test_greedy_stays_when_staying_wins_and_hits_to_catch_up():
    s = position(2, [["3"], ["5"]], to_move=0, totals=[198, 150])
    assert choose(s) == "stay"  # 201 and alone at the top
    s = position(2, [["3"], ["9"]], to_move=0, status=["active", "stayed"], totals=[150, 195])
    assert choose(s) == "hit"  # P1 will end on 204: hit whatever the risk


def test_greedy_threshold_and_aggression_parameters():
    s = position(2, [["1", "2"], ["3"]], to_move=0)
    agent = make_agent("greedy:threshold=3", s.game)
    assert choose(s, agent) == "stay"
    s = position(2, [["12", "11", "10", "9"], ["3"]], to_move=0)
    assert choose(s, make_agent("greedy:aggression=50", s.game)) == "hit"


def test_greedy_aims_negative_modifiers_and_halving_at_opponents():  # F7V-5.1
    s = position(3, [["3"], ["12", "11"], ["5", "4"]], to_move=0, totals=[0, 100, 10])
    play(s, "hit", "draw -10")
    assert choose(s) == "target 1"
    s = position(3, [["12", "11"], ["3"], ["5", "4"]], to_move=0)
    play(s, "hit", "draw /2")
    assert choose(s) != "target 0"


def test_greedy_steals_the_most_valuable_safe_card():  # F7V-4.6
    s = position(3, [["3"], ["12", "2"], ["5", "3"]], to_move=0)
    play(s, "hit", "draw steal")
    assert choose(s) == "steal 1:12"


def test_greedy_beats_random():
    g = game(edition="classic")
    wins = 0
    for i in range(30):
        agents = [make_agent("greedy", g), make_agent("random", g)]
        if i % 2:
            agents.reverse()
        result = play_game(g, agents, seed=i)
        greedy_seat = 1 if i % 2 else 0
        wins += greedy_seat in result.winners
    assert wins >= 24


def test_view_is_public_and_rebuilds_the_state():
    g = game()
    s = g.new_state(4)
    rng = random.Random(5)
    for _ in range(40):
        if s.current_player == -1:
            s.apply(s.sample_chance(rng))
        elif s.current_player >= 0:
            s.apply(rng.choice(s.legal_actions()))
    view = json.loads(json.dumps(s.view(2)))
    assert view["seat"] == 2
    assert sum(view["deck"].values()) == view["deck_size"]
    cards_out = (
        view["deck_size"]
        + view["discard_size"]
        + sum(len(p["row"]) + len(p["after_bust"]) for p in view["players"])
    )
    set_aside = sum(len(f.get("set_aside", [])) for f in view["stack"])
    assert cards_out + set_aside <= 108
    rebuilt = g.sample_state(view, rng)
    assert rebuilt.state_dict() == s.state_dict()
    assert rebuilt.legal_actions() == s.legal_actions()
    assert rebuilt.current_player == s.current_player


def test_observation_tensor_shape_and_content():
    g = game()
    s = position(3, [["12", "u7"], ["5"], []], to_move=1, totals=[100, 0, 0])
    obs = s.observation_tensor(1)
    assert len(obs) == g.observation_size(3) == 3 * (22 + 9) + 4 * 27 + 10
    # Block 0 is the observer (P1): one 5 in the row, active, to move.
    row_kinds = 22
    assert obs[4] == 1.0  # the 5 (kinds 1..13 first)
    assert obs[row_kinds : row_kinds + 3] == [1.0, 0.0, 0.0]
    assert obs[row_kinds + 4] == 1.0  # to move
    # Block 2 is P0 with 100 of 200 points.
    assert obs[2 * (row_kinds + 9) + row_kinds + 5] == 0.5
    assert len(game(edition="classic").new_state(5).observation_tensor(0)) == game(
        edition="classic"
    ).observation_size(5)


def test_observation_tensor_shows_the_cards_set_aside_by_a_flip4():  # F7V-4.8
    from septet.games.flip7 import cards as C

    g = game()
    s = position(3, [["3"], ["1", "2"], ["6"]], to_move=0)
    play(s, "hit", "draw flip4", "target 1", "draw jom", "draw -10")
    assert s.view(None)["stack"][-1]["set_aside"] == ["jom", "-10"]
    obs = s.observation_tensor(2)
    kinds = C.VENGEANCE_KINDS
    start = 3 * (22 + 9) + 2 * len(kinds)  # after the rows, the deck and the discard blocks
    block = obs[start : start + len(kinds)]
    full = C.vengeance_deck()
    expected = [(1 / full[k] if C.TOKENS[k] in ("jom", "-10") else 0.0) for k in kinds]
    assert block == expected and sum(x > 0 for x in block) == 2
    # nothing set aside at the start of a round
    fresh = position(3, [["3"], ["1", "2"], ["6"]], to_move=0).observation_tensor(2)
    assert not any(fresh[start : start + len(kinds)])
    assert len(obs) == g.observation_size(3)


def test_action_encoding_round_trip_for_every_id():
    for edition in ("vengeance", "classic"):
        g = game(edition=edition)
        n = 3
        size = g.num_distinct_actions(n)
        ids = [g.action_to_id(g.id_to_action(i, n), n) for i in range(size)]
        assert ids == list(range(size))
    assert game().num_distinct_actions(2) == 3 + 4 + 2 * 44 + 22 * 22
    assert game(edition="classic").num_distinct_actions(4) == 11


def test_event_log_lines_in_both_languages():
    s = position(3, [["3"], ["5"], ["-4"]], to_move=0)
    ev = play(s, "hit", "draw swap", "swap 1:5 2:-4")
    g = s.game
    assert [g.describe_event(e, "en") for e in ev] == [
        "P0 hits",
        "P0 gets Swap",
        "P0 swaps P1's 5 with P2's −4",
    ]
    assert [g.describe_event(e, "ja") for e in ev] == [
        "P0がヒットした",
        "P0がスワップをめくった",
        "P0がP1の5とP2の−4を交換した",
    ]


def test_round_and_game_end_lines_name_players_not_lists():
    from septet.core.types import Event

    g = game()
    end = Event("round_end", None, {"round": 1, "scores": [0, 33, -4], "totals": [0, 33, 0]})
    assert g.describe_event(end, "en") == (
        "Round 1 is over: P1 +33, P2 −4; totals: P0 0, P1 33, P2 0"
    )
    assert g.describe_event(end, "ja") == (
        "ラウンド1終了：P1 +33点、P2 −4点。合計：P0 0点、P1 33点、P2 0点"
    )
    over = Event("game_end", None, {"winners": [0]})
    assert g.describe_event(over, "en") == "Game over: P0 wins"
    assert g.describe_event(over, "ja") == "ゲーム終了：P0の勝ち"
    tie = Event("game_end", None, {"winners": [0, 2]})
    assert g.describe_event(tie, "en") == "Game over: P0 and P2 win"


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({}, 4),
        ({"edition": "classic"}, 3),
        ({"brutal": True}, 5),
        pytest.param({}, 19, marks=pytest.mark.slow),
    ],  # 19 seats: the long runs
)
def test_greedy_plays_legal_moves_under_the_kit(options, players):
    g = game(**options)
    agent = GreedyAgent(g)

    def policy(state, rng):
        return agent.act(state.view(state.current_player), state.legal_actions(), rng)

    report = check_game(g, players, num_games=3 if players < 10 else 1, seed=2, policy=policy)
    assert report.games >= 1


@pytest.mark.parametrize("options", [{}, {"edition": "classic"}, {"brutal": True}])
def test_every_event_and_view_renders_in_both_languages(options):
    g = game(**options)
    seen = set()
    for seed in range(6):
        s = g.new_state(5)
        rng = random.Random(seed)
        while not s.is_terminal:
            if s.current_player == -1:
                action = s.sample_chance(rng)
            else:
                action = rng.choice(s.legal_actions())
                for lang in ("en", "ja"):
                    assert g.describe_action(action, lang)
                    assert g.render(s.view(s.current_player), lang)
            for event in s.apply(action):
                seen.add(event.kind)
                for lang in ("en", "ja"):
                    line = g.describe_event(event, lang)
                    assert line and not line.startswith(event.kind + " {")
    assert {"draw", "bust", "round_end", "game_end", "give", "reshuffle", "forced"} <= seen


def test_sample_state_rejects_malformed_views():
    g = game()
    with pytest.raises(RecordError):
        g.sample_state({"num_players": 3}, random.Random(0))
    with pytest.raises(RecordError):
        g.sample_state({}, random.Random(0))
    view = game(edition="classic").new_state(3).view(0)
    with pytest.raises(RecordError):
        g.sample_state(view, random.Random(0))  # another edition


@pytest.mark.parametrize(
    ("options", "players", "total"),
    [({}, 4, 108), ({"edition": "classic"}, 4, 94), ({"brutal": True}, 6, 108), ({}, 20, 216)],
)
def test_every_card_is_somewhere_at_every_step(options, players, total):
    # F7V-1, F7V-3.5, F7V-3.6: cards move between the deck, rows, set-aside piles and the discard
    # pile; none is lost or copied (the card being resolved at a decision is in the player's hand).
    g = game(**options)
    for seed in range(4):
        s = g.new_state(players)
        rng = random.Random(seed)
        while not s.is_terminal:
            v = s.view(None)
            count = v["deck_size"] + v["discard_size"]
            count += sum(len(p["row"]) + len(p["after_bust"]) for p in v["players"])
            count += sum(len(f.get("set_aside", [])) for f in v["stack"])
            # the Just One More / Flip 4 / Flip Three being resolved is in play (F7V-3.6)
            count += sum(f["kind"] in ("flip", "just_one_more") for f in v["stack"])
            dec = v["decision"]
            count += 1 if dec and dec["card"] is not None else 0
            assert count == total, (seed, len(s.history))
            assert sum(v["deck"].values()) == v["deck_size"]
            assert sum(v["discard"].values()) == v["discard_size"]
            if s.current_player == -1:
                s.apply(s.sample_chance(rng))
            else:
                s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("options", [{}, {"edition": "classic"}, {"brutal": True}])
def test_japanese_rules_text_has_no_breaks_inside_sentences(options):
    text = game(**options).rules_text("ja")
    for line in text.splitlines():
        assert not line.strip() or line.startswith("#") or line.endswith(("。", "：")), line
    assert "、 " not in text and "penalty" not in text and "F7V" not in text
