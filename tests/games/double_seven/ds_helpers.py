"""Helpers shared by the Double Seven rule tests: apply by notation, list legal actions, read
families, and check that an illegal action names its rule and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from septet.core.errors import IllegalActionError
from septet.games.double_seven.tiles import family_str

CHANCE = -1


def step(st: Any, text: str) -> Any:
    """Apply the action (or chance outcome) written ``text``; returns its events."""
    return st.apply(st.game.parse_action(st, text))


def legal(st: Any) -> list[str]:
    """The legal actions' notations, sorted."""
    return sorted(str(a) for a in st.legal_actions())


def fams(st: Any, seat: int) -> list[str]:
    """The notations of ``seat``'s families, sorted."""
    return sorted(family_str(f) for f in st.families[seat])


def rejects(st: Any, text: str, rule: str) -> None:
    """``text`` is refused with ``rule`` and the state is unchanged."""
    before = st.to_json()
    with pytest.raises(IllegalActionError) as exc:
        st.apply(st.game.action_from_str(text))
    assert exc.value.rule == rule
    assert st.to_json() == before
