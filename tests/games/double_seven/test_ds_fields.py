"""Double Seven's fields declared once (issue 17): copies share no mutable field; the log is
append-only, so copies share its entries and the engine never changes one once appended."""

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
    assert twin.log is not st.log
    twin.log.append({"kind": "x", "seat": None, "data": {}})
    assert st.log[-1]["kind"] != "x"


def test_the_log_is_append_only_so_a_clone_may_share_its_entries() -> None:
    # FIELDS declares the log with shared_entries: playing on a clone to the end must leave
    # every entry of the original's log as it was (no entry changed after being appended).
    st = _late_state()
    before = json.dumps(st.log, sort_keys=True)
    twin = st.clone()
    rng = random.Random(5)
    while not twin.is_terminal:
        if twin.current_player == CHANCE:
            twin.apply(twin.sample_chance(rng))
        else:
            twin.apply(rng.choice(twin.legal_actions()))
    assert len(twin.log) > len(st.log)
    assert json.dumps(st.log, sort_keys=True) == before


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


def test_a_determinization_has_its_own_log_list() -> None:
    st = _late_state()
    det = st.determinize(1, random.Random(3))
    assert det.log == st.log
    assert det.log is not st.log
    assert shared_mutables(st.racks, det.racks, "racks") == []
