"""One source for Seven Shot's deal threshold (issue 25): the engine asks
``scoring.threshold`` (SS-4.1: 4 with two teams; SS-5.3: 3 with three players) and the text and
the bots read the engine's figure from the view."""

from __future__ import annotations

import random

import pytest

from septet.core import CHANCE
from septet.games import get
from septet.games.seven_shot import scoring
from septet.games.seven_shot import state as state_mod


def test_the_engine_threshold_is_scoring_threshold() -> None:
    # SS-4.1, SS-5.3
    assert get("seven-shot").new_state(4).view(None)["threshold"] == scoring.threshold(2) == 4
    assert get("seven-shot").new_state(3).view(None)["threshold"] == scoring.threshold(3) == 3


def test_a_changed_threshold_reaches_the_engine_and_its_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # SS-4.1: with the rule's figure changed in one place (the function the engine asks), the
    # engine ends a deal by sevens at the new figure, and the text counts towards it.
    monkeypatch.setattr(state_mod, "threshold", lambda num_sides: 2)
    st = get("seven-shot").new_state(4)
    assert st.view(None)["threshold"] == 2
    rng = random.Random(4)
    ends = []
    while not st.is_terminal and not ends:
        action = st.sample_chance(rng) if st.current_player == CHANCE else None
        if action is None:
            action = rng.choice(st.legal_actions())
        ends = [e for e in st.apply(action) if e.kind == "deal_end"]
    data = ends[0].data
    assert data["threshold"] == 2
    if data["condition"] == "sevens":
        assert max(len(c) for c in data["seven_cards"]) >= 2
