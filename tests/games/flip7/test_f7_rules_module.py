"""The pure rule functions of ``septet.games.flip7.rules`` (issue 17: each rule once), on
hand-worked cases, and the frames and field declarations of the engine's new shape."""

from __future__ import annotations

import random

import pytest
from f7_helpers import game, play

from septet.core.fields import shared_mutables
from septet.core.testkit import check_fields
from septet.games.flip7 import cards as C
from septet.games.flip7.frames import (
    Deal,
    Flip,
    JustOneMore,
    Turn,
    frame_from_json,
    frame_to_json,
)
from septet.games.flip7.rules import (
    FLIP7_BONUS,
    FLIP7_CARDS,
    Arrival,
    busts,
    copies_allowed,
    is_flip7,
    may_stay,
    number_arrival,
    row_busts,
)
from septet.games.flip7.state import FIELDS, Flip7State

K = C.KIND_OF_TOKEN


def test_copies_allowed():  # F7V-2 F7V-6.3
    assert copies_allowed(5, vengeance=True, lucky=False) == 1
    assert copies_allowed(13, vengeance=True, lucky=False) == 1
    assert copies_allowed(13, vengeance=True, lucky=True) == 2  # a 13 beside the Lucky 13
    assert copies_allowed(5, vengeance=True, lucky=True) == 1  # only 13s
    assert copies_allowed(13, vengeance=False, lucky=True) == 1  # classic: no Lucky 13


def test_number_arrival_new_value_and_duplicate():  # F7V-2
    assert number_arrival(K["5"], 0, False, vengeance=True, second_chance=False) is Arrival.KEEP
    assert number_arrival(K["5"], 1, False, vengeance=True, second_chance=False) is Arrival.BUST
    # the Zero is value 0: a second Zero (two decks) busts
    assert number_arrival(K["zero"], 1, False, vengeance=True, second_chance=False) is (
        Arrival.BUST
    )


def test_number_arrival_lucky_13():  # F7V-6.3
    arrive = number_arrival
    # a 13 onto the Lucky 13, and the Lucky 13 onto a 13: both kept (in either order)
    assert arrive(K["13"], 1, True, vengeance=True, second_chance=False) is Arrival.KEEP
    assert arrive(K["l13"], 1, False, vengeance=True, second_chance=False) is Arrival.KEEP
    # two plain 13s bust; a third 13 busts even with the Lucky 13
    assert arrive(K["13"], 1, False, vengeance=True, second_chance=False) is Arrival.BUST
    assert arrive(K["13"], 2, True, vengeance=True, second_chance=False) is Arrival.BUST


def test_number_arrival_unlucky_7_never_busts():  # F7V-6.2
    for same in (0, 1):
        got = number_arrival(K["u7"], same, False, vengeance=True, second_chance=False)
        assert got is Arrival.UNLUCKY7
    # it is a 7: a later 7 busts the row it left
    assert number_arrival(K["7"], 1, False, vengeance=True, second_chance=False) is Arrival.BUST


def test_number_arrival_second_chance():  # F7V-9
    assert number_arrival(K["8"], 1, False, vengeance=False, second_chance=True) is Arrival.SAVED
    assert number_arrival(K["8"], 0, False, vengeance=False, second_chance=True) is Arrival.KEEP
    assert number_arrival(K["8"], 1, False, vengeance=False, second_chance=False) is Arrival.BUST


def test_number_arrival_rejects_other_cards():
    with pytest.raises(ValueError):
        number_arrival(K["jom"], 0, False, vengeance=True, second_chance=False)


def test_busts_and_row_busts():  # F7V-2 F7V-6.3 F7V-9
    assert not busts(K["x2"], 1, False, vengeance=False, second_chance=False)  # not a number
    assert busts(K["4"], 1, False, vengeance=True, second_chance=False)
    row = [K["3"], K["13"], K["l13"], K["-4"]]
    assert not row_busts(row, K["5"], vengeance=True)
    assert row_busts(row, K["3"], vengeance=True)
    assert row_busts(row, K["13"], vengeance=True)  # a third 13
    assert not row_busts([K["13"]], K["l13"], vengeance=True)
    assert not row_busts([K["2"], K["second"]], K["2"], vengeance=False)  # saved, not a bust
    assert row_busts([K["2"], K["x2"]], K["2"], vengeance=False)
    assert not row_busts([K["7"]], K["u7"], vengeance=True)


def test_flip7_and_stay():  # F7V-3.4 F7V-7.2 F7V-6.1
    assert (FLIP7_CARDS, FLIP7_BONUS) == (7, 15)
    assert is_flip7(7) and not is_flip7(6)
    assert not may_stay(True, True)  # the Vengeance Zero: hit only
    assert may_stay(False, True) and may_stay(True, False)


def test_engine_keeps_13_beside_lucky_13_and_busts_on_a_third():  # F7V-6.3 (engine uses rules)
    s = game().new_state(3)
    play(s, "dealer 0", "draw 13", "draw 2", "draw 3", "hit", "draw l13")
    assert s.view(None)["players"][1]["row"] == ["13", "l13"]
    assert s.view(None)["players"][1]["status"] == "active"


# ----- frames ------------------------------------------------------------------------------------
def test_frames_json_round_trip():
    frames = [Deal(2), Turn(1), JustOneMore(0, True), Flip(2, 3, (K["jom"], K["swap"]))]
    texts = [frame_to_json(f) for f in frames]
    assert texts[3] == {"kind": "flip", "player": 2, "left": 3, "set_aside": ["jom", "swap"]}
    assert texts[2] == {"kind": "just_one_more", "player": 0, "drawn": True}
    assert [frame_from_json(t) for t in texts] == frames


# ----- fields declared once ----------------------------------------------------------------------
def test_every_slot_is_declared_and_clone_shares_nothing():
    assert set(Flip7State.__slots__) == {f.name for f in FIELDS}
    rng = random.Random(4)
    s = game().new_state(4)
    rounds_seen = 0
    while s.current_player != -4 and rounds_seen < 3:
        if s.current_player == -1:
            events = s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            events = s.apply(legal[rng.randrange(len(legal))])
        if any(e.kind == "round_end" for e in events):
            rounds_seen += 1
            check_fields(s)
            twin = s.clone()
            assert twin.state_dict() == s.state_dict()
            for f in FIELDS:
                assert not shared_mutables(getattr(s, f.name), getattr(twin, f.name)), f.name
    assert rounds_seen == 3


def test_round_end_event_data_is_not_the_states():
    s = game().new_state(3)
    # seat 1 gets 5 then busts on a second 5 at once; everybody else stays: the round ends
    events = play(s, "dealer 0", "draw 5", "draw 2", "draw 3", "hit", "draw 5", "stay", "stay")
    end = next(e for e in events if e.kind == "round_end")
    assert end.data["status"] == ["stayed", "busted", "stayed"]
    twin = s.clone()  # freezes the state's copy
    end.data["rows"][0].append("13")
    assert s.view(0)["last_round_detail"]["rows"][0] == ["3"]
    assert twin.view(0)["last_round_detail"]["rows"][0] == ["3"]
