"""Bot levels per game (issue 19 item 6): the lobby's Strong is ISMCTS at the server's budget
with each game's best settings, on the compiled kernels when the ``fast`` extra is there and in
Python otherwise; a game without settings of its own keeps the generic one-second ISMCTS."""

from __future__ import annotations

import pytest

from septet import fast, games
from septet.bots import make_agent
from septet.cli_play import resolve_spec
from septet.server.levels import STRONG_DEFAULT, level_of, levels_for, spec_of_level
from tests.server import server_tiny  # noqa: F401  (registers "tiny-sevens")

FLIP7 = "ismcts:time=0.5,rollout=greedy,horizon=round,tree=1,bias=1"
SEVEN_SHOT = "ismcts:time=0.5,rollout=greedy,horizon=round"
DOUBLE_SEVEN = "ismcts:time=0.5,rollout=greedy,tree=1,bias=1,utility=score"


@pytest.mark.parametrize(
    ("name", "options", "spec"),
    [
        ("flip7", {}, FLIP7),
        ("flip7", {"edition": "classic"}, FLIP7),
        ("seven-shot", {}, SEVEN_SHOT),
        ("double-seven", {}, DOUBLE_SEVEN),
    ],
)
def test_strong_is_the_games_own_ismcts(name: str, options: dict[str, str], spec: str) -> None:
    game = games.get(name, **options)
    assert spec_of_level("strong", game) == spec
    assert levels_for(game) == [
        {"level": "easy", "spec": "epsilon-greedy:epsilon=0.3"},
        {"level": "normal", "spec": "greedy"},
        {"level": "strong", "spec": spec},
        {"level": "expert", "spec": "expert"},  # issue 30: above Strong
    ]
    assert level_of("expert", game) == "expert"
    assert resolve_spec("strong", game) == spec  # the CLI's level names resolve the same
    assert level_of(spec, game) == "strong"
    # the generic Strong of before still reads as Strong (tables made before keep their level)
    assert level_of("ismcts:time=1.0", game) == level_of("ismcts", game) == "strong"
    assert level_of("ismcts:time=2.0", game) is None


def test_strong_of_a_game_without_settings_is_the_generic_ismcts() -> None:
    game = games.get("tiny-sevens")
    assert spec_of_level("strong", game) == STRONG_DEFAULT == "ismcts:time=1.0"
    assert level_of("ismcts", game) == "strong"  # a bare ismcts runs at the server's budget
    assert spec_of_level("expert", game) is None  # no Expert for a plug-in game


@pytest.mark.skipif(not fast.AVAILABLE, reason="needs the fast extra (numba)")
@pytest.mark.parametrize("name", ["flip7", "seven-shot", "double-seven"])
def test_strong_searches_in_the_kernels(name: str) -> None:
    game = games.get(name)
    agent = make_agent(spec_of_level("strong", game) or "", game)
    assert agent.engine == "fast"  # type: ignore[attr-defined]
    assert agent.time_limit == 0.5  # type: ignore[attr-defined]


def test_strong_falls_back_to_python_without_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "AVAILABLE", False)
    game = games.get("double-seven")
    spec = spec_of_level("strong", game)
    assert spec == DOUBLE_SEVEN  # the same level, searched in Python
    agent = make_agent(spec, game)
    assert agent.engine == "python"  # type: ignore[attr-defined]
