"""`septet play` in player words (issue 15, item 9): names instead of P0/P1, "you" for the person
at the terminal, the engines' sentences, and the opt-in auto-play of a public forced move."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from septet import games
from septet.cli import app
from septet.cli_play import PlaySession, name_text, roster, seat_names

runner = CliRunner()
SEAT_REF = re.compile(r"(?<![A-Za-z0-9])P\d")


def test_default_names_and_the_roster() -> None:
    g = games.get("flip7")
    labels = ["you", "greedy", "ismcts:time=1.0"]
    assert seat_names(g, labels, "en", you=0) == ["You", "Bot 1", "Bot 2"]
    assert seat_names(g, labels, "ja", you=0) == ["あなた", "ボット1", "ボット2"]
    assert seat_names(g, ["you", "you", "greedy"], "en") == ["Player 1", "Player 2", "Bot 1"]
    assert seat_names(g, labels, "en", you=0, custom=["Ken", "", "Robo"]) == [
        "Ken",
        "Bot 1",
        "Robo",
    ]
    names = seat_names(g, labels, "en", you=0)
    assert roster(g, labels, names, "en") == (
        "Players, in seat order: You · Bot 1 (Normal: greedy) · Bot 2 (Strong: ismcts:time=1.0)"
    )
    ja = seat_names(g, labels, "ja", you=0)
    assert roster(g, labels, ja, "ja") == (
        "席順：あなた・ボット1（普通：greedy）・ボット2（強い：ismcts:time=1.0）"
    )


def test_engine_texts_with_names_and_you() -> None:
    names = ["You", "Bot 1", "Bot 2"]
    assert name_text("P0 hits", names, "en", you=0) == "You hit"
    assert name_text("P1 steals P0's 5", names, "en", you=0) == "Bot 1 steals your 5"
    assert name_text("  P0 (you) [playing] 5", names, "en", you=0) == "  You [playing] 5"
    assert name_text("P0がヒットした", ["あなた", "ボット1"], "ja", you=0) == "あなたがヒットした"
    assert (
        name_text("  P0（あなた）【プレイ中】", ["あなた"], "ja", you=0) == "  あなた【プレイ中】"
    )
    # A chosen name stays a name: no "you" grammar.
    assert name_text("P0 hits", ["Ken", "Bot 1"], "en", you=0) == "Ken hits"


def _session(game: Any, state: Any, answers: list[str]) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()

    def read(prompt: str) -> str:
        if not answers:
            raise AssertionError(f"asked for input: {prompt}")
        return answers.pop(0)

    session = PlaySession(
        game=game,
        state=state,
        labels=["you", "greedy", "greedy"],
        humans=[0],
        lang="en",
        console=Console(file=out, width=100),
        read_line=read,
        auto_forced=True,
    )
    return session, out


def test_auto_play_takes_a_public_forced_move_only() -> None:
    # F7V-6.1: holding the Zero, Hit is the only move and everybody sees it: played at once.
    from tests.games.flip7.f7_helpers import position

    s = position(3, [["zero", "4"], ["5"], ["8"]], to_move=0)
    session, out = _session(s.game, s, [])
    view = s.view(0)
    assert view["forced_public"] is True
    assert str(session.ask(0, view, s.legal_actions())) == "hit"
    assert "(your only move, played for you: Hit)" in out.getvalue()
    # Hit or Stay: a choice, asked even with auto-play on.
    t = position(3, [["3", "4"], ["5"], ["8"]], to_move=0)
    session, out = _session(t.game, t, ["2"])
    assert str(session.ask(0, t.view(0), t.legal_actions())) == "stay"
    assert "Your moves" in out.getvalue()


def test_auto_play_never_takes_a_hidden_forced_move() -> None:
    # SS-3.1: following with the only card of the led suit is forced, but only its holder knows:
    # the person is asked, auto-play or not.
    from tests.games.seven_shot.ss_helpers import fill_hands, game

    hands = fill_hands(4, [["W4"], ["E8", "W5"], ["S1"], ["W7"]], "E13", voids={1: "W", 2: "W"})
    g = game(pass_cards=0)
    s = g.deal_state(hands, "E13")
    s.apply(g.parse_action(s, "W4"))
    legal = s.legal_actions()
    assert [str(a) for a in legal] == ["W5"] and s.view(1)["forced_public"] is False
    session, out = _session(g, s, ["1"])
    assert str(session.ask(1, s.view(1), legal)) == "W5"
    assert "played for you" not in out.getvalue()


@pytest.mark.parametrize("name", ["double-seven", "flip7", "seven-shot"])
def test_a_game_in_japanese_names_every_seat_and_speaks_japanese(name: str, tmp_path: Path) -> None:
    # Taking move 1 for a while against two bots: every event line is Japanese (the A of Seven
    # Shot aside) and no seat is ever called P0 or "seat 0".
    args = ["play", name, "--lang", "ja", "-p", "you,normal,easy", "--seed", "3", "--auto"]
    result = runner.invoke(app, [*args, "--record", str(tmp_path)], input="1\n" * 60 + "quit\n")
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert SEAT_REF.search(out) is None and "seat " not in out and "席0" not in out
    events = [line for line in out.splitlines() if line.startswith("  ") and "│" not in line]
    assert len(events) > 20
    for line in events:
        latin = set(re.findall(r"[A-Za-z]+", line)) - {"A", "log"}
        assert not latin, line
    assert "あなた" in out and "ボット1" in out


def _pass_phase(seed: int = 3) -> Any:
    """A 3-player Seven Shot game dealt from ``seed``, waiting for seat 0's pass (SS-5.2)."""
    import random as _random

    from septet.core import CHANCE

    g = games.get("seven-shot")
    st = g.new_state(3)
    rng = _random.Random(seed)
    while st.current_player == CHANCE:
        acts, ps = zip(*st.chance_outcomes(), strict=True)
        st.apply(rng.choices(acts, ps)[0])
    assert st.view(0)["phase"] == "pass" and st.current_player == 0
    return st


def _prompts(session: PlaySession, answers: list[str]) -> list[str]:
    """Answer the session's questions with ``answers``; returns the prompts it shows."""
    shown: list[str] = []

    def read(prompt: str) -> str:
        shown.append(prompt)
        if not answers:
            raise AssertionError(f"asked for input: {prompt}")
        return answers.pop(0)

    session.read_line = read
    return shown


def test_several_moves_chosen_together_are_confirmed_then_played() -> None:
    # SS-5.2: each player passes 3 cards, chosen one at a time by the engine. At the terminal
    # "1 4 8" chooses three at once; nothing is played before Enter confirms them.
    st = _pass_phase()
    legal = st.legal_actions()
    want = [legal[0], legal[3], legal[7]]
    session, out = _session(st.game, st, [])
    prompts = _prompts(session, ["1 4 8", ""])
    first = session.ask(0, st.view(0), legal)
    assert first == want[0]
    # the choice said in words before anything is played
    assert prompts[1].startswith("You chose: Pass the ") and prompts[1].count("Pass the ") == 3
    st.apply(first)
    session.on_event(st, first, [], 0)
    for expected in want[1:]:  # the others come without asking (no answers are left)
        move = session.ask(0, st.view(0), st.legal_actions())
        assert move == expected
        st.apply(move)
        session.on_event(st, move, [], 0)
    assert st.view(0)["passing"] == [str(a).split(" ")[1] for a in want]
    assert "(as you chose: " in out.getvalue()


def test_several_moves_can_be_taken_back_and_bad_numbers_are_said() -> None:
    st = _pass_phase()
    legal = st.legal_actions()
    # u takes the choice back (nothing played); a number twice or out of the list is refused
    session, out = _session(st.game, st, ["1 2", "u", "2 2 3", "1 99", "3"])
    assert session.ask(0, st.view(0), legal) == legal[2]
    text = out.getvalue()
    assert "Taken back; nothing was played." in text
    assert "2 is chosen twice" in text and "99" in text
    assert session.queued == []


def test_chosen_moves_are_dropped_when_someone_else_moves() -> None:
    st = _pass_phase()
    legal = st.legal_actions()
    session, out = _session(st.game, st, ["1 2", ""])
    first = session.ask(0, st.view(0), legal)
    assert first == legal[0] and session.queued == [legal[1]]
    session.on_event(st, first, [], 1)  # another seat moved in between
    assert session.queued == []
    assert "the rest of your chosen moves were not played" in out.getvalue()
