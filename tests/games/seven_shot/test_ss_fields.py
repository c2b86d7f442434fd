"""Seven Shot's fields declared once (issue 17): a clone shares no deal summary."""

from __future__ import annotations

import json
import random

from ss_helpers import game

from septet.core.testkit import check_fields
from septet.core.types import CHANCE


def test_every_field_is_declared_and_a_clone_shares_no_summary() -> None:
    rng = random.Random(4)
    st = game().new_state(4)
    while st.deal_number < 3:
        if st.current_player == CHANCE:
            st.apply(st.sample_chance(rng))
        else:
            st.apply(rng.choice(st.legal_actions()))
    assert len(st.deal_log) == 2
    check_fields(st, "seven-shot deal 3")
    before = json.dumps(st.deal_log)
    twin = st.clone()
    twin.deal_log[0]["sevens"].append(9)
    twin.deal_log[0]["seven_cards"][0].append("S7")
    twin.deal_log[-1]["terms"] = None
    assert json.dumps(st.deal_log) == before
    keys = list(st.state_dict())
    assert keys[:5] == ["phase", "current", "deal_number", "deal_pos", "deal_start"]
    assert keys[-3:] == ["deal_log", "last_tricks", "winners"]
    again = game().new_state(4)
    again.load_state_dict(json.loads(json.dumps(st.state_dict())))
    assert again.state_dict() == st.state_dict()
