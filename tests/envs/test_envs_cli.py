"""``septet rl-check``: PettingZoo's and OpenSpiel's tests from the command line."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pyspiel", reason="needs the rl extra: pip install 'septet[rl]'")
pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install 'septet[rl]'")

from typer.testing import CliRunner

from septet import games
from septet.cli import app

from .envs_support import TINY
from .envs_tiny_game import TinySevens, TinyState


class _SkewedState(TinyState):
    """Chance probabilities that sum to 0.9: OpenSpiel's random_sim_test must refuse them."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(o, 0.9 * p) for o, p in super().chance_outcomes()]

    def clone(self) -> _SkewedState:
        c = _SkewedState(self.game, self.num_players)
        c.load_state_dict(self.state_dict())
        c.history = list(self.history)
        return c


class _SkewedGame(TinySevens):
    name = "envs-tiny-skewed"

    def new_state(self, num_players: int) -> _SkewedState:
        return _SkewedState(self, num_players)


def test_envs_cli_rl_check_passes_on_a_good_game() -> None:
    result = CliRunner().invoke(app, ["rl-check", TINY, "-p", "2", "-p", "4", "-g", "2"])
    assert result.exit_code == 0, result.output
    assert result.output.count(" ok ") == 10  # 5 checks x 2 player counts


def test_envs_cli_rl_check_reports_a_broken_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # Registered for this test only, so no other test meets the broken game.
    monkeypatch.setitem(games._REGISTRY, _SkewedGame.name, _SkewedGame)
    result = CliRunner().invoke(app, ["rl-check", "envs-tiny-skewed", "-g", "2"])
    assert result.exit_code == 1, result.output
    assert "openspiel random_sim_test" in result.output
    assert "failed" in result.output
    # PettingZoo and Gymnasium sample chance themselves: their four checks pass
    assert result.output.count(" ok ") == 4


def test_envs_cli_rl_check_bad_input_is_a_sentence() -> None:
    result = CliRunner().invoke(app, ["rl-check", TINY, "-p", "7"])
    assert result.exit_code == 2
    assert "played by 2 to 4 players, not 7" in result.output
    assert "Traceback" not in result.output
