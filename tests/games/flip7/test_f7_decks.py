"""The Flip 7 option ``decks`` (F7V-1.5, issue 25): ``auto`` plays one deck up to 17 players and
two from 18 (the source: 「18人以上でプレイする場合は、2つ目のデッキを使うことをおすすめします」);
1 or 2 fix the count; records stored before the option keep the decks they were played with."""

from __future__ import annotations

import pytest
from f7_helpers import play

from septet.bots import make_agent
from septet.core.errors import OptionError, ScoreError
from septet.core.play import play_game
from septet.core.record import GameRecord, replay
from septet.games import get
from septet.games.flip7 import cards as C
from septet.games.flip7.scoring import RowEntry, score_round


def _deck(state) -> int:
    play(state, "dealer 0")
    return int(state.view(None)["deck_size"])


@pytest.mark.parametrize(("edition", "one"), [("vengeance", 108), ("classic", 94)])
def test_auto_is_one_deck_to_17_players_and_two_from_18(edition: str, one: int) -> None:
    # F7V-1.5: auto (the default)
    game = get("flip7", edition=edition)
    assert game.options.decks == "auto"
    assert one == sum(C.vengeance_deck() if edition == "vengeance" else C.classic_deck())
    assert [game.num_decks(n) for n in (2, 17, 18, 36)] == [1, 1, 2, 2]
    assert _deck(game.new_state(17)) == one
    assert _deck(game.new_state(18)) == 2 * one  # 94 * 2 = 188 classic, 108 * 2 = 216


def test_explicit_decks_override_the_table_size() -> None:
    # F7V-1.5: decks=1 at 18 players, decks=2 at 3 players
    one = get("flip7", decks=1)
    assert one.num_decks(18) == 1 and _deck(one.new_state(18)) == 108
    assert _deck(get("flip7", edition="classic", decks=1).new_state(36)) == 94
    two = get("flip7", decks="2")  # a CLI or form value
    assert two.options.decks == 2 and _deck(two.new_state(3)) == 216
    for bad in (0, 3, True, "two"):
        with pytest.raises(OptionError):
            get("flip7", decks=bad)


def test_two_zeros_in_a_round_only_with_two_decks() -> None:
    # F7V-1.5: with two decks every card exists twice; F7V-3.6: no card more often than the
    # decks hold it. 18 players, two rows each with the Zero: possible with auto (two decks),
    # impossible with decks=1.
    rows = [RowEntry(("zero", "5")), RowEntry(("zero", "6"))] + [RowEntry((), True)] * 16
    decks = get("flip7").num_decks(18)
    assert decks == 2 and score_round(rows, edition="vengeance", decks=decks).scores[:2] == (0, 0)
    with pytest.raises(ScoreError) as err:
        score_round(rows, edition="vengeance", decks=get("flip7", decks=1).num_decks(18))
    assert err.value.rule == "F7V-3.6"
    # both Zeros in one row: a duplicate, the row busts (two decks only)
    both = score_round(
        [RowEntry(("zero", "zero", "5")), RowEntry(("8",))], edition="vengeance", decks=2
    )
    assert both.rows[0].busted and both.scores == (0, 8)


def test_old_records_at_18_players_keep_one_deck() -> None:
    # F7V-1.5: before the option (issue 25) Septet played one deck at 18 players: a record
    # without the option replays with one deck (Game.recorded_options); a new game has two.
    game = get("flip7", decks=1, target=20)
    result = play_game(game, [make_agent("random", game) for _ in range(18)], 3)
    data = result.record.to_json()
    assert data["options"]["decks"] == 1
    del data["options"]["decks"]
    record = GameRecord.from_json(data)
    assert record.options["decks"] == 1
    state = replay(record)
    assert state.game.num_decks(18) == 1 and state.is_terminal
    assert state.scores() == result.scores
    data["num_players"] = 17  # at other sizes "auto" gives what the old engine gave
    assert GameRecord.from_json(data).options["decks"] == "auto"
    assert _deck(get("flip7", target=20).new_state(18)) == 216


def test_the_rules_summary_says_the_decks_of_the_table() -> None:
    # F7V-1.5: the summary follows the option, in both languages
    from septet.games.flip7.text import rules_text

    assert "18 or more play with two decks" in rules_text(get("flip7"))
    assert "18人以上は2デッキで遊ぶ" in rules_text(get("flip7"), "ja")
    assert "one deck at any size" in rules_text(get("flip7", decks=1))
    assert "人数によらず2デッキ" in rules_text(get("flip7", decks=2), "ja")
