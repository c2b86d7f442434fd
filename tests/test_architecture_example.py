"""The examples of docs/architecture.md stay true: the toy game there is run from the doc itself.

The code blocks under "## Example: adding a game" are executed as written (the game block as a
module, then the kit block), and the house rule of "## Example: adding a rule" is checked on
hand-built positions.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from septet.core import registry
from septet.core.game import State
from septet.core.record import GameRecord, replay

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
MODULE = "septet_doc_example_race"


def _blocks(heading: str) -> list[str]:
    """The ```python blocks of the section that starts with ``heading``."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    section = text[start : end if end >= 0 else len(text)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


@pytest.fixture(scope="module")
def race() -> Iterator[types.ModuleType]:
    """The doc's game block as a module (registered as ``race-to-seven``, removed afterwards)."""
    code = _blocks("## Example: adding a game")[0]
    module = types.ModuleType(MODULE)
    sys.modules[MODULE] = module
    try:
        exec(compile(code, f"{DOC}:adding-a-game", "exec"), module.__dict__)
        yield module
    finally:
        registry._REGISTRY.pop("race-to-seven", None)
        sys.modules.pop(MODULE, None)


def test_the_doc_has_both_examples() -> None:
    assert len(_blocks("## Example: adding a game")) == 2
    assert "## Example: adding a rule" in DOC.read_text(encoding="utf-8")


def test_the_toy_game_registers_and_passes_the_kit(race: Any) -> None:
    from septet.games import get, names

    assert "race-to-seven" in names()
    assert type(get("race-to-seven")) is race.RaceToSeven
    # The doc's second block: the shared kit on 3 seats (it asserts its own game count).
    exec(compile(_blocks("## Example: adding a game")[1], f"{DOC}:kit", "exec"), {})


def test_the_kit_passes_with_the_house_rule_on(race: Any) -> None:
    from septet.core.testkit import check_game
    from septet.games import get

    report = check_game(get("race-to-seven", no_echo=True), 2, num_games=30, seed=4)
    assert report.games == 30
    assert report.max_length <= 7


def test_a_worked_game(race: Any) -> None:
    # RS-3: 2 seats adding 2, 2, 2, 1: seat 1 makes 7 and wins.
    from septet.games import get

    state = get("race-to-seven").new_state(2)
    for a in (2, 2, 2):
        state.apply(a)
    assert state.legal_actions() == [1]  # RS-2: 6 + 2 would pass 7
    events = state.apply(1)
    assert events[0].data == {"amount": 1, "count": 7}
    assert state.is_terminal and state.winners() == [1] and state.scores() == [0.0, 1.0]
    again = replay(GameRecord.of(state))
    assert again.state_dict() == state.state_dict() == {"count": 7, "last_add": 1, "turn": 0}
    assert State.from_json(state.to_json()).winners() == [1]


def test_the_house_rule_rs_h1(race: Any) -> None:
    # RS-H1: no echo of the previous add, unless nothing else is legal.
    assert race.allowed_adds(3, 1, no_echo=False) == [1, 2]
    assert race.allowed_adds(3, 1, no_echo=True) == [2]
    assert race.allowed_adds(3, 2, no_echo=True) == [1]
    assert race.allowed_adds(6, 1, no_echo=True) == [1]  # forced: 2 would pass 7 (RS-2)
    from septet.core import IllegalActionError
    from septet.games import get

    state = get("race-to-seven", no_echo=True).new_state(2)
    state.apply(1)
    with pytest.raises(IllegalActionError) as err:
        state.apply(1)
    assert err.value.rule == "RS-H1"
    assert state.state_dict() == {"count": 1, "last_add": 1, "turn": 1}
    for a in (2, 1, 2):
        state.apply(a)  # count 6, last add 2: the echo 1 is the only legal add
    assert state.legal_actions() == [1]
    with pytest.raises(IllegalActionError) as err:
        state.apply(2)
    assert err.value.rule == "RS-2"
