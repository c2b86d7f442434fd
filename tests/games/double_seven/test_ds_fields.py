"""Double Seven's fields declared once (issue 17): copies share no log entry with the original."""

from __future__ import annotations

import json
import random

from septet.core.fields import shared_mutables
from septet.core.testkit import check_fields
from septet.core.types import CHANCE
from septet.games import get
from septet.games.double_seven.state import DoubleSevenState


def _late_state() -> DoubleSevenState:
    rng = random.Random(21)
    st = get("double-seven").new_state(3)
    assert isinstance(st, DoubleSevenState)
    while len(st.log) < 120 and not st.is_terminal:
        if st.current_player == CHANCE:
            st.apply(st.sample_chance(rng))
        else:
            st.apply(rng.choice(st.legal_actions()))
    return st


def test_every_field_is_declared_and_a_clone_shares_nothing() -> None:
    st = _late_state()
    assert any(isinstance(v, (list, dict)) for e in st.log for v in e["data"].values())
    check_fields(st, "double-seven late state")
    twin = st.clone()
    twin.log[-1]["data"]["changed"] = True
    assert "changed" not in st.log[-1]["data"]


def test_state_dict_keys_keep_their_order() -> None:
    # Saved games and server records: the keys, in this order (DoubleSevenState.FIELDS).
    st = _late_state()
    assert list(st.state_dict()) == [
        "phase", "turn", "dealt", "draws_left", "await_pile", "rainbow_used", "t41_used",
        "blocked", "given", "pile", "display", "removed", "racks", "known", "families",
        "sevens", "sevens_left", "holder77", "trigger", "log",
    ]  # fmt: skip
    again = get("double-seven").new_state(3)
    again.load_state_dict(json.loads(json.dumps(st.state_dict())))
    assert again.state_dict() == st.state_dict()


def test_a_determinization_shares_no_log_entry_with_the_state() -> None:
    st = _late_state()
    det = st.determinize(1, random.Random(3))
    assert det.log == st.log
    assert shared_mutables(st.log, det.log, "log") == []
