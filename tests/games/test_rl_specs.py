"""The declared observation pieces and action encodings of the three engines: ids pinned (a
change must be deliberate: raise the encoding's version and update these), true bounds held
over random games, named views, and the information-state history."""

from __future__ import annotations

import random
from typing import Any

import pytest

from septet import games
from septet.core import CHANCE
from septet.core.infostate import InfostateEncoder, information_state_spec

# The ids of main before the declarations (OFF_* arithmetic and hand offsets), pinned.
PINNED: list[tuple[str, dict[str, Any], int, int, int, list[tuple[str, int]]]] = [
    (
        "double-seven",
        {},
        3,
        1,
        46915,
        [
            ("draw", 0),
            ("rainbow", 1),
            ("no-rainbow", 2),
            ("pass", 3),
            ("take fox", 6),
            ("take clover", 12),
            ("discard bird", 13),
            ("discard clover", 21),
            ("two-for-one bird bird", 22),
            ("two-for-one deer rabbit", 62),
            ("two-for-one clover clover", 66),
            ("start bird1", 67),
            ("start fox3+1", 164),
            ("start rabbit11+3", 418),
            ("expand bird1 with clover1", 420),
            ("expand fox2 with fox1+1", 4472),
            ("expand rabbit11+3 with rabbit10+3", 15906),
            ("exchange bird1 with 0:bird1", 15907),
            ("exchange fox4 with 2:frog3+1", 24375),
            ("exchange rabbit11+3 with 2:rabbit11+3", 45858),
            ("retrieve 0:bird1", 45859),
            ("retrieve 1:swan2+1", 46392),
            ("retrieve 2:rabbit11+3", 46914),
        ],
    ),
    (
        "double-seven",
        {},
        2,
        1,
        36579,
        [("exchange fox4 with 1:frog3+1", 21552), ("retrieve 1:rabbit11+3", 36578)],
    ),
    (
        "flip7",
        {},
        3,
        1,
        1593,
        [
            ("hit", 0),
            ("stay", 1),
            ("bonus", 2),
            ("target 0", 3),
            ("target 2", 5),
            ("penalty 1", 7),
            ("steal 0:1", 9),
            ("discard 1:-10", 118),
            ("swap 0:1 1:1", 141),
            ("swap 0:5 2:-4", 731),
            ("swap 1:-10 2:-10", 1592),
        ],
    ),
    ("flip7", {"edition": "classic"}, 3, 1, 9, [("target 2", 5), ("penalty 2", 8)]),
    ("seven-shot", {}, 4, 1, 98, [("F7", 18), ("pass F7", 67)]),
]


@pytest.mark.parametrize(("name", "options", "n", "version", "size", "ids"), PINNED)
def test_action_ids_are_pinned(
    name: str, options: dict[str, Any], n: int, version: int, size: int, ids: list[Any]
) -> None:
    game = games.get(name, **options)
    enc = game.action_encoding(n)
    assert enc.version == version and enc.size == size == game.num_distinct_actions(n)
    for text, i in ids:
        action = game.action_from_str(text)
        assert game.action_to_id(action, n) == i
        assert game.id_to_action(i, n) == action


def test_flip7_refuses_what_its_encoding_does_not_hold() -> None:
    game = games.get("flip7")
    with pytest.raises(ValueError):  # ×2 is a classic card: no Vengeance row holds it
        game.action_to_id(game.action_from_str("steal 2:x2"), 3)
    with pytest.raises(ValueError):  # a chance outcome has no id
        game.action_to_id(game.action_from_str("draw 7"), 3)


CONFIGS = [
    ("double-seven", {}, 2),
    ("double-seven", {}, 4),
    ("flip7", {}, 3),
    ("flip7", {"brutal": True}, 4),
    ("flip7", {"edition": "classic"}, 3),
    ("seven-shot", {}, 3),
    ("seven-shot", {}, 4),
]


def _random_game(game: Any, n: int, seed: int, every: int) -> Any:
    """Yield ``(state, seat)`` at every ``every``-th decision of a seeded random game."""
    rng = random.Random(seed)
    state = game.new_state(n)
    k = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if k % every == 0:
            yield state, state.current_player
        k += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    yield state, 0


@pytest.mark.parametrize(("name", "options", "n"), CONFIGS)
def test_observations_stay_within_their_declared_bounds(
    name: str, options: dict[str, Any], n: int
) -> None:
    game = games.get(name, **options)
    spec = game.observation_spec(n)
    assert spec.size == game.observation_size(n)
    checked = 0
    for seed in range(2):
        for state, seat in _random_game(game, n, seed, every=3):
            for s in {seat, (seat + 1) % n}:
                obs = state.observation_tensor(s)
                assert spec.out_of_bounds(obs) == [], (seed, len(state.history))
                checked += 1
    assert checked > 20


def test_named_views_of_hand_built_positions() -> None:
    # The values of test_ds_rules.test_observation_tensor, read by piece name.
    from septet.games.double_seven.builder import build_state

    st = build_state(2, racks=["fox*2 clover", "bird"], families=[["swan3+1"], []])
    d = st.game.observation_spec(2).as_dict(st.observation_tensor(0))
    assert d["rack"][2] == 2.0 and d["rack"][8] == 1.0  # my foxes and the clover
    assert d["seat0_families"][4][2] == 1.0  # a swan family of 4 tiles (size 4 -> slot 2)
    assert d["seat0_clovers"][4] == 1.0 and d["seat1_rack_size"] == 1.0
    # Seven Shot: the offsets of the old hand-written table (196, 203 + ...) are the pieces'.
    sp = games.get("seven-shot").observation_spec(4)
    assert sp.offsets["taken"] == 196 and sp.offsets["led_suit"] == 196 + 98 * 4
    assert sp.offsets["tricks_won"] == 203 + 105 * 4 and sp.offsets["to_move"] == 208 + 110 * 4
    assert sp.size == 208 + 113 * 4


@pytest.mark.parametrize(("name", "options", "n"), CONFIGS[::2])
def test_information_state_is_perfect_recall_of_what_the_seat_saw(
    name: str, options: dict[str, Any], n: int
) -> None:
    game = games.get(name, **options)
    spec = information_state_spec(game, n)
    states = [s.clone() for s, _ in _random_game(game, n, 7, every=5)][:12]
    for state in states:
        enc = InfostateEncoder.from_state(state)
        for seat in range(n):
            t = enc.tensor(state, seat)
            assert len(t) == spec.size and spec.out_of_bounds(t) == []
            hist = spec.as_dict(t)["history"]
            rows = [r for r in hist if r[0] == 1.0]
            scope = [a for a in enc.tokens if enc.scope == "game" or a[0] == state.round_index()]
            assert len(rows) == len(scope)
            for row, (_, actor, kind, args, visible) in zip(rows, scope, strict=True):
                assert row[1] == (n if actor == CHANCE else (actor - seat) % n)
                assert row[2] == kind
                seen = visible is None or seat in visible
                assert row[3 : 3 + len(args)] == (
                    [float(a) for a in args] if seen else [-1.0] * len(args)
                )
    # the state method replays the same thing
    last = states[-1]
    assert last.information_state_tensor(1) == InfostateEncoder.from_state(last).tensor(last, 1)


def test_hidden_draws_are_hidden_in_the_history() -> None:
    # DS-2.2: each seat sees only its own setup tiles; DS-4.1 a face-down draw only by the drawer.
    game = games.get("double-seven")
    state = game.new_state(2)
    rng = random.Random(3)
    while len(state.history) < 6:  # the six setup tiles, three per seat
        state.apply(state.sample_chance(rng))
    enc = InfostateEncoder.from_state(state)
    spec = information_state_spec(game, 2)
    mine = spec.as_dict(enc.tensor(state, 0))["history"][:6]
    deal = game.action_encoding(2).kind_index["deal"]
    assert [r[2] for r in mine] == [deal] * 6
    assert [r[3] >= 0 for r in mine] == [True] * 3 + [False] * 3
    theirs = spec.as_dict(enc.tensor(state, 1))["history"][:6]
    assert [r[3] >= 0 for r in theirs] == [False] * 3 + [True] * 3


def test_records_carry_the_encoding_version() -> None:
    from septet.bots import make_agent
    from septet.core import GameRecord, play_game

    game = games.get("flip7", edition="classic")
    record = play_game(game, [make_agent("random", game)] * 2, seed=4).record
    data = record.to_json()
    assert data["action_encoding"] == game.action_encoding(2).version == 1
    assert GameRecord.from_json(data).action_encoding == 1
    del data["action_encoding"]  # a record written before the field existed
    assert GameRecord.from_json(data).action_encoding is None
