"""Command-line game options: strings converted to the option dataclass's field types."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from septet.arena.options import parse_options, split_specs
from septet.core.errors import OptionError
from septet.core.game import Game


class Edition(enum.Enum):
    VENGEANCE = "vengeance"
    CLASSIC = "classic"


@dataclass(frozen=True)
class _Opts:
    target: int = 200
    brutal: bool = False
    name: str = "x"
    rate: float = 0.5
    edition: Literal["vengeance", "classic"] = "vengeance"
    kind: Edition = Edition.VENGEANCE
    limit: int | None = None
    seats: tuple[int, ...] = ()


class _G(Game[_Opts]):
    name = "opts-test"
    titles = {"en": "t"}
    min_players = 2
    max_players = 2
    options_type = _Opts

    def new_state(self, num_players: int) -> Any:
        raise NotImplementedError

    def max_game_length(self, num_players: int) -> int:
        return 0

    def action_from_str(self, text: str) -> Any:
        return text

    def num_distinct_actions(self, num_players: int) -> int:
        return 0

    def action_to_id(self, action: Any, num_players: int) -> int:
        return 0

    def id_to_action(self, action_id: int, num_players: int) -> Any:
        return 0


def test_cli_options_typed() -> None:
    got = parse_options(
        _G,
        [
            "target=100",
            "brutal=yes",
            "name=abc",
            "rate=0.25",
            "edition=Classic",
            "kind=classic",
            "limit=none",
            "seats=1,2",
        ],
    )
    assert got == {
        "target": 100,
        "brutal": True,
        "name": "abc",
        "rate": 0.25,
        "edition": "classic",
        "kind": Edition.CLASSIC,
        "limit": None,
        "seats": (1, 2),
    }
    assert parse_options(_G, ["brutal=off", "limit=3"]) == {"brutal": False, "limit": 3}
    assert parse_options(_G, []) == {}


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("target=lots", "option target is a whole number, not 'lots'"),
        ("brutal=maybe", "option brutal is true or false, not 'maybe'"),
        ("rate=fast", "option rate is a number"),
        ("edition=deluxe", "option edition must be one of vengeance, classic"),
        ("kind=deluxe", "option kind must be one of vengeance, classic"),
        ("colour=red", "opts-test has no option 'colour'; options are: brutal, edition"),
        ("target", "not of the form name=value"),
        ("limit=x", "option limit is a whole number"),
    ],
)
def test_cli_options_errors(item: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        parse_options(_G, [item])


def test_cli_split_specs() -> None:
    assert split_specs("you,greedy,ismcts:time=1") == ["you", "greedy", "ismcts:time=1"]
    assert split_specs("ismcts:iterations=200,rollout=greedy, random") == [
        "ismcts:iterations=200,rollout=greedy",
        "random",
    ]
    assert split_specs(" , ") == []
