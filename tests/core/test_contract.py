"""Core contract pieces: registry, options, records, replay, the play loop, seeded streams."""

from __future__ import annotations

import json

import pytest

from septet import games
from septet.bots import AgentSpecError, RandomAgent, make_agent, parse_spec
from septet.core import (
    GameRecord,
    IllegalActionError,
    OptionError,
    RecordError,
    State,
    UnknownGameError,
    derive_rng,
    play_game,
    replay,
)
from tests.core.toy_game import ToyHiLo


def test_registry_lists_builtin_games_and_rejects_unknown():
    assert {"double-seven", "flip7", "seven-shot", "toy-hilo"} <= set(games.names())
    with pytest.raises(UnknownGameError, match="unknown game 'chess'; known games: "):
        games.get("chess")


def test_options_are_validated_at_construction():
    with pytest.raises(OptionError, match="unknown option"):
        ToyHiLo(colour="red")
    with pytest.raises(OptionError, match="unknown bugs"):
        ToyHiLo(bugs=("nope",))
    with pytest.raises(OptionError, match="2 to 4 players, not 5"):
        ToyHiLo().new_state(5)


def test_game_is_immutable_and_hashable():
    g = ToyHiLo()
    with pytest.raises(AttributeError):
        g.options = None  # type: ignore[misc]
    assert g == ToyHiLo() and hash(g) == hash(ToyHiLo())
    assert g != ToyHiLo(bugs=("leak_view",))


def test_illegal_action_error_carries_rule_and_reason():
    state = ToyHiLo().new_state(2)
    state.apply("card 1")
    state.apply("card 2")
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError) as info:
        state.apply("double")  # seat 0 holds the 1
    assert info.value.rule == "TOY-2"
    assert info.value.reason == "double needs a card of 4 or more"
    assert str(info.value) == "double needs a card of 4 or more [TOY-2]"
    assert json.dumps(state.to_json()) == before


def test_play_game_is_deterministic_and_records_replay():
    game = ToyHiLo()
    agents = [RandomAgent(), RandomAgent(), RandomAgent()]
    a = play_game(game, agents, seed=42)
    b = play_game(game, agents, seed=42)
    assert a.record.actions == b.record.actions
    assert a.record.result == {"scores": a.state.scores(), "winners": a.state.winners()}
    again = replay(GameRecord.from_json(json.dumps(a.record.to_json())))
    assert again.to_json() == a.state.to_json()
    # A different seed gives a different deal somewhere in 20 tries.
    assert any(
        play_game(game, agents, seed=s).record.actions != a.record.actions for s in range(20)
    )


def test_record_file_round_trip_and_errors(tmp_path):
    result = play_game(ToyHiLo(), [RandomAgent(), RandomAgent()], seed=3)
    path = result.record.save(tmp_path / "g.json")
    assert GameRecord.load(path) == result.record
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        GameRecord.load(tmp_path / "bad.json")
    (tmp_path / "foreign.json").write_text('{"moves": []}')
    with pytest.raises(RecordError, match="not a Septet game record"):
        GameRecord.load(tmp_path / "foreign.json")
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")
    broken = result.record.to_json()
    broken["actions"] = [*broken["actions"][:2], "double", *broken["actions"][2:]]
    rec = GameRecord.from_json(broken)
    if rec.actions[0] in ("card 1", "card 2", "card 3"):
        with pytest.raises(RecordError, match="action 2"):
            replay(rec)
    broken["actions"] = ["card 9"]
    with pytest.raises(RecordError, match=r"action 0 \('card 9'\)"):
        replay(GameRecord.from_json(broken))


def test_state_from_json_rejects_malformed_data():
    with pytest.raises(RecordError):
        State.from_json('{"game": "toy-hilo"}')
    with pytest.raises(RecordError):
        State.from_json("[1, 2]")


def test_derived_streams_are_independent_and_repeatable():
    assert derive_rng(7, "chance").random() == derive_rng(7, "chance").random()
    assert derive_rng(7, "chance").random() != derive_rng(7, "seat", 0).random()
    assert derive_rng(7, "seat", 1).random() != derive_rng(8, "seat", 1).random()


def test_agent_specs():
    assert parse_spec("ismcts:iterations=2000,rollout=greedy") == (
        "ismcts",
        {"iterations": "2000", "rollout": "greedy"},
    )
    assert make_agent("random", ToyHiLo()).name == "random"
    with pytest.raises(AgentSpecError, match="unknown agent 'wizard'"):
        make_agent("wizard", ToyHiLo())
    with pytest.raises(AgentSpecError, match="want key=value"):
        parse_spec("ismcts:iterations")
    with pytest.raises(AgentSpecError, match="no greedy bot for toy-hilo"):
        make_agent("greedy", ToyHiLo())


def test_seat_view_samples_the_information_set_only():
    from septet.core import seat_view

    state = ToyHiLo().new_state(3)
    for card in ("card 5", "card 2", "card 6"):
        state.apply(card)
    view = seat_view(state, 0)
    assert view == state.view(0) and json.loads(json.dumps(view)) == state.view(0)
    hands = set()
    for i in range(30):
        sample = ToyHiLo().sample_state(view, derive_rng(1, i))
        assert sample.view(0) == state.view(0)  # own card kept, the rest resampled
        hands.add(tuple(sample.hands))
    assert len(hands) > 3 and all(h[0] == 5 for h in hands)
    state.apply("keep")
    with pytest.raises(RuntimeError, match="stale"):
        ToyHiLo().sample_state(view, derive_rng(1))
    with pytest.raises(NotImplementedError, match="no information-set sampler"):
        ToyHiLo().sample_state(state.view(0), derive_rng(1))
