"""`septet play`, `septet replay` and `septet rules` through Typer's runner, on the test game and
on every real engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tests.arena.tiny_game  # noqa: F401  (registers test-tiny-sevens)
from septet import games
from septet.cli import app
from septet.cli_play import TEXT_FAILED
from septet.core.record import GameRecord, replay
from tests.arena.tiny_game import NAME

runner = CliRunner()


def _play(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *args], input="".join(f"{x}\n" for x in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_cli_play_scripted_tiny_game(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    lines = ["help", "log", "9", "foo", "add 9", "1", "ADD 2"]
    code, out = _play(
        ["test-tiny-sevens", "-p", "you,random", "--seed", "3", "--record", str(rec)], lines
    )
    assert code == 0, out
    assert "Your moves" in out and "Add 2 to the pile" in out
    assert "quit    stop; the game record is saved" in out  # help
    assert "Players, in seat order: You · Bot 1 (Easy: random)" in out
    assert "You are dealt card 3" in out  # log and live events: my own card only
    assert "Bot 1 is dealt" not in out  # the bot's card is private (TT-1)
    assert "You add 1" in out and "Bot 1 adds 2" in out  # names, and "you" for me
    assert "There is no move 9: type a number from 1 to 2." in out
    assert "'foo' is not a move here: not a tiny-sevens action" in out
    assert "'add 9' is not a move here" in out
    assert "Game over" in out and "winner" in out
    assert f"Game record saved: {rec}" in out.replace("\n", "")
    record = GameRecord.load(rec)
    # pile 0 -> 1 (me) -> 3 (bot) -> 5 (me) -> 7 (bot): I have card 3 + 2 adds, the bot 2 + 2
    assert record.actions == ["card 3", "card 2", "add 1", "add 2", "add 2", "add 2"]
    assert record.players == ["you", "random"]
    assert record.result == {"scores": [5.0, 4.0], "winners": [0]}
    assert record.meta["seed"] == 3 and record.meta["finished"] is True
    assert replay(record).is_terminal


def test_cli_play_against_a_search_bot(tmp_path: Path) -> None:
    # ISMCTS samples states from the view it is handed: the terminal's wrapper passes it intact.
    rec = tmp_path / "s.json"
    args = [NAME, "-p", "you,ismcts:iterations=30", "--seed", "1", "--record", str(rec)]
    code, out = _play(args, ["1"] * 10)
    assert code == 0, out
    record = GameRecord.load(rec)
    assert record.players == ["you", "ismcts:iterations=30"] and record.result is not None


def test_cli_play_log_shows_the_last_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import septet.cli_play

    monkeypatch.setattr(septet.cli_play, "LOG_LINES", 2)
    rec = tmp_path / "l.json"
    args = [NAME, "-p", "you,random", "--seed", "3", "--record", str(rec)]
    code, out = _play(args, ["1", "log", "log all", "2"])
    assert code == 0, out
    # Seen by seat 0 before its second move: its card and the two adds.
    assert "(`log all` shows 1 more from the start)\n  You add 1\n  Bot 1 adds 2" in out
    assert "  You are dealt card 3\n  You add 1\n  Bot 1 adds 2" in out


def test_cli_play_hot_seat_and_illegal_move(tmp_path: Path) -> None:
    rec = tmp_path / "hot.json"
    # Each turn of a new seat starts with a hand-over prompt (Enter).
    lines = ["", "1", "", "2", "", "0", "add 2", "1"]
    code, out = _play(
        [NAME, "-p", "you,you", "-o", "target=4", "--seed", "0", "--record", str(rec)], lines
    )
    assert code == 0, out
    assert "Player 2: your turn. Press Enter" in out
    assert "Player 2's turn" in out
    assert "You " not in out and "You:" not in out  # two people: nobody is "you"
    assert "Player 2 adds 2" in out
    assert "There is no move 0: type a number from 1 to 1." in out  # only add 1 left
    assert "Not allowed now: that would pass the target [TT-2]" in out  # pile 3 of 4
    record = GameRecord.load(rec)
    assert record.actions[2:] == ["add 1", "add 2", "add 1"]
    assert record.options["target"] == 4
    assert record.result is not None and record.result["winners"]


def test_cli_play_quit_and_end_of_input_save_the_record(tmp_path: Path) -> None:
    for lines in (["1", "quit"], ["1"]):  # `quit`, or the input simply ends
        rec = tmp_path / f"q{len(lines)}.json"
        code, out = _play([NAME, "-p", "you,random", "--seed", "3", "--record", str(rec)], lines)
        assert code == 0, out
        assert "Game stopped" in out
        record = GameRecord.load(rec)
        assert record.result is None and record.meta["finished"] is False
        assert record.actions == ["card 3", "card 2", "add 1", "add 2"]


def test_cli_play_record_folder_and_default_players(tmp_path: Path) -> None:
    code, out = _play([NAME, "--seed", "5", "--record", str(tmp_path), "--lang", "ja"], ["quit"])
    assert code == 0, out
    assert "ゲーム記録を保存しました" in out and "ゲーム中断" in out
    (saved,) = tmp_path.glob(f"{NAME}-*-5.json")
    record = GameRecord.load(saved)
    assert record.players == ["you", "random", "random"]  # 3 seats; no greedy bot for it


def test_cli_play_survives_engine_text_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.arena.tiny_game import TinySevens

    def broken(self: object, *args: object) -> str:
        raise KeyError("oops")

    monkeypatch.setattr(TinySevens, "describe_event", broken)
    monkeypatch.setattr(TinySevens, "render", broken)
    rec = tmp_path / "t.json"
    code, out = _play([NAME, "-p", "you,random", "--seed", "3", "--record", str(rec)], ["1", "2"])
    assert code == 0, out
    assert "add {'amount': 1} (text unavailable: KeyError: 'oops')" in out
    assert '"pile": 7' in out.replace("\n", "")  # the view as JSON instead of the table
    assert "Game over" in out and GameRecord.load(rec).result is not None


def test_cli_play_default_record_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEPTET_RECORDS_DIR", str(tmp_path / "recs"))
    code, out = _play([NAME, "-p", "random,random", "--seed", "8"], [])
    assert code == 0, out
    (saved,) = (tmp_path / "recs").glob(f"{NAME}-*-8.json")
    assert str(saved) in out.replace("\n", "")
    monkeypatch.delenv("SEPTET_RECORDS_DIR")
    from septet.cli_play import records_dir

    assert records_dir().name == "records" and "septet" in str(records_dir())


def test_cli_play_options_are_typed(tmp_path: Path) -> None:
    rec = tmp_path / "b.json"
    args = [NAME, "-p", "random,random", "-o", "bonus=yes", "-o", "style=fancy", "-o", "target=3"]
    code, out = _play([*args, "--seed", "1", "--record", str(rec)], [])
    assert code == 0, out
    assert "** TINY TABLE **" in out  # style=fancy reached the engine's render
    record = GameRecord.load(rec)
    assert record.options == {"target": 3, "bonus": True, "style": "fancy"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope"], "unknown game 'nope'"),
        ([NAME, "--lang", "fr"], "language must be one of en, ja"),
        ([NAME, "-o", "target=x"], "option target is a whole number, not 'x'"),
        ([NAME, "-o", "target=99"], "target must be an integer from 3 to 20"),
        ([NAME, "-o", "colour=red"], "has no option 'colour'"),
        ([NAME, "-o", "bonus"], "not of the form name=value"),
        ([NAME, "-o", "bonus=maybe"], "option bonus is true or false"),
        ([NAME, "-p", "you"], "played by 2 to 4 players, not 1"),
        ([NAME, "-p", "you,wizard"], "unknown agent 'wizard'"),
        ([NAME, "--seed", "-4"], "the seed must be 0 or more"),
    ],
)
def test_cli_play_bad_input_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", *args], input="")
    assert result.exit_code == 2, result.output
    assert message in result.output.replace("\n", "")
    assert "Traceback" not in result.output


def test_cli_replay_saved_record(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    _play([NAME, "-p", "you,random", "--seed", "3", "--record", str(rec)], ["1", "2"])
    result = runner.invoke(app, ["replay", str(rec), "--seat", "1"])
    assert result.exit_code == 0, result.output
    out = result.output
    # The start, the two deal steps together, then one frame per move: 1 + 1 + 4 frames.
    assert out.count("Tiny table") == 6
    assert "Move 2/6" in out and "Move 6/6" in out
    assert "Players, in seat order: Player 1 · Bot 1 (Easy: random)" in out
    assert "Bot 1 is dealt card 2" in out and "Player 1 is dealt" not in out  # seat 1's view
    assert "Bot 1: Add 2 to the pile" in out  # its own move, described
    assert "(you)" not in out and "P0" not in out and "P1" not in out
    mine = runner.invoke(app, ["replay", str(rec), "--seat", "0"]).output
    assert "You are dealt card 3" in mine and "You: Add 1 to the pile" in mine
    assert "winner" in out
    spectator = runner.invoke(app, ["replay", str(rec)]).output
    assert "dealt" not in spectator and "card ?" in spectator


def test_cli_replay_pauses_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import septet.cli_play

    rec = tmp_path / "g.json"
    _play([NAME, "-p", "you,random", "--seed", "3", "--record", str(rec)], ["1", "2"])
    monkeypatch.setattr(septet.cli_play, "_stdin_is_terminal", lambda: True)
    # next, back, next, next, quit: frames Start, Move 2, Start, Move 2, Move 3, then stop
    result = runner.invoke(app, ["replay", str(rec)], input="\nb\n\n\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Tiny table") == 5
    assert out.count("╭─ Start") == 2 and out.count("Move 2/6") == 2
    assert "Move 3/6" in out and "Move 4/6" not in out
    assert "[Enter] next · b back · q quit" in out
    # without pausing, every frame
    full = runner.invoke(app, ["replay", str(rec), "--no-pause"], input="")
    assert full.output.count("Tiny table") == 6


def test_cli_replay_bad_files(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"hello": 1}')
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    bad_move = tmp_path / "bad.json"
    data = GameRecord(NAME, {}, 2, ["a", "b"], ["card 1", "card 1", "add 1", "add 7"]).to_json()
    bad_move.write_text(json.dumps(data))
    wrong_game = tmp_path / "wrong.json"
    wrong_game.write_text(json.dumps(GameRecord("chess", {}, 2, [], []).to_json()))
    cases = [
        (foreign, "not a Septet game record"),
        (garbage, "not JSON"),
        (bad_move, "action 3 ('add 7') does not replay"),
        (wrong_game, "unknown game 'chess'"),
        (tmp_path / "missing.json", "cannot read"),
    ]
    for path, message in cases:
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 2, (path, result.output)
        assert message in result.output.replace("\n", ""), result.output
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(GameRecord(NAME, {}, 2, [], ["card 1"]).to_json()))
    result = runner.invoke(app, ["replay", str(ok), "--seat", "2"])
    assert result.exit_code == 2 and "--seat must be from 0 to 1" in result.output


def test_cli_rules() -> None:
    en = runner.invoke(app, ["rules", NAME])
    assert en.exit_code == 0 and "Tiny sevens" in en.output and "target" in en.output
    ja = runner.invoke(app, ["rules", NAME, "--lang", "ja"])
    assert ja.exit_code == 0 and "ちいさなセブンズ" in ja.output and "オプション" in ja.output
    assert runner.invoke(app, ["rules", "nope"]).exit_code == 2


REAL = ["double-seven", "flip7", "seven-shot"]


def _real_game(name: str) -> None:
    games.get(name)  # every engine is installed: a failure here is a broken engine


@pytest.mark.parametrize("name", REAL)
def test_cli_play_whole_real_game(name: str, tmp_path: Path) -> None:
    """A whole game through `septet play` input: a person always taking move 1 against random
    bots, with help, log and bad input along the way."""
    _real_game(name)
    game = games.get(name)
    n = max(game.min_players, 3) if game.max_players >= 3 else game.min_players
    rec = tmp_path / "game.json"
    lines = ["help", "log", "xyzzy", "999"] + ["1"] * 4000
    players = ",".join(["you"] + ["random"] * (n - 1))
    code, out = _play([name, "-p", players, "--seed", "2", "--record", str(rec)], lines)
    assert code == 0, out[-3000:]
    assert "Game over" in out, out[-3000:]
    # The engine's text never failed (the CLI would have shown a marker and gone on).
    failed = [ln for ln in out.splitlines() if TEXT_FAILED in ln]
    assert not failed, failed[:3]
    assert "There is no move 999" in out and "'xyzzy' is not a move here" in out
    record = GameRecord.load(rec)
    assert record.result is not None
    final = replay(record)
    assert final.is_terminal
    assert record.result["winners"] == list(final.winners())
    shown = runner.invoke(app, ["replay", str(rec), "--seat", "0", "--lang", "ja"])
    assert shown.exit_code == 0, shown.output[-2000:]
    assert TEXT_FAILED not in shown.output


@pytest.mark.parametrize("name", REAL)
def test_cli_rules_real_game(name: str) -> None:
    _real_game(name)
    for lang in ("en", "ja"):
        result = runner.invoke(app, ["rules", name, "--lang", lang])
        assert result.exit_code == 0, result.output
        assert len(result.output.strip()) > 200


def test_cli_replay_unknown_key_says_the_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import septet.cli_play

    rec = tmp_path / "g.json"
    _play([NAME, "-p", "you,random", "--seed", "3", "--record", str(rec)], ["1", "2"])
    monkeypatch.setattr(septet.cli_play, "_stdin_is_terminal", lambda: True)
    # "zzz" is not "next": the keys are said and the same frame waits; then next, quit
    result = runner.invoke(app, ["replay", str(rec)], input="zzz\n\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'zzz': press Enter for the next move, b to go back, q to quit." in out
    assert out.count("Tiny table") == 2 and "Move 3/6" not in out


def test_cli_play_hidden_bot_moves_are_said_once(tmp_path: Path) -> None:
    # SS-2.3: each bot passes 3 cards face down; the person sees one line per bot, not three,
    # and no "move you cannot see": the engine says publicly that the bot has chosen.
    _real_game("seven-shot")
    args = ["seven-shot", "-p", "greedy,greedy,you", "--seed", "1", "--record", str(tmp_path)]
    code, out = _play(args, ["quit"])
    assert code == 0, out
    assert out.count("Bot 1 has chosen 3 cards to pass") == 1
    assert out.count("Bot 2 has chosen 3 cards to pass") == 1
    assert "cannot see" not in out
    assert "Your turn" in out


def test_cli_seats_are_named_everywhere(tmp_path: Path) -> None:
    # The engines write seats P0, P1 ...; the terminal shows names in the table, the moves, the
    # log and the replay, never P0 or "seat 0".
    import re

    _real_game("flip7")
    rec = tmp_path / "f7.json"
    args = ["flip7", "-p", "you,normal", "--seed", "5", "--record", str(rec)]
    code, out = _play(args, ["1"] * 3)
    assert code == 0, out
    assert "Your turn" in out and "Bot 1 (Normal: greedy)" in out
    assert re.search(r"(?<![A-Za-z0-9])P\d|seat \d", out) is None, out
    assert GameRecord.load(rec).players == ["you", "greedy"]
    shown = runner.invoke(app, ["replay", str(rec), "--seat", "1"]).output
    assert "Player 1" in shown and re.search(r"(?<![A-Za-z0-9])P\d|seat \d", shown) is None
    named = _play([*args, "--names", "Ken,Robo"], ["quit"])[1]
    assert "Players, in seat order: Ken · Robo (Normal: greedy)" in named


def test_hot_seat_clear_also_erases_the_scrollback() -> None:
    import io

    from rich.console import Console

    from septet.cli_play import clear_with_scrollback

    terminal = io.StringIO()
    clear_with_scrollback(Console(file=terminal, force_terminal=True))
    assert terminal.getvalue() == "\x1b[2J\x1b[H\x1b[3J"
    piped = io.StringIO()
    clear_with_scrollback(Console(file=piped, force_terminal=False))
    assert piped.getvalue() == ""


def test_japanese_cli_texts_use_card_game_words() -> None:
    # Septet's games are card and tile games: no shogi words (指す, 棋譜) in the Japanese CLI.
    from septet.cli_play import _T

    ja = "\n".join(_T["ja"].values())
    assert "指" not in ja and "棋譜" not in ja
    assert _T["ja"]["moves"] == "選べる手" and "ゲーム記録" in _T["ja"]["saved"]


@pytest.mark.parametrize("name", REAL)
def test_cli_rules_in_japanese_wraps_without_a_lone_full_stop(name: str) -> None:
    # Rich folds Japanese at any character; `septet rules --lang ja` keeps 。、） and ー off the
    # start of a line by taking the character before along.
    _real_game(name)
    result = runner.invoke(app, ["rules", name, "--lang", "ja"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    starts = [line.lstrip()[:1] for line in result.output.splitlines() if line.strip()]
    assert not [c for c in starts if c in "。、）」ー"], result.output


def test_print_japanese_moves_the_character_before_down() -> None:
    import io

    from rich.console import Console
    from rich.text import Text

    from septet.cli_play import print_japanese

    out = io.StringIO()
    print_japanese(Console(file=out, width=10), Text("あいうえお。"))
    assert [line.rstrip() for line in out.getvalue().splitlines()] == ["あいうえ", "お。"]


def test_play_checks_the_record_path_before_the_game(tmp_path):
    from typer.testing import CliRunner

    from septet.cli import app

    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(
        app,
        ["play", "flip7", "--players", "greedy,greedy", "--record", str(blocker / "g.json")],
        input="",
    )
    assert result.exit_code == 2
    assert "cannot save the record to" in result.output
    assert "P0" not in result.output  # no game was played
